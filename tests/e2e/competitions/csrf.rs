//! The competition forms refuse a missing or foreign CSRF token with 403 and change nothing.

use axum::http::StatusCode;
use sqlx::PgPool;

use super::{schedule, set_status, League};

const CSRF_MESSAGE: &str = "this form has expired or was not sent from this site";

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_competition_forms_refuse_a_missing_or_foreign_csrf_token_and_change_nothing(
    pool: PgPool,
) {
    // Arrange: a competition with a failed match, and a token from another (admin) browser
    let mut league = League::with_teams(&pool, 3).await;
    let competition_id = league.create("1").await;
    let failed = schedule(&pool, competition_id).await[0].0;
    set_status(&pool, failed, "failed", "failed").await;
    let mut other = league.admin.new_visitor();
    other.log_in("root", crate::helpers::PASSWORD).await;
    let foreign = other.csrf("/competitions").await;
    let before: Vec<(String, i64)> = sqlx::query_as(
        "select status, count(*) from (select status from match union all select status from job
                                       union all select status from competition) s
         group by status order by status",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let ids: Vec<String> = league
        .submissions()
        .iter()
        .map(ToString::to_string)
        .collect();
    let mut create = vec![("name", "Forged"), ("game", "nothanks"), ("rounds", "1")];
    create.extend(ids.iter().map(|id| ("submission", id.as_str())));

    for path in [
        "/admin/competitions/new".to_owned(),
        format!("/admin/competitions/{competition_id}/cancel"),
        format!("/admin/competitions/{competition_id}/rerun"),
    ] {
        for token in ["", foreign.as_str()] {
            // Act
            let mut fields = vec![("csrf", token)];
            fields.extend_from_slice(&create);
            let page = league.admin.post_form(&path, &fields).await;

            // Assert
            page.assert_status(StatusCode::FORBIDDEN);
            page.assert_shows(CSRF_MESSAGE);
        }
    }
    let after: Vec<(String, i64)> = sqlx::query_as(
        "select status, count(*) from (select status from match union all select status from job
                                       union all select status from competition) s
         group by status order by status",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(before, after);
}
