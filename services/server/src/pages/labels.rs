//! Small text helpers the competition and match templates call.

use croupier_store::EndState;

/// `1st`, `2nd`, `3rd`, `4th`, … `11th`, `21st`.
pub fn place(rank: &i32) -> String {
    let suffix = match (rank % 10, rank % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{rank}{suffix}")
}

/// What an end state means, for people.
pub fn end_state(state: &EndState) -> &'static str {
    match state {
        EndState::Ok => "played to the end",
        EndState::TimeLimit => "too slow: went over the time allowed for a move",
        EndState::MemoryLimit => "went over the memory limit",
        EndState::Crashed => "the program crashed or exited before the end",
        EndState::OutputLimit => "wrote more output than allowed",
        EndState::InvalidOutput => "sent a message the protocol does not allow",
        EndState::IllegalAction => "tried a move the rules forbid",
        EndState::SetupError => "the platform could not start it (not the bot's fault)",
    }
}

/// `Owls v3`, or the built-in bot's name.
pub fn seat_name(team: &Option<String>, version: &Option<i32>, builtin: &Option<String>) -> String {
    match (team, version, builtin) {
        (Some(team), Some(v), _) => format!("{team} v{v}"),
        (_, _, Some(b)) => format!("{b} (built-in)"),
        _ => "?".to_owned(),
    }
}

/// A score without needless decimals.
pub fn score(score: &f64) -> String {
    if score.fract() == 0.0 && score.abs() < 1e15 {
        format!("{score:.0}")
    } else {
        format!("{score:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_read_as_english_ordinals() {
        let read: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101]
            .iter()
            .map(place)
            .collect();
        assert_eq!(
            read,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
        );
    }

    #[test]
    fn scores_drop_needless_decimals() {
        assert_eq!(score(&28.0), "28");
        assert_eq!(score(&-3.0), "-3");
        assert_eq!(score(&2.5), "2.50");
    }
}
