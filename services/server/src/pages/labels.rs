//! Small text helpers the competition and match templates call. Game-specific words (seat
//! names, what a game of a match is called, whether seats play as partners) come from the
//! game registry (`croupier_games::GameDef`), never from a test on the game's id.

use std::fmt::Display;

use croupier_games::{GameDef, GameId};
use croupier_store::competitions::Progress;
use croupier_store::EndState;

use crate::i18n::{self, Lang};

/// The registry entry of the game `id`, if the game is hosted.
fn def(id: &str) -> Option<&'static GameDef> {
    id.parse::<GameId>().ok().map(GameId::def)
}

/// The text for `key` in the page's language with `values` (numbers, for plural forms) and
/// `names` filled in. (`i18n::t_with` never reads a name as a number: `007` stays `007`.)
pub fn tk(key: &str, values: &[(&str, &dyn Display)], names: &[(&str, &str)]) -> String {
    let mut args: Vec<(&str, &dyn Display)> = values.to_vec();
    args.extend(
        names
            .iter()
            .map(|(name, value)| (*name, value as &dyn Display)),
    );
    i18n::t_with(key, &args)
}

/// One word of a page's script: its key and the names of its arguments (see
/// [`i18n::script_words`]). The word lists import it as `t`, so that each key is named as the
/// pages' keys are.
pub const fn script_word(
    key: &'static str,
    args: &'static [&'static str],
) -> (&'static str, &'static [&'static str]) {
    (key, args)
}

/// Seat `seat` of a match of `game` as players say it: `N`, `E`, `S`, `W` at Bridge, the
/// number elsewhere.
pub fn seat(game: &str, seat: &i32) -> String {
    match (def(game), usize::try_from(*seat)) {
        (Some(d), Ok(s)) => seat_word(&d.seat_name(s)),
        _ => seat.to_string(),
    }
}

/// A seat's name in the page's language: Bridge's compass letters (`N` is 北 in Chinese), a
/// number as it is.
fn seat_word(name: &str) -> String {
    match name {
        "N" => i18n::t("label-seat-north"),
        "E" => i18n::t("label-seat-east"),
        "S" => i18n::t("label-seat-south"),
        "W" => i18n::t("label-seat-west"),
        other => other.to_owned(),
    }
}

/// `Game 2`, or what the game calls one game of a match (`Board 2`).
pub fn game_title(game: &str, number: &usize) -> String {
    match def(game).map_or("game", |d| d.game_noun) {
        "board" => i18n::t_with("label-board-title", &[("n", number)]),
        "game" => i18n::t_with("label-game-title", &[("n", number)]),
        noun => {
            let mut chars = noun.chars();
            let capital: String = chars
                .next()
                .into_iter()
                .flat_map(char::to_uppercase)
                .collect();
            format!("{capital}{} {number}", chars.as_str())
        }
    }
}

/// The place of each seat of a finished match of `game`, from the seats' ranks (`ranks[i]` is
/// seat `i`'s): 1 + the number of other sides with a seat ranked better, so that in a game of
/// two partnerships the losers are 2nd (not 3rd) and sides that tie share a place. `None` where
/// a seat has no rank, or where a match's ranks decide nothing by themselves (Bridge: the
/// result needs the other table of the duplicate set).
pub fn places(game: &str, ranks: &[Option<i32>]) -> Vec<Option<i32>> {
    let Some(d) = def(game) else {
        return ranks.to_vec();
    };
    if !d.match_ranks_decide() {
        return vec![None; ranks.len()];
    }
    ranks
        .iter()
        .enumerate()
        .map(|(me, rank)| {
            let rank = (*rank)?;
            let mine = d.side(me);
            let mut better: Vec<usize> = ranks
                .iter()
                .enumerate()
                .filter(|(seat, r)| d.side(*seat) != mine && r.is_some_and(|r| r < rank))
                .map(|(seat, _)| d.side(seat))
                .collect();
            better.sort_unstable();
            better.dedup();
            Some(i32::try_from(better.len()).unwrap_or(i32::MAX) + 1)
        })
        .collect()
}

/// A seat's result in a list of matches: `1st · 28` (place and score), or where a match's ranks
/// decide nothing by themselves, the score alone in points (`340 points`).
pub fn result(place: &Option<i32>, score: &Option<f64>) -> String {
    match (place, score) {
        (Some(p), Some(s)) => format!("{} · {}", self::place(p), self::score(s)),
        (Some(p), None) => self::place(p),
        // The score as written (`2.50`), not as Fluent would format a number.
        (None, Some(s)) => match self::score(s) {
            one if one == "1" => tk("label-point", &[], &[("score", &one)]),
            many => tk("label-points", &[], &[("score", &many)]),
        },
        (None, None) => String::new(),
    }
}

/// A competition's matches as counted: `2 of 3 matches played · 1 cancelled`, naming every
/// state that has matches so a cancelled match is never counted as played.
pub fn progress(p: &Progress) -> String {
    progress_in(i18n::current(), p)
}

/// [`progress`] in `lang`, for text made outside a request's scope (a live stream's events).
pub fn progress_in(lang: Lang, p: &Progress) -> String {
    let played: [(&str, &dyn Display); 2] = [("finished", &p.finished), ("total", &p.total())];
    let mut parts = vec![lang.t_with("label-progress-played", &played)];
    if p.running > 0 {
        parts.push(lang.t_with("label-progress-running", &[("n", &p.running)]));
    }
    if p.queued > 0 {
        parts.push(lang.t_with("label-progress-queued", &[("n", &p.queued)]));
    }
    if p.failed > 0 {
        parts.push(lang.t_with("label-progress-failed", &[("n", &p.failed)]));
    }
    if p.cancelled > 0 {
        parts.push(lang.t_with("label-progress-cancelled", &[("n", &p.cancelled)]));
    }
    parts.join(" · ")
}

/// `1st`, `2nd`, `3rd`, `4th`, … `11th`, `21st` (第1名 in Chinese).
pub fn place(rank: &i32) -> String {
    let n: &dyn Display = rank;
    match (rank % 10, rank % 100) {
        (_, 11..=13) => i18n::t_with("label-place-th", &[("n", n)]),
        (1, _) => i18n::t_with("label-place-st", &[("n", n)]),
        (2, _) => i18n::t_with("label-place-nd", &[("n", n)]),
        (3, _) => i18n::t_with("label-place-rd", &[("n", n)]),
        _ => i18n::t_with("label-place-th", &[("n", n)]),
    }
}

/// What an end state means, for people.
pub fn end_state(state: &EndState) -> String {
    match state {
        EndState::Ok => i18n::t("label-end-ok"),
        EndState::TimeLimit => i18n::t("label-end-time-limit"),
        EndState::MemoryLimit => i18n::t("label-end-memory-limit"),
        EndState::Crashed => i18n::t("label-end-crashed"),
        EndState::OutputLimit => i18n::t("label-end-output-limit"),
        EndState::InvalidOutput => i18n::t("label-end-invalid-output"),
        EndState::IllegalAction => i18n::t("label-end-illegal-action"),
        EndState::SetupError => i18n::t("label-end-setup-error"),
    }
}

/// A status (a match's, a competition's) in words; the status itself when it has none.
pub fn status(status: &str) -> String {
    match status {
        "queued" => i18n::t("label-status-queued"),
        "running" => i18n::t("label-status-running"),
        "finished" => i18n::t("label-status-finished"),
        "failed" => i18n::t("label-status-failed"),
        "cancelled" => i18n::t("label-status-cancelled"),
        "scheduled" => i18n::t("label-status-scheduled"),
        "paused" => i18n::t("label-status-paused"),
        other => other.to_owned(),
    }
}

/// `Owls v3`, the built-in bot's name, or the person's.
pub fn seat_name(
    team: &Option<String>,
    version: &Option<i32>,
    builtin: &Option<String>,
    person: &Option<String>,
) -> String {
    match (team, version, builtin, person) {
        (Some(team), Some(v), _, _) => format!("{team} v{v}"),
        // The name is not a Fluent argument: one that reads as a number would be reformatted.
        (_, _, Some(b), _) => format!("{b}{}", i18n::t("label-builtin-suffix")),
        (_, _, _, Some(p)) => format!("{p}{}", i18n::t("label-person-suffix")),
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
    fn the_losing_partnership_is_second_and_ties_share_a_place() {
        // Guandan: seats 0+2 won (rank 1), 1+3 lost (rank 3 in the engine's counting).
        let won = places("guandan", &[Some(1), Some(3), Some(1), Some(3)]);
        assert_eq!(won, [Some(1), Some(2), Some(1), Some(2)]);
        let tied = places("guandan", &[Some(1), Some(1), Some(1), Some(1)]);
        assert_eq!(tied, [Some(1); 4]);
        // Every seat for itself: places are the ranks.
        let free = places("nothanks", &[Some(1), Some(1), Some(3)]);
        assert_eq!(free, [Some(1), Some(1), Some(3)]);
        // Bridge: one table decides nothing.
        assert_eq!(
            places("bridge", &[Some(1), Some(2), Some(1), Some(2)]),
            [None; 4]
        );
    }

    #[test]
    fn bridge_seats_and_boards_are_named_as_players_say_them() {
        assert_eq!(seat("bridge", &0), "N");
        assert_eq!(seat("bridge", &3), "W");
        assert_eq!(seat("guandan", &3), "3");
        assert_eq!(game_title("bridge", &2), "Board 2");
        assert_eq!(game_title("nothanks", &2), "Game 2");
    }

    #[test]
    fn progress_counts_cancelled_matches_as_cancelled() {
        let p = Progress {
            queued: 0,
            running: 0,
            finished: 0,
            failed: 0,
            cancelled: 3,
        };
        assert_eq!(progress(&p), "0 of 3 matches played · 3 cancelled");
    }

    #[test]
    fn a_result_alone_is_its_score_in_points_as_written() {
        assert_eq!(result(&None, &Some(2.5)), "2.50 points");
        assert_eq!(result(&None, &Some(1.0)), "1 point");
        assert_eq!(result(&None, &Some(-1.0)), "-1 points");
        assert_eq!(result(&Some(2), &Some(28.0)), "2nd · 28");
    }

    #[test]
    fn scores_drop_needless_decimals() {
        assert_eq!(score(&28.0), "28");
        assert_eq!(score(&-3.0), "-3");
        assert_eq!(score(&2.5), "2.50");
    }
}
