//! API tokens: `cr_` + 32 random bytes in URL-safe base64; only their SHA-256 is stored.

use base64::Engine;
use rand::RngCore;

pub const PREFIX: &str = "cr_";

/// A new random token (shown to the user once).
pub fn generate() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    format!(
        "{PREFIX}{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    )
}

/// What the database keeps.
pub fn hash(token: &str) -> [u8; 32] {
    croupier_store::blobs::digest(token.as_bytes())
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_are_prefixed_unique_and_hash_to_32_bytes() {
        let (a, b) = (super::generate(), super::generate());
        assert!(a.starts_with("cr_") && a.len() > 40);
        assert_ne!(a, b);
        assert_ne!(super::hash(&a), super::hash(&b));
    }
}
