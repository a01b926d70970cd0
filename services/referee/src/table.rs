//! The engine side of a match, shared by every protocol adapter: the recorded games, the
//! seats that play without a protocol (built-in bots and people, [`Table::auto_choice`]),
//! forced moves, and per-seat move statistics.

use std::sync::Arc;
use std::time::{Duration, Instant};

use croupier_games::bots::{builtin, DynBot};
use croupier_games::{
    DynGame, FrameEntry, GameRng, IllegalAction, MoveRecord, Outcome, Recorder, Seat, Stream, Turn,
    Viewer,
};
use serde_json::Value;

use crate::result::GameRecord;
use crate::seat::{append_kept, MoveMeter, MoveUse};
use crate::{HumanDesk, HumanTurn, MatchProgress, MatchSpec, RefereeError, SeatSpec};

/// The seed of each game of a match: game 0 uses the match seed itself (so duplicate-seed
/// schedules deal the same deck), game `k > 0` the `k`-th draw of the seed's referee stream.
pub fn game_seeds(seed: u64, games: u32) -> Vec<u64> {
    let mut rng = GameRng::derive(seed, Stream::Referee);
    (0..games)
        .map(|k| if k == 0 { seed } else { rng.next_u64() })
        .collect()
}

/// Moves and timings of one seat over the match.
#[derive(Debug, Default, Clone)]
pub(crate) struct SeatStats {
    pub moves: u32,
    pub forced: u32,
    pub move_ms: Vec<u32>,
    /// Program seats (those with a meter): each move's record.
    pub move_log: Vec<MoveRecord>,
    /// A person's turns that ran out of time (the referee played for them), in words.
    pub lapses: Vec<String>,
}

/// A finished match, engine side.
pub(crate) struct Finished {
    pub games: Vec<GameRecord>,
    /// Scores summed over the games.
    pub outcome: Outcome,
    pub names: Vec<String>,
    pub stats: Vec<SeatStats>,
}

struct Builtin {
    bot: Box<dyn DynBot>,
    rng: GameRng,
}

/// A seat that plays without a protocol.
enum Auto {
    Bot(Box<Builtin>),
    Human,
}

/// What a built-in bot or a person chose for their turn.
pub(crate) enum Choice {
    Move {
        action: Value,
        took: Duration,
    },
    /// The person did not choose in time (why, in words): the adapter records
    /// [`Table::lapse`] and plays the forced move its protocol plays for a lost turn.
    Lapsed(String),
}

/// A person's turn, ready to be shown.
struct AskHuman {
    desk: Arc<dyn HumanDesk>,
    turn: HumanTurn,
    legal: Vec<Value>,
}

impl AskHuman {
    async fn wait(self) -> Result<Choice, RefereeError> {
        let (seat, time) = (self.turn.seat, self.turn.time);
        let t0 = Instant::now();
        let answer = tokio::time::timeout(time, self.desk.ask(self.turn)).await;
        Ok(match answer {
            Err(_elapsed) => Choice::Lapsed(format!("no move chosen within {} s", time.as_secs())),
            Ok(answer) => match self.legal.into_iter().nth(answer?) {
                Some(action) => Choice::Move {
                    action,
                    took: t0.elapsed(),
                },
                None => Err(internal(
                    seat,
                    "the desk answered a move that is not listed",
                ))?,
            },
        })
    }
}

/// The games of one match, played one after the other with the same seats.
pub(crate) struct Table {
    spec_game: croupier_games::GameId,
    rules: String,
    settings: Value,
    seeds: Vec<u64>,
    current: Recorder,
    records: Vec<GameRecord>,
    autos: Vec<Option<Auto>>,
    desk: Option<Arc<dyn HumanDesk>>,
    human_move_time: Duration,
    /// A program seat's meter, once its process is up.
    meters: Vec<Option<Arc<MoveMeter>>>,
    /// When each seat's current (or last) turn began.
    turn_began: Vec<Instant>,
    pub names: Vec<String>,
    stats: Vec<SeatStats>,
    progress: Arc<MatchProgress>,
}

impl Table {
    /// Checks the spec and sets up game 0.
    pub fn new(spec: &MatchSpec) -> Result<Self, RefereeError> {
        Table::with_settings(spec, spec.settings.clone())
    }

    /// [`Table::new`] with `settings` in place of the spec's (what the protocol adds to them
    /// for the first game), so that the first game is dealt once.
    pub fn with_settings(spec: &MatchSpec, settings: Value) -> Result<Self, RefereeError> {
        let invalid = |m: String| Err(RefereeError::InvalidSpec(m));
        if spec.games == 0 {
            return invalid("a match plays at least one game".into());
        }
        let names = player_names(&spec.seats)?;
        let mut autos = Vec::with_capacity(spec.seats.len());
        for (i, seat) in spec.seats.iter().enumerate() {
            autos.push(match seat {
                SeatSpec::Builtin { name } => match builtin(spec.game, name) {
                    Some(bot) => Some(Auto::Bot(Box::new(Builtin {
                        bot,
                        rng: GameRng::derive(spec.seed, Stream::Bot(Seat(i))),
                    }))),
                    None => return invalid(format!("no built-in {} bot {name:?}", spec.game)),
                },
                SeatSpec::Human { .. } if spec.desk.is_none() => {
                    return invalid(format!("seat {i} is a person's, and nobody can ask them"))
                }
                SeatSpec::Human { .. } => Some(Auto::Human),
                SeatSpec::Program { command, .. } if command.is_empty() => {
                    return invalid(format!("seat {i} has an empty command"))
                }
                SeatSpec::Program { .. } => None,
            });
        }
        let seeds = game_seeds(spec.seed, spec.games);
        let current = Recorder::new(spec.game, &spec.rules, &settings, spec.seed)?;
        if current.game().seats() != spec.seats.len() {
            return invalid(format!(
                "the {} rules seat {} players, the spec has {} seats",
                spec.rules,
                current.game().seats(),
                spec.seats.len()
            ));
        }
        Ok(Table {
            spec_game: spec.game,
            rules: spec.rules.clone(),
            settings,
            seeds,
            current,
            records: Vec::new(),
            stats: vec![SeatStats::default(); names.len()],
            meters: vec![None; names.len()],
            turn_began: vec![Instant::now(); names.len()],
            autos,
            desk: spec.desk.clone(),
            human_move_time: spec.limits.human_move_time,
            names,
            progress: Arc::clone(&spec.progress),
        })
    }

    pub fn games(&self) -> usize {
        self.seeds.len()
    }

    pub fn game(&self) -> &dyn DynGame {
        self.current.game()
    }

    pub fn turn(&self) -> Turn {
        self.current.game().turn()
    }

    /// Gives a program seat's meter to the table, which reads it at each of the seat's moves.
    pub fn meter(&mut self, seat: Seat, meter: Arc<MoveMeter>) {
        if let Some(slot) = self.meters.get_mut(seat.index()) {
            *slot = Some(meter);
        }
    }

    /// Applies a move a bot chose, counting it and its answer time; a refusal is recorded.
    pub fn apply_bot(
        &mut self,
        seat: Seat,
        action: Value,
        took: Duration,
    ) -> Result<(), IllegalAction> {
        self.count_answer(seat, took, 1);
        let applied = self.current.apply(seat, action).map(|_| ());
        self.turn_passed();
        applied
    }

    /// Counts an answer of `seat` that took `took`: its time, and for a program seat its move
    /// record, which points at the replay entry `ahead` entries on (the move itself: 1; an
    /// answer the engine never sees is counted before the fault entry the adapter records).
    pub fn count_answer(&mut self, seat: Seat, took: Duration, ahead: usize) {
        let ms = u32::try_from(took.as_millis()).unwrap_or(u32::MAX);
        let used = self.take_meter(seat);
        let record = used.map(|used| self.record_of(seat, used, ms, ahead, false));
        if let Some(stats) = self.stats.get_mut(seat.index()) {
            stats.moves += 1;
            stats.move_ms.push(ms);
            stats.move_log.extend(record);
        }
    }

    /// What a program seat's meter saw since the seat's previous move (`None` for a built-in).
    fn take_meter(&self, seat: Seat) -> Option<MoveUse> {
        let meter = self.meters.get(seat.index())?.as_ref()?;
        let began = self.turn_began.get(seat.index()).copied()?;
        Some(meter.take(began))
    }

    /// The record of a move of `seat`; stderr that arrived before the seat's turn began goes to
    /// its previous record (see [`crate::seat`]'s meter).
    fn record_of(
        &mut self,
        seat: Seat,
        used: MoveUse,
        ms: u32,
        ahead: usize,
        forced: bool,
    ) -> MoveRecord {
        let mut stderr = String::new();
        let previous = self
            .stats
            .get_mut(seat.index())
            .and_then(|s| s.move_log.last_mut());
        match previous {
            Some(previous) => append_kept(&mut previous.stderr, &used.earlier),
            None => append_kept(&mut stderr, &used.earlier),
        }
        append_kept(&mut stderr, &used.stderr);
        let entry = self.current.replay().entries.len() + ahead;
        MoveRecord {
            game: u32::try_from(self.records.len()).unwrap_or(u32::MAX),
            entry: u32::try_from(entry).unwrap_or(u32::MAX),
            ms,
            peak_kib: used.peak_bytes.map(|b| b.div_ceil(1024)),
            stderr,
            forced,
        }
    }

    /// Notes when the seat to move got its turn (after every entry and at each game's start).
    fn turn_passed(&mut self) {
        (self.progress).note(self.records.len(), self.current.replay().entries.len());
        if let Turn::Seat(seat) = self.turn() {
            // A built-in seat has no meter to read it (and a clock read is a good part of a
            // built-in move's cost).
            if let Some(Some(Auto::Bot(_))) = self.autos.get(seat.index()) {
                return;
            }
            if let Some(at) = self.turn_began.get_mut(seat.index()) {
                *at = Instant::now();
            }
        }
    }

    /// Plays the forced default for a faulty or absent seat: its first legal action
    /// (No Thanks: `pick`, always legal).
    pub fn apply_forced(&mut self, seat: Seat) -> Result<(), RefereeError> {
        let action = self.game().first_legal_json(seat);
        let action = action.ok_or_else(|| internal(seat, "no legal action to force"))?;
        self.apply_forced_action(seat, action)
    }

    /// Plays `action` for a seat that lost its move (Splendor: the judge's lost turn, a
    /// pass; Bridge: the Robot's move), counted as forced, not as the bot's answer, and
    /// recorded as forced (such moves never make a seat count as having played, see
    /// [`croupier_games::fair`]).
    pub fn apply_forced_action(&mut self, seat: Seat, action: Value) -> Result<(), RefereeError> {
        // A per-move seat's failed call (a crash, a timeout) is the move the referee plays
        // for: its record shows the call. A long-lived seat's forced move has none.
        let pending = self.meters.get(seat.index()).and_then(Option::as_ref);
        let used = match pending.is_some_and(|m| m.call_pending()) {
            true => self.take_meter(seat),
            false => None,
        };
        let record = used.map(|used| {
            let wall = used.call_wall.unwrap_or_default();
            let ms = u32::try_from(wall.as_millis()).unwrap_or(u32::MAX);
            self.record_of(seat, used, ms, 1, true)
        });
        if let Some(stats) = self.stats.get_mut(seat.index()) {
            stats.forced += 1;
            stats.move_log.extend(record);
        }
        let applied = self
            .current
            .apply_forced(seat, action)
            .map(|_| ())
            .map_err(|e| internal(seat, &e.to_string()));
        self.turn_passed();
        applied
    }

    /// Whether `seat` plays without a protocol: a built-in bot or a person.
    pub fn is_auto(&self, seat: Seat) -> bool {
        matches!(self.autos.get(seat.index()), Some(Some(_)))
    }

    /// The move of a built-in bot or a person at `seat`, not yet applied (a person is asked
    /// through the desk and waited for up to the human move time).
    pub async fn auto_choice(&mut self, seat: Seat) -> Result<Choice, RefereeError> {
        let t0 = Instant::now();
        let game = self.current.game();
        match self.autos.get_mut(seat.index()) {
            Some(Some(Auto::Bot(b))) => {
                let choice = b.bot.choose(game, seat, &mut b.rng);
                let action =
                    choice.ok_or_else(|| internal(seat, "the built-in bot chose nothing"))?;
                Ok(Choice::Move {
                    action,
                    took: t0.elapsed(),
                })
            }
            Some(Some(Auto::Human)) => self.ask_human(seat)?.wait().await,
            _ => Err(internal(seat, "not a built-in or a person's seat")),
        }
    }

    /// Shows the person at `seat` the turn and waits for their choice. (Nothing of `self` is
    /// held across the wait: a table is `Send`, not `Sync`.)
    fn ask_human(&self, seat: Seat) -> Result<AskHuman, RefereeError> {
        let desk = self.desk.clone();
        let desk = desk.ok_or_else(|| internal(seat, "a person's seat without a desk"))?;
        let game = self.current.game();
        let legal = game.offered_actions_json(seat);
        let turn = HumanTurn {
            seat,
            game: self.records.len(),
            observation: game.observe_json(Viewer::Seat(seat)),
            legal: legal.clone(),
            recent: self.since_last_move(seat)?,
            time: self.human_move_time,
        };
        Ok(AskHuman { desk, turn, legal })
    }

    /// The current game's entries after `seat`'s last one (all of them before its first move),
    /// with the others' log lines left out where the game's can name hidden information.
    fn since_last_move(&self, seat: Seat) -> Result<Vec<FrameEntry>, RefereeError> {
        let replay = self.current.replay();
        let from = replay
            .entries
            .iter()
            .rposition(|e| e.seat() == seat)
            .map_or(0, |last| last + 1);
        let private = self.spec_game.def().private_events;
        // The recorder leaves the events out; a person's turn is rare enough to derive them.
        let recent = replay
            .entries_from(from)
            .map_err(|e| internal(seat, &format!("the game so far does not replay: {e}")))?;
        Ok(recent
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let mut entry = FrameEntry::with_event_data(from + i + 1, e);
                if private && entry.seat != seat {
                    entry.events.clear();
                    entry.event_data.clear();
                }
                entry
            })
            .collect())
    }

    /// Records that the person at `seat` let a turn's time run out (a fault in the replay and
    /// a `time_limit` end state); the adapter then plays its forced move for the turn.
    pub fn lapse(&mut self, seat: Seat, reason: &str) {
        self.fault(seat, reason);
        self.note_lapse(seat, reason);
    }

    /// [`Table::lapse`] for an adapter that records the fault itself (Splendor's lost turn).
    pub fn note_lapse(&mut self, seat: Seat, reason: &str) {
        if let Some(stats) = self.stats.get_mut(seat.index()) {
            stats.lapses.push(reason.to_owned());
        }
    }

    /// Lets the built-in bot or the person at `seat` move (a person out of time: the forced
    /// default, [`Table::apply_forced`]).
    pub async fn apply_auto(&mut self, seat: Seat) -> Result<(), RefereeError> {
        if let Some(Some(Auto::Bot(b))) = self.autos.get_mut(seat.index()) {
            // Typed from the bot's choice to the engine: the move's JSON is written once, for
            // the record (what [`Table::auto_choice`] and [`Table::apply_bot`] would do through a
            // `Value` that the engine then reads back).
            let t0 = Instant::now();
            let Builtin { bot, rng } = b.as_mut();
            let played = self.current.play_builtin(seat, bot.as_mut(), rng);
            let played = played.ok_or_else(|| internal(seat, "the built-in bot chose nothing"))?;
            self.count_answer(seat, t0.elapsed(), 0);
            self.turn_passed();
            return played.map_err(|e| internal(seat, &e.to_string()));
        }
        match self.auto_choice(seat).await? {
            Choice::Move { action, took } => self
                .apply_bot(seat, action, took)
                .map_err(|e| internal(seat, &e.to_string())),
            Choice::Lapsed(reason) => {
                self.lapse(seat, &reason);
                self.apply_forced(seat)
            }
        }
    }

    /// Records a protocol fault of `seat` in the current game's replay and tells the engine.
    pub fn fault(&mut self, seat: Seat, reason: &str) {
        self.current.fault(seat, reason);
        self.turn_passed();
    }

    /// Sets the JSON overrides the next games are created with, and re-creates the current
    /// game with them while it has no entry yet (Bridge: each board's number and running score).
    pub fn set_settings(&mut self, settings: Value) -> Result<(), RefereeError> {
        if settings == self.settings {
            return Ok(()); // the game was dealt with them
        }
        self.settings = settings;
        if self.current.replay().entries.is_empty() {
            let seed = self.seeds.get(self.records.len()).copied();
            let seed =
                seed.ok_or_else(|| RefereeError::Internal("no seed for this game".into()))?;
            self.current = Recorder::new(self.spec_game, &self.rules, &self.settings, seed)?;
        }
        Ok(())
    }

    /// Closes the current game and starts game `index` (1-based count of games so far).
    pub fn next_game(&mut self) -> Result<(), RefereeError> {
        let index = self.records.len() + 1;
        let seed = *self
            .seeds
            .get(index)
            .ok_or_else(|| RefereeError::Internal("no seed for the next game".into()))?;
        let next = Recorder::new(self.spec_game, &self.rules, &self.settings, seed)?;
        let done = std::mem::replace(&mut self.current, next);
        self.records.push(record(done)?);
        self.turn_passed();
        Ok(())
    }

    /// Closes the last game; returns every game and the summed outcome. Each game's outcome
    /// and the match's follow [`croupier_games::fair`]: a seat that never made a legal move of
    /// its own ranks last (over a match: idle in every game it was due to move in).
    pub fn finish(mut self) -> Result<Finished, RefereeError> {
        // What the seats wrote after their last move (before the end) joins that move's record.
        let now = Instant::now();
        for (meter, stats) in self.meters.iter().zip(&mut self.stats) {
            let (Some(meter), Some(last)) = (meter, stats.move_log.last_mut()) else {
                continue;
            };
            append_kept(&mut last.stderr, &meter.take(now).earlier);
        }
        self.records.push(record(self.current)?);
        let order = self.records.first().map(|r| r.outcome.order);
        let order = order.ok_or_else(|| RefereeError::Internal("no game was played".into()))?;
        let mut totals = vec![0_i64; self.names.len()];
        for r in &self.records {
            for s in &r.outcome.seats {
                if let Some(t) = totals.get_mut(s.seat.index()) {
                    *t += s.score;
                }
            }
        }
        // One game: its own outcome, with the game's tie-breaks (Splendor: fewer cards).
        // Several: the summed scores ranked in the game's score order.
        let outcome = match self.records.as_slice() {
            [only] => only.outcome.clone(),
            _ => {
                let seen: Vec<_> = self
                    .records
                    .iter()
                    .map(|r| r.replay.participation())
                    .collect();
                let idle = croupier_games::fair::idle_over(self.names.len(), &seen);
                Outcome::from_scores(order, &totals).demote_idle(&idle)
            }
        };
        Ok(Finished {
            games: self.records,
            outcome,
            names: self.names,
            stats: self.stats,
        })
    }
}

/// The game's record with its outcome under the platform's rules (the engine's own outcome
/// stays in the replay).
fn record(recorder: Recorder) -> Result<GameRecord, RefereeError> {
    let replay = recorder.into_replay();
    let outcome = replay
        .fair_outcome()
        .ok_or_else(|| RefereeError::Internal("a game ended without an outcome".into()))?;
    Ok(GameRecord { replay, outcome })
}

fn internal(seat: Seat, what: &str) -> RefereeError {
    RefereeError::Internal(format!("seat {seat}: {what}"))
}

/// The player names: programs' and people's as given (non-empty, unique); a built-in seat is
/// called by its bot's name, or `name-<seat>` when that is taken.
pub(crate) fn player_names(seats: &[SeatSpec]) -> Result<Vec<String>, RefereeError> {
    let mut names: Vec<String> = Vec::with_capacity(seats.len());
    for seat in seats {
        if let SeatSpec::Program { name, .. } | SeatSpec::Human { name } = seat {
            if name.is_empty() || name.contains(['\n', '\r']) {
                return Err(RefereeError::InvalidSpec(format!(
                    "bad player name {name:?}"
                )));
            }
            if names.contains(name) {
                return Err(RefereeError::InvalidSpec(format!(
                    "player name {name:?} is used twice"
                )));
            }
            names.push(name.clone());
        }
    }
    let mut all = Vec::with_capacity(seats.len());
    for (i, seat) in seats.iter().enumerate() {
        all.push(match seat {
            SeatSpec::Program { name, .. } | SeatSpec::Human { name } => name.clone(),
            SeatSpec::Builtin { name } => {
                let name = if names.contains(name) {
                    format!("{name}-{i}")
                } else {
                    name.clone()
                };
                names.push(name.clone());
                name
            }
        });
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use croupier_games::GameId;

    use super::*;

    fn spec(seats: Vec<SeatSpec>) -> MatchSpec {
        MatchSpec::new(GameId::NO_THANKS, 1, seats)
    }

    fn program(name: &str) -> SeatSpec {
        SeatSpec::program(name, "/tmp", ["/bot/bot"])
    }

    #[test]
    fn a_spec_that_cannot_be_a_match_is_refused_before_anything_starts() {
        let bad = |seats| matches!(Table::new(&spec(seats)), Err(RefereeError::InvalidSpec(_)));
        assert!(
            bad(vec![program("a"), program("b")]),
            "boardcoder seats three"
        );
        assert!(
            bad(vec![program("a"), program("a"), program("b")]),
            "duplicate names"
        );
        assert!(
            bad(vec![program(""), program("a"), program("b")]),
            "empty name"
        );
        assert!(bad(vec![
            SeatSpec::builtin("genius"),
            program("a"),
            program("b")
        ]));
        let mut no_games = spec(vec![program("a"), program("b"), program("c")]);
        no_games.games = 0;
        assert!(Table::new(&no_games).is_err());
    }

    #[test]
    fn built_in_seats_are_named_after_their_bot_unless_the_name_is_taken() {
        let seats = [
            SeatSpec::builtin("heuristic"),
            program("heuristic"),
            SeatSpec::builtin("heuristic"),
        ];
        let names = player_names(&seats).unwrap();
        assert_eq!(names, ["heuristic-0", "heuristic", "heuristic-2"]);
    }

    #[test]
    fn game_0_uses_the_match_seed_and_later_games_derived_ones() {
        let seeds = game_seeds(9, 3);
        assert_eq!(seeds[0], 9);
        assert!(seeds[1] != seeds[2] && seeds[1] != 9);
        assert_eq!(seeds, game_seeds(9, 3));
    }
}
