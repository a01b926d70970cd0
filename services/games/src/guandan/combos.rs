//! Legal-play generation with wild cards: every distinct interpretation (type, rank, card
//! multiset) a hand can make, in platform order (by type, then size and rank).

use super::action::{Kind, Play, JOKER_BOMB};
use super::cards::{Card, ACE, BIG_JOKER, HEARTS, SMALL_JOKER};

/// A hand counted for generation: natural cards by rank and suit (the heart level cards are
/// kept apart as wild tokens), jokers, and the level.
struct Counts {
    level: u8,
    /// `natural[rank][suit]`, rank 0..=14 (index 1 unused: A is 14).
    natural: [[u8; 4]; 15],
    wilds: u8,
    small: u8,
    big: u8,
    /// Whether wilds may complete straight flushes (see `Settings::wild_straight_flush`).
    wild_flush: bool,
}

impl Counts {
    fn new(hand: &[Card], level: u8, wild_flush: bool) -> Counts {
        let mut counts = Counts {
            level,
            natural: [[0; 4]; 15],
            wilds: 0,
            small: 0,
            big: 0,
            wild_flush,
        };
        for &card in hand {
            if card.is_wild(level) {
                counts.wilds += 1;
            } else if card.rank == SMALL_JOKER {
                counts.small += 1;
            } else if card.rank == BIG_JOKER {
                counts.big += 1;
            } else if let Some(slot) = counts
                .natural
                .get_mut(usize::from(card.rank))
                .and_then(|r| r.get_mut(usize::from(card.suit)))
            {
                *slot += 1;
            }
        }
        counts
    }

    /// Natural copies of (`rank`, `suit`); rank 1 means A.
    fn get(&self, rank: u8, suit: u8) -> u8 {
        let rank = if rank == 1 { ACE } else { rank };
        self.natural
            .get(usize::from(rank))
            .and_then(|r| r.get(usize::from(suit)))
            .copied()
            .unwrap_or(0)
    }

    /// Every way to take `n` cards of `rank` (natural cards of the suits allowed, then wild
    /// tokens) using at most `wild_budget` wilds; at least one natural card unless the rank is
    /// the level (whose wilds are natural) or `any` (sequence positions). Returns
    /// (cards, wilds used).
    fn fill(
        &self,
        rank: u8,
        n: u8,
        suit: Option<u8>,
        budget: u8,
        any: bool,
    ) -> Vec<(Vec<Card>, u8)> {
        let natural_rank = if rank == 1 { ACE } else { rank };
        let mut out = Vec::new();
        let max_wild = if any || natural_rank == self.level {
            n
        } else {
            n.saturating_sub(1)
        };
        for k in 0..=budget.min(max_wild) {
            let mut current = Vec::new();
            self.suits(natural_rank, n - k, 0, suit, &mut current, &mut |cards| {
                let mut cards = cards.to_vec();
                cards.extend((0..k).map(|_| Card::wild(self.level)));
                if natural_rank == self.level {
                    cards.sort_by_key(|c| c.suit);
                }
                out.push((cards, k));
            });
        }
        out
    }

    /// Calls `emit` with every multiset of `n` natural cards of `rank` from suit `from` on.
    fn suits(
        &self,
        rank: u8,
        n: u8,
        from: u8,
        only: Option<u8>,
        current: &mut Vec<Card>,
        emit: &mut dyn FnMut(&[Card]),
    ) {
        if n == 0 {
            emit(current);
            return;
        }
        for suit in from..4 {
            if only.is_some_and(|s| s != suit) {
                continue;
            }
            let have = self.get(rank, suit);
            for take in 1..=have.min(n) {
                let before = current.len();
                current.extend((0..take).map(|_| Card::new(suit, rank)));
                self.suits(rank, n - take, suit + 1, only, current, emit);
                current.truncate(before);
            }
        }
    }

    /// Sequences of `len` consecutive ranks from `start` (1 = A low), `width` cards each.
    fn sequence(
        &self,
        kind: Kind,
        start: u8,
        len: u8,
        width: u8,
        suit: Option<u8>,
        out: &mut Vec<Play>,
    ) {
        let mut cards = Vec::new();
        self.extend_sequence(
            kind, start, start, len, width, suit, self.wilds, &mut cards, out,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn extend_sequence(
        &self,
        kind: Kind,
        start: u8,
        at: u8,
        left: u8,
        width: u8,
        suit: Option<u8>,
        budget: u8,
        cards: &mut Vec<Card>,
        out: &mut Vec<Play>,
    ) {
        if left == 0 {
            out.push(Play {
                kind,
                rank: start,
                cards: cards.clone(),
            });
            return;
        }
        let natural_rank = if at == 1 { ACE } else { at };
        // Without wild straight flushes a heart level card may only be itself in a flush.
        let itself = suit == Some(HEARTS) && natural_rank == self.level;
        let usable = if suit.is_some() && !self.wild_flush && !itself {
            0
        } else {
            budget
        };
        for (fill, used) in self.fill(natural_rank, width, suit, usable, true) {
            let before = cards.len();
            cards.extend(fill);
            self.extend_sequence(
                kind,
                start,
                at + 1,
                left - 1,
                width,
                suit,
                budget - used,
                cards,
                out,
            );
            cards.truncate(before);
        }
    }
}

/// Every play `hand` can make at `level` with bombs up to `max_bomb` cards, wild cards in
/// straight flushes only if `wild_flush`, in platform order. With `only = Some((kind, rank))`,
/// just the plays of that type and rank.
pub fn plays(
    hand: &[Card],
    level: u8,
    generation: (u8, bool),
    only: Option<(Kind, u8)>,
) -> Vec<Play> {
    match only {
        None => plays_of(hand, level, generation, &Kind::ALL, None),
        Some((kind, rank)) => plays_of(hand, level, generation, &[kind], Some(rank)),
    }
}

/// The plays of the types `kinds` (of `rank` only, if given), in platform order. Following a
/// play needs only its type and the bombs, which is much cheaper than every play.
pub fn plays_of(
    hand: &[Card],
    level: u8,
    (max_bomb, wild_flush): (u8, bool),
    kinds: &[Kind],
    rank: Option<u8>,
) -> Vec<Play> {
    let counts = Counts::new(hand, level, wild_flush);
    let wanted = |kind: Kind, r: u8| kinds.contains(&kind) && rank.is_none_or(|x| x == r);
    let kind_wanted = |kind: Kind| kinds.contains(&kind);
    let mut out = Vec::new();
    let groups = |n: u8, kind: Kind, out: &mut Vec<Play>| {
        for rank in ranks_by_power(level) {
            if wanted(kind, rank) {
                for (cards, _) in counts.fill(rank, n, None, counts.wilds, false) {
                    out.push(Play { kind, rank, cards });
                }
            }
        }
    };
    if kind_wanted(Kind::Single) {
        for &rank in &ranks_by_power(level) {
            for suit in 0..4 {
                let have =
                    counts.get(rank, suit) > 0 || (rank == level && suit == 1 && counts.wilds > 0);
                if have && wanted(Kind::Single, rank) {
                    let cards = vec![Card::new(suit, rank)];
                    out.push(Play {
                        kind: Kind::Single,
                        rank,
                        cards,
                    });
                }
            }
        }
        for (joker, n) in [
            (Card::SMALL_JOKER, counts.small),
            (Card::BIG_JOKER, counts.big),
        ] {
            if n > 0 && wanted(Kind::Single, joker.rank) {
                out.push(Play {
                    kind: Kind::Single,
                    rank: joker.rank,
                    cards: vec![joker],
                });
            }
        }
    }
    if kind_wanted(Kind::Pair) {
        groups(2, Kind::Pair, &mut out);
        for (joker, n) in [
            (Card::SMALL_JOKER, counts.small),
            (Card::BIG_JOKER, counts.big),
        ] {
            if n >= 2 && wanted(Kind::Pair, joker.rank) {
                out.push(Play {
                    kind: Kind::Pair,
                    rank: joker.rank,
                    cards: vec![joker, joker],
                });
            }
        }
    }
    if kind_wanted(Kind::Trips) {
        groups(3, Kind::Trips, &mut out);
    }
    if kind_wanted(Kind::ThreePair) {
        for start in 1..=12 {
            if wanted(Kind::ThreePair, start) {
                counts.sequence(Kind::ThreePair, start, 3, 2, None, &mut out);
            }
        }
    }
    if kind_wanted(Kind::ThreeWithTwo) {
        three_with_two(&counts, &wanted, &mut out);
    }
    if kind_wanted(Kind::TwoTrips) {
        for start in 1..=13 {
            if wanted(Kind::TwoTrips, start) {
                counts.sequence(Kind::TwoTrips, start, 2, 3, None, &mut out);
            }
        }
    }
    if kind_wanted(Kind::Straight) {
        for start in 1..=10 {
            if wanted(Kind::Straight, start) {
                counts.sequence(Kind::Straight, start, 5, 1, None, &mut out);
            }
        }
    }
    let flushes = |out: &mut Vec<Play>| {
        for start in 1..=10 {
            for suit in 0..4 {
                if wanted(Kind::StraightFlush, start) {
                    counts.sequence(Kind::StraightFlush, start, 5, 1, Some(suit), out);
                }
            }
        }
    };
    if kind_wanted(Kind::Bomb) || kind_wanted(Kind::StraightFlush) {
        for n in 4..=max_bomb {
            if n == 6 && kind_wanted(Kind::StraightFlush) {
                flushes(&mut out);
            }
            if kind_wanted(Kind::Bomb) {
                groups(n, Kind::Bomb, &mut out);
            }
        }
        if max_bomb < 6 && kind_wanted(Kind::StraightFlush) {
            flushes(&mut out);
        }
        if counts.small == 2 && counts.big == 2 && wanted(Kind::Bomb, JOKER_BOMB) {
            let cards = vec![
                Card::SMALL_JOKER,
                Card::SMALL_JOKER,
                Card::BIG_JOKER,
                Card::BIG_JOKER,
            ];
            out.push(Play {
                kind: Kind::Bomb,
                rank: JOKER_BOMB,
                cards,
            });
        }
    }
    out
}

/// Trips of one rank with a pair of another (jokers included), sharing the wild budget.
fn three_with_two(counts: &Counts, wanted: &dyn Fn(Kind, u8) -> bool, out: &mut Vec<Play>) {
    let level = counts.level;
    for trips_rank in ranks_by_power(level) {
        if !wanted(Kind::ThreeWithTwo, trips_rank) {
            continue;
        }
        for (trips, used) in counts.fill(trips_rank, 3, None, counts.wilds, false) {
            for pair_rank in ranks_by_power(level) {
                if pair_rank == trips_rank {
                    continue;
                }
                for (pair, _) in counts.fill(pair_rank, 2, None, counts.wilds - used, false) {
                    let cards = [trips.as_slice(), pair.as_slice()].concat();
                    out.push(Play {
                        kind: Kind::ThreeWithTwo,
                        rank: trips_rank,
                        cards,
                    });
                }
            }
            for (joker, n) in [
                (Card::SMALL_JOKER, counts.small),
                (Card::BIG_JOKER, counts.big),
            ] {
                if n >= 2 {
                    let cards = [trips.as_slice(), &[joker, joker]].concat();
                    out.push(Play {
                        kind: Kind::ThreeWithTwo,
                        rank: trips_rank,
                        cards,
                    });
                }
            }
        }
    }
}

/// Ranks 2..=A ordered by strength at `level` (the level last).
pub fn ranks_by_power(level: u8) -> Vec<u8> {
    let mut ranks: Vec<u8> = (2..=ACE).filter(|&r| r != level).collect();
    ranks.push(level);
    ranks
}
