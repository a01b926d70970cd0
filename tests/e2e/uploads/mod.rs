//! Bot uploads through the real multipart upload form, CSRF token included.

mod accepted;
mod entry;
mod refused;
mod table;

use sqlx::PgPool;
use uuid::Uuid;

use crate::helpers::TestApp;

/// alice, logged in, owner of the team Owls.
async fn alice_and_her_team(app: TestApp) -> (TestApp, Uuid) {
    let mut alice = app;
    alice.sign_up("alice").await;
    let team_id = alice.create_team("Owls").await;
    (alice, team_id)
}

/// The submission id a successful upload redirected to.
fn submission_of(page: &crate::helpers::Page) -> Uuid {
    page.assert_status(axum::http::StatusCode::SEE_OTHER);
    crate::helpers::uuid_after(page.location().expect("location"), "/submissions/")
}

async fn scalar<T>(pool: &PgPool, sql: &str, id: Uuid) -> T
where
    T: for<'r> sqlx::Decode<'r, sqlx::Postgres> + sqlx::Type<sqlx::Postgres> + Send + Unpin,
{
    sqlx::query_scalar(sql)
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}
