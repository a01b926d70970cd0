//! Rules for names and codes that users choose, shared by the pages and the API.

use rand::Rng;

use crate::error::{Error, Result};

/// Usernames: 3–32 letters, digits, `_`, `.` or `-`.
pub fn check_username(name: &str) -> Result<()> {
    let ok = (3..=32).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
    if ok {
        Ok(())
    } else {
        Err(Error::BadRequest(
            "a username has 3 to 32 characters: letters, digits, '_', '.' or '-'".into(),
        ))
    }
}

/// An optional email: empty, or something@something of at most 254 characters.
pub fn check_email(email: &str) -> Result<()> {
    let plausible = email.len() <= 254
        && email
            .split_once('@')
            .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty())
        && !email.chars().any(|c| c.is_whitespace() || c.is_control());
    if email.is_empty() || plausible {
        Ok(())
    } else {
        Err(Error::BadRequest(
            "that email address does not look right".into(),
        ))
    }
}

/// Team names: 2–48 characters, no control characters (callers trim first).
pub fn check_team_name(name: &str) -> Result<()> {
    let n = name.chars().count();
    if !(2..=48).contains(&n) || name.chars().any(char::is_control) {
        return Err(Error::BadRequest(
            "a team name has 2 to 48 characters".into(),
        ));
    }
    Ok(())
}

/// A new invite code: 12 characters from an alphabet without look-alikes (~60 bits).
pub fn new_invite_code() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::thread_rng();
    (0..12)
        .map(|_| char::from(ALPHABET[rng.gen_range(0..ALPHABET.len())]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_allow_letters_digits_and_three_punctuation_marks_only() {
        assert!(check_username("ada_l.ove-1").is_ok());
        for bad in ["ab", "has space", "<script>", "é-accent", &"x".repeat(33)] {
            assert!(check_username(bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn invite_codes_are_twelve_unambiguous_characters() {
        let code = new_invite_code();
        assert_eq!(code.len(), 12);
        assert!(!code.contains(['0', 'O', '1', 'I']));
    }
}
