//! The Guandan `act` path of `croupier bench guandan-actions` on the worst of 2,000 seeded
//! deals (seed 612, seat 3, level 3: 5,778 plays), repeated `RUNS` times, for instruction
//! counts: `valgrind --tool=callgrind target/release/examples/guandan_act_path RUNS [list]`
//! at two values of `RUNS`; the difference divided by the runs is one list's cost.
//! `path` (the default) is the seat's observation and the `act` message; `list` the engine's
//! list alone.

use croupier_games::guandan::cards::{deal, parse_cards};
use croupier_games::guandan::{Guandan, Settings};
use croupier_games::{Game, GameRng, Seat, Stream, Viewer};
use croupier_referee::guandan::act_message;

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let list_only = args.next().is_some_and(|a| a == "list");
    let mut rng = GameRng::derive(612, Stream::Testing);
    let mut hands = vec![deal(&mut rng, 3).swap_remove(3)];
    hands.extend(["SA", "S3 S4", "S5 S6"].map(|h| parse_cards(h).unwrap_or_default()));
    let game = Guandan::from_hands(Settings::platform(), hands, 3, Seat(0));
    let mut total = 0;
    for _ in 0..runs {
        total += if list_only {
            std::hint::black_box(game.legal_actions(Seat(0))).len()
        } else {
            std::hint::black_box(act_message(&game.observe(Viewer::Seat(Seat(0))))).len()
        };
    }
    println!("{total}");
}
