//! Live updates on a real server (`croupier_server::serve`, real PostgreSQL, reqwest reading
//! the event streams): results written as the worker writes them reach an open competition
//! stream as `match`, `progress` and `board` events and a match's stream as `status` events,
//! with nothing but ids, statuses and counts in them; bursts are coalesced; the listener comes
//! back after its database connection is killed; and the fragments the page swaps in.

use std::collections::BTreeSet;

use serde_json::Value;
use sqlx::PgPool;
use uuid::Uuid;

use super::{finish, schedule, set_status, won_by, FirstMatch, League};
use crate::helpers::served::{Sent, Served};

/// The data keys each event may carry: public facts only.
fn allowed(name: &str) -> &'static [&'static str] {
    match name {
        "progress" => &[
            "queued",
            "running",
            "finished",
            "failed",
            "cancelled",
            "total",
            "status",
            "label",
        ],
        "match" | "status" => &["match_id", "status"],
        "board" => &[],
        other => panic!("unexpected event {other}"),
    }
}

/// Fails when an event carries anything but its public fields, or names a bot or a team.
fn assert_public(events: &[Sent], league: &League, first: &FirstMatch) {
    for e in events {
        let keys: BTreeSet<&str> = e
            .data
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect();
        let extra: Vec<&&str> = keys
            .iter()
            .filter(|k| !allowed(&e.name).contains(k))
            .collect();
        assert!(extra.is_empty(), "{} carries {extra:?}: {}", e.name, e.raw);
        for entrant in &league.entrants {
            for secret in [entrant.team.to_owned(), entrant.submission_id.to_string()] {
                assert!(
                    !e.raw.contains(&secret),
                    "{} names {secret}: {}",
                    e.name,
                    e.raw
                );
            }
        }
        for player in &first.players {
            assert!(
                !e.raw.contains(player.as_str()),
                "{} names {player}",
                e.name
            );
        }
    }
}

fn last<'a>(events: &'a [Sent], name: &str) -> &'a Value {
    &events
        .iter()
        .rev()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("no {name} event in {events:#?}"))
        .data
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_competition_stream_sends_match_progress_and_board_events_as_a_result_lands(
    pool: PgPool,
) {
    // Arrange: a one-round competition of three bots, its page's stream open
    let mut league = League::with_teams(&pool, 3).await;
    let first = league.first_match(&pool).await;
    let c = first.competition_id;
    let served = Served::start(&pool).await;
    let mut stream = served.events(&format!("/competitions/{c}/events")).await;
    let opening = stream.next().await.expect("the first event");

    // Act: the match starts, then finishes as the worker writes it
    set_status(&pool, first.match_id, "running", "running").await;
    let running = stream.until("progress", |p| p["running"] == 1).await;
    finish(&pool, first.match_id, &won_by(first.seats.len(), 0), None).await;
    let finished = stream.until("board", |_| true).await;

    // Assert: the counts at once, then the match's statuses, the counts and a board event
    assert_eq!(opening.name, "progress");
    assert_eq!(opening.data["finished"], 0);
    assert_eq!(opening.data["queued"], opening.data["total"]);
    let id = first.match_id.to_string();
    assert_eq!(last(&running, "match")["match_id"], id.as_str());
    assert_eq!(last(&running, "match")["status"], "running");
    assert_eq!(last(&finished, "match")["status"], "finished");
    let progress = last(&finished, "progress");
    assert_eq!(progress["finished"], 1);
    assert_eq!(progress["running"], 0);
    assert!(
        progress["label"].as_str().unwrap().starts_with("1 of"),
        "{progress}"
    );
    let mut all = vec![opening];
    all.extend(running);
    all.extend(finished);
    assert_public(&all, &league, &first);
    served.stop().await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn many_results_at_once_make_few_board_events_not_one_each(pool: PgPool) {
    // Arrange: a two-round competition (six matches) and its open stream
    let mut league = League::with_teams(&pool, 3).await;
    let c = league.create("2").await;
    let matches = schedule(&pool, c).await;
    let served = Served::start(&pool).await;
    let mut stream = served.events(&format!("/competitions/{c}/events")).await;
    stream.next().await.expect("the first counts");

    // Act: every match finishes in one transaction
    let mut tx = pool.begin().await.expect("transaction");
    for (match_id, seats) in &matches {
        for (seat, (rank, score, end)) in won_by(seats.len(), 0).into_iter().enumerate() {
            sqlx::query(
                "insert into seat_result (match_id, seat, rank, score, end_state) values ($1, $2, $3, $4, $5)",
            )
            .bind(match_id)
            .bind(i32::try_from(seat).unwrap())
            .bind(rank)
            .bind(score)
            .bind(end)
            .execute(&mut *tx)
            .await
            .expect("seat result");
        }
        sqlx::query(
            "update match set status = 'finished', finished_at = now() where match_id = $1",
        )
        .bind(match_id)
        .execute(&mut *tx)
        .await
        .expect("finished");
    }
    tx.commit().await.expect("commit");
    let total = i64::try_from(matches.len()).unwrap();
    let events = stream.until("progress", |p| p["finished"] == total).await;
    let events = [events, stream.until("board", |_| true).await].concat();

    // Assert: every match's status came, each once, and far fewer board refreshes than results
    let finished: BTreeSet<&str> = events
        .iter()
        .filter(|e| e.name == "match" && e.data["status"] == "finished")
        .filter_map(|e| e.data["match_id"].as_str())
        .collect();
    assert_eq!(finished.len(), matches.len(), "{events:#?}");
    let boards = events.iter().filter(|e| e.name == "board").count();
    assert!(
        (1..=2).contains(&boards),
        "{boards} board events for {} results: {events:#?}",
        matches.len()
    );
    served.stop().await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_match_stream_sends_its_status_changes_and_ends_with_the_match(pool: PgPool) {
    // Arrange: the first match of a two-round competition, its page's stream open
    let mut league = League::with_teams(&pool, 3).await;
    let c = league.create("2").await;
    let matches = schedule(&pool, c).await;
    let (match_id, seats) = &matches[0];
    let (other, other_seats) = &matches[1];
    let served = Served::start(&pool).await;
    let mut stream = served.events(&format!("/matches/{match_id}/events")).await;
    let opening = stream.next().await.expect("the first status");

    // Act: another match finishes, then this one runs and finishes
    set_status(&pool, *other, "running", "running").await;
    finish(&pool, *other, &won_by(other_seats.len(), 0), None).await;
    set_status(&pool, *match_id, "running", "running").await;
    let running = stream.next().await.expect("running");
    finish(&pool, *match_id, &won_by(seats.len(), 0), None).await;
    let finished = stream.next().await.expect("finished");
    let after = stream.next().await;

    // Assert: only this match's statuses, then the end of the stream
    let id = match_id.to_string();
    for (event, status) in [
        (&opening, "queued"),
        (&running, "running"),
        (&finished, "finished"),
    ] {
        assert_eq!(event.name, "status");
        assert_eq!(event.data["match_id"], id.as_str(), "{event:?}");
        assert_eq!(event.data["status"], status, "{event:?}");
        let keys: Vec<&String> = event.data.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["match_id", "status"], "only public facts");
    }
    assert_eq!(after, None, "the stream ends after the match");
    served.stop().await;
}

/// The backend process of the server's `LISTEN` connection.
async fn listener_pid(pool: &PgPool) -> Option<i32> {
    sqlx::query_scalar(
        "select pid from pg_stat_activity
         where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()",
    )
    .fetch_optional(pool)
    .await
    .expect("pg_stat_activity")
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_listener_listens_again_after_its_connection_is_killed_and_streams_resync(
    pool: PgPool,
) {
    // Arrange: an open stream, and the listener's backend
    let mut league = League::with_teams(&pool, 3).await;
    let first = league.first_match(&pool).await;
    let c = first.competition_id;
    let served = Served::start(&pool).await;
    let mut stream = served.events(&format!("/competitions/{c}/events")).await;
    stream.next().await.expect("the first counts");
    let pid = listener_pid(&pool).await.expect("the server listens");

    // Act: the connection is killed (as a database restart does), then a result lands
    sqlx::query("select pg_terminate_backend($1)")
        .bind(pid)
        .execute(&pool)
        .await
        .expect("terminate");
    let resync = stream.until("board", |_| true).await;
    finish(&pool, first.match_id, &won_by(first.seats.len(), 0), None).await;
    let landed = stream.until("match", |m| m["status"] == "finished").await;

    // Assert: the stream resynced (fresh counts, a board refresh), and hears changes again on a
    // new connection
    assert_eq!(last(&resync, "progress")["finished"], 0);
    assert_eq!(
        last(&landed, "match")["match_id"],
        first.match_id.to_string().as_str()
    );
    let again = listener_pid(&pool).await.expect("the server listens again");
    assert_ne!(again, pid, "a new connection");
    served.stop().await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn event_streams_are_not_compressed_and_unknown_ids_are_not_found(pool: PgPool) {
    // Arrange
    let mut league = League::with_teams(&pool, 3).await;
    let first = league.first_match(&pool).await;
    let served = Served::start(&pool).await;
    let client = reqwest::Client::new();
    let get = |path: String| {
        client
            .get(format!("{}{path}", served.base))
            .header("accept-encoding", "gzip")
            .send()
    };

    // Act
    let stream = get(format!("/competitions/{}/events", first.competition_id))
        .await
        .expect("stream");
    let page = get(format!("/competitions/{}", first.competition_id))
        .await
        .expect("page");
    let unknown = get(format!("/competitions/{}/events", Uuid::new_v4()))
        .await
        .expect("unknown");
    let no_match = get(format!("/matches/{}/events", Uuid::new_v4()))
        .await
        .expect("unknown match");

    // Assert: the stream is plain text/event-stream (gzip would hold events back), the page
    // is compressed as before; unknown ids are the 404 page
    assert_eq!(stream.status(), 200);
    assert_eq!(stream.headers()["content-type"], "text/event-stream");
    assert!(stream.headers().get("content-encoding").is_none());
    assert_eq!(page.headers()["content-encoding"], "gzip");
    assert_eq!(unknown.status(), 404);
    assert_eq!(no_match.status(), 404);
    drop(stream);
    served.stop().await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_board_and_match_list_fragments_are_the_page_parts_alone(pool: PgPool) {
    // Arrange: a finished first match
    let mut league = League::with_teams(&pool, 3).await;
    let first = league.first_match(&pool).await;
    let c = first.competition_id;
    finish(&pool, first.match_id, &won_by(first.seats.len(), 0), None).await;
    let visitor = league.admin.new_visitor();
    let mut visitor = visitor;

    // Act
    let board = visitor
        .get(&format!("/competitions/{c}?fragment=board"))
        .await;
    let list = visitor
        .get(&format!("/competitions/{c}?fragment=matches&page=1"))
        .await;
    let page = visitor.get(&format!("/competitions/{c}")).await;
    let bad = visitor
        .get(&format!("/competitions/{c}?fragment=hands"))
        .await;

    // Assert: just the table, just the list; the page has both and the live hooks
    board.assert_status(axum::http::StatusCode::OK);
    assert!(!board.body.contains("<html") && board.body.contains("<table class=\"board\""));
    assert!(
        board.body.contains("From 1 finished match"),
        "{}",
        board.body
    );
    assert!(
        !list.body.contains("<html")
            && list
                .body
                .contains(&format!("data-match=\"{}\"", first.match_id))
    );
    assert!(
        list.body.contains("data-live=\"match-status\">finished"),
        "{}",
        list.body
    );
    for hook in [
        format!("data-events=\"/competitions/{c}/events\""),
        "aria-live=\"polite\"".to_owned(),
        "/static/live.js".to_owned(),
        "data-live=\"board\"".to_owned(),
        "<noscript>".to_owned(),
    ] {
        assert!(page.body.contains(&hook), "the page has {hook}");
    }
    bad.assert_status(axum::http::StatusCode::BAD_REQUEST);
}

/// The API's leaderboard, read over HTTP from the served app.
async fn api_board(served: &Served, c: Uuid) -> Value {
    let url = format!("{}/api/v1/competitions/{c}/leaderboard", served.base);
    let reply = reqwest::get(&url).await.expect("a response");
    assert!(reply.status().is_success(), "{}", reply.status());
    reply.json().await.expect("JSON")
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_kept_board_is_served_until_a_match_of_its_competition_changes(pool: PgPool) {
    // Arrange: a served competition whose board has been read once (and so is kept)
    let mut league = League::with_teams(&pool, 3).await;
    let first = league.first_match(&pool).await;
    let c = first.competition_id;
    let served = Served::start(&pool).await;
    let mut stream = served.events(&format!("/competitions/{c}/events")).await;
    stream.next().await.expect("the listener listens");
    let before = api_board(&served, c).await;

    // Act: a team is renamed behind the server's back (no match changes: no notification)
    sqlx::query("update team set name = 'Renamed owls' where name = 'Owls'")
        .execute(&pool)
        .await
        .expect("renamed");
    let kept = api_board(&served, c).await;

    // Assert: the kept board is served as it was
    assert_eq!(kept, before, "read again without a query");

    // Act: the first match finishes, as the worker writes it
    finish(&pool, first.match_id, &won_by(first.seats.len(), 0), None).await;
    stream.until("board", |_| true).await;
    let after = api_board(&served, c).await;

    // Assert: by the time the page hears of it, the board is built afresh: the result and
    // the new name are there
    assert_eq!(after["competition"]["progress"]["finished"], 1, "{after:#}");
    assert!(after.to_string().contains("Renamed owls"), "{after:#}");
    assert!(!after.to_string().contains("\"Owls\""), "{after:#}");
    served.stop().await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn visitors_get_the_kept_page_gzipped_or_plain_and_signed_in_people_their_own(pool: PgPool) {
    use std::io::Read;

    // Arrange: a served competition with a result on its board
    let mut league = League::with_teams(&pool, 3).await;
    let first = league.first_match(&pool).await;
    let c = first.competition_id;
    finish(&pool, first.match_id, &won_by(first.seats.len(), 0), None).await;
    let served = Served::start(&pool).await;
    let mut stream = served.events(&format!("/competitions/{c}/events")).await;
    stream.next().await.expect("the listener listens");
    let url = format!("{}/competitions/{c}/leaderboard", served.base);
    let visitor = reqwest::Client::new();

    // Act: a browser-like visitor (gzip), a plain one, and alice signed in
    let zipped = visitor
        .get(&url)
        .header("accept-encoding", "gzip")
        .send()
        .await
        .expect("a response");
    let encoding = zipped.headers().get("content-encoding").cloned();
    let bytes = zipped.bytes().await.expect("a body");
    let mut unzipped = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut unzipped)
        .expect("gzip");
    let plain = visitor.get(&url).send().await.expect("a response");
    assert!(plain.headers().get("content-encoding").is_none());
    let plain = plain.text().await.expect("a body");
    let alice = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("a client");
    let login = alice
        .get(format!("{}/login", served.base))
        .send()
        .await
        .expect("login page");
    let csrf = crate::helpers::csrf_in(&login.text().await.expect("a body"));
    let fields = [
        ("csrf", csrf.as_str()),
        ("username", "alice"),
        ("password", crate::helpers::PASSWORD),
    ];
    alice
        .post(format!("{}/login", served.base))
        .form(&fields)
        .send()
        .await
        .expect("logged in");
    let own = alice
        .get(&url)
        .send()
        .await
        .expect("a response")
        .text()
        .await
        .expect("a body");

    // Assert: the same page, gzipped for the browser; alice's shows her name, no visitor's does
    assert_eq!(encoding.as_ref().map(|v| v.to_str().unwrap()), Some("gzip"));
    assert!(
        bytes.len() * 3 < unzipped.len(),
        "compressed: {} bytes",
        bytes.len()
    );
    assert_eq!(unzipped, plain);
    assert!(
        plain.contains("From 1 finished match") || plain.contains("Owls"),
        "{plain}"
    );
    assert!(!plain.contains("alice"), "a visitor's page names nobody");
    assert!(own.contains("alice"), "a signed-in page is her own");
    served.stop().await;
}
