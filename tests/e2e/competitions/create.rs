//! Creating a competition: the admin's form, its refusals, and the admin API.

use axum::http::{Method, StatusCode};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

use super::{count_where, ready_submission, League};
use crate::helpers::{count, TestApp};

async fn nothing_scheduled(pool: &PgPool) {
    assert_eq!(count(pool, "competition").await, 0);
    assert_eq!(count(pool, "competition_entry").await, 0);
    assert_eq!(count(pool, "match").await, 0);
    assert_eq!(count(pool, "match_seat").await, 0);
    let jobs: i64 = sqlx::query_scalar("select count(*) from job where kind = 'match'")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(jobs, 0);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_admin_creates_a_no_thanks_round_robin_and_every_match_is_queued_with_a_job(
    pool: PgPool,
) {
    // Arrange
    let mut league = League::with_teams(&pool, 3).await;
    let form = league.admin.get("/admin/competitions/new").await;
    form.assert_status(StatusCode::OK);
    for e in &league.entrants {
        form.assert_shows(e.team);
        form.assert_shows(&format!(
            r#"value="{}" id="s-{}" checked"#,
            e.submission_id, e.submission_id
        ));
    }

    // Act: C(3,3) triples × 3 seat rotations × 2 rounds
    let competition_id = league.create("2").await;

    // Assert
    let q = |sql| count_where(&pool, sql, competition_id);
    assert_eq!(
        q("select count(*) from match where competition_id = $1 and status = 'queued'").await,
        6
    );
    assert_eq!(
        q("select count(*) from competition_entry where competition_id = $1").await,
        3
    );
    assert_eq!(
        q("select count(*) from match_seat join match using (match_id) where competition_id = $1")
            .await,
        18
    );
    assert_eq!(
        q("select count(*) from job join match using (match_id)
           where competition_id = $1 and job.kind = 'match' and job.status = 'queued' and job.attempt = 0")
        .await,
        6
    );
    assert_eq!(
        q("select count(distinct seed) from match where competition_id = $1").await,
        2,
        "one deal per round, shared by the round's rotations"
    );
    let settings: serde_json::Value =
        sqlx::query_scalar("select settings from competition where competition_id = $1")
            .bind(competition_id)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(settings["base_seed"], 7);
    assert_eq!(settings["move_time_ms"], 2000);
    let page = league
        .admin
        .get(&format!("/competitions/{competition_id}"))
        .await;
    page.assert_status(StatusCode::OK);
    page.assert_shows("Competition created: 3 entries, 6 matches queued.");
    page.assert_shows("0 of 6 matches played · 6 queued");
    page.assert_shows("Cancel queued matches");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_user_who_is_not_an_admin_gets_403_on_the_new_competition_form(pool: PgPool) {
    // Arrange
    let mut league = League::with_teams(&pool, 3).await;
    let subs = league.submissions();
    let alice = &mut league.entrants[0].app;

    // Act
    let form = alice.get("/admin/competitions/new").await;
    let csrf = alice.csrf("/teams").await;
    let ids: Vec<String> = subs.iter().map(ToString::to_string).collect();
    let mut fields = vec![
        ("csrf", csrf.as_str()),
        ("name", "Mine"),
        ("game", "nothanks"),
        ("rounds", "1"),
    ];
    fields.extend(ids.iter().map(|id| ("submission", id.as_str())));
    let post = alice.post_form("/admin/competitions/new", &fields).await;

    // Assert
    form.assert_status(StatusCode::FORBIDDEN);
    post.assert_status(StatusCode::FORBIDDEN);
    nothing_scheduled(&pool).await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn too_few_ready_bots_are_refused_on_the_form_and_nothing_is_stored(pool: PgPool) {
    // Arrange: three teams, but only two bots ticked
    let mut league = League::with_teams(&pool, 3).await;
    let two = &league.submissions()[..2];

    // Act
    let page = league.submit_form("Too small", two, "1").await;

    // Assert
    page.assert_status(StatusCode::BAD_REQUEST);
    page.assert_shows("No Thanks! needs at least 3 ready bots from the teams, and 2 were chosen");
    page.assert_shows(r#"value="Too small""#);
    nothing_scheduled(&pool).await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_bad_number_of_rounds_is_refused_on_the_form_and_nothing_is_stored(pool: PgPool) {
    // Arrange
    let mut league = League::with_teams(&pool, 3).await;
    let all = league.submissions();

    // Act
    let zero = league.submit_form("Zero", &all, "0").await;
    let words = league.submit_form("Words", &all, "two").await;

    // Assert
    zero.assert_status(StatusCode::BAD_REQUEST);
    zero.assert_shows("the number of rounds must be 1 to 1000");
    words.assert_status(StatusCode::BAD_REQUEST);
    words.assert_shows(r#"the number of rounds must be a whole number, not "two""#);
    nothing_scheduled(&pool).await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_admin_creates_a_competition_over_the_api_from_each_teams_latest_ready_bot(
    pool: PgPool,
) {
    // Arrange: Owls also have an older ready version, which is not entered by default
    let league = League::with_teams(&pool, 3).await;
    let owls = &league.entrants[0];
    let newer = ready_submission(&pool, owls.team_id, "alice", "nothanks").await;
    let root = league.admin.api_user("api-root").await;
    crate::helpers::make_admin(&pool, "api-root").await;
    let bob = league.admin.api_user("api-bob").await;
    let body = json!({ "name": "API cup", "game": "nothanks", "rounds": 1 });

    // Act
    let refused = league
        .admin
        .api(
            Method::POST,
            "/api/v1/admin/competitions",
            Some(&bob),
            Some(body.clone()),
        )
        .await;
    let created = league
        .admin
        .api(
            Method::POST,
            "/api/v1/admin/competitions",
            Some(&root),
            Some(body),
        )
        .await;
    let too_few = league
        .admin
        .api(
            Method::POST,
            "/api/v1/admin/competitions",
            Some(&root),
            Some(json!({ "name": "Empty", "game": "splendor" })),
        )
        .await;

    // Assert
    refused.assert_error(StatusCode::FORBIDDEN, "administrators only");
    created.assert_status(StatusCode::CREATED);
    assert_eq!(created.json["matches"], 3);
    assert_eq!(created.json["entrants"], 3);
    assert_eq!(created.json["competition"]["status"], "scheduled");
    assert_eq!(created.json["competition"]["progress"]["queued"], 3);
    let id: uuid::Uuid = created.json["competition"]["competition_id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let entered: Vec<uuid::Uuid> =
        sqlx::query_scalar("select submission_id from competition_entry where competition_id = $1")
            .bind(id)
            .fetch_all(&pool)
            .await
            .unwrap();
    assert!(entered.contains(&newer) && !entered.contains(&owls.submission_id));
    too_few.assert_error(
        StatusCode::BAD_REQUEST,
        "Splendor needs at least 3 ready bots",
    );
    assert_eq!(count(&pool, "competition").await, 1);
    let listed = TestApp::new(pool.clone())
        .api(Method::GET, "/api/v1/competitions", None, None)
        .await;
    listed.assert_status(StatusCode::OK);
    assert_eq!(listed.json["competitions"][0]["name"], "API cup");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn formats_rule_settings_and_games_per_match_are_checked_and_kept(pool: PgPool) {
    // Arrange: two teams with a ready Hanabi bot each
    let league = League::with_teams(&pool, 2).await;
    for (entrant, user) in league.entrants.iter().zip(["alice", "bob"]) {
        ready_submission(&pool, entrant.team_id, user, "hanabi").await;
    }
    let root = league.admin.api_user("api-root").await;
    crate::helpers::make_admin(&pool, "api-root").await;
    let create = |body: serde_json::Value| {
        let (app, root) = (&league.admin, &root);
        async move {
            app.api(
                Method::POST,
                "/api/v1/admin/competitions",
                Some(root),
                Some(body),
            )
            .await
        }
    };

    // Act
    let triples = create(json!({ "name": "x", "game": "hanabi", "format": "triples" })).await;
    let players =
        create(json!({ "name": "x", "game": "hanabi", "settings": { "players": 9 } })).await;
    let two_games = create(json!({ "name": "x", "game": "hanabi", "games_per_match": 2 })).await;
    let zero = create(json!({ "name": "x", "game": "hanabi", "games_per_match": 0 })).await;
    let refused_nothing = count(&pool, "competition").await;
    let cross = create(
        json!({ "name": "Cross", "game": "hanabi", "format": "cross_play",
                               "rules": "rainbow", "settings": { "players": 5 }, "rounds": 3 }),
    )
    .await;

    // Assert
    triples.assert_error(StatusCode::BAD_REQUEST, "self_play, cross_play");
    players.assert_status(StatusCode::BAD_REQUEST);
    two_games.assert_error(
        StatusCode::BAD_REQUEST,
        "a Hanabi match plays at most 1 game",
    );
    zero.assert_error(StatusCode::BAD_REQUEST, "games per match must be 1 to 100");
    assert_eq!(refused_nothing, 0, "a refused request stores nothing");
    cross.assert_status(StatusCode::CREATED);
    assert_eq!(
        cross.json["matches"],
        2 * 3,
        "one pair × 2 seatings × 3 rounds"
    );
    let settings: serde_json::Value =
        sqlx::query_scalar("select settings from competition where name = 'Cross'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(settings["format"], "cross_play");
    assert_eq!(settings["rule_settings"]["players"], 5);
    let seats: i64 = sqlx::query_scalar(
        "select count(*) from match_seat ms join match m using (match_id) where m.ordinal = 0",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(
        seats, 5,
        "every match seats the 5 players the settings ask for"
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn seat_limits_are_checked_and_kept_in_the_competitions_settings(pool: PgPool) {
    // Arrange: three teams with a ready No Thanks bot each
    let league = League::with_teams(&pool, 3).await;
    let root = league.admin.api_user("api-root").await;
    crate::helpers::make_admin(&pool, "api-root").await;
    let create = |body: serde_json::Value| {
        let (app, root) = (&league.admin, &root);
        async move {
            app.api(
                Method::POST,
                "/api/v1/admin/competitions",
                Some(root),
                Some(body),
            )
            .await
        }
    };

    // Act
    let tiny = create(json!({ "name": "x", "game": "nothanks", "seat_memory_mib": 8 })).await;
    let no_cpu = create(json!({ "name": "x", "game": "nothanks", "seat_cpu_millicores": 0 })).await;
    let refused_nothing = count(&pool, "competition").await;
    let small = create(
        json!({ "name": "Small", "game": "nothanks", "seat_memory_mib": 64,
                               "seat_disk_mib": 8, "seat_cpu_millicores": 500 }),
    )
    .await;

    // Assert
    tiny.assert_error(
        StatusCode::BAD_REQUEST,
        "a seat's memory must be 16 to 16384 MiB, not 8",
    );
    no_cpu.assert_error(StatusCode::BAD_REQUEST, "a seat's CPU must be 100 to 16000");
    assert_eq!(refused_nothing, 0, "a refused request stores nothing");
    small.assert_status(StatusCode::CREATED);
    let settings: serde_json::Value =
        sqlx::query_scalar("select settings from competition where name = 'Small'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(
        (
            &settings["seat_memory_mib"],
            &settings["seat_disk_mib"],
            &settings["seat_cpu_millicores"]
        ),
        (&json!(64), &json!(8), &json!(500))
    );
    assert_eq!(settings["format"], "triples", "the format played is stored");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_form_whose_game_was_changed_without_choose_game_is_shown_again_for_that_game_and_nothing_is_built(
    pool: PgPool,
) {
    // Arrange: the form shown for No Thanks (its three bots ticked); Bats also have a Splendor bot
    let mut league = League::with_teams(&pool, 3).await;
    let splendor = ready_submission(&pool, league.entrants[1].team_id, "bob", "splendor").await;
    let form = league
        .admin
        .get("/admin/competitions/new?game=nothanks")
        .await;
    form.assert_shows(r#"name="shown_game" value="nothanks""#);
    // The game's select is posted with the form it builds (it used to sit in a separate GET
    // form, so the POST carried the game shown, whatever the select said).
    let post = form
        .body
        .find(r#"<form method="post" action="/admin/competitions/new""#);
    let select = form.body.find(r#"<select name="game""#);
    assert!(post.is_some() && select > post, "{}", form.body);
    form.assert_lacks(r#"<form method="get""#);
    let csrf = form.csrf();
    let ids: Vec<String> = league.submissions().iter().map(Uuid::to_string).collect();

    // Act: Splendor picked in the select, then "Create" pressed straight away
    let mut fields = vec![
        ("csrf", csrf.as_str()),
        ("action", "create"),
        ("game", "splendor"),
        ("shown_game", "nothanks"),
        ("name", "Switched"),
        ("rules", "boardcoder"),
        ("rounds", "2"),
        ("base_seed", "7"),
    ];
    fields.extend(ids.iter().map(|id| ("submission", id.as_str())));
    let page = league
        .admin
        .post_form("/admin/competitions/new", &fields)
        .await;

    // Assert: nothing built, the form is Splendor's now with the admin's other choices kept
    page.assert_status(StatusCode::CONFLICT);
    page.assert_shows(
        "The game was changed to Splendor without “Choose game”, so nothing was created",
    );
    page.assert_shows(r#"name="shown_game" value="splendor""#);
    page.assert_shows(r#"<option value="splendor" selected>"#);
    page.assert_shows(r#"value="Switched""#);
    page.assert_shows(r#"name="rounds" value="2""#);
    page.assert_shows(&format!(r#"value="{splendor}" id="s-{splendor}" checked"#));
    for e in &league.entrants {
        page.assert_lacks(&e.submission_id.to_string());
    }
    nothing_scheduled(&pool).await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn choose_game_shows_the_selected_games_form_with_the_other_fields_kept(pool: PgPool) {
    // Arrange
    let mut league = League::with_teams(&pool, 3).await;
    let splendor = ready_submission(&pool, league.entrants[0].team_id, "alice", "splendor").await;
    let csrf = league
        .admin
        .csrf("/admin/competitions/new?game=nothanks")
        .await;

    // Act: "Choose game" pressed after picking Splendor
    let page = league
        .admin
        .post_form(
            "/admin/competitions/new",
            &[
                ("csrf", csrf.as_str()),
                ("action", "choose"),
                ("game", "splendor"),
                ("shown_game", "nothanks"),
                ("name", "Gems cup"),
                ("rounds", "3"),
                ("rules", "boardcoder"),
            ],
        )
        .await;

    // Assert
    page.assert_status(StatusCode::OK);
    page.assert_shows(r#"name="shown_game" value="splendor""#);
    page.assert_shows(r#"value="Gems cup""#);
    page.assert_shows(r#"name="rounds" value="3""#);
    page.assert_shows(&format!(r#"value="{splendor}" id="s-{splendor}" checked"#));
    page.assert_lacks("boardcoder");
    nothing_scheduled(&pool).await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn choose_game_on_the_game_shown_keeps_every_choice(pool: PgPool) {
    // Arrange: the form filled in, two of three bots ticked
    let mut league = League::with_teams(&pool, 3).await;
    let csrf = league
        .admin
        .csrf("/admin/competitions/new?game=nothanks")
        .await;
    let [a, b, c] = [0, 1, 2].map(|i| league.entrants[i].submission_id);
    let (a, b) = (a.to_string(), b.to_string());

    // Act: "Choose game" (or Enter in a field) without changing the game
    let page = league
        .admin
        .post_form(
            "/admin/competitions/new",
            &[
                ("csrf", csrf.as_str()),
                ("action", "choose"),
                ("game", "nothanks"),
                ("shown_game", "nothanks"),
                ("name", "Kept"),
                ("rounds", "4"),
                ("settings", r#"{"players": 3}"#),
                ("submission", a.as_str()),
                ("submission", b.as_str()),
            ],
        )
        .await;

    // Assert
    page.assert_status(StatusCode::OK);
    page.assert_shows(r#"value="Kept""#);
    page.assert_shows(r#"name="rounds" value="4""#);
    page.assert_shows(r#"value="{"players": 3}""#);
    page.assert_shows(&format!(r#"value="{a}" id="s-{a}" checked"#));
    page.assert_shows(&format!(r#"value="{c}" id="s-{c}">"#));
    nothing_scheduled(&pool).await;
}

/// alice (of Owls) also joins Bats, made after Owls.
async fn alice_in_two_teams(league: &mut League) {
    let code = crate::helpers::invite_code(&league.admin.pool, league.entrants[1].team_id).await;
    league.entrants[0]
        .app
        .join_team(&code)
        .await
        .assert_status(StatusCode::SEE_OTHER);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_person_enters_one_team_per_competition(pool: PgPool) {
    // Arrange: four teams; alice is in Owls and in Bats.
    let mut league = League::with_teams(&pool, 4).await;
    alice_in_two_teams(&mut league).await;

    // Act and assert: a round-robin of all four is refused, naming her and both teams, and
    // nothing is stored; without Bats it is made.
    let refused = league
        .submit_form("Spring cup", &league.submissions(), "1")
        .await;
    refused.assert_status(StatusCode::BAD_REQUEST);
    refused.assert_shows(
        "alice is in both Owls and Bats: a person may enter one team per competition",
    );
    assert_eq!(count(&pool, "competition").await, 0);
    let without_bats: Vec<Uuid> = league
        .submissions()
        .into_iter()
        .filter(|s| *s != league.entrants[1].submission_id)
        .collect();
    let made = league.submit_form("Spring cup", &without_bats, "1").await;
    made.assert_status(StatusCode::SEE_OTHER);

    // A ladder enters every team's newest bot by itself: Bats stays out, the rest enter.
    let admin_id = crate::helpers::user_id(&pool, "root").await;
    let ladder = croupier_store::ladders::Ladder {
        competition_id: sqlx::query_scalar(
            "insert into competition (name, game, rules, kind, status, created_by)
             values ('Ladder', 'nothanks', 'boardcoder', 'ladder', 'running', $1)
             returning competition_id",
        )
        .bind(admin_id)
        .fetch_one(&pool)
        .await
        .expect("ladder"),
        game: "nothanks".into(),
        rules: "boardcoder".into(),
        settings: json!({}),
        entries_open: true,
        created_at: sqlx::types::time::OffsetDateTime::now_utc(),
    };
    let mut conn = pool.acquire().await.expect("connection");
    let added = croupier_store::ladders::sync_entries(&mut conn, &ladder)
        .await
        .expect("sync");
    assert_eq!(added, 3);
    let entered: Vec<String> = sqlx::query_scalar(
        "select t.name from competition_entry e join submission s using (submission_id)
         join team t using (team_id) where e.competition_id = $1 order by t.name",
    )
    .bind(ladder.competition_id)
    .fetch_all(&pool)
    .await
    .expect("entries");
    assert_eq!(entered, ["Cats", "Moles", "Owls"]);
    // Bats uploads again: still out while alice is in Owls, which is entered.
    ready_submission(&pool, league.entrants[1].team_id, "bob", "nothanks").await;
    let again = croupier_store::ladders::sync_entries(&mut conn, &ladder)
        .await
        .expect("sync");
    assert_eq!(again, 0);
}
