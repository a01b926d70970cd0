//! The replay blob read as a timeline, for any game: one row per recorded entry (a move with
//! the events it caused, a refused move, a fault), with each event's own text and the player
//! names put in for "seat N".
//!
//! The blob is the worker's replay document (format 1): `players` (the names in seat order)
//! and `games`, each with its `replay` (`croupier_games::Replay`).

use std::fmt::Display;

use croupier_games::{bridge, guandan, hanabi, nothanks, splendor};
use croupier_games::{DynEvent, Entry, Replay, Seat};
use serde::Deserialize;

use crate::i18n;

/// Rows shown at most, and characters of text in them; a longer replay is cut with a note (the
/// replay viewer steps through all of it, loading it on demand, so the match page stays light).
pub const MAX_ROWS: usize = 200;
pub const MAX_CHARS: usize = 32_000;

pub struct Timeline {
    pub games: Vec<GameLog>,
    /// Why the timeline is incomplete or missing, if it is.
    pub note: Option<String>,
}

pub struct GameLog {
    pub number: usize,
    pub rows: Vec<Row>,
}

pub struct Row {
    pub n: usize,
    pub who: String,
    /// `move`, `refused` or `fault`.
    pub kind: &'static str,
    pub text: String,
    /// Further events the move caused ("23 is turned up …").
    pub then: Vec<String>,
}

#[derive(Deserialize)]
struct ReplayDoc {
    #[serde(default)]
    players: Vec<String>,
    #[serde(default)]
    games: Vec<GameDoc>,
}

#[derive(Deserialize)]
struct GameDoc {
    replay: Replay,
}

/// Reads the blob of a match of `game`; an unreadable one gives an empty timeline with a
/// note. Where the game names its seats (Bridge: N, E, S, W), each player is shown with its
/// seat's name (`N (Owls v1)`), since partners are the same bot.
pub fn read(blob: &[u8], game: &str) -> Timeline {
    let mut doc: ReplayDoc = match serde_json::from_slice(blob) {
        Ok(doc) => doc,
        Err(e) => {
            tracing::warn!(error = %e, "a replay could not be read");
            return Timeline {
                games: Vec::new(),
                note: Some(i18n::t("timeline-unreadable")),
            };
        }
    };
    for game in &mut doc.games {
        // Stored with the events left out: derived here. Should that fail, each move is shown
        // by its action instead of its events' lines.
        if let Err(e) = game.replay.derive_events() {
            tracing::warn!(error = %e, "a replay's events could not be derived");
        }
    }
    let players: Vec<String> = doc
        .players
        .iter()
        .enumerate()
        .map(
            |(i, p)| match super::labels::seat(game, &i32::try_from(i).unwrap_or(i32::MAX)) {
                name if name == i.to_string() => p.clone(),
                name => format!("{name} ({p})"),
            },
        )
        .collect();
    let players = &players;
    let name = |seat: Seat| {
        players.get(seat.index()).cloned().unwrap_or_else(|| {
            let index = i32::try_from(seat.index()).unwrap_or(i32::MAX);
            i18n::t_with(
                "timeline-seat",
                &[("seat", &super::labels::seat(game, &index))],
            )
        })
    };
    let mut shown = 0;
    let mut chars = 0;
    let mut note = None;
    let mut games = Vec::with_capacity(doc.games.len());
    let game_id = game;
    'games: for (g, game) in doc.games.iter().enumerate() {
        let mut rows = Vec::new();
        for (n, entry) in game.replay.entries.iter().enumerate() {
            if shown == MAX_ROWS || chars > MAX_CHARS {
                note = Some(i18n::t_with("timeline-cut", &[("n", &shown)]));
                games.push(GameLog {
                    number: g + 1,
                    rows,
                });
                break 'games;
            }
            shown += 1;
            rows.push(match entry {
                Entry::Move {
                    seat,
                    action,
                    events,
                    ..
                } => {
                    let mut texts = events
                        .iter()
                        .map(|e| with_names(&event_text(game_id, e), players));
                    Row {
                        n: n + 1,
                        who: name(*seat),
                        kind: "move",
                        text: texts.next().unwrap_or_else(|| {
                            let action = action_text(game_id, &action.value())
                                .unwrap_or_else(|| action.to_string());
                            let who = name(*seat);
                            let names = [("who", who.as_str()), ("action", &action)];
                            super::labels::tk("timeline-plays", &[], &names)
                        }),
                        then: texts.collect(),
                    }
                }
                Entry::Refused {
                    seat,
                    action,
                    error,
                } => Row {
                    n: n + 1,
                    who: name(*seat),
                    kind: "refused",
                    text: {
                        let action = action_text(game_id, &action.value())
                            .unwrap_or_else(|| action.to_string());
                        let (who, error) = (name(*seat), error.to_string());
                        let names = [
                            ("who", who.as_str()),
                            ("action", &action),
                            ("error", &error),
                        ];
                        super::labels::tk("timeline-refused", &[], &names)
                    },
                    then: Vec::new(),
                },
                Entry::Fault { seat, reason } => Row {
                    n: n + 1,
                    who: name(*seat),
                    kind: "fault",
                    text: format!("{}: {}", name(*seat), with_names(reason, players)),
                    then: Vec::new(),
                },
            });
            chars += rows.last().map_or(0, |r| {
                r.text.len() + r.then.iter().map(String::len).sum::<usize>()
            });
        }
        games.push(GameLog {
            number: g + 1,
            rows,
        });
    }
    Timeline { games, note }
}

/// `seat 0 picks 23` → `alice picks 23`, for each `seat N` naming a known player.
pub fn with_names(text: &str, players: &[String]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("seat ") {
        let (before, after) = rest.split_at(at);
        out.push_str(before);
        let digits = after["seat ".len()..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let word_start = !out.chars().last().is_some_and(char::is_alphanumeric);
        let number = &after["seat ".len().."seat ".len() + digits];
        let player = number.parse::<usize>().ok().and_then(|i| players.get(i));
        match player {
            Some(p) if word_start => {
                out.push_str(p);
                rest = &after["seat ".len() + digits..];
            }
            _ => {
                out.push_str("seat ");
                rest = &after["seat ".len()..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// An engine event's log line in the page's language, said from the event's machine form with
/// the game terms of the platform's own documents (card symbols, 进贡, 还贡, 提示指示物 …) in
/// every language, falling back to the engine's line for an event it does not know. Seats
/// stay `seat N` for [`with_names`].
pub fn event_text(game: &str, event: &DynEvent) -> String {
    serde_json::from_str(event.json.get())
        .ok()
        .and_then(|e| event_words(game, &e))
        .unwrap_or_else(|| event.text.clone())
}

/// An event of `game` in its machine form (as recorded) in the page's language; `None` for
/// one it does not know.
pub fn event_words(game: &str, event: &serde_json::Value) -> Option<String> {
    let json = || event.clone();
    match game {
        "nothanks" => serde_json::from_value(json())
            .ok()
            .map(|e| nothanks_text(&e)),
        "hanabi" => serde_json::from_value(json()).ok().map(|e| hanabi_text(&e)),
        "guandan" => serde_json::from_value(json())
            .ok()
            .map(|e| guandan_text(&e)),
        "bridge" => serde_json::from_value(json()).ok().map(|e| bridge_text(&e)),
        "splendor" => serde_json::from_value(json())
            .ok()
            .map(|e| splendor_text(&e)),
        _ => None,
    }
}

/// `a, b, c` with the language's list separator.
fn list(items: impl IntoIterator<Item = String>) -> String {
    items
        .into_iter()
        .collect::<Vec<_>>()
        .join(&i18n::t("timeline-list-sep"))
}

fn seat_list<'a>(seats: impl IntoIterator<Item = &'a Seat>) -> String {
    list(seats.into_iter().map(|s| format!("seat {s}")))
}

fn nothanks_text(event: &nothanks::Event) -> String {
    use nothanks::Event as E;
    match event {
        E::Passed {
            seat,
            card,
            coins_on_card,
        } => {
            let args: [(&str, &dyn Display); 3] =
                [("seat", seat), ("card", card), ("coins", coins_on_card)];
            i18n::t_with("timeline-nt-passed", &args)
        }
        E::Picked { seat, card, coins } => {
            let args: [(&str, &dyn Display); 3] =
                [("seat", seat), ("card", card), ("coins", coins)];
            i18n::t_with("timeline-nt-picked", &args)
        }
        E::Revealed { card, deck_left } => {
            let args: [(&str, &dyn Display); 2] = [("card", card), ("left", deck_left)];
            i18n::t_with("timeline-nt-revealed", &args)
        }
        E::Ended { points } => {
            let points = list(points.iter().map(i64::to_string));
            super::labels::tk("timeline-nt-ended", &[], &[("points", &points)])
        }
    }
}

fn hanabi_color(color: hanabi::Color) -> String {
    use hanabi::Color as C;
    match color {
        C::Red => i18n::t("timeline-hb-red"),
        C::Yellow => i18n::t("timeline-hb-yellow"),
        C::Blue => i18n::t("timeline-hb-blue"),
        C::Green => i18n::t("timeline-hb-green"),
        C::White => i18n::t("timeline-hb-white"),
        C::Rainbow => i18n::t("timeline-hb-rainbow"),
    }
}

fn hanabi_card(card: &hanabi::Card) -> String {
    let color = hanabi_color(card.color);
    let names = [("color", color.as_str())];
    super::labels::tk("timeline-hb-card", &[("number", &card.number)], &names)
}

fn hanabi_text(event: &hanabi::Event) -> String {
    use hanabi::{EndReason, Event as E, Hint};
    let tk = super::labels::tk;
    match event {
        E::Hinted {
            seat,
            target,
            hint,
            touched,
            hint_tokens,
        } => {
            let hint = match hint {
                Hint::Color(c) => hanabi_color(*c),
                Hint::Number(n) => i18n::t_with("timeline-hb-number", &[("n", n)]),
            };
            let slots = list(touched.iter().map(|s| (s + 1).to_string()));
            let values: [(&str, &dyn Display); 3] =
                [("seat", seat), ("target", target), ("tokens", hint_tokens)];
            let names = [("hint", hint.as_str()), ("slots", &slots)];
            tk("timeline-hb-hinted", &values, &names)
        }
        E::Played {
            seat,
            slot,
            card,
            success: true,
            token_returned,
            ..
        } => {
            let (card, slot) = (hanabi_card(card), slot + 1);
            let values: [(&str, &dyn Display); 2] = [("seat", seat), ("slot", &slot)];
            let played = tk("timeline-hb-played", &values, &[("card", &card)]);
            match token_returned {
                true => played + &i18n::t("timeline-hb-regains"),
                false => played,
            }
        }
        E::Played {
            seat,
            slot,
            card,
            error_tokens,
            ..
        } => {
            let (card, slot) = (hanabi_card(card), slot + 1);
            let values: [(&str, &dyn Display); 3] =
                [("seat", seat), ("slot", &slot), ("errors", error_tokens)];
            tk("timeline-hb-misplayed", &values, &[("card", &card)])
        }
        E::Discarded {
            seat,
            slot,
            card,
            hint_tokens,
        } => {
            let (card, slot) = (hanabi_card(card), slot + 1);
            let values: [(&str, &dyn Display); 3] =
                [("seat", seat), ("slot", &slot), ("tokens", hint_tokens)];
            tk("timeline-hb-discarded", &values, &[("card", &card)])
        }
        E::Drew { seat, deck_left: 0 } => i18n::t_with("timeline-hb-drew-last", &[("seat", seat)]),
        E::Drew { seat, deck_left } => {
            let values: [(&str, &dyn Display); 2] = [("seat", seat), ("left", deck_left)];
            i18n::t_with("timeline-hb-drew", &values)
        }
        E::Ended { reason, score } => {
            let why = match reason {
                EndReason::Strikeout => i18n::t("timeline-hb-why-strikeout"),
                EndReason::DeckOut => i18n::t("timeline-hb-why-deck-out"),
                EndReason::Complete => i18n::t("timeline-hb-why-complete"),
                EndReason::Fault { seat } => {
                    i18n::t_with("timeline-hb-why-fault", &[("seat", seat)])
                }
            };
            tk("timeline-hb-ended", &[("score", score)], &[("why", &why)])
        }
    }
}

fn guandan_card(card: &guandan::Card) -> String {
    let rank = match guandan::cards::rank_char(card.rank) {
        'T' => "10".to_owned(),
        r => r.to_string(),
    };
    match card.rank {
        guandan::cards::SMALL_JOKER => i18n::t("timeline-gd-small-joker"),
        guandan::cards::BIG_JOKER => i18n::t("timeline-gd-big-joker"),
        _ => {
            let suit = match card.suit {
                0 => i18n::t("timeline-gd-spades"),
                1 => i18n::t("timeline-gd-hearts"),
                2 => i18n::t("timeline-gd-clubs"),
                _ => i18n::t("timeline-gd-diamonds"),
            };
            let names = [("suit", suit.as_str()), ("rank", &rank)];
            super::labels::tk("timeline-gd-card", &[], &names)
        }
    }
}

fn guandan_kind(kind: guandan::Kind) -> String {
    use guandan::Kind as K;
    match kind {
        K::Single => i18n::t("timeline-gd-single"),
        K::Pair => i18n::t("timeline-gd-pair"),
        K::Trips => i18n::t("timeline-gd-trips"),
        K::ThreePair => i18n::t("timeline-gd-three-pair"),
        K::ThreeWithTwo => i18n::t("timeline-gd-three-with-two"),
        K::TwoTrips => i18n::t("timeline-gd-two-trips"),
        K::Straight => i18n::t("timeline-gd-straight"),
        K::StraightFlush => i18n::t("timeline-gd-straight-flush"),
        K::Bomb => i18n::t("timeline-gd-bomb"),
    }
}

fn guandan_cards(cards: &[guandan::Card]) -> String {
    cards.iter().map(guandan_card).collect::<Vec<_>>().join(" ")
}

/// `Pair 2 (♥2 ♦2)`: the combination's type, its rank and its cards.
fn guandan_play(play: &guandan::Play) -> String {
    let rank = match guandan::action::rank_label(play.rank).as_str() {
        "T" => "10".to_owned(),
        "JOKER" => i18n::t("timeline-gd-jokers"),
        r => r.to_owned(),
    };
    let (kind, cards) = (guandan_kind(play.kind), guandan_cards(&play.cards));
    let names = [("kind", kind.as_str()), ("rank", &rank), ("cards", &cards)];
    super::labels::tk("timeline-gd-combo", &[], &names)
}

fn guandan_text(event: &guandan::Event) -> String {
    use guandan::{Action, Event as E};
    let tk = super::labels::tk;
    let level = |l: &guandan::Level| String::from(*l);
    let gives = |key: &str, result: &[(Seat, Seat, guandan::Card)]| {
        list(result.iter().map(|(from, to, card)| {
            let card = guandan_card(card);
            let seats: [(&str, &dyn Display); 2] = [("from", from), ("to", to)];
            match key {
                "back" => tk("timeline-gd-back-item", &seats, &[("card", &card)]),
                _ => tk("timeline-gd-tribute-item", &seats, &[("card", &card)]),
            }
        }))
    };
    match event {
        E::DealStarted { deal, cur_rank, .. } => {
            let level = level(cur_rank);
            tk("timeline-gd-deal", &[("deal", deal)], &[("level", &level)])
        }
        E::Played { seat, action } => {
            let play = match action {
                Action::Pass => return i18n::t_with("timeline-gd-passes", &[("seat", seat)]),
                Action::Play(p) => guandan_play(p),
                Action::Tribute(c) => format!(
                    "{} {}",
                    i18n::t("timeline-gd-tribute-word"),
                    guandan_card(c)
                ),
                Action::Back(c) => {
                    format!("{} {}", i18n::t("timeline-gd-back-word"), guandan_card(c))
                }
            };
            tk("timeline-gd-plays", &[("seat", seat)], &[("play", &play)])
        }
        E::TrickOver { leader } => i18n::t_with("timeline-gd-trick-over", &[("leader", leader)]),
        E::Out { seat, place } => {
            let values: [(&str, &dyn Display); 2] = [("seat", seat), ("place", place)];
            i18n::t_with("timeline-gd-out", &values)
        }
        E::Tribute { result } => {
            let gave = gives("tribute", result);
            tk("timeline-gd-tribute", &[], &[("list", &gave)])
        }
        E::AntiTribute { anti_pos } => {
            let seats = seat_list(anti_pos);
            tk("timeline-gd-anti-tribute", &[], &[("seats", &seats)])
        }
        E::Back { result } => {
            let gave = gives("back", result);
            tk("timeline-gd-back", &[], &[("list", &gave)])
        }
        E::DealOver {
            order, cur_rank, ..
        } => {
            let (order, level) = (seat_list(order), level(cur_rank));
            let names = [("order", order.as_str()), ("level", &level)];
            tk("timeline-gd-deal-over", &[], &names)
        }
        E::GameOver { winner: Some(t) } => {
            let values: [(&str, &dyn Display); 2] = [("a", t), ("b", &(t + 2))];
            i18n::t_with("timeline-gd-won", &values)
        }
        E::GameOver { winner: None } => i18n::t("timeline-gd-draw"),
    }
}

fn bridge_strain(strain: bridge::Strain) -> String {
    use bridge::Strain as S;
    match strain {
        S::Clubs => i18n::t("timeline-br-clubs"),
        S::Diamonds => i18n::t("timeline-br-diamonds"),
        S::Hearts => i18n::t("timeline-br-hearts"),
        S::Spades => i18n::t("timeline-br-spades"),
        S::NoTrump => i18n::t("timeline-br-notrump"),
    }
}

fn bridge_bid(bid: &bridge::Bid) -> String {
    let strain = bridge_strain(bid.strain);
    let names = [("strain", strain.as_str())];
    super::labels::tk("timeline-br-bid", &[("level", &bid.level)], &names)
}

fn bridge_card(card: &bridge::Card) -> String {
    let rank = match card.rank {
        14 => "A".to_owned(),
        13 => "K".to_owned(),
        12 => "Q".to_owned(),
        11 => "J".to_owned(),
        r => r.to_string(),
    };
    let suit = bridge_strain(bridge::Strain::of(card.suit));
    let names = [("suit", suit.as_str()), ("rank", &rank)];
    super::labels::tk("timeline-br-card", &[], &names)
}

fn bridge_text(event: &bridge::Event) -> String {
    use bridge::{Call, Event as E};
    let tk = super::labels::tk;
    match event {
        E::Called { seat, call } => {
            let call = match call {
                Call::Pass => i18n::t("timeline-br-pass"),
                Call::Bid(bid) => bridge_bid(bid),
            };
            tk("timeline-br-called", &[("seat", seat)], &[("call", &call)])
        }
        E::PassedOut => i18n::t("timeline-br-passed-out"),
        E::AuctionEnded { contract, leader } => {
            let bid = bridge_bid(&contract.bid);
            let values: [(&str, &dyn Display); 2] =
                [("declarer", &contract.declarer), ("leader", leader)];
            tk("timeline-br-auction-ended", &values, &[("bid", &bid)])
        }
        E::Played { hand, by, card } if hand == by => {
            let card = bridge_card(card);
            tk("timeline-br-played", &[("seat", hand)], &[("card", &card)])
        }
        E::Played { hand, by, card } => {
            let card = bridge_card(card);
            let values: [(&str, &dyn Display); 2] = [("by", by), ("hand", hand)];
            tk("timeline-br-played-dummy", &values, &[("card", &card)])
        }
        E::DummyShown { dummy, cards } => {
            let cards = cards.iter().map(bridge_card).collect::<Vec<_>>().join(" ");
            let names = [("cards", cards.as_str())];
            tk("timeline-br-dummy-shown", &[("seat", dummy)], &names)
        }
        E::TrickWon { round, winner } => {
            let values: [(&str, &dyn Display); 2] = [("seat", winner), ("round", round)];
            i18n::t_with("timeline-br-trick-won", &values)
        }
        E::DealEnded {
            declarer_tricks,
            ns_score,
        } => {
            let values: [(&str, &dyn Display); 2] =
                [("tricks", declarer_tricks), ("score", ns_score)];
            i18n::t_with("timeline-br-deal-ended", &values)
        }
    }
}

fn splendor_color(color: splendor::Color) -> String {
    use splendor::Color as C;
    match color {
        C::White => i18n::t("timeline-sp-white"),
        C::Blue => i18n::t("timeline-sp-blue"),
        C::Green => i18n::t("timeline-sp-green"),
        C::Red => i18n::t("timeline-sp-red"),
        C::Black => i18n::t("timeline-sp-black"),
        C::Gold => i18n::t("timeline-sp-gold"),
    }
}

/// `1 white, 2 blue`: the gem colours of `gems` that count.
fn splendor_gems(gems: &splendor::Gems) -> String {
    list(
        splendor::Color::GEMS
            .into_iter()
            .filter(|&c| gems.get(c) > 0)
            .map(|c| {
                let color = splendor_color(c);
                let (n, names) = (gems.get(c), [("color", color.as_str())]);
                super::labels::tk("timeline-sp-count", &[("n", &n)], &names)
            }),
    )
}

fn splendor_card(card: &splendor::Card) -> String {
    let (color, cost) = (splendor_color(card.color), splendor_gems(&card.cost));
    let values: [(&str, &dyn Display); 2] = [("level", &card.level), ("points", &card.points)];
    let names = [("color", color.as_str()), ("cost", &cost)];
    super::labels::tk("timeline-sp-card", &values, &names)
}

fn splendor_text(event: &splendor::Event) -> String {
    use splendor::Event as E;
    let tk = super::labels::tk;
    match event {
        E::TookGems { seat, colors } => {
            let colors = list(colors.iter().map(|c| splendor_color(*c)));
            let names = [("colors", colors.as_str())];
            tk("timeline-sp-took", &[("seat", seat)], &names)
        }
        E::Reserved {
            seat,
            card,
            blind,
            gold,
        } => {
            let card = splendor_card(card);
            let from = if *blind {
                i18n::t("timeline-sp-from-deck")
            } else {
                String::new()
            };
            let gold = if *gold {
                i18n::t("timeline-sp-got-gold")
            } else {
                String::new()
            };
            let names = [("card", card.as_str()), ("from", &from), ("gold", &gold)];
            tk("timeline-sp-reserved", &[("seat", seat)], &names)
        }
        E::Bought {
            seat,
            card,
            from_reserve,
            ..
        } => {
            let card = splendor_card(card);
            let from = match from_reserve {
                true => i18n::t("timeline-sp-from-reserve"),
                false => String::new(),
            };
            let names = [("card", card.as_str()), ("from", &from)];
            tk("timeline-sp-bought", &[("seat", seat)], &names)
        }
        E::NobleVisited { seat, noble } => {
            let needs = splendor_gems(&noble.requires);
            let (points, names) = (noble.points, [("needs", needs.as_str())]);
            let noble = tk("timeline-sp-noble-card", &[("points", &points)], &names);
            tk("timeline-sp-noble", &[("seat", seat)], &[("noble", &noble)])
        }
        E::Passed { seat } => i18n::t_with("timeline-sp-passed", &[("seat", seat)]),
        E::RoundStarted { round } => i18n::t_with("timeline-sp-round", &[("round", round)]),
        E::Ended {
            rounds,
            points,
            cards,
        } => {
            let rows = list(points.iter().zip(cards).enumerate().map(|(s, (p, c))| {
                let values: [(&str, &dyn Display); 3] = [("seat", &s), ("points", p), ("cards", c)];
                i18n::t_with("timeline-sp-row", &values)
            }));
            let names = [("rows", rows.as_str())];
            tk("timeline-sp-ended", &[("rounds", rounds)], &names)
        }
    }
}

/// A legal move of `game` in the page's language, with the platform's words (take, hint,
/// reserve, 拿牌, 提示, 保留, 进贡 …); `None` for a move it does not know (the caller words it
/// from its JSON). Seats stay `seat N` for [`with_names`]. The one place a move is put in
/// words: the play page's list, its recent moves and the replay's captions all come here.
pub fn action_text(game: &str, action: &serde_json::Value) -> Option<String> {
    let json = || action.clone();
    match game {
        "nothanks" => serde_json::from_value(json()).ok().map(|a| match a {
            nothanks::Action::Pick => i18n::t("timeline-act-nt-pick"),
            nothanks::Action::Pass => i18n::t("timeline-act-nt-pass"),
        }),
        "hanabi" => serde_json::from_value(json())
            .ok()
            .map(|a| hanabi_action(&a)),
        "guandan" => serde_json::from_value(json())
            .ok()
            .map(|a| guandan_action(&a)),
        "bridge" => serde_json::from_value(json()).ok().map(|a| match a {
            bridge::Action::Call(bridge::Call::Pass) => i18n::t("timeline-br-pass"),
            bridge::Action::Call(bridge::Call::Bid(bid)) => {
                let bid = bridge_bid(&bid);
                super::labels::tk("timeline-act-br-call", &[], &[("call", &bid)])
            }
            bridge::Action::Play(card) => {
                let card = bridge_card(&card);
                super::labels::tk("timeline-act-br-play", &[], &[("card", &card)])
            }
        }),
        "splendor" => serde_json::from_value(json())
            .ok()
            .map(|a| splendor_action(&a)),
        _ => None,
    }
}

fn hanabi_action(action: &hanabi::Action) -> String {
    use hanabi::Action as A;
    let tk = super::labels::tk;
    match action {
        A::HintColor { target, color } => {
            let hint = hanabi_color(*color);
            let names = [("hint", hint.as_str())];
            tk("timeline-act-hb-hint", &[("target", target)], &names)
        }
        A::HintNumber { target, number } => {
            let hint = i18n::t_with("timeline-hb-number", &[("n", number)]);
            let names = [("hint", hint.as_str())];
            tk("timeline-act-hb-hint", &[("target", target)], &names)
        }
        // Slots as people count them, from 1 (the oldest card).
        A::Play { card } => i18n::t_with("timeline-act-hb-play", &[("slot", &(card + 1))]),
        A::Discard { card } => i18n::t_with("timeline-act-hb-discard", &[("slot", &(card + 1))]),
    }
}

fn guandan_action(action: &guandan::Action) -> String {
    use guandan::Action as A;
    match action {
        A::Pass => i18n::t("timeline-act-gd-pass"),
        A::Play(p) => guandan_play(p),
        A::Tribute(c) => format!(
            "{} {}",
            i18n::t("timeline-gd-tribute-word"),
            guandan_card(c)
        ),
        A::Back(c) => format!("{} {}", i18n::t("timeline-gd-back-word"), guandan_card(c)),
    }
}

fn splendor_action(action: &splendor::Action) -> String {
    use splendor::Action as A;
    let tk = super::labels::tk;
    let text = match action {
        A::TakeDifferent { colors, .. } => {
            let colors = list(colors.iter().map(|c| splendor_color(*c)));
            let names = [("colors", colors.as_str())];
            tk("timeline-act-sp-take-different", &[], &names)
        }
        A::TakeTwo { color, .. } => {
            let color = splendor_color(*color);
            tk("timeline-act-sp-take-two", &[], &[("color", &color)])
        }
        A::Reserve { card, .. } => {
            let card = splendor_card(card);
            tk("timeline-act-sp-reserve", &[], &[("card", &card)])
        }
        A::ReserveBlind { level, .. } => {
            i18n::t_with("timeline-act-sp-reserve-blind", &[("level", level)])
        }
        A::Buy { card, .. } => {
            let card = splendor_card(card);
            tk("timeline-act-sp-buy", &[], &[("card", &card)])
        }
        A::BuyReserved { card, .. } => {
            let card = splendor_card(card);
            tk("timeline-act-sp-buy-reserved", &[], &[("card", &card)])
        }
        A::Pass => i18n::t("timeline-act-sp-pass"),
    };
    match action.noble() {
        Some(noble) => {
            let needs = splendor_gems(&noble.requires);
            let (points, names) = (noble.points, [("needs", needs.as_str())]);
            let noble = tk("timeline-sp-noble-card", &[("points", &points)], &names);
            text + &tk("timeline-act-sp-noble", &[], &[("noble", &noble)])
        }
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_numbers_become_player_names() {
        let players = vec!["alice".to_owned(), "bob".to_owned()];
        assert_eq!(
            with_names("seat 0 picks 23 with 4 coins", &players),
            "alice picks 23 with 4 coins"
        );
        assert_eq!(
            with_names("seat 1 passes; seat 7 waits; points by seat: 3", &players),
            "bob passes; seat 7 waits; points by seat: 3"
        );
        assert_eq!(with_names("myseat 0", &players), "myseat 0");
    }

    #[test]
    fn moves_read_as_players_say_them_not_as_json() {
        use serde_json::json;
        let said = |game: &str, action: serde_json::Value| action_text(game, &action).unwrap();
        assert_eq!(
            said("guandan", json!(["Pair", "2", ["H2", "D2"]])),
            "Pair 2 (♥2 ♦2)"
        );
        assert_eq!(said("guandan", json!(["PASS", "PASS", "PASS"])), "Pass");
        assert_eq!(
            said(
                "guandan",
                json!(["Straight", "T", ["ST", "HJ", "CQ", "DK", "SA"]])
            ),
            "Straight 10 (♠10 ♥J ♣Q ♦K ♠A)"
        );
        assert_eq!(
            said("guandan", json!(["tribute", "tribute", ["HR"]])),
            "tribute big joker"
        );
        assert_eq!(
            said(
                "hanabi",
                json!({"action": "hint_color", "target": 1, "color": 0})
            ),
            "hint red to seat 1"
        );
        assert_eq!(
            said(
                "hanabi",
                json!({"action": "hint_number", "target": 2, "number": 5})
            ),
            "hint 5 to seat 2"
        );
        assert_eq!(
            said("hanabi", json!({"action": "discard", "card": 0})),
            "discard your card 1"
        );
        assert_eq!(said("bridge", json!({"call": "C-1"})), "bid 1♣");
        assert_eq!(said("bridge", json!({"call": "N-3"})), "bid 3NT");
        assert_eq!(said("bridge", json!({"call": "pass"})), "Pass");
        assert_eq!(said("bridge", json!({"play": "D-1"})), "play ♦A");
        assert_eq!(said("nothanks", json!("pick")), "Take the card");
        let card = json!({"level": 1, "color": "blue", "points": 0,
                          "cost": {"white": 1, "blue": 0, "green": 2, "red": 0, "black": 0}});
        let buy = said("splendor", json!({"action": "buy", "card": card}));
        assert_eq!(
            buy,
            "buy the level 1 blue card (0 points, cost 1 white, 2 green)"
        );
        assert_eq!(
            said(
                "splendor",
                json!({"action": "take_different", "colors": ["white", "red"]})
            ),
            "take white, red"
        );
    }

    #[test]
    fn events_read_with_symbols_and_names_not_engine_dumps() {
        use serde_json::json;
        let said = |game: &str, event: serde_json::Value| event_words(game, &event).unwrap();
        let over = guandan::Event::DealOver {
            order: vec![Seat(3), Seat(1), Seat(0), Seat(2)],
            played_rank: guandan::Level(2),
            rest_cards: Vec::new(),
            cur_rank: guandan::Level(3),
            levels: [guandan::Level(3), guandan::Level(2)],
        };
        let order = said("guandan", serde_json::to_value(&over).unwrap());
        assert_eq!(
            order,
            "deal over, order seat 3, seat 1, seat 0, seat 2; next level 3"
        );
        let passed = said(
            "guandan",
            json!({"event": "played", "seat": 1, "action": ["PASS", "PASS", "PASS"]}),
        );
        assert_eq!(passed, "seat 1 passes");
        let hinted = hanabi::Event::Hinted {
            seat: Seat(0),
            target: Seat(1),
            hint: hanabi::Hint::Color(hanabi::Color::Red),
            touched: vec![0, 2],
            hint_tokens: 1,
        };
        let hinted = said("hanabi", serde_json::to_value(hinted).unwrap());
        assert_eq!(
            hinted,
            "seat 0 tells seat 1 about their reds: slots [1, 3] (1 hint token left)"
        );
    }

    #[test]
    fn an_unreadable_replay_gives_a_note_not_an_error() {
        let timeline = read(b"not json", "nothanks");
        assert!(timeline.games.is_empty());
        assert!(timeline.note.is_some());
    }
}
