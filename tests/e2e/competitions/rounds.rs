//! Swiss and adaptive competitions without a worker process: the organiser's form and API, the
//! first round made at creation, each next round planned by the workers' rounds tick
//! (`croupier_worker::plan_rounds`, called here as a worker's loop would) once the round before
//! has ended, the seeds kept hidden between rounds, and the final stage.

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use sqlx::PgPool;
use uuid::Uuid;

use super::{count_where, created, finish, schedule, League};

const MATCHES: &str = "select count(*) from match where competition_id = $1";

/// Finishes every queued match of the competition, the first seat winning.
async fn finish_round(pool: &PgPool, competition_id: Uuid) -> Vec<Vec<Uuid>> {
    let mut played = Vec::new();
    for (match_id, seats) in schedule(pool, competition_id).await {
        let queued: bool =
            sqlx::query_scalar("select status = 'queued' from match where match_id = $1")
                .bind(match_id)
                .fetch_one(pool)
                .await
                .expect("status");
        if !queued {
            continue;
        }
        let results = [(1, 10.0, "ok"), (2, 20.0, "ok"), (3, 30.0, "ok")];
        finish(pool, match_id, &results[..seats.len()], None).await;
        played.push(seats);
    }
    played
}

async fn competition(league: &League, token: &str, id: Uuid) -> Value {
    let path = format!("/api/v1/competitions/{id}");
    let reply = league
        .admin
        .api(Method::GET, &path, Some(token), None)
        .await;
    reply.json["competition"].clone()
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_swiss_competition_plans_each_round_after_the_last_and_ends_with_its_final_stage(
    pool: PgPool,
) {
    // Arrange: four No Thanks bots; the organiser's form: Swiss, 2 rounds, a final of the top 3.
    let mut league = League::with_teams(&pool, 4).await;
    let csrf = league
        .admin
        .csrf("/admin/competitions/new?game=nothanks")
        .await;
    let ids: Vec<String> = league.submissions().iter().map(Uuid::to_string).collect();
    let mut fields = vec![
        ("csrf", csrf.as_str()),
        ("game", "nothanks"),
        ("shown_game", "nothanks"),
        ("name", "Swiss cup"),
        ("kind", "swiss"),
        ("swiss_rounds", "2"),
        ("final_top", "3"),
        ("rounds", "1"),
        ("base_seed", "7"),
    ];
    fields.extend(ids.iter().map(|id| ("submission", id.as_str())));

    // Act: create it
    let page = league
        .admin
        .post_form("/admin/competitions/new", &fields)
        .await;
    let id = created(&page);
    let token = league.admin_token().await;

    // Assert: the first round only: one triple's three rotations, one bot sitting out
    assert_eq!(count_where(&pool, MATCHES, id).await, 3);
    let shown = league.admin.get(&format!("/competitions/{id}")).await;
    shown.assert_shows("Swiss rounds: 2 rounds");
    shown.assert_shows("Round 1 of 2");
    shown.assert_shows("1 sitting this round out");
    assert_eq!(croupier_worker::plan_rounds(&pool).await.unwrap(), 0);

    // Act: the first round ends
    let first = finish_round(&pool, id).await;

    // Assert: between rounds it is running, not finished, and its base seed stays hidden
    let between = competition(&league, &token, id).await;
    assert_eq!(between["status"], "running", "{between:#}");
    assert!(
        between["settings"].get("base_seed").is_none(),
        "{between:#}"
    );

    // Act: a worker's tick
    let queued = croupier_worker::plan_rounds(&pool).await.unwrap();

    // Assert: round 2, and the bot that sat out round 1 plays in it
    assert_eq!(queued, 3);
    let sat_out = league
        .submissions()
        .into_iter()
        .find(|s| !first[0].contains(s))
        .expect("a bye in round 1");
    let second = finish_round(&pool, id).await;
    assert!(second[0].contains(&sat_out), "{second:?}");

    // Act: the tick after the last round
    assert_eq!(croupier_worker::plan_rounds(&pool).await.unwrap(), 0);

    // Assert: finished, the seed shown, and the final stage of the top 3 scheduled
    let done = competition(&league, &token, id).await;
    assert_eq!(done["status"], "finished", "{done:#}");
    assert_eq!(done["settings"]["base_seed"], 7, "{done:#}");
    let stage: Uuid = done["next_stage"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a final stage: {done:#}"));
    assert_eq!(count_where(&pool, MATCHES, stage).await, 3);
    let final_stage = competition(&league, &token, stage).await;
    assert_eq!(final_stage["stage_of"], id.to_string(), "{final_stage:#}");
    assert_eq!(final_stage["kind"], "round_robin");
    let shown = league.admin.get(&format!("/competitions/{id}")).await;
    shown.assert_shows("Done after 2 rounds.");
    shown.assert_shows(&format!(
        r#"href="/competitions/{stage}" data-next-stage>Swiss cup · final</a>"#
    ));
    let board = league
        .admin
        .api(
            Method::GET,
            &format!("/api/v1/competitions/{id}/leaderboard"),
            Some(&token),
            None,
        )
        .await;
    let fitted = &board.json["leaderboard"]["fitted"];
    assert_eq!(fitted["model"], "plackett_luce", "{fitted:#}");
    let rows = fitted["rows"].as_array().expect("fitted rows");
    assert_eq!(rows.len(), 4, "{fitted:#}");
    for r in rows {
        let (low, mid, high) = (
            r["low"].as_f64(),
            r["strength"].as_f64(),
            r["high"].as_f64(),
        );
        assert!(low <= mid && mid <= high, "{r:#}");
    }
    let page = league
        .admin
        .get(&format!("/competitions/{id}/leaderboard"))
        .await;
    page.assert_shows("Fitted ranking");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_form_says_what_each_kind_plays_and_the_api_refuses_a_plan_it_cannot_keep(
    pool: PgPool,
) {
    // Arrange
    let mut league = League::with_teams(&pool, 4).await;
    let token = league.admin_token().await;

    // Act
    let form = league
        .admin
        .get("/admin/competitions/new?game=nothanks")
        .await;
    let post = |body: Value| {
        let admin = &league.admin;
        let token = token.clone();
        async move {
            admin
                .api(
                    Method::POST,
                    "/api/v1/admin/competitions",
                    Some(&token),
                    Some(body),
                )
                .await
        }
    };
    let no_budget = post(json!({"name": "A", "game": "nothanks", "kind": "adaptive"})).await;
    let no_rounds =
        post(json!({"name": "S", "game": "nothanks", "kind": "swiss", "swiss_rounds": 0})).await;
    let small_final =
        post(json!({"name": "S", "game": "nothanks", "kind": "swiss", "final_top": 1})).await;
    let adaptive = post(
        json!({"name": "A", "game": "nothanks", "kind": "adaptive", "budget": 30, "decide_top": 1}),
    )
    .await;

    // Assert: four bots ticked: a round-robin of C(4,3) × 3 = 12 matches; Swiss rounds chosen
    // for four bots (one triple a round)
    form.assert_shows("4 bots ticked.");
    form.assert_shows("12 matches (every group, every seating, each round).");
    let rounds = u64::from(croupier_league::swiss_rounds(
        croupier_league::Format::Triples,
        4,
    ));
    form.assert_shows(&format!("{} matches ({rounds} rounds).", rounds * 3));
    no_budget.assert_status(StatusCode::BAD_REQUEST);
    assert!(
        no_budget.raw.contains("needs a match budget"),
        "{}",
        no_budget.raw
    );
    no_rounds.assert_status(StatusCode::BAD_REQUEST);
    assert!(
        no_rounds.raw.contains("1 to 1000 rounds, not 0"),
        "{}",
        no_rounds.raw
    );
    small_final.assert_status(StatusCode::BAD_REQUEST);
    assert!(
        small_final.raw.contains("final stage"),
        "{}",
        small_final.raw
    );
    adaptive.assert_status(StatusCode::CREATED);
    assert_eq!(
        adaptive.json["competition"]["kind"], "adaptive",
        "{}",
        adaptive.raw
    );
    let first_round = adaptive.json["matches"].as_u64().expect("matches");
    assert!(first_round > 0 && first_round <= 30, "{}", adaptive.raw);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_finished_ladder_seeds_its_final_stage_and_one_that_played_nothing_seeds_none(
    pool: PgPool,
) {
    // Arrange: two ladders of four No Thanks bots asking for a final of the top 3; one has
    // played a triple, the other nothing
    let league = League::with_teams(&pool, 4).await;
    let token = league.admin_token().await;
    let mut ladders = Vec::new();
    for name in ["Played", "Idle"] {
        let body = json!({"name": name, "game": "nothanks", "kind": "ladder", "final_top": 3,
                          "submissions": league.submissions()});
        let reply = league
            .admin
            .api(
                Method::POST,
                "/api/v1/admin/competitions",
                Some(&token),
                Some(body),
            )
            .await;
        reply.assert_status(StatusCode::CREATED);
        let id: Uuid = reply.json["competition"]["competition_id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .expect("id");
        ladders.push(id);
    }
    let seats = league.submissions();
    for rotation in 0..3 {
        let order: Vec<Uuid> = (0..3).map(|k| seats[(rotation + k) % 3]).collect();
        let match_id = insert_ladder_match(&pool, ladders[0], rotation, &order).await;
        finish(
            &pool,
            match_id,
            &[(1, 10.0, "ok"), (2, 20.0, "ok"), (3, 30.0, "ok")],
            None,
        )
        .await;
    }

    // Act: the organiser finishes both
    let mut said = Vec::new();
    for id in &ladders {
        let path = format!("/api/v1/admin/competitions/{id}/ladder");
        let body = json!({"action": "finish"});
        said.push(
            league
                .admin
                .api(Method::POST, &path, Some(&token), Some(body))
                .await,
        );
    }

    // Assert: the ladder that played has a final of its three ranked bots; the idle one none
    for reply in &said {
        reply.assert_status(StatusCode::OK);
    }
    let played = competition(&league, &token, ladders[0]).await;
    let stage: Uuid = played["next_stage"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a final stage: {played:#}"));
    assert_eq!(count_where(&pool, MATCHES, stage).await, 3);
    let idle = competition(&league, &token, ladders[1]).await;
    assert!(idle["next_stage"].is_null(), "{idle:#}");
}

/// A queued ladder match of `seats` (as the ladder tick makes them), with its job.
async fn insert_ladder_match(pool: &PgPool, ladder: Uuid, ordinal: usize, seats: &[Uuid]) -> Uuid {
    let match_id: Uuid = sqlx::query_scalar(
        "insert into match (competition_id, ordinal, game, rules, seed, settings, duplicate_set)
         values ($1, $2, 'nothanks', 'boardcoder', 7, '{}', 0) returning match_id",
    )
    .bind(ladder)
    .bind(i32::try_from(ordinal).unwrap())
    .fetch_one(pool)
    .await
    .expect("match");
    for (seat, who) in seats.iter().enumerate() {
        sqlx::query("insert into match_seat (match_id, seat, submission_id) values ($1, $2, $3)")
            .bind(match_id)
            .bind(i32::try_from(seat).unwrap())
            .bind(who)
            .execute(pool)
            .await
            .expect("seat");
    }
    sqlx::query("insert into job (kind, match_id) values ('match', $1)")
        .bind(match_id)
        .execute(pool)
        .await
        .expect("job");
    match_id
}
