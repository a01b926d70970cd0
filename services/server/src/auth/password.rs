//! Password hashing with Argon2id (the `argon2` crate's recommended defaults), the bound on
//! how many hashes run at once ([`Gate`]), and the strength rules for new passwords.
//!
//! Each Argon2 hash takes ~19 MiB and tens of milliseconds of one core. Unbounded, a burst of
//! logins runs them all at once on blocking threads (200 logins: 3 GB that the allocator keeps).
//! The [`Gate`] lets as many run as there are cores, queues a few more, and refuses the rest
//! with [`Error::Busy`] (503 with `Retry-After`) instead of letting the server swell.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;
use tokio::sync::{oneshot, Semaphore, SemaphorePermit};

use crate::error::Error;
use crate::i18n::{self, Lang};

pub const MIN_LEN: usize = 8;
pub const MAX_LEN: usize = 256;
/// The least zxcvbn score (0–4) of a new password: 3 is "safely unguessable: moderate
/// protection from an offline slow-hash scenario".
pub const MIN_SCORE: u8 = 3;

/// Seconds a refused caller is told to wait before trying again.
pub const BUSY_RETRY_SECS: u64 = 2;

/// Bounds concurrent Argon2 work: `running` at once, `queued` more waiting, the rest refused.
/// The hashes run on `running` threads of the gate's own, kept for its life: the allocator
/// keeps a memory arena per thread that ever hashed, so a fixed set of threads (rather than
/// tokio's growing blocking pool) also bounds what a burst leaves behind.
#[derive(Debug)]
pub struct Gate {
    running: Semaphore,
    waiting: AtomicUsize,
    queued: usize,
    hashers: mpsc::Sender<Job>,
}

type Job = Box<dyn FnOnce() + Send>;

impl Gate {
    pub fn new(running: usize, queued: usize) -> Self {
        let running = running.max(1);
        Gate {
            running: Semaphore::new(running),
            waiting: AtomicUsize::new(0),
            queued,
            hashers: hashers(running),
        }
    }

    /// A turn to hash, waiting in the queue if it has room; [`Error::Busy`] if it has not.
    async fn enter(&self) -> Result<SemaphorePermit<'_>, Error> {
        if let Ok(permit) = self.running.try_acquire() {
            return Ok(permit);
        }
        let ahead = self.waiting.fetch_add(1, Ordering::SeqCst);
        let _leave = Leave(&self.waiting);
        if ahead >= self.queued {
            metrics::counter!("password_hashing_refused_total").increment(1);
            return Err(Error::Busy(BUSY_RETRY_SECS));
        }
        self.running.acquire().await.map_err(Error::internal)
    }

    /// Runs `work` on one of the gate's threads when the gate gives a turn.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Error> {
        let _turn = self.enter().await?;
        let (tx, rx) = oneshot::channel();
        self.hashers
            .send(Box::new(move || {
                let _ = tx.send(work());
            }))
            .map_err(|_| Error::internal("the password hashing threads are gone"))?;
        rx.await
            .map_err(|_| Error::internal("a password hash panicked"))
    }
}

/// `n` threads running the jobs sent on the returned channel; they end when it is dropped.
fn hashers(n: usize) -> mpsc::Sender<Job> {
    let (tx, rx) = mpsc::channel::<Job>();
    let rx = Arc::new(Mutex::new(rx));
    for i in 0..n {
        let rx = rx.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("croupier-hash-{i}"))
            .spawn(move || loop {
                let job = match rx.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => return,
                };
                match job {
                    Ok(job) => {
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                    }
                    Err(_) => return,
                }
            });
        if let Err(e) = spawned {
            tracing::error!(error = %e, "cannot start a password hashing thread");
        }
    }
    tx
}

/// Leaves the queue however the wait ends (a turn, a refusal, a dropped request).
struct Leave<'a>(&'a AtomicUsize);

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Hashes on a blocking thread: Argon2 is deliberately slow (tens of milliseconds). Unbounded:
/// for the command line; the web app goes through [`hash_gated`].
pub async fn hash(password: String) -> Result<String, Error> {
    tokio::task::spawn_blocking(move || hash_now(&password))
        .await
        .map_err(Error::internal)?
}

/// Hashes `password` with a fresh salt into a PHC string.
fn hash_now(password: &str) -> Result<String, Error> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| Error::internal(e.to_string()))
}

/// [`hash`], on the gate's threads when it gives a turn.
pub async fn hash_gated(gate: &Gate, password: String) -> Result<String, Error> {
    gate.run(move || hash_now(&password)).await?
}

/// `true` when `password` matches the stored PHC string, checked on the gate's threads when
/// it gives a turn.
pub async fn verify(gate: &Gate, password: String, phc: String) -> Result<bool, Error> {
    gate.run(move || {
        let parsed = PasswordHash::new(&phc).map_err(|e| Error::internal(e.to_string()))?;
        Ok(Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok())
    })
    .await?
}

/// Verifies against a throw-away hash when the username is unknown, so that a failed login
/// takes the same time whether or not the account exists.
pub async fn dummy_verify(gate: &Gate, password: String) -> Result<(), Error> {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let phc = match DUMMY.get() {
        Some(phc) => phc.clone(),
        None => {
            let phc = hash_gated(gate, "not a password anyone has".to_owned()).await?;
            DUMMY.get_or_init(|| phc).clone()
        }
    };
    verify(gate, password, phc).await.map(drop)
}

/// Checks a new password: its length, and that it is not easy to guess (zxcvbn, knowing the
/// account's `names`: username, email). The message says why, for the user, in the request's
/// language; zxcvbn's own advice is in English only, so other languages give the general one.
pub fn check_strength(password: &str, names: &[&str]) -> Result<(), Error> {
    let n = password.chars().count();
    if n < MIN_LEN {
        let short = i18n::t_with("password-too-short", &[("n", &MIN_LEN)]);
        return Err(Error::BadRequest(short));
    }
    if n > MAX_LEN {
        let long = i18n::t_with("password-too-long", &[("n", &MAX_LEN)]);
        return Err(Error::BadRequest(long));
    }
    let names: Vec<&str> = names.iter().copied().filter(|s| !s.is_empty()).collect();
    let estimate = zxcvbn::zxcvbn(password, &names);
    if u8::from(estimate.score()) >= MIN_SCORE {
        return Ok(());
    }
    let mut why = vec![i18n::t("password-too-easy")];
    if let (Some(feedback), Lang::En) = (estimate.feedback(), i18n::current()) {
        if let Some(warning) = feedback.warning() {
            why.push(warning.to_string().trim_end_matches('.').to_lowercase());
        }
        why.extend(
            (feedback.suggestions().iter())
                .map(|s| s.to_string().trim_end_matches('.').to_lowercase()),
        );
    }
    if why.len() == 1 {
        why.push(i18n::t("password-add-words"));
    }
    let why = why.join(&i18n::t("password-why-sep"));
    let message = i18n::t_with("password-why", &[("why", &why)]);
    Err(Error::BadRequest(message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hashed_password_verifies_and_a_wrong_one_does_not() {
        let gate = Gate::new(1, 1);
        let phc = hash_gated(&gate, "correct horse".into()).await.unwrap();
        assert!(phc.starts_with("$argon2id$"));
        assert!(verify(&gate, "correct horse".into(), phc.clone())
            .await
            .unwrap());
        assert!(!verify(&gate, "wrong horse".into(), phc).await.unwrap());
    }

    #[test]
    fn short_passwords_are_refused_with_the_minimum_length() {
        let err = check_strength("short", &[]).unwrap_err();
        assert!(err.to_string().contains("at least 8"));
    }

    #[test]
    fn guessable_passwords_are_refused_saying_why() {
        for weak in ["password", "password-1", "qwertyuiop", "aaaaaaaaaaaa"] {
            let err = check_strength(weak, &[]).expect_err(weak).to_string();
            assert!(err.contains("too easy to guess"), "{weak}: {err}");
        }
        let err = check_strength("mallory-2026", &["mallory"]).unwrap_err();
        assert!(err.to_string().contains("too easy to guess"), "{err}");
        assert!(check_strength("violet kettle sprinting upward", &[]).is_ok());
    }

    #[tokio::test]
    async fn a_full_queue_refuses_at_once() {
        let gate = Gate::new(1, 1);
        let _running = gate.enter().await.unwrap();
        let waiting = gate.enter();
        tokio::pin!(waiting);
        assert!(futures_poll_once(waiting.as_mut()).await.is_none());
        assert!(matches!(gate.enter().await, Err(Error::Busy(_))));
    }

    /// Polls once; `None` when the future is still pending.
    async fn futures_poll_once<F: std::future::Future + Unpin>(f: F) -> Option<F::Output> {
        tokio::select! {
            biased;
            out = f => Some(out),
            () = std::future::ready(()) => None,
        }
    }
}
