//! Looking at (and, for set-up, changing) the database behind the app.

use sqlx::PgPool;
use uuid::Uuid;

/// Rows that an upload writes; equal before and after a refused one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stored {
    pub submissions: i64,
    pub blobs: i64,
    pub files: i64,
    pub jobs: i64,
}

impl Stored {
    pub async fn now(pool: &PgPool) -> Self {
        Stored {
            submissions: count(pool, "submission").await,
            blobs: count(pool, "blob").await,
            files: count(pool, "submission_file").await,
            jobs: count(pool, "job").await,
        }
    }

    pub const NOTHING: Stored = Stored {
        submissions: 0,
        blobs: 0,
        files: 0,
        jobs: 0,
    };
}

/// Everything a refused form must leave as it was (sessions aside).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub users: i64,
    pub admins: i64,
    pub teams: i64,
    pub members: i64,
    pub invite_codes: String,
    pub tokens: i64,
    pub live_tokens: i64,
    pub login_attempts: i64,
    pub stored: Stored,
}

impl Snapshot {
    pub async fn now(pool: &PgPool) -> Self {
        let scalar = |sql: &'static str| async move {
            sqlx::query_scalar::<_, i64>(sql)
                .fetch_one(pool)
                .await
                .expect(sql)
        };
        Snapshot {
            users: count(pool, "app_user").await,
            admins: scalar("select count(*) from app_user where is_admin").await,
            teams: count(pool, "team").await,
            members: count(pool, "team_member").await,
            invite_codes: sqlx::query_scalar::<_, Option<String>>(
                "select string_agg(invite_code, ',' order by invite_code) from team",
            )
            .fetch_one(pool)
            .await
            .expect("invite codes")
            .unwrap_or_default(),
            tokens: count(pool, "api_token").await,
            live_tokens: scalar("select count(*) from api_token where revoked_at is null").await,
            login_attempts: count(pool, "login_attempt").await,
            stored: Stored::now(pool).await,
        }
    }
}

/// Rows in `table` (a name from this file, never user input).
pub async fn count(pool: &PgPool, table: &str) -> i64 {
    sqlx::query_scalar(&format!("select count(*) from {table}"))
        .fetch_one(pool)
        .await
        .unwrap_or_else(|e| panic!("counting {table}: {e}"))
}

pub async fn user_id(pool: &PgPool, username: &str) -> Uuid {
    sqlx::query_scalar("select user_id from app_user where lower(username) = lower($1)")
        .bind(username)
        .fetch_one(pool)
        .await
        .expect("user exists")
}

/// Gives `username` the admin role straight in the database.
pub async fn make_admin(pool: &PgPool, username: &str) {
    let done = sqlx::query("update app_user set is_admin = true where lower(username) = lower($1)")
        .bind(username)
        .execute(pool)
        .await
        .expect("update");
    assert_eq!(done.rows_affected(), 1, "no user {username}");
}

pub async fn invite_code(pool: &PgPool, team_id: Uuid) -> String {
    sqlx::query_scalar("select invite_code from team where team_id = $1")
        .bind(team_id)
        .fetch_one(pool)
        .await
        .expect("team exists")
}
