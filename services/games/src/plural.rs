//! Counts with their noun, in English: `1 coin`, `2 coins`, `1 match`, `3 entries`. The one
//! helper every text that prints a count with a noun uses (engine event texts, the server's
//! pages and messages), so that nothing says "1 coins".

use std::fmt::Display;

/// `n` and `noun`, the noun in the plural unless `n` is exactly one: `count(1, "coin")` is
/// `1 coin`, `count(0, "match")` is `0 matches`.
pub fn count(n: impl Display, noun: &str) -> String {
    let n = n.to_string();
    let word = if n == "1" {
        noun.to_owned()
    } else {
        plural(noun)
    };
    format!("{n} {word}")
}

/// The English plural of a countable `noun`: `coin` → `coins`, `match` → `matches`, `entry`
/// → `entries`. Words ending in an upper-case letter (`IMP`) take a bare `s`.
pub fn plural(noun: &str) -> String {
    let lower = noun.to_ascii_lowercase();
    let consonant_y = lower.ends_with('y')
        && !lower.ends_with("ay")
        && !lower.ends_with("ey")
        && !lower.ends_with("oy")
        && !lower.ends_with("uy");
    if noun.chars().last().is_some_and(char::is_uppercase) {
        format!("{noun}s")
    } else if consonant_y {
        format!("{}ies", &noun[..noun.len() - 1])
    } else if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|e| lower.ends_with(e))
    {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1, "coin"), "1 coin");
        assert_eq!(count(0, "coin"), "0 coins");
        assert_eq!(count(2_usize, "coin"), "2 coins");
        assert_eq!(count(-1_i64, "point"), "-1 points");
        assert_eq!(count(1, "match"), "1 match");
        assert_eq!(count(3, "match"), "3 matches");
        assert_eq!(count(2, "entry"), "2 entries");
        assert_eq!(count(2, "day"), "2 days");
        assert_eq!(count(2, "IMP"), "2 IMPs");
        assert_eq!(count(4, "box"), "4 boxes");
    }
}
