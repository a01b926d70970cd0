//! Password hashing with Argon2id (the `argon2` crate's recommended defaults).

use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;

use crate::error::Error;

pub const MIN_LEN: usize = 8;
pub const MAX_LEN: usize = 256;

/// Hashes on a blocking thread: Argon2 is deliberately slow (tens of milliseconds).
pub async fn hash(password: String) -> Result<String, Error> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| Error::internal(e.to_string()))
    })
    .await
    .map_err(Error::internal)?
}

/// `true` when `password` matches the stored PHC string.
pub async fn verify(password: String, phc: String) -> Result<bool, Error> {
    tokio::task::spawn_blocking(move || {
        let parsed = PasswordHash::new(&phc).map_err(|e| Error::internal(e.to_string()))?;
        Ok(Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok())
    })
    .await
    .map_err(Error::internal)?
}

/// Verifies against a throw-away hash when the username is unknown, so that a failed login
/// takes the same time whether or not the account exists.
pub async fn dummy_verify(password: String) {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let phc = match DUMMY.get() {
        Some(phc) => phc.clone(),
        None => match hash("not a password anyone has".to_owned()).await {
            Ok(phc) => DUMMY.get_or_init(|| phc).clone(),
            Err(_) => return,
        },
    };
    let _ = verify(password, phc).await;
}

/// Checks the length rules; the message is for the user.
pub fn check_strength(password: &str) -> Result<(), Error> {
    let n = password.chars().count();
    if n < MIN_LEN {
        return Err(Error::BadRequest(format!(
            "the password must have at least {MIN_LEN} characters"
        )));
    }
    if n > MAX_LEN {
        return Err(Error::BadRequest(format!(
            "the password must have at most {MAX_LEN} characters"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hashed_password_verifies_and_a_wrong_one_does_not() {
        let phc = hash("correct horse".into()).await.unwrap();
        assert!(phc.starts_with("$argon2id$"));
        assert!(verify("correct horse".into(), phc.clone()).await.unwrap());
        assert!(!verify("wrong horse".into(), phc).await.unwrap());
    }

    #[test]
    fn short_passwords_are_refused_with_the_minimum_length() {
        let err = check_strength("short").unwrap_err();
        assert!(err.to_string().contains("at least 8"));
    }
}
