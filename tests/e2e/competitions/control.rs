//! The admin's buttons on the progress page: cancel, and re-run failed matches.

use axum::http::StatusCode;
use sqlx::PgPool;
use uuid::Uuid;

use super::{count_where, schedule, set_status, League};

async fn statuses(pool: &PgPool, competition_id: Uuid, table: &str) -> Vec<(String, i64)> {
    let sql = match table {
        "match" => "select status, count(*) from match where competition_id = $1 group by status order by status",
        _ => "select j.status, count(*) from job j join match m using (match_id)
              where m.competition_id = $1 group by j.status order by j.status",
    };
    sqlx::query_as(sql)
        .bind(competition_id)
        .fetch_all(pool)
        .await
        .unwrap()
}

fn pairs(expected: &[(&str, i64)]) -> Vec<(String, i64)> {
    expected
        .iter()
        .map(|(s, n)| ((*s).to_owned(), *n))
        .collect()
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn cancelling_stops_the_queued_matches_and_their_jobs_and_lets_a_running_one_finish(
    pool: PgPool,
) {
    // Arrange: 6 matches, one finished and one running
    let mut league = League::with_teams(&pool, 3).await;
    let competition_id = league.create("2").await;
    let matches = schedule(&pool, competition_id).await;
    set_status(&pool, matches[0].0, "finished", "done").await;
    set_status(&pool, matches[1].0, "running", "running").await;
    let progress = format!("/competitions/{competition_id}");
    let cancel = format!("/admin/competitions/{competition_id}/cancel");

    // Act: a team member tries, then the admin
    let alice = &mut league.entrants[0].app;
    let csrf = alice.csrf(&progress).await;
    let refused = alice.post_form(&cancel, &[("csrf", csrf.as_str())]).await;
    let page = league.admin.submit_form(&progress, &cancel, &[]).await;

    // Assert
    refused.assert_status(StatusCode::FORBIDDEN);
    page.assert_redirect(&progress);
    assert_eq!(
        statuses(&pool, competition_id, "match").await,
        pairs(&[("cancelled", 4), ("finished", 1), ("running", 1)])
    );
    assert_eq!(
        statuses(&pool, competition_id, "job").await,
        pairs(&[("cancelled", 4), ("done", 1), ("running", 1)])
    );
    let shown = league.admin.get(&progress).await;
    shown.assert_shows("Cancelled: 4 queued matches will not be played");
    shown.assert_shows(r#"<span class="status cancelled big">cancelled</span>"#);
    assert!(!shown.body.contains("Cancel queued matches"));
    // Counted honestly: one played, one still running, four cancelled (never "6/6").
    let counted = "1 of 6 matches played · 1 running · 4 cancelled";
    shown.assert_shows(counted);
    let index = league.admin.get("/competitions").await;
    index.assert_shows(counted);
    index.assert_lacks("6/6");
    let board = league
        .admin
        .get(&format!("/competitions/{competition_id}/leaderboard"))
        .await;
    board.assert_shows(counted);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_competition_cancelled_before_any_match_is_played_counts_none_as_played(pool: PgPool) {
    // Arrange: three matches, all queued
    let mut league = League::with_teams(&pool, 3).await;
    let competition_id = league.create("1").await;
    let progress = format!("/competitions/{competition_id}");
    let cancel = format!("/admin/competitions/{competition_id}/cancel");

    // Act
    league.admin.submit_form(&progress, &cancel, &[]).await;
    let index = league.admin.get("/competitions").await;
    let shown = league.admin.get(&progress).await;

    // Assert
    for page in [&index, &shown] {
        page.assert_shows("0 of 3 matches played · 3 cancelled");
        page.assert_lacks("3/3");
        page.assert_lacks("3 of 3");
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn re_running_failed_matches_queues_them_again_each_with_a_fresh_job(pool: PgPool) {
    // Arrange: 3 matches, two failed after their last attempt
    let mut league = League::with_teams(&pool, 3).await;
    let competition_id = league.create("1").await;
    let matches = schedule(&pool, competition_id).await;
    for (match_id, _) in &matches[..2] {
        set_status(&pool, *match_id, "failed", "failed").await;
    }
    let progress = format!("/competitions/{competition_id}");
    let rerun = format!("/admin/competitions/{competition_id}/rerun");

    // Act
    let page = league.admin.submit_form(&progress, &rerun, &[]).await;

    // Assert
    page.assert_redirect(&progress);
    assert_eq!(
        statuses(&pool, competition_id, "match").await,
        pairs(&[("queued", 3)])
    );
    for (match_id, _) in &matches[..2] {
        let fresh = count_where(
            &pool,
            "select count(*) from job where match_id = $1 and status = 'queued' and attempt = 0",
            *match_id,
        )
        .await;
        let history = count_where(
            &pool,
            "select count(*) from job where match_id = $1 and status = 'failed'",
            *match_id,
        )
        .await;
        assert_eq!((fresh, history), (1, 1));
    }
    let shown = league.admin.get(&progress).await;
    shown.assert_shows("2 failed matches are queued again.");
    shown.assert_shows(r#"<span class="status scheduled big">scheduled</span>"#);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_finished_round_robin_refuses_pause_and_cancel_on_the_page_and_in_the_api(pool: PgPool) {
    // Arrange: every match of a round-robin played
    let mut league = League::with_teams(&pool, 3).await;
    let competition_id = league.create("1").await;
    for (match_id, _) in schedule(&pool, competition_id).await {
        set_status(&pool, match_id, "finished", "done").await;
    }
    let progress = format!("/competitions/{competition_id}");
    let token = league.admin_token().await;

    // Act: buttons left on a page opened before the end, and the API
    let paused = league
        .admin
        .submit_form(
            &progress,
            &format!("/admin/competitions/{competition_id}/pause"),
            &[],
        )
        .await;
    let cancelled = league
        .admin
        .submit_form(
            &progress,
            &format!("/admin/competitions/{competition_id}/cancel"),
            &[],
        )
        .await;
    let api = |action: &'static str| {
        let path = format!("/api/v1/admin/competitions/{competition_id}/{action}");
        let app = &league.admin;
        let token = token.clone();
        async move {
            app.api(axum::http::Method::POST, &path, Some(&token), None)
                .await
        }
    };
    let api_pause = api("pause").await;
    let api_cancel = api("cancel").await;

    // Assert: refused with the reason; the competition still reads finished
    paused.assert_redirect(&progress);
    cancelled.assert_redirect(&progress);
    api_pause.assert_error(StatusCode::CONFLICT, "the competition has finished");
    api_cancel.assert_error(StatusCode::CONFLICT, "the competition has finished");
    let shown = league.admin.get(&progress).await;
    shown.assert_shows("Nothing changed: the competition has finished: every match is played.");
    shown.assert_shows(r#"<span class="status finished big">finished</span>"#);
    let stored: String =
        sqlx::query_scalar("select status from competition where competition_id = $1")
            .bind(competition_id)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(
        stored != "paused" && stored != "cancelled",
        "stored status {stored}"
    );
}
