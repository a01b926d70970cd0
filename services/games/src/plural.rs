//! Counts with their noun, in English: `1 coin`, `2 coins`, `1 match`, `3 entries`. The one
//! helper every engine text that prints a count with a noun uses (event log lines, refusals),
//! so that nothing says "1 coins".
//!
//! [`count`] writes straight into the formatter it is displayed with, allocating nothing: an
//! event's log line is written for every move of every match (a No Thanks move's line cost
//! four allocations per count before).

use std::fmt::{self, Display, Write};

/// `n` and `noun`, displayed with the noun in the plural unless `n` is exactly one:
/// `count(1, "coin")` shows `1 coin`, `count(0, "match")` shows `0 matches`.
pub fn count<N: Display>(n: N, noun: &str) -> Count<'_, N> {
    Count { n, noun }
}

/// A count and its noun, as [`count`] displays them.
#[derive(Debug, Clone, Copy)]
pub struct Count<'a, N> {
    n: N,
    noun: &'a str,
}

impl<N: Display> Display for Count<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The number is written once, into room on the stack, to see whether it reads "1".
        let mut digits = Digits::default();
        let one = match write!(digits, "{}", self.n) {
            Ok(()) => {
                let text = digits.text();
                f.write_str(text)?;
                text == "1"
            }
            // Longer than any number: written as it is, and never one.
            Err(fmt::Error) => {
                write!(f, "{}", self.n)?;
                false
            }
        };
        f.write_char(' ')?;
        if one {
            f.write_str(self.noun)
        } else {
            let (stem, suffix) = plural_parts(self.noun);
            f.write_str(stem)?;
            f.write_str(suffix)
        }
    }
}

/// A number's text, up to 40 bytes, on the stack.
struct Digits {
    bytes: [u8; 40],
    len: usize,
}

impl Default for Digits {
    fn default() -> Self {
        Digits {
            bytes: [0; 40],
            len: 0,
        }
    }
}

impl Digits {
    fn text(&self) -> &str {
        self.bytes
            .get(..self.len)
            .and_then(|b| std::str::from_utf8(b).ok())
            .unwrap_or("")
    }
}

impl Write for Digits {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let room = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        room.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// The English plural of a countable `noun`: `coin` → `coins`, `match` → `matches`, `entry`
/// → `entries`. Words ending in an upper-case letter (`IMP`) take a bare `s`.
pub fn plural(noun: &str) -> String {
    let (stem, suffix) = plural_parts(noun);
    format!("{stem}{suffix}")
}

/// The plural of `noun` as its stem and the ending to add.
fn plural_parts(noun: &str) -> (&str, &'static str) {
    let ends = |end: &str| {
        noun.as_bytes()
            .get(noun.len().saturating_sub(end.len())..)
            .is_some_and(|tail| tail.eq_ignore_ascii_case(end.as_bytes()))
    };
    let consonant_y = ends("y") && !["ay", "ey", "oy", "uy"].iter().any(|e| ends(e));
    if noun.chars().last().is_some_and(char::is_uppercase) {
        (noun, "s")
    } else if consonant_y {
        (noun.get(..noun.len() - 1).unwrap_or(noun), "ies")
    } else if ["s", "x", "z", "ch", "sh"].iter().any(|e| ends(e)) {
        (noun, "es")
    } else {
        (noun, "s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        let cases: [(String, &str); 13] = [
            (count(1, "coin").to_string(), "1 coin"),
            (count(0, "coin").to_string(), "0 coins"),
            (count(2_usize, "coin").to_string(), "2 coins"),
            (count(-1_i64, "point").to_string(), "-1 points"),
            (count(1, "match").to_string(), "1 match"),
            (count(3, "match").to_string(), "3 matches"),
            (count(2, "entry").to_string(), "2 entries"),
            (count(2, "day").to_string(), "2 days"),
            (count(2, "IMP").to_string(), "2 IMPs"),
            (count(4, "box").to_string(), "4 boxes"),
            (count(11, "card").to_string(), "11 cards"),
            (count(1.0, "point").to_string(), "1 point"),
            (count(1.5, "point").to_string(), "1.5 points"),
        ];
        for (said, want) in cases {
            assert_eq!(said, want);
        }
    }

    #[test]
    fn endings_are_read_without_regard_to_case() {
        assert_eq!(format!("[{}]", count(7_u8, "Day")), "[7 Days]");
        assert_eq!(format!("[{}]", count(2, "ey")), "[2 eys]");
        assert_eq!(format!("[{}]", count(2, "y")), "[2 ies]");
    }

    #[test]
    fn a_number_longer_than_the_room_is_written_whole_and_plural() {
        struct Long;
        impl Display for Long {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&"9".repeat(50))
            }
        }
        assert_eq!(
            count(Long, "coin").to_string(),
            format!("{} coins", "9".repeat(50))
        );
    }

    #[test]
    fn plural_alone() {
        assert_eq!(plural("coin"), "coins");
        assert_eq!(plural("entry"), "entries");
        assert_eq!(plural("Match"), "Matches");
        assert_eq!(plural("IMP"), "IMPs");
    }
}
