//! CSRF protection for every HTML form (synchronizer token pattern).
//!
//! Each session holds a random token; every form carries it in a hidden `csrf` field and
//! every state-changing form handler checks it, through [`CsrfForm`] for url-encoded forms
//! or [`verify`] for the multipart upload form. A token from another session, an expired
//! session or a missing field is refused with 403 and nothing is changed.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use base64::Engine;
use rand::RngCore;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use subtle::ConstantTimeEq;
use tower_sessions::Session;

use super::CSRF_KEY;
use crate::error::Error;

/// The session's token, created on first use.
pub async fn token(session: &Session) -> Result<String, Error> {
    if let Some(t) = session.get::<String>(CSRF_KEY).await? {
        return Ok(t);
    }
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    let t = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    session.insert(CSRF_KEY, &t).await?;
    Ok(t)
}

/// Checks a submitted token against the session's.
pub async fn verify(session: &Session, submitted: &str) -> Result<(), Error> {
    let expected = session.get::<String>(CSRF_KEY).await?.ok_or(Error::Csrf)?;
    if submitted.is_empty() || !bool::from(expected.as_bytes().ct_eq(submitted.as_bytes())) {
        return Err(Error::Csrf);
    }
    Ok(())
}

/// Forms that carry the hidden `csrf` field.
pub trait HasCsrf {
    fn csrf(&self) -> &str;
}

/// A url-encoded form whose CSRF token has been checked against the session.
pub struct CsrfForm<T>(pub T);

impl<S, T> FromRequest<S> for CsrfForm<T>
where
    S: Send + Sync,
    T: DeserializeOwned + HasCsrf + Send,
{
    type Rejection = Error;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        #[derive(Deserialize)]
        struct TokenOnly {
            #[serde(default)]
            csrf: String,
        }
        let session = req
            .extensions()
            .get::<Session>()
            .cloned()
            .ok_or(Error::Csrf)?;
        let body = Bytes::from_request(req, state).await.map_err(|e| {
            Error::BadRequest(format!("the form could not be read: {}", e.body_text()))
        })?;
        // The token first: a forged or stale form is refused as such, whatever else it holds.
        let token = serde_urlencoded::from_bytes::<TokenOnly>(&body)
            .map_or_else(|_| String::new(), |t| t.csrf);
        verify(&session, &token).await?;
        let form = serde_urlencoded::from_bytes::<T>(&body)
            .map_err(|e| Error::BadRequest(format!("the form could not be read: {e}")))?;
        Ok(CsrfForm(form))
    }
}

/// Implements [`HasCsrf`] for form structs with a `csrf: String` field.
#[macro_export]
macro_rules! has_csrf {
    ($($t:ty),* $(,)?) => {
        $(impl $crate::auth::csrf::HasCsrf for $t {
            fn csrf(&self) -> &str { &self.csrf }
        })*
    };
}
