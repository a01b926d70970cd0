//! Matches over the API: lists by competition, submission and team (paged, newest first), one
//! match's record, its replay as a download once finished, and a seat's log for its team only.

use axum::http::{header, Method, StatusCode};
use serde_json::{json, Value};
use sqlx::PgPool;
use uuid::Uuid;

use super::{attach_blob, cancel_the_rest, finish, schedule, set_status, League};
use crate::helpers::{Reply, TestApp, PASSWORD};

/// A token for `username` (signed up with [`PASSWORD`]).
async fn token(app: &TestApp, username: &str) -> String {
    let login = json!({ "username": username, "password": PASSWORD });
    let reply = app
        .api(Method::POST, "/api/v1/tokens", None, Some(login))
        .await;
    reply.assert_status(StatusCode::CREATED);
    reply.json["token"].as_str().expect("token").to_owned()
}

/// A small replay document of the worker's format 1.
fn replay_doc(players: &[String]) -> Value {
    json!({
        "format": 1,
        "players": players,
        "games": [{
            "replay": { "game": "nothanks", "rules": "boardcoder", "settings": {}, "seed": 7,
                        "entries": [], "outcome": null },
            "outcome": null
        }],
        "transcript": [],
        "transcript_truncated": false,
        "wall_ms": 3
    })
}

/// A league of three, a competition of two rounds; its matches (schedule order) with seats.
async fn two_rounds(pool: &PgPool) -> (League, Uuid, Vec<(Uuid, Vec<Uuid>)>) {
    let mut league = League::with_teams(pool, 3).await;
    let competition_id = league.create("2").await;
    let matches = schedule(pool, competition_id).await;
    assert!(matches.len() >= 2, "two rounds make at least two matches");
    (league, competition_id, matches)
}

/// The seat `submission` sat in.
fn seat_of(seats: &[Uuid], submission: Uuid) -> usize {
    seats.iter().position(|s| *s == submission).expect("seated")
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_competitions_matches_are_listed_newest_first_and_paged_without_a_token(pool: PgPool) {
    // Arrange
    let (league, competition_id, matches) = two_rounds(&pool).await;
    let (first, seats) = &matches[0];
    let results = [(1, 30.0, "ok"), (2, 20.0, "ok"), (3, 10.0, "crashed")];
    finish(&pool, *first, &results, None).await;

    // Act
    let all = league
        .admin
        .api(
            Method::GET,
            &format!("/api/v1/matches?competition={competition_id}&per_page=100"),
            None,
            None,
        )
        .await;
    let paged = league
        .admin
        .api(
            Method::GET,
            &format!("/api/v1/matches?competition={competition_id}&per_page=1&page=2"),
            None,
            None,
        )
        .await;

    // Assert: every match, the last scheduled first
    all.assert_status(StatusCode::OK);
    assert_eq!(all.json["total"], matches.len());
    let listed: Vec<&str> = all.json["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .map(|m| m["match_id"].as_str().expect("id"))
        .collect();
    let mut newest_first: Vec<String> = matches.iter().map(|(id, _)| id.to_string()).collect();
    newest_first.reverse();
    assert_eq!(listed, newest_first);

    // Assert: the finished match carries its seats' outcome and links
    let played = all.json["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["match_id"] == first.to_string())
        .expect("the finished match");
    assert_eq!(played["status"], "finished");
    assert_eq!(played["link"], format!("/matches/{first}"));
    assert_eq!(played["replay"], format!("/api/v1/matches/{first}/replay"));
    let seat2 = &played["seats"][2];
    assert_eq!(seat2["submission_id"], seats[2].to_string());
    assert_eq!(seat2["team_name"], league.team_of(seats[2]));
    assert_eq!(seat2["version"], 1);
    assert_eq!(
        (&seat2["rank"], &seat2["score"], &seat2["end_state"]),
        (&json!(3), &json!(10.0), &json!("crashed"))
    );

    // Assert: page 2 of size 1 is the second newest
    paged.assert_status(StatusCode::OK);
    assert_eq!(
        (&paged.json["page"], &paged.json["per_page"]),
        (&json!(2), &json!(1))
    );
    assert_eq!(paged.json["matches"].as_array().map(Vec::len), Some(1));
    assert_eq!(paged.json["matches"][0]["match_id"], newest_first[1]);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_submissions_matches_filter_by_its_result_and_a_teams_by_its_submissions(pool: PgPool) {
    // Arrange: Owls win the first match and crash in the second
    let (league, _, matches) = two_rounds(&pool).await;
    let owls = league.entrants[0].submission_id;
    let ranks = |seats: &[Uuid], owls_rank: i32, owls_end: &'static str| {
        let owls_seat = seat_of(seats, owls);
        let mut other = 1;
        (0..seats.len())
            .map(|seat| {
                if seat == owls_seat {
                    (owls_rank, 0.0, owls_end)
                } else {
                    other += 1;
                    (if owls_rank == 1 { other } else { other - 1 }, 1.0, "ok")
                }
            })
            .collect::<Vec<_>>()
    };
    let won = ranks(&matches[0].1, 1, "ok");
    let crashed = ranks(&matches[1].1, 3, "crashed");
    finish(&pool, matches[0].0, &won, None).await;
    finish(&pool, matches[1].0, &crashed, None).await;
    let app = &league.admin;
    let ids = |reply: &Reply| -> Vec<String> {
        reply.json["matches"]
            .as_array()
            .unwrap_or_else(|| panic!("no matches in {}", reply.raw))
            .iter()
            .map(|m| m["match_id"].as_str().unwrap().to_owned())
            .collect()
    };
    let get = |query: String| async move {
        app.api(Method::GET, &format!("/api/v1/matches?{query}"), None, None)
            .await
    };

    // Act
    let wins = get(format!("submission={owls}&result=wins")).await;
    let losses = get(format!("submission={owls}&result=losses")).await;
    let faults = get(format!("submission={owls}&result=faults")).await;
    let all = get(format!("submission={owls}&per_page=100")).await;
    let team = get(format!("team={}&per_page=100", league.entrants[0].team_id)).await;

    // Assert
    assert_eq!(ids(&wins), [matches[0].0.to_string()]);
    assert_eq!(ids(&losses), [matches[1].0.to_string()]);
    assert_eq!(ids(&faults), [matches[1].0.to_string()]);
    assert_eq!(all.json["total"], matches.len());
    assert_eq!(ids(&team), ids(&all));
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn listing_matches_needs_a_filter_and_a_sane_page(pool: PgPool) {
    let app = TestApp::new(pool);
    let cases = [
        ("/api/v1/matches", "say whose matches"),
        ("/api/v1/matches?page=2", "say whose matches"),
        (
            &*format!("/api/v1/matches?team={}&page=0", Uuid::new_v4()),
            "page counts from 1",
        ),
        (
            &*format!("/api/v1/matches?team={}&per_page=101", Uuid::new_v4()),
            "per_page is 1 to 100",
        ),
        (
            &*format!("/api/v1/matches?team={}&result=wins", Uuid::new_v4()),
            "give submission=ID",
        ),
        (
            "/api/v1/matches?competition=nope",
            "the query string is not valid",
        ),
    ];
    for (path, says) in cases {
        // Act
        let reply = app.api(Method::GET, path, None, None).await;

        // Assert
        reply.assert_error(StatusCode::BAD_REQUEST, says);
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn one_match_is_its_game_rules_seed_competition_seats_and_faults(pool: PgPool) {
    // Arrange
    let (league, competition_id, matches) = two_rounds(&pool).await;
    let (id, seats) = &matches[0];
    finish(
        &pool,
        *id,
        &[(1, 3.0, "ok"), (2, 2.0, "time_limit"), (3, 1.0, "crashed")],
        None,
    )
    .await;
    let seed: i64 = sqlx::query_scalar("select seed from match where match_id = $1")
        .bind(id)
        .fetch_one(&pool)
        .await
        .unwrap();

    // Act: while the rest of the competition is still to play, and once it is not
    let reply = league
        .admin
        .api(Method::GET, &format!("/api/v1/matches/{id}"), None, None)
        .await;
    cancel_the_rest(&pool, competition_id, *id).await;
    let later = league
        .admin
        .api(Method::GET, &format!("/api/v1/matches/{id}"), None, None)
        .await;
    let unknown = league
        .admin
        .api(
            Method::GET,
            &format!("/api/v1/matches/{}", Uuid::new_v4()),
            None,
            None,
        )
        .await;

    // Assert
    reply.assert_status(StatusCode::OK);
    let m = &reply.json["match"];
    assert_eq!(
        (&m["game"], &m["rules"]),
        (&json!("nothanks"), &json!("boardcoder"))
    );
    assert!(
        m["seed"].is_null(),
        "the seed of a competition still playing: {m}"
    );
    let seed = u64::from_ne_bytes(seed.to_ne_bytes());
    assert_eq!(later.json["match"]["seed"], seed, "{}", later.raw);
    assert_eq!(
        m["competition"]["competition_id"],
        competition_id.to_string()
    );
    assert_eq!(m["competition"]["name"], "Spring cup");
    assert_eq!(m["faults"], 2);
    assert_eq!(m["seats"].as_array().map(Vec::len), Some(seats.len()));
    assert_eq!(m["seats"][1]["end_state"], "time_limit");
    assert!(
        m["seats"][0].get("timings").is_none(),
        "private data in a public record"
    );
    unknown.assert_status(StatusCode::NOT_FOUND);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_replay_is_a_download_once_the_match_has_finished_and_a_409_before(pool: PgPool) {
    // Arrange
    let (league, competition_id, matches) = two_rounds(&pool).await;
    let (done, seats) = &matches[0];
    // the next round's (another seed); the rest of the schedule is cancelled
    let (running, _) = matches.last().expect("matches");
    cancel_the_rest(&pool, competition_id, *running).await;
    let players: Vec<String> = seats
        .iter()
        .map(|s| format!("{}-v1", league.team_of(*s)))
        .collect();
    let doc = replay_doc(&players);
    finish(
        &pool,
        *done,
        &[(1, 3.0, "ok"), (2, 2.0, "ok"), (3, 1.0, "ok")],
        Some(&doc),
    )
    .await;
    set_status(&pool, *running, "running", "running").await;
    let app = &league.admin;

    // Act
    let replay = app
        .api(
            Method::GET,
            &format!("/api/v1/matches/{done}/replay"),
            None,
            None,
        )
        .await;
    let early = app
        .api(
            Method::GET,
            &format!("/api/v1/matches/{running}/replay"),
            None,
            None,
        )
        .await;

    // Assert: the stored document, bit for bit, as an attachment
    replay.assert_status(StatusCode::OK);
    // the document as stored, its seed hidden while the competition plays on
    let mut hidden = doc.clone();
    hidden["games"][0]["replay"]["seed"] = Value::Null;
    assert_eq!(replay.bytes, serde_json::to_vec(&hidden).unwrap());
    assert_eq!(replay.headers[header::CONTENT_TYPE], "application/json");
    assert_eq!(
        replay.headers[header::CONTENT_DISPOSITION],
        format!("attachment; filename=\"match-{done}.json\"").as_str()
    );
    early.assert_error(StatusCode::CONFLICT, "the match is running");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_seats_log_is_for_its_team_and_admins_and_a_404_for_anyone_else(pool: PgPool) {
    // Arrange
    let (league, competition_id, matches) = two_rounds(&pool).await;
    let (id, seats) = &matches[0];
    cancel_the_rest(&pool, competition_id, *id).await;
    finish(
        &pool,
        *id,
        &[(1, 3.0, "ok"), (2, 2.0, "ok"), (3, 1.0, "ok")],
        None,
    )
    .await;
    let owls_seat = seat_of(seats, league.entrants[0].submission_id);
    let stderr = b"owls: thinking hard".as_slice();
    attach_blob(&pool, *id, owls_seat, "stderr_sha256", stderr).await;
    sqlx::query("update seat_result set end_detail = 'slow' where match_id = $1 and seat = $2")
        .bind(id)
        .bind(i32::try_from(owls_seat).unwrap())
        .execute(&pool)
        .await
        .unwrap();
    let app = &league.admin;
    let alice = token(app, "alice").await;
    let bob = token(app, "bob").await;
    let root = token(app, "root").await;
    let path = format!("/api/v1/matches/{id}/seats/{owls_seat}/log");

    // Act
    let owner = app.api(Method::GET, &path, Some(&alice), None).await;
    let other = app.api(Method::GET, &path, Some(&bob), None).await;
    let admin = app.api(Method::GET, &path, Some(&root), None).await;
    let anonymous = app.api(Method::GET, &path, None, None).await;
    let no_seat = app
        .api(
            Method::GET,
            &format!("/api/v1/matches/{id}/seats/9/log"),
            Some(&root),
            None,
        )
        .await;

    // Assert
    owner.assert_status(StatusCode::OK);
    assert_eq!(owner.json["stderr"], "owls: thinking hard");
    assert_eq!(owner.json["end_detail"], "slow");
    assert_eq!(owner.json["timings"], json!([5, 9, 7]));
    assert_eq!(admin.json["stderr"], "owls: thinking hard");
    other.assert_error(StatusCode::NOT_FOUND, "not found");
    assert!(!other.raw.contains("thinking"));
    anonymous.assert_status(StatusCode::UNAUTHORIZED);
    no_seat.assert_status(StatusCode::NOT_FOUND);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_match_page_links_the_same_downloads_with_the_same_rules(pool: PgPool) {
    // Arrange: a finished match with Owls' stderr, and a running one
    let (mut league, competition_id, matches) = two_rounds(&pool).await;
    let (done, seats) = &matches[0];
    // the next round's (another seed); the rest of the schedule is cancelled
    let (running, _) = matches.last().expect("matches");
    cancel_the_rest(&pool, competition_id, *running).await;
    let players: Vec<String> = seats
        .iter()
        .map(|s| format!("{}-v1", league.team_of(*s)))
        .collect();
    let doc = replay_doc(&players);
    let results = [(1, 3.0, "ok"), (2, 2.0, "ok"), (3, 1.0, "crashed")];
    finish(&pool, *done, &results, Some(&doc)).await;
    set_status(&pool, *running, "running", "running").await;
    let owls_seat = seat_of(seats, league.entrants[0].submission_id);
    let stderr = b"owls: thinking hard".as_slice();
    attach_blob(&pool, *done, owls_seat, "stderr_sha256", stderr).await;
    let mut visitor = TestApp::new(pool.clone());
    let log = format!("/matches/{done}/seats/{owls_seat}/log.txt");

    // Act
    let owls_page = league.entrants[0]
        .app
        .get(&format!("/matches/{done}"))
        .await;
    let bats_page = league.entrants[1]
        .app
        .get(&format!("/matches/{done}"))
        .await;
    let replay = visitor.get(&format!("/matches/{done}/replay.json")).await;
    let early = visitor
        .get(&format!("/matches/{running}/replay.json"))
        .await;
    let owls_log = league.entrants[0].app.get(&log).await;
    let bats_log = league.entrants[1].app.get(&log).await;
    let visitor_log = visitor.get(&log).await;
    let admin_log = league.admin.get(&log).await;

    // Assert: the links
    owls_page.assert_shows(&format!(
        "href=\"/matches/{done}/replay.json\" download>Download replay (JSON)"
    ));
    owls_page.assert_shows(&format!(
        "href=\"{log}\" download>Download log (seat {owls_seat}"
    ));
    bats_page.assert_shows("Download replay (JSON)");
    assert!(
        !bats_page.body.contains(&log),
        "a link to another team's log"
    );

    // Assert: the replay is public once finished, a 409 before
    replay.assert_status(StatusCode::OK);
    // the document as stored, its seed hidden while the competition plays on
    let mut hidden = doc.clone();
    hidden["games"][0]["replay"]["seed"] = Value::Null;
    assert_eq!(replay.bytes, serde_json::to_vec(&hidden).unwrap());
    assert_eq!(
        replay.headers[header::CONTENT_DISPOSITION],
        format!("attachment; filename=\"match-{done}.json\"").as_str()
    );
    early.assert_status(StatusCode::CONFLICT);

    // Assert: the log is for Owls and the admin only
    owls_log.assert_status(StatusCode::OK);
    assert!(
        owls_log.body.ends_with("owls: thinking hard"),
        "{}",
        owls_log.body
    );
    assert!(owls_log
        .body
        .starts_with(&format!("# seat {owls_seat} · Owls v1\n")));
    assert_eq!(
        owls_log.headers[header::CONTENT_TYPE],
        "text/plain; charset=utf-8"
    );
    admin_log.assert_status(StatusCode::OK);
    bats_log.assert_status(StatusCode::NOT_FOUND);
    visitor_log.assert_status(StatusCode::NOT_FOUND);
    assert!(!bats_log.body.contains("thinking") && !visitor_log.body.contains("thinking"));
}
