//! A challenge's matches — a challenge, a table with a person — are its team's and the admins':
//! every route that shows a match answers a 404 to anyone else (signed out, or a member of
//! another team, even the team whose bot sat at the table), and the lists leave them out of
//! their rows and totals, while a competition's matches stay public
//! (docs/competitions.md#what-is-hidden-and-from-whom).

use axum::http::{Method, StatusCode};
use croupier_games::{GameId, Recorder};
use serde_json::{json, Value};
use sqlx::PgPool;
use uuid::Uuid;

use super::{attach_blob, finish, one_game_doc, play_out, League};
use crate::helpers::{csrf_in, TestApp, PASSWORD};

/// A fresh API token of an existing user.
pub async fn token_of(app: &TestApp, username: &str) -> String {
    let login = json!({ "username": username, "password": PASSWORD });
    let reply = app
        .api(Method::POST, "/api/v1/tokens", None, Some(login))
        .await;
    reply.assert_status(StatusCode::CREATED);
    reply.json["token"].as_str().expect("a token").to_owned()
}

/// Someone asking: a browser (signed in or not) and, when signed in, a token.
struct Asker {
    who: &'static str,
    app: TestApp,
    token: Option<String>,
    /// May see the team's challenges (a member of the team, an admin).
    sees: bool,
}

impl Asker {
    async fn api(&self, path: &str) -> crate::helpers::Reply {
        self.app
            .api(Method::GET, path, self.token.as_deref(), None)
            .await
    }
}

/// The seed and rule set of `match_id`, as stored.
async fn seed_and_rules(pool: &PgPool, match_id: Uuid) -> (u64, String) {
    let (seed, rules): (i64, String) =
        sqlx::query_as("select seed, rules from match where match_id = $1")
            .bind(match_id)
            .fetch_one(pool)
            .await
            .expect("the match");
    (u64::from_ne_bytes(seed.to_ne_bytes()), rules)
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_challenges_matches_are_its_teams_and_the_admins_on_every_route(pool: PgPool) {
    // Arrange: a No Thanks round-robin of Owls (alice), Bats (bob) and Cats (cyd)
    let mut league = League::with_teams(&pool, 3).await;
    let c = league.create("1").await;
    let (owls, bats) = (league.entrants[0].team_id, league.entrants[1].team_id);
    let bats_bot = league.entrants[1].submission_id;
    let owls_bot = league.entrants[0].submission_id;

    // alice sits at a table with Bats' bot and a built-in ("Play against bots")
    let alice = &mut league.entrants[0].app;
    let form = alice.get(&format!("/competitions/{c}/play")).await;
    let (team, bob_seat) = (owls.to_string(), format!("submission:{bats_bot}"));
    let fields = [
        ("csrf", csrf_in(&form.body)),
        ("team_id", team),
        ("move_secs", "60".into()),
        ("seat_0", "you".into()),
        ("seat_1", bob_seat),
        ("seat_2", "builtin:random".into()),
    ];
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let started = alice
        .post_form(&format!("/competitions/{c}/play"), &fields)
        .await;
    let table = started.seat_match();
    // … and asks for a plain challenge of Owls' and Bats' bots and a built-in (3 rotations)
    let alice_token = token_of(alice, "alice").await;
    let asked = alice
        .api(
            Method::POST,
            &format!("/api/v1/competitions/{c}/challenges"),
            Some(&alice_token),
            Some(json!({ "team_id": owls, "games": 1, "seats": [
                { "submission_id": owls_bot }, { "submission_id": bats_bot }, { "builtin": "random" }] })),
        )
        .await;
    asked.assert_status(StatusCode::CREATED);
    let challenge = asked.json["challenge"]["challenge_id"]
        .as_str()
        .expect("a challenge")
        .to_owned();

    // the table is played out (with Bats' bot's stderr), as the worker writes it
    let (seed, rules) = seed_and_rules(&pool, table).await;
    let recorder = Recorder::new(GameId::NO_THANKS, &rules, &Value::Null, seed).unwrap();
    let (replay, results) = play_out(recorder, seed);
    let players = [
        "alice".to_owned(),
        "Bats-v1".into(),
        "random (built-in)".into(),
    ];
    finish(
        &pool,
        table,
        &results,
        Some(&one_game_doc(&players, &replay)),
    )
    .await;
    attach_blob(&pool, table, 1, "stderr_sha256", b"bats thinking\n").await;

    let admin = league.admin.new_visitor();
    let mut admin = Asker {
        who: "an admin",
        token: Some(token_of(&admin, "root").await),
        app: admin,
        sees: true,
    };
    admin.app.log_in("root", PASSWORD).await;
    let bob = &league.entrants[1].app;
    let bob = Asker {
        who: "bob, of the team whose bot sat there",
        token: Some(token_of(bob, "bob").await),
        app: bob.new_visitor(),
        sees: false,
    };
    let mut askers = vec![
        Asker {
            who: "someone signed out",
            app: league.admin.new_visitor(),
            token: None,
            sees: false,
        },
        bob,
        Asker {
            who: "alice, of the team",
            app: league.entrants[0].app.new_visitor(),
            token: Some(alice_token.clone()),
            sees: true,
        },
        admin,
    ];
    askers[1].app.log_in("bob", PASSWORD).await;
    askers[2].app.log_in("alice", PASSWORD).await;

    for asker in &mut askers {
        let who = asker.who;
        let seen = if asker.sees {
            StatusCode::OK
        } else {
            StatusCode::NOT_FOUND
        };

        // Act + Assert: the pages and downloads of the table
        for path in [
            format!("/matches/{table}"),
            format!("/matches/{table}/replay.json"),
            format!("/matches/{table}/frames.json"),
            format!("/matches/{table}/frames.json?view=seat:1"),
            format!("/matches/{table}/events"),
        ] {
            let page = asker.app.get(&path).await;
            assert_eq!(page.status, seen, "{who}: {path}: {}", page.body);
            if !asker.sees {
                assert!(
                    !page.body.contains("alice"),
                    "{who}: {path} names the person"
                );
            }
        }
        // the seat's log: Bats' seat, but a private table (only an admin, whose every seat is)
        let log = asker
            .app
            .get(&format!("/matches/{table}/seats/1/log.txt"))
            .await;
        let admin_only = if who == "an admin" {
            StatusCode::OK
        } else {
            StatusCode::NOT_FOUND
        };
        assert_eq!(log.status, admin_only, "{who}: log.txt");

        // the API's record, replay and seat log
        for path in [
            format!("/api/v1/matches/{table}"),
            format!("/api/v1/matches/{table}/replay"),
        ] {
            let reply = asker.api(&path).await;
            assert_eq!(reply.status, seen, "{who}: {path}: {}", reply.raw);
        }
        let log = asker
            .api(&format!("/api/v1/matches/{table}/seats/1/log"))
            .await;
        let expected = match asker.token {
            None => StatusCode::UNAUTHORIZED,
            Some(_) => admin_only,
        };
        assert_eq!(log.status, expected, "{who}: the API's seat log");

        // the lists: by the seated bot's team and by the bot, rows and totals alike
        let public = 3; // the round-robin's triple, in 3 rotations
        let private = if asker.sees { 1 + 3 } else { 0 };
        for list in [
            format!("/api/v1/matches?team={bats}"),
            format!("/api/v1/matches?submission={bats_bot}"),
        ] {
            let reply = asker.api(&list).await;
            reply.assert_status(StatusCode::OK);
            assert_eq!(reply.json["total"], public + private, "{who}: {list}");
            let rows = reply.json["matches"].as_array().expect("rows");
            assert_eq!(rows.len(), public + private, "{who}: {list}");
            let listed = rows.iter().any(|m| m["match_id"] == table.to_string());
            assert_eq!(listed, asker.sees, "{who}: {list} lists the table");
            let challenged = rows.iter().filter(|m| !m["challenge_id"].is_null()).count();
            assert_eq!(challenged, private, "{who}: {list}");
        }
        let competition = asker.api(&format!("/api/v1/matches?competition={c}")).await;
        assert_eq!(
            competition.json["total"], public,
            "{who}: the competition's"
        );

        // the challenge's own page and API
        let page = asker.app.get(&format!("/challenges/{challenge}")).await;
        match (asker.sees, &asker.token) {
            (true, _) => page.assert_status(StatusCode::OK),
            (false, None) => page.assert_redirect("/login"),
            (false, Some(_)) => page.assert_status(StatusCode::NOT_FOUND),
        }
        for path in [
            format!("/api/v1/challenges/{challenge}"),
            format!("/api/v1/teams/{owls}/challenges"),
        ] {
            let reply = asker.api(&path).await;
            let expected = match (asker.sees, &asker.token) {
                (true, _) => StatusCode::OK,
                (false, None) => StatusCode::UNAUTHORIZED,
                (false, Some(_)) => StatusCode::NOT_FOUND,
            };
            assert_eq!(reply.status, expected, "{who}: {path}");
        }
    }

    // Assert: Bats' submission page (bob's own) lists its public matches, not Owls' tables
    let bob_page = askers[1].app.get(&format!("/submissions/{bats_bot}")).await;
    bob_page.assert_status(StatusCode::OK);
    bob_page.assert_lacks(&table.to_string());
    bob_page.assert_shows("3 matches");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_token_that_is_not_valid_is_refused_even_where_none_is_needed(pool: PgPool) {
    // Arrange
    let mut league = League::with_teams(&pool, 3).await;
    let c = league.create("1").await;

    // Act
    let reply = league
        .admin
        .api(
            Method::GET,
            &format!("/api/v1/matches?competition={c}"),
            Some("cr_revoked"),
            None,
        )
        .await;
    let without = league
        .admin
        .api(
            Method::GET,
            &format!("/api/v1/matches?competition={c}"),
            None,
            None,
        )
        .await;

    // Assert: the caller learns its token is bad instead of silently seeing less
    reply.assert_error(StatusCode::UNAUTHORIZED, "a valid API token is required");
    without.assert_status(StatusCode::OK);
    assert_eq!(without.json["total"], 3);
}
