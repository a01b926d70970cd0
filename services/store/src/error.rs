//! The store's error type, and a helper to turn constraint violations into user errors.

/// What can go wrong in a store call.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The row does not exist (or the caller may not see it).
    #[error("not found")]
    NotFound,
    /// A uniqueness or check constraint refused the write; the message is for the user.
    #[error("{0}")]
    Conflict(String),
    /// Anything else from the database: a platform fault, logged, never shown.
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// The object store holding blobs failed, or is not configured: a platform fault.
    #[error("{0}")]
    Blobs(String),
}

/// Maps a named constraint violation to a caller-chosen error, leaving every other error as is.
///
/// ```ignore
/// users::create(&pool, ..).await.on_constraint("app_user_username_key", |_| {
///     StoreError::Conflict("that username is taken".into())
/// })?;
/// ```
pub trait ResultExt<T> {
    fn on_constraint(
        self,
        name: &str,
        f: impl FnOnce(Box<dyn sqlx::error::DatabaseError>) -> StoreError,
    ) -> Result<T, StoreError>;
}

impl<T, E> ResultExt<T> for Result<T, E>
where
    E: Into<StoreError>,
{
    fn on_constraint(
        self,
        name: &str,
        f: impl FnOnce(Box<dyn sqlx::error::DatabaseError>) -> StoreError,
    ) -> Result<T, StoreError> {
        self.map_err(|e| match e.into() {
            StoreError::Database(sqlx::Error::Database(dbe)) if dbe.constraint() == Some(name) => {
                f(dbe)
            }
            other => other,
        })
    }
}
