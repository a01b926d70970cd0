//! Sessions kept in PostgreSQL (`session` table), so they survive restarts and are shared by
//! every server process behind a load balancer.

use async_trait::async_trait;
use croupier_store::{sessions, PgPool};
use tower_sessions::session::{Id, Record};
use tower_sessions::session_store::{self, SessionStore};

#[derive(Debug, Clone)]
pub struct PgSessionStore {
    pool: PgPool,
}

impl PgSessionStore {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

fn backend(e: impl std::fmt::Display) -> session_store::Error {
    session_store::Error::Backend(e.to_string())
}

fn encode(record: &Record) -> session_store::Result<Vec<u8>> {
    serde_json::to_vec(record).map_err(|e| session_store::Error::Encode(e.to_string()))
}

/// Whose session this is (kept beside the data, so a person's sessions can be listed and ended).
fn owner(record: &Record) -> Option<uuid::Uuid> {
    record
        .data
        .get(super::USER_KEY)
        .and_then(|id| serde_json::from_value(id.clone()).ok())
}

#[async_trait]
impl SessionStore for PgSessionStore {
    async fn create(&self, record: &mut Record) -> session_store::Result<()> {
        // A fresh id collides only by astronomically bad luck; pick another if it does.
        loop {
            let data = encode(record)?;
            if sessions::insert(
                &self.pool,
                &record.id.to_string(),
                owner(record),
                &data,
                record.expiry_date,
            )
            .await
            .map_err(backend)?
            {
                return Ok(());
            }
            record.id = Id::default();
        }
    }

    /// Saves a session loaded from the store; one deleted meanwhile stays deleted (see
    /// [`sessions::update`]).
    async fn save(&self, record: &Record) -> session_store::Result<()> {
        let data = encode(record)?;
        sessions::update(
            &self.pool,
            &record.id.to_string(),
            owner(record),
            &data,
            record.expiry_date,
        )
        .await
        .map_err(backend)
    }

    async fn load(&self, id: &Id) -> session_store::Result<Option<Record>> {
        let Some(data) = sessions::load(&self.pool, &id.to_string())
            .await
            .map_err(backend)?
        else {
            return Ok(None);
        };
        serde_json::from_slice(&data)
            .map(Some)
            .map_err(|e| session_store::Error::Decode(e.to_string()))
    }

    async fn delete(&self, id: &Id) -> session_store::Result<()> {
        sessions::delete(&self.pool, &id.to_string())
            .await
            .map_err(backend)
    }
}

/// The session middleware: cookie `croupier_session`, HttpOnly, SameSite=Lax, ending after
/// `session_idle_days` without a request.
pub fn layer(state: &crate::AppState) -> tower_sessions::SessionManagerLayer<PgSessionStore> {
    tower_sessions::SessionManagerLayer::new(PgSessionStore::new(state.pool.clone()))
        .with_name("croupier_session")
        .with_http_only(true)
        .with_same_site(tower_sessions::cookie::SameSite::Lax)
        .with_secure(state.config.secure_cookies)
        .with_expiry(tower_sessions::Expiry::OnInactivity(time::Duration::days(
            state.config.session_idle_days,
        )))
}

/// Deletes expired sessions and old login attempts every ten minutes.
pub async fn sweep_expired(pool: PgPool) {
    let mut every = tokio::time::interval(std::time::Duration::from_secs(600));
    loop {
        every.tick().await;
        match sessions::delete_expired(&pool).await {
            Ok(n) if n > 0 => tracing::info!(deleted = n, "expired sessions removed"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "could not remove expired sessions"),
        }
        if let Err(e) = croupier_store::logins::prune(&pool).await {
            tracing::warn!(error = %e, "could not prune login attempts");
        }
    }
}
