//! The organiser's everyday controls: pause and resume a round-robin, rename, archive and bring
//! back, delete one nothing was played in.

use axum::http::StatusCode;
use sqlx::PgPool;
use uuid::Uuid;

use super::{schedule, set_status, League};

/// Queued match jobs of the competition that a worker could claim now, and all queued ones.
async fn claimable(pool: &PgPool, competition_id: Uuid) -> (i64, i64) {
    sqlx::query_as(
        "select count(*) filter (where j.run_after <= now()), count(*)
         from job j join match m using (match_id)
         where m.competition_id = $1 and j.status = 'queued'",
    )
    .bind(competition_id)
    .fetch_one(pool)
    .await
    .unwrap()
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn pausing_a_round_robin_holds_its_queued_matches_and_resuming_releases_them(pool: PgPool) {
    // Arrange: 6 matches, one running
    let mut league = League::with_teams(&pool, 3).await;
    let id = league.create("2").await;
    let matches = schedule(&pool, id).await;
    set_status(&pool, matches[0].0, "running", "running").await;
    let page = format!("/competitions/{id}");
    let alice = &mut league.entrants[0].app;
    let csrf = alice.csrf(&page).await;
    alice
        .post_form(
            &format!("/admin/competitions/{id}/pause"),
            &[("csrf", csrf.as_str())],
        )
        .await
        .assert_status(StatusCode::FORBIDDEN);

    // Act: pause
    let paused = league
        .admin
        .submit_form(&page, &format!("/admin/competitions/{id}/pause"), &[])
        .await;

    // Assert: nothing claimable, shown paused with a Resume button
    paused.assert_redirect(&page);
    assert_eq!(claimable(&pool, id).await, (0, 5));
    let shown = league.admin.get(&page).await;
    shown.assert_shows("Paused: 5 queued matches wait");
    shown.assert_shows("<span class=\"status paused big\">paused</span>");
    shown.assert_shows(&format!("/admin/competitions/{id}/resume"));

    // Act: resume
    let resumed = league
        .admin
        .submit_form(&page, &format!("/admin/competitions/{id}/resume"), &[])
        .await;

    // Assert: all five claimable again; running again
    resumed.assert_redirect(&page);
    assert_eq!(claimable(&pool, id).await, (5, 5));
    let shown = league.admin.get(&page).await;
    shown.assert_shows("Resumed: 5 matches queued again.");
    shown.assert_shows("<span class=\"status running big\">running</span>");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_competition_is_renamed_archived_out_of_the_list_and_brought_back(pool: PgPool) {
    // Arrange
    let mut league = League::with_teams(&pool, 3).await;
    let id = league.create("1").await;
    let page = format!("/competitions/{id}");

    // Act
    league
        .admin
        .submit_form(
            &page,
            &format!("/admin/competitions/{id}/rename"),
            &[("name", "  Autumn cup ")],
        )
        .await
        .assert_redirect(&page);
    league
        .admin
        .submit_form(
            &page,
            &format!("/admin/competitions/{id}/archive"),
            &[("archived", "true")],
        )
        .await
        .assert_redirect(&page);
    let listed = league.admin.get("/competitions").await;
    let still = league.admin.get(&page).await;
    league
        .admin
        .submit_form(
            &page,
            &format!("/admin/competitions/{id}/archive"),
            &[("archived", "false")],
        )
        .await
        .assert_redirect(&page);
    let back = league.admin.get("/competitions").await;

    // Assert: renamed; archived: only under "Archived", still reachable; back: listed again
    let archived_at = listed
        .body
        .find("Archived competitions (1)")
        .expect("an archive section");
    let first_link = listed
        .body
        .find(&format!("/competitions/{id}\""))
        .expect("linked");
    assert!(
        first_link > archived_at,
        "an archived competition is listed only in the archive"
    );
    still.assert_status(StatusCode::OK);
    still.assert_shows("Autumn cup");
    still.assert_shows("This competition is archived");
    assert!(
        !back.body.contains("Archived competitions"),
        "{}",
        back.body
    );
    back.assert_shows("Autumn cup");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn only_a_competition_nothing_was_played_in_is_deleted_and_only_with_its_name_typed(
    pool: PgPool,
) {
    // Arrange: two competitions; one has a finished match
    let mut league = League::with_teams(&pool, 3).await;
    let fresh = league.create("1").await;
    let played = league.create("1").await;
    let matches = schedule(&pool, played).await;
    set_status(&pool, matches[0].0, "finished", "done").await;
    let name: String = sqlx::query_scalar("select name from competition where competition_id = $1")
        .bind(fresh)
        .fetch_one(&pool)
        .await
        .unwrap();
    let (fresh_page, played_page) = (
        format!("/competitions/{fresh}"),
        format!("/competitions/{played}"),
    );

    // Act and assert: a mistyped name changes nothing
    let mistyped = league
        .admin
        .submit_form(
            &fresh_page,
            &format!("/admin/competitions/{fresh}/delete"),
            &[("confirm", "nope")],
        )
        .await;
    mistyped.assert_redirect(&fresh_page);
    league
        .admin
        .get(&fresh_page)
        .await
        .assert_shows("Nothing changed: type the competition");

    // Act and assert: the name typed deletes it with its schedule
    let deleted = league
        .admin
        .submit_form(
            &fresh_page,
            &format!("/admin/competitions/{fresh}/delete"),
            &[("confirm", name.as_str())],
        )
        .await;
    deleted.assert_redirect("/competitions");
    league
        .admin
        .get("/competitions")
        .await
        .assert_shows("The competition Spring cup was deleted.");
    league
        .admin
        .get(&fresh_page)
        .await
        .assert_status(StatusCode::NOT_FOUND);
    let jobs: i64 = sqlx::query_scalar(
        "select count(*) from job j join match m using (match_id) where m.competition_id = $1",
    )
    .bind(fresh)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(jobs, 0);

    // Act and assert: one with a result is kept, with the reason
    let kept = league
        .admin
        .submit_form(
            &played_page,
            &format!("/admin/competitions/{played}/delete"),
            &[("confirm", name.as_str())],
        )
        .await;
    kept.assert_redirect(&played_page);
    league
        .admin
        .get(&played_page)
        .await
        .assert_shows("1 of its matches was played or being played");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_api_pauses_resumes_renames_archives_cancels_and_deletes_for_an_admin_only(
    pool: PgPool,
) {
    // Arrange: two round-robins (6 queued matches each), root's token and a team member's
    use axum::http::Method;
    use serde_json::json;
    let mut league = League::with_teams(&pool, 3).await;
    let id = league.create("2").await;
    let other = league.create("2").await;
    let root = league.admin_token().await;
    let alice = league.admin.api_user("mallory").await;
    let at = |what: &str| format!("/api/v1/admin/competitions/{id}{what}");
    let app = &league.admin;

    // Act and assert
    app.api(Method::POST, &at("/pause"), Some(&alice), None)
        .await
        .assert_status(StatusCode::FORBIDDEN);
    let paused = app
        .api(Method::POST, &at("/pause"), Some(&root), None)
        .await;
    assert_eq!(paused.json["held"], 6, "{:#}", paused.json);
    assert_eq!(claimable(&pool, id).await, (0, 6));
    app.api(Method::POST, &at("/pause"), Some(&root), None)
        .await
        .assert_status(StatusCode::OK);
    let resumed = app
        .api(Method::POST, &at("/resume"), Some(&root), None)
        .await;
    assert_eq!(resumed.json["released"], 6, "{:#}", resumed.json);
    app.api(Method::POST, &at("/resume"), Some(&root), None)
        .await
        .assert_status(StatusCode::CONFLICT);
    let renamed = app
        .api(
            Method::POST,
            &at("/rename"),
            Some(&root),
            Some(json!({ "name": " Final " })),
        )
        .await;
    assert_eq!(renamed.json["competition"]["name"], "Final");
    let set = app
        .api(
            Method::POST,
            &at("/settings"),
            Some(&root),
            Some(json!({ "settings": { "move_time_ms": 1200, "seat_cpu_millicores": 500 } })),
        )
        .await;
    set.assert_status(StatusCode::OK);
    assert_eq!(set.json["competition"]["settings"]["move_time_ms"], 1200);
    assert_eq!(
        set.json["competition"]["settings"]["seat_cpu_millicores"],
        500
    );
    app.api(
        Method::POST,
        &at("/settings"),
        Some(&root),
        Some(json!({ "settings": { "move_time_ms": 0 } })),
    )
    .await
    .assert_status(StatusCode::BAD_REQUEST);
    app.api(
        Method::POST,
        &at("/settings"),
        Some(&alice),
        Some(json!({ "settings": {} })),
    )
    .await
    .assert_status(StatusCode::FORBIDDEN);
    app.api(
        Method::POST,
        &at("/rename"),
        Some(&root),
        Some(json!({ "name": "  " })),
    )
    .await
    .assert_status(StatusCode::BAD_REQUEST);
    let archived = app
        .api(
            Method::POST,
            &at("/archive"),
            Some(&root),
            Some(json!({ "archived": true })),
        )
        .await;
    assert_eq!(archived.json["competition"]["archived"], true);
    let cancelled = app
        .api(Method::POST, &at("/cancel"), Some(&root), None)
        .await;
    assert_eq!(cancelled.json["cancelled"], 6, "{:#}", cancelled.json);
    let matches = schedule(&pool, other).await;
    set_status(&pool, matches[0].0, "running", "running").await;
    app.api(
        Method::DELETE,
        &format!("/api/v1/admin/competitions/{other}"),
        Some(&root),
        None,
    )
    .await
    .assert_status(StatusCode::CONFLICT);
    app.api(Method::DELETE, &at(""), Some(&root), None)
        .await
        .assert_status(StatusCode::OK);
    app.api(
        Method::GET,
        &format!("/api/v1/competitions/{id}/leaderboard"),
        None,
        None,
    )
    .await
    .assert_status(StatusCode::NOT_FOUND);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn settings_change_before_play_and_stay_once_a_match_has_started(pool: PgPool) {
    // Arrange: a one-round No Thanks round-robin, nothing played yet.
    let mut league = League::with_teams(&pool, 3).await;
    let id = league.create("1").await;
    let page = format!("/competitions/{id}");
    let action = format!("/admin/competitions/{id}/settings");
    let stored = |pool: PgPool| async move {
        sqlx::query_scalar::<_, serde_json::Value>(
            "select settings from competition where competition_id = $1",
        )
        .bind(id)
        .fetch_one(&pool)
        .await
        .unwrap()
    };

    // Act: the organiser sets the time per move and a seat's memory on the page.
    let saved = league
        .admin
        .submit_form(
            &page,
            &action,
            &[("move_time_ms", "1500"), ("seat_memory_mib", "256")],
        )
        .await;

    // Assert: stored, shown back in the form, the message said so.
    saved.assert_redirect(&page);
    let shown = league.admin.get(&page).await;
    shown.assert_shows("Settings saved.");
    shown.assert_shows("name=\"move_time_ms\" inputmode=\"numeric\" value=\"1500\"");
    let settings = stored(pool.clone()).await;
    assert_eq!(settings["move_time_ms"], 1500);
    assert_eq!(settings["seat_memory_mib"], 256);

    // A bad value and an out-of-range one are refused and change nothing; not for members.
    let bad = league
        .admin
        .submit_form(&page, &action, &[("move_time_ms", "fast")])
        .await;
    bad.assert_status(StatusCode::BAD_REQUEST);
    bad.assert_shows("“fast” is not a whole number");
    let zero = league
        .admin
        .submit_form(&page, &action, &[("move_time_ms", "0")])
        .await;
    zero.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(stored(pool.clone()).await, settings);
    let alice = &mut league.entrants[0].app;
    let csrf = alice.csrf(&page).await;
    alice
        .post_form(&action, &[("csrf", csrf.as_str()), ("move_time_ms", "9")])
        .await
        .assert_status(StatusCode::FORBIDDEN);

    // Once a match has started, the time and limits stay as they were played.
    let matches = schedule(&pool, id).await;
    set_status(&pool, matches[0].0, "running", "running").await;
    let refused = league
        .admin
        .submit_form(&page, &action, &[("move_time_ms", "900")])
        .await;
    refused.assert_redirect(&page);
    league
        .admin
        .get(&page)
        .await
        .assert_shows("1 of its matches has started: time and limits stay as they were played");
    assert_eq!(stored(pool.clone()).await, settings);
}
