//! Challenges and A/B tests on the site: the competition's form starts them (opponents among
//! the entries, the team's own versions and built-ins; two of the team's versions for an A/B
//! test), the team's page and `/teams/{id}/challenges` list them, the A/B page names A and B by
//! version and label and polls while it runs. The budget: a table with a person uses none of
//! it, and a spent one says when the next challenge may start.

use axum::http::{Method, StatusCode};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

use super::{ready_submission, League};
use crate::helpers::{user_id, PASSWORD};

/// The challenge a form's redirect leads to.
fn challenge_of(location: Option<&str>) -> Uuid {
    let location = location.expect("a redirect");
    (location.strip_prefix("/challenges/"))
        .unwrap_or_else(|| panic!("to a challenge's page, not {location}"))
        .parse()
        .expect("a challenge id")
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_team_starts_a_challenge_and_an_ab_test_from_the_site_and_finds_them_listed(
    pool: PgPool,
) {
    // Arrange: Owls (alice) with versions 1 and 2 (labelled), Bats and Cats entered in a cup
    let mut league = League::with_teams(&pool, 3).await;
    let c = league.create("1").await;
    let owls = league.entrants[0].team_id;
    let v1 = league.entrants[0].submission_id;
    let bats_v1 = league.entrants[1].submission_id;
    let v2 = ready_submission(&pool, owls, "alice", "nothanks").await;
    sqlx::query("update submission set label = 'greedy' where submission_id = $1")
        .bind(v2)
        .execute(&pool)
        .await
        .expect("a label");
    let alice = &mut league.entrants[0].app;

    // Act: the form, a challenge of v1 against Bats and a built-in, an A/B test of v2 and v1
    let form = alice.get(&format!("/competitions/{c}/challenges")).await;
    let csrf = crate::helpers::csrf_in(&form.text());
    let team = owls.to_string();
    let (s0, s2) = (format!("submission:{v1}"), format!("submission:{bats_v1}"));
    let started = alice
        .post_form(
            &format!("/competitions/{c}/challenges"),
            &[
                ("csrf", &csrf),
                ("team_id", &team),
                ("games", "1"),
                ("seat_0", &s0),
                ("seat_1", "builtin:random"),
                ("seat_2", &s2),
            ],
        )
        .await;
    let challenge = challenge_of(started.location());
    let (a, b) = (v2.to_string(), v1.to_string());
    let started = alice
        .post_form(
            &format!("/competitions/{c}/ab_tests"),
            &[
                ("csrf", &csrf),
                ("team_id", &team),
                ("a", &a),
                ("b", &b),
                ("max_games", "10"),
            ],
        )
        .await;
    let ab = challenge_of(started.location());

    // Assert: the form offered entries, own versions (with their label) and built-ins
    form.assert_status(StatusCode::OK);
    for offered in [
        "Bats v1 (entered)",
        "Owls v2 · greedy (your team)",
        "built-in random",
        "Version A",
    ] {
        form.assert_shows(offered);
    }
    // the A/B page names A and B by version and label, and follows the test while it runs
    let page = alice.get(&format!("/challenges/{ab}")).await;
    page.assert_status(StatusCode::OK);
    page.assert_shows("Owls v2 · greedy");
    assert!(
        page.body
            .contains(r#"<dt>A</dt><dd data-ab="a">Owls v2 · greedy</dd>"#),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains(r#"<dt>B</dt><dd data-ab="b">Owls v1</dd>"#),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains(&format!(r#"data-poll="/challenges/{ab}?fragment=live""#)),
        "{}",
        page.body
    );
    assert!(page.body.contains("/static/poll.js"), "{}", page.body);
    assert!(!page.text().contains("submission "), "{}", page.body);
    let part = alice.get(&format!("/challenges/{ab}?fragment=live")).await;
    part.assert_status(StatusCode::OK);
    assert!(
        part.body.contains(r#"<div id="challenge-live""#),
        "{}",
        part.body
    );
    assert!(!part.body.contains("<html"), "only the part: {}", part.body);
    // the challenge's page names its seats' versions
    let page = alice.get(&format!("/challenges/{challenge}")).await;
    page.assert_status(StatusCode::OK);
    // the team's list and its page show both, newest first
    let list = alice.get(&format!("/teams/{owls}/challenges")).await;
    list.assert_status(StatusCode::OK);
    list.assert_shows("A: Owls v2 · greedy · B: Owls v1");
    list.assert_shows("Owls v1, built-in random, Bats v1");
    let text = list.text();
    assert!(
        text.find("A/B test") < text.find("Owls v1, built-in random"),
        "newest first: {text}"
    );
    let team_page = alice.get(&format!("/teams/{owls}")).await;
    team_page.assert_shows("A: Owls v2 · greedy · B: Owls v1");
    assert!(
        team_page
            .body
            .contains(&format!(r#"href="/competitions/{c}/challenges""#)),
        "the team page links the competitions' forms: {}",
        team_page.body
    );
    // nobody else sees them
    let bob = &mut league.entrants[1].app;
    bob.get(&format!("/teams/{owls}/challenges"))
        .await
        .assert_status(StatusCode::NOT_FOUND);
}

/// `n` challenges of `team` started `minutes_ago`.
async fn started_before(pool: &PgPool, c: Uuid, team: Uuid, user: Uuid, n: i32, minutes_ago: i32) {
    sqlx::query(
        "insert into challenge (competition_id, team_id, created_by, kind, seats, games, base_seed,
                                created_at)
         select $1, $2, $3, 'challenge', '[]', 1, 1, now() - make_interval(mins => $5)
         from generate_series(1, $4)",
    )
    .bind(c)
    .bind(team)
    .bind(user)
    .bind(n)
    .bind(minutes_ago)
    .execute(pool)
    .await
    .expect("challenges");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_spent_budget_says_when_the_next_challenge_may_start_and_tables_never_spend_it(
    pool: PgPool,
) {
    // Arrange: Owls started 20 challenges (the hourly budget), the oldest 40 minutes ago
    let mut league = League::with_teams(&pool, 3).await;
    let c = league.create("1").await;
    let owls = league.entrants[0].team_id;
    let alice_id = user_id(&pool, "alice").await;
    started_before(&pool, c, owls, alice_id, 1, 40).await;
    started_before(&pool, c, owls, alice_id, 19, 10).await;
    let next: String = sqlx::query_scalar(
        "select to_char(date_trunc('minute', min(created_at) + interval '61 minutes')
                        at time zone 'UTC', 'HH24:MI')
         from challenge where team_id = $1",
    )
    .bind(owls)
    .fetch_one(&pool)
    .await
    .expect("the time");
    let alice = &mut league.entrants[0];
    let login = json!({"username": "alice", "password": PASSWORD});
    let token = alice
        .app
        .api(Method::POST, "/api/v1/tokens", None, Some(login))
        .await;
    let token = token.json["token"].as_str().expect("a token").to_owned();
    let path = format!("/api/v1/competitions/{c}/challenges");
    let bot = json!({"builtin": "random"});

    // Act: one more challenge over the API and through the form, and a table with alice
    let refused = alice
        .app
        .api(
            Method::POST,
            &path,
            Some(&token),
            Some(json!({"team_id": owls, "seats": [bot, bot, bot]})),
        )
        .await;
    let form = alice
        .app
        .get(&format!("/competitions/{c}/challenges"))
        .await;
    let csrf = crate::helpers::csrf_in(&form.text());
    let team = owls.to_string();
    let on_page = alice
        .app
        .post_form(
            &format!("/competitions/{c}/challenges"),
            &[
                ("csrf", &csrf),
                ("team_id", &team),
                ("games", "1"),
                ("seat_0", "builtin:random"),
                ("seat_1", "builtin:random"),
                ("seat_2", "builtin:random"),
            ],
        )
        .await;
    let table = alice
        .app
        .api(
            Method::POST,
            &path,
            Some(&token),
            Some(json!({"team_id": owls, "seats": [{"human": true}, bot, bot]})),
        )
        .await;

    // Assert: refused with the time the next may start, on the API and on the page (and the
    // form says so before it is sent); the table is started all the same
    refused.assert_error(
        StatusCode::TOO_MANY_REQUESTS,
        &format!("the next may start at {next} UTC"),
    );
    on_page.assert_status(StatusCode::TOO_MANY_REQUESTS);
    on_page.assert_shows(&format!("the next may start at {next} UTC"));
    form.assert_shows(&format!("the next may start at {next} UTC"));
    table.assert_status(StatusCode::CREATED);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_running_tables_page_shows_how_long_it_has_run_and_the_moves_so_far(pool: PgPool) {
    // Arrange: alice at a table that has run for 75 s, its worker having published 4 moves
    let mut league = League::with_teams(&pool, 3).await;
    let c = league.create("1").await;
    let owls = league.entrants[0].team_id;
    let alice = &mut league.entrants[0].app;
    let login = json!({"username": "alice", "password": PASSWORD});
    let token = alice
        .api(Method::POST, "/api/v1/tokens", None, Some(login))
        .await;
    let token = token.json["token"].as_str().expect("a token").to_owned();
    let bot = json!({"builtin": "random"});
    let table = alice
        .api(
            Method::POST,
            &format!("/api/v1/competitions/{c}/challenges"),
            Some(&token),
            Some(json!({"team_id": owls, "seats": [{"human": true}, bot, bot]})),
        )
        .await;
    table.assert_status(StatusCode::CREATED);
    let match_id: Uuid = table.json["match_list"][0]["match_id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("the table's match");
    sqlx::query(
        "update match set status = 'running', started_at = now() - interval '75 seconds'
         where match_id = $1",
    )
    .bind(match_id)
    .execute(&pool)
    .await
    .expect("running");
    // As the worker publishes it while the referee plays.
    croupier_store::matches::progress::publish(&pool, match_id, 0, 4)
        .await
        .expect("published");

    // Act
    let page = alice.get(&format!("/matches/{match_id}")).await;
    let part = alice.get(&format!("/matches/{match_id}/progress")).await;
    sqlx::query("update match set status = 'cancelled' where match_id = $1")
        .bind(match_id)
        .execute(&pool)
        .await
        .expect("ended");
    let ended = alice.get(&format!("/matches/{match_id}/progress")).await;

    // Assert: the page and its live part say how long and how far; once over, the part
    // reloads the page
    page.assert_status(StatusCode::OK);
    page.assert_shows("Running for");
    page.assert_shows("1 min 1");
    page.assert_shows("4 moves played in game 1");
    assert!(page.body.contains("/static/poll.js"), "{}", page.body);
    part.assert_status(StatusCode::OK);
    part.assert_shows("4 moves played in game 1");
    assert!(
        part.body
            .contains(&format!(r#"data-poll="/matches/{match_id}/progress""#)),
        "{}",
        part.body
    );
    assert!(ended.body.contains("data-reload"), "{}", ended.body);
    assert!(!ended.body.contains("data-poll"), "{}", ended.body);
}
