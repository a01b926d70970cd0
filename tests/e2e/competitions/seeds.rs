//! Nothing hidden leaks while matches run (docs/competitions.md#what-is-hidden-and-from-whom):
//! for every game, a match's seed and its competition's base seed stay hidden — on the pages,
//! in the API, in the replay download, in the viewer's frames, in the seats' logs and in the
//! live stream — until nothing more is played on seeds drawn from that base seed, and what was
//! dealt (the replay, the frames, the logs) until every match dealt the same cards has ended.
//! Admins included. A challenge's and a ladder's seeds follow the same rule.

use axum::http::{Method, StatusCode};
use croupier_games::{GameId, Recorder};
use serde_json::{json, Value};
use sqlx::PgPool;
use uuid::Uuid;

use super::privacy::token_of;
use super::{finish, one_game_doc, play_out, schedule, won_by, League};
use crate::helpers::{csrf_in, TestApp};

/// A match of the schedule: id, seats' submissions, seed, rules.
struct Planned {
    id: Uuid,
    seats: Vec<Uuid>,
    seed: u64,
    rules: String,
}

async fn planned(pool: &PgPool, competition_id: Uuid) -> Vec<Planned> {
    let mut out = Vec::new();
    for (id, seats) in schedule(pool, competition_id).await {
        let (seed, rules): (i64, String) =
            sqlx::query_as("select seed, rules from match where match_id = $1")
                .bind(id)
                .fetch_one(pool)
                .await
                .expect("the match");
        out.push(Planned {
            id,
            seats,
            seed: u64::from_ne_bytes(seed.to_ne_bytes()),
            rules,
        });
    }
    out
}

/// Panics if `body` (what `who` got at `what`) holds `seed`.
#[track_caller]
fn lacks_seed(body: &str, seed: u64, who: &str, what: &str) {
    assert!(
        !body.contains(&seed.to_string()),
        "{who}: {what} shows the seed {seed}:\n{body}"
    );
}

/// Whoever looks: signed out, a member of the team in seat 0, an admin.
struct Lookers {
    apps: Vec<(&'static str, TestApp, Option<String>)>,
}

impl Lookers {
    async fn of(league: &League, seat_0: Uuid) -> Lookers {
        let member = league
            .entrants
            .iter()
            .find(|e| e.submission_id == seat_0)
            .expect("seat 0's team");
        let user = match member.team {
            "Owls" => "alice",
            "Bats" => "bob",
            "Cats" => "cyd",
            _ => "dee",
        };
        let token = token_of(&member.app, user).await;
        let mut signed_in = member.app.new_visitor();
        signed_in.log_in(user, crate::helpers::PASSWORD).await;
        let mut admin = league.admin.new_visitor();
        admin.log_in("root", crate::helpers::PASSWORD).await;
        let admin_token = token_of(&admin, "root").await;
        Lookers {
            apps: vec![
                ("someone signed out", league.admin.new_visitor(), None),
                ("seat 0's team", signed_in, Some(token)),
                ("an admin", admin, Some(admin_token)),
            ],
        }
    }
}

/// How far a match and the others dealt from its seed are.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    /// It has not been played.
    Queued,
    /// It has ended; others dealt the same cards have not.
    Ended,
    /// Every match dealt the same cards has ended; others drawn from the base seed have not.
    DealOut,
}

/// What a match and its competition show while `m`'s seed is hidden, at `stage`.
async fn seed_hidden(lookers: &mut Lookers, c: Uuid, m: &Planned, stage: Stage) {
    let (id, seed) = (m.id, m.seed);
    for (who, app, token) in &mut lookers.apps {
        let (who, token) = (*who, token.as_deref());
        let page = app.get(&format!("/matches/{id}")).await;
        page.assert_status(StatusCode::OK);
        lacks_seed(&page.body, seed, who, "the match page");
        assert!(
            page.body.contains("data-seed-hidden"),
            "{who}: {}",
            page.body
        );
        let competition = app.get(&format!("/competitions/{c}")).await;
        assert!(
            competition.body.contains("data-seed-hidden")
                && !competition.body.contains("data-seed>"),
            "{who}: the base seed on the competition page:\n{}",
            competition.body
        );
        if stage != Stage::Queued {
            // (a running match's stream lasts until it ends)
            let events = app.get(&format!("/matches/{id}/events")).await;
            events.assert_status(StatusCode::OK);
            lacks_seed(&events.body, seed, who, "the live stream");
        }

        let record = app_api(app, &format!("/api/v1/matches/{id}"), token).await;
        record.assert_status(StatusCode::OK);
        assert!(
            record.json["match"]["seed"].is_null(),
            "{who}: {}",
            record.raw
        );
        lacks_seed(&record.raw, seed, who, "the API's record");
        let path = format!("/api/v1/matches?competition={c}&per_page=100");
        let list = app_api(app, &path, token).await;
        let rows = list.json["matches"].as_array().expect("rows");
        assert!(
            rows.iter().all(|m| m["seed"].is_null()),
            "{who}: {}",
            list.raw
        );
        lacks_seed(&list.raw, seed, who, "the API's list");
        for path in [
            "/api/v1/competitions".to_owned(),
            format!("/api/v1/competitions/{c}/leaderboard"),
        ] {
            let reply = app_api(app, &path, token).await;
            reply.assert_status(StatusCode::OK);
            assert!(
                !reply.raw.contains("base_seed"),
                "{who}: {path} shows the base seed: {}",
                reply.raw
            );
        }

        let replay = app_api(app, &format!("/api/v1/matches/{id}/replay"), token).await;
        let download = app.get(&format!("/matches/{id}/replay.json")).await;
        let frames = app.get(&format!("/matches/{id}/frames.json")).await;
        match stage {
            Stage::DealOut => {
                replay.assert_status(StatusCode::OK);
                for game in replay.json["games"].as_array().expect("games") {
                    assert!(game["replay"]["seed"].is_null(), "{who}: {game}");
                }
                assert_eq!(download.status, StatusCode::OK, "{who}");
                assert_eq!(frames.status, StatusCode::OK, "{who}");
            }
            Stage::Ended => {
                replay.assert_error(StatusCode::CONFLICT, "dealt the same cards");
                assert_eq!(download.status, StatusCode::CONFLICT, "{who}");
                assert_eq!(frames.status, StatusCode::CONFLICT, "{who}");
                page.assert_shows("every match dealt the same cards has ended");
                page.assert_lacks("replay.json");
            }
            Stage::Queued => {
                replay.assert_error(StatusCode::CONFLICT, "once it has finished");
                assert_eq!(download.status, StatusCode::CONFLICT, "{who}");
                assert_eq!(frames.status, StatusCode::CONFLICT, "{who}");
            }
        }
        for (what, body) in [
            ("the replay", &replay.raw),
            ("the download", &download.body),
            ("the frames", &frames.body),
        ] {
            lacks_seed(body, seed, who, what);
        }
        if who == "seat 0's team" {
            let log = app_api(app, &format!("/api/v1/matches/{id}/seats/0/log"), token).await;
            let text = app.get(&format!("/matches/{id}/seats/0/log.txt")).await;
            let expected = match stage {
                Stage::DealOut => StatusCode::OK,
                Stage::Queued | Stage::Ended => StatusCode::CONFLICT,
            };
            assert_eq!(
                (log.status, text.status),
                (expected, expected),
                "{}",
                log.raw
            );
            lacks_seed(&log.raw, seed, who, "the seat's log");
            lacks_seed(&text.body, seed, who, "the seat's log.txt");
        }
    }
}

async fn app_api(app: &TestApp, path: &str, token: Option<&str>) -> crate::helpers::Reply {
    app.api(Method::GET, path, token, None).await
}

/// Finishes `m` as the worker would, with a replay played out on its seed.
async fn play(pool: &PgPool, league: &League, game: GameId, m: &Planned) {
    let recorder = Recorder::new(game, &m.rules, &Value::Null, m.seed).expect("a game");
    let (replay, results) = play_out(recorder, m.seed);
    let players: Vec<String> = (m.seats.iter())
        .map(|s| format!("{}-v1", league.team_of(*s)))
        .collect();
    finish(pool, m.id, &results, Some(&one_game_doc(&players, &replay))).await;
}

/// Every game: a 2-round competition of 3 teams; the first match is played, then the rest of
/// its round, then the second round.
async fn a_seed_shows_once_nothing_more_is_played_on_it(pool: PgPool, game: GameId) {
    // Arrange
    let mut league = League::of_game(&pool, game.as_str(), 3).await;
    let c = league.create_rounds_of(game.as_str(), "2").await;
    let all = planned(&pool, c).await;
    let first = &all[0];
    let (round_0, round_1): (Vec<&Planned>, Vec<&Planned>) =
        all.iter().partition(|m| m.seed == first.seed);
    assert!(!round_1.is_empty(), "two rounds, two seeds");
    let mut lookers = Lookers::of(&league, first.seats[0]).await;

    // Assert: all queued, nothing shown
    seed_hidden(&mut lookers, c, first, Stage::Queued).await;

    // Act: the first match ends; the rest of its round (same seed) has not
    play(&pool, &league, game, first).await;
    // Assert: its result shows, its deal and seed do not
    seed_hidden(&mut lookers, c, first, Stage::Ended).await;

    // Act: the round ends; round 1 is still to play
    for m in round_0.iter().skip(1) {
        finish(&pool, m.id, &won_by(m.seats.len(), 0), None).await;
    }
    // Assert: the deal is out, the seed (which gives round 1's away) is not
    seed_hidden(&mut lookers, c, first, Stage::DealOut).await;

    // Act: the competition ends
    for m in &round_1 {
        finish(&pool, m.id, &won_by(m.seats.len(), 0), None).await;
    }

    // Assert: everything shows, to everyone
    for (who, app, token) in &mut lookers.apps {
        let page = app.get(&format!("/matches/{}", first.id)).await;
        page.assert_shows(&first.seed.to_string());
        let competition = app.get(&format!("/competitions/{c}")).await;
        assert!(competition.body.contains("data-seed>7<"), "{who}");
        let record = app_api(
            app,
            &format!("/api/v1/matches/{}", first.id),
            token.as_deref(),
        )
        .await;
        assert_eq!(record.json["match"]["seed"], first.seed, "{who}");
        let replay = app_api(
            app,
            &format!("/api/v1/matches/{}/replay", first.id),
            token.as_deref(),
        )
        .await;
        assert_eq!(
            replay.json["games"][0]["replay"]["seed"], first.seed,
            "{who}"
        );
        let list = app_api(app, "/api/v1/competitions", token.as_deref()).await;
        assert_eq!(
            list.json["competitions"][0]["settings"]["base_seed"], 7,
            "{who}"
        );
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn no_thanks_seeds_show_once_nothing_more_is_played_on_them(pool: PgPool) {
    a_seed_shows_once_nothing_more_is_played_on_it(pool, GameId::NO_THANKS).await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn splendor_seeds_show_once_nothing_more_is_played_on_them(pool: PgPool) {
    a_seed_shows_once_nothing_more_is_played_on_it(pool, GameId::SPLENDOR).await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn hanabi_seeds_show_once_nothing_more_is_played_on_them(pool: PgPool) {
    a_seed_shows_once_nothing_more_is_played_on_it(pool, GameId::HANABI).await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn guandan_seeds_show_once_nothing_more_is_played_on_them(pool: PgPool) {
    a_seed_shows_once_nothing_more_is_played_on_it(pool, GameId::GUANDAN).await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn bridge_seeds_show_once_nothing_more_is_played_on_them(pool: PgPool) {
    a_seed_shows_once_nothing_more_is_played_on_it(pool, GameId::BRIDGE).await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_tables_seed_and_its_challenges_base_seed_show_once_it_has_ended(pool: PgPool) {
    // Arrange: alice sits at a No Thanks table against two built-ins
    let mut league = League::with_teams(&pool, 3).await;
    let c = league.create("1").await;
    let owls = league.entrants[0].team_id;
    let alice = &mut league.entrants[0].app;
    let form = alice.get(&format!("/competitions/{c}/play")).await;
    let team = owls.to_string();
    let started = alice
        .post_form(
            &format!("/competitions/{c}/play"),
            &[
                ("csrf", &csrf_in(&form.body)),
                ("team_id", &team),
                ("move_secs", "60"),
                ("seat_0", "you"),
                ("seat_1", "builtin:random"),
                ("seat_2", "builtin:random"),
            ],
        )
        .await;
    let table = started.seat_match();
    let token = token_of(alice, "alice").await;
    let admin_token = token_of(&league.admin, "root").await;
    let challenges = format!("/api/v1/teams/{owls}/challenges");
    let table_seed: i64 = sqlx::query_scalar("select seed from match where match_id = $1")
        .bind(table)
        .fetch_one(&pool)
        .await
        .expect("the seed");
    let shown_seed = u64::from_ne_bytes(table_seed.to_ne_bytes());

    // Assert: while she plays, neither she nor an admin can read the seed or the base seed
    for token in [&token, &admin_token] {
        let list = app_api(alice, &challenges, Some(token)).await;
        list.assert_status(StatusCode::OK);
        let challenge = &list.json["challenges"][0];
        assert!(challenge["base_seed"].is_null(), "{challenge}");
        let id = challenge["challenge_id"].as_str().expect("an id");
        let report = app_api(alice, &format!("/api/v1/challenges/{id}"), Some(token)).await;
        assert!(
            report.json["challenge"]["base_seed"].is_null(),
            "{}",
            report.raw
        );
        let record = app_api(alice, &format!("/api/v1/matches/{table}"), Some(token)).await;
        assert!(record.json["match"]["seed"].is_null(), "{}", record.raw);
        lacks_seed(&record.raw, shown_seed, "a looker", "the table's record");
    }
    let page = alice.get(&format!("/matches/{table}")).await;
    lacks_seed(&page.body, shown_seed, "alice", "the match page");

    // Act: the table ends
    finish(&pool, table, &won_by(3, 0), None).await;

    // Assert: both show now
    let list = app_api(alice, &challenges, Some(&token)).await;
    assert!(
        list.json["challenges"][0]["base_seed"].is_i64(),
        "{}",
        list.raw
    );
    let record = app_api(alice, &format!("/api/v1/matches/{table}"), Some(&token)).await;
    assert_eq!(record.json["match"]["seed"], shown_seed, "{}", record.raw);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_ladders_base_seed_shows_once_it_is_finished(pool: PgPool) {
    // Arrange: a running ladder (new groups keep being drawn from its base seed)
    let league = League::with_teams(&pool, 3).await;
    let token = token_of(&league.admin, "root").await;
    let created = app_api_post(
        &league.admin,
        "/api/v1/admin/competitions",
        &token,
        json!({ "name": "Open", "game": "nothanks", "kind": "ladder", "base_seed": 7 }),
    )
    .await;
    created.assert_status(StatusCode::CREATED);
    let c = created.json["competition"]["competition_id"]
        .as_str()
        .expect("an id")
        .to_owned();
    assert!(
        created.json["competition"]["settings"]["base_seed"].is_null(),
        "{}",
        created.raw
    );
    let mut visitor = league.admin.new_visitor();
    let page = visitor.get(&format!("/competitions/{c}")).await;
    assert!(page.body.contains("data-seed-hidden"), "{}", page.body);

    // Act: the organiser finishes it
    let finished = app_api_post(
        &league.admin,
        &format!("/api/v1/admin/competitions/{c}/ladder"),
        &token,
        json!({ "action": "finish" }),
    )
    .await;

    // Assert
    finished.assert_status(StatusCode::OK);
    assert_eq!(
        finished.json["competition"]["settings"]["base_seed"], 7,
        "{}",
        finished.raw
    );
    let page = visitor.get(&format!("/competitions/{c}")).await;
    assert!(page.body.contains("data-seed>7<"), "{}", page.body);
}

async fn app_api_post(
    app: &TestApp,
    path: &str,
    token: &str,
    body: Value,
) -> crate::helpers::Reply {
    app.api(Method::POST, path, Some(token), Some(body)).await
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_openapi_example_of_a_running_match_shows_no_seed(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool);

    // Act
    let doc = app
        .api(Method::GET, "/api/v1/openapi.json", None, None)
        .await
        .json;

    // Assert
    let op = &doc["paths"]["/matches/{match_id}"]["get"];
    let example = &op["responses"]["200"]["content"]["application/json"]["example"]["match"];
    assert_eq!(example["status"], "running", "{example}");
    assert!(example["seed"].is_null(), "{example}");
    assert!(
        op["summary"]
            .as_str()
            .is_some_and(|s| s.contains("`seed` is null until")),
        "{op}"
    );
}
