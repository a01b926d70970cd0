//! Legal-play generation with wild cards: every distinct interpretation (type, rank, card
//! multiset) a hand can make, in platform order (by type, then size and rank).
//!
//! Nothing is allocated per play: plays hold their cards inline ([`Cards`]), the ways to take
//! one, two or three cards of a rank are worked out once per rank ([`Takes`]) and combined
//! from there (ThreeWithTwo, sequences), and [`each_play`] hands every play to a callback, so
//! a list is one growing vector. The order is the one the platform lists (pinned by the
//! golden test in `tests/golden.rs`).

use super::action::{Cards, Kind, Play, JOKER_BOMB, MAX_PLAY};
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

/// An empty card slot of a buffer.
const BLANK: Card = Card::new(0, 0);

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

    /// Calls `emit(cards, wilds used)` with every way to take `n` cards of `rank` (natural
    /// cards of the suits allowed, then wild tokens) using at most `budget` wilds; at least
    /// one natural card unless the rank is the level (whose wilds are natural) or `any`
    /// (sequence positions). Fewest wilds first; level cards sorted by suit.
    fn fill(
        &self,
        rank: u8,
        n: u8,
        suit: Option<u8>,
        budget: u8,
        any: bool,
        emit: &mut impl FnMut(&[Card], u8),
    ) {
        let natural_rank = if rank == 1 { ACE } else { rank };
        let max_wild = if any || natural_rank == self.level {
            n
        } else {
            n.saturating_sub(1)
        };
        let naturals: u8 = (0..4)
            .filter(|&s| suit.is_none_or(|only| only == s))
            .map(|s| self.get(natural_rank, s))
            .sum();
        if naturals.saturating_add(budget.min(max_wild)) < n {
            return; // not enough cards of the rank, wilds included
        }
        let mut buf = [BLANK; MAX_PLAY];
        for k in 0..=budget.min(max_wild) {
            self.suits(natural_rank, n - k, 0, suit, &mut buf, 0, &mut |naturals| {
                let mut cards = [BLANK; MAX_PLAY];
                let Some(cards) = cards.get_mut(..naturals.len() + usize::from(k)) else {
                    return;
                };
                let (head, wilds) = cards.split_at_mut(naturals.len());
                head.copy_from_slice(naturals);
                wilds.fill(Card::wild(self.level));
                if natural_rank == self.level {
                    // Stable, and without allocating for so few cards.
                    cards.sort_by_key(|c| c.suit);
                }
                emit(cards, k);
            });
        }
    }

    /// Calls `emit` with every multiset of `n` natural cards of `rank` from suit `from` on,
    /// appended to the `len` cards already in `buf`.
    #[allow(clippy::too_many_arguments)]
    fn suits<F: FnMut(&[Card])>(
        &self,
        rank: u8,
        n: u8,
        from: u8,
        only: Option<u8>,
        buf: &mut [Card; MAX_PLAY],
        len: usize,
        emit: &mut F,
    ) {
        if n == 0 {
            if let Some(cards) = buf.get(..len) {
                emit(cards);
            }
            return;
        }
        for suit in from..4 {
            if only.is_some_and(|s| s != suit) {
                continue;
            }
            let have = self.get(rank, suit);
            for take in 1..=have.min(n) {
                let end = len + usize::from(take);
                let Some(slots) = buf.get_mut(len..end) else {
                    return;
                };
                slots.fill(Card::new(suit, rank));
                self.suits(rank, n - take, suit + 1, only, buf, end, emit);
            }
        }
    }

    /// The ways to take `n` (1..=3) cards of every rank, A at 1 and 14 alike.
    fn takes(&self, n: u8, any: bool) -> [Takes; 15] {
        std::array::from_fn(|rank| {
            let rank = u8::try_from(rank).unwrap_or(0);
            let mut takes = Takes::EMPTY;
            if rank >= 2 {
                self.fill(rank, n, None, self.wilds, any, &mut |cards, wilds| {
                    takes.push(cards, wilds);
                });
            }
            takes
        })
    }

    /// Sequences of `len` consecutive ranks from `start` (1 = A low), `width` cards each,
    /// from `takes` (the ways to take `width` cards of a sequence position).
    fn sequence(
        &self,
        takes: &[Takes; 15],
        (kind, start, len): (Kind, u8, u8),
        emit: &mut impl FnMut(Play),
    ) {
        let mut buf = [BLANK; MAX_PLAY];
        extend_sequence(
            takes,
            (kind, start),
            start,
            len,
            self.wilds,
            &mut buf,
            0,
            emit,
        );
    }

    /// Straight flushes of `suit` from `start`: five natural cards of the suit, a heart level
    /// card as itself in a heart flush, and wild cards elsewhere only if `wild_flush`.
    fn flush(&self, start: u8, suit: u8, emit: &mut impl FnMut(Play)) {
        let mut buf = [BLANK; MAX_PLAY];
        self.extend_flush(start, suit, start, 5, self.wilds, &mut buf, 0, emit);
    }

    #[allow(clippy::too_many_arguments)]
    fn extend_flush(
        &self,
        start: u8,
        suit: u8,
        at: u8,
        left: u8,
        budget: u8,
        buf: &mut [Card; MAX_PLAY],
        len: usize,
        emit: &mut impl FnMut(Play),
    ) {
        if left == 0 {
            emit(play(Kind::StraightFlush, start, buf, len));
            return;
        }
        let natural_rank = if at == 1 { ACE } else { at };
        // Without wild straight flushes a heart level card may only be itself in a flush.
        let itself = suit == HEARTS && natural_rank == self.level;
        let usable = if !self.wild_flush && !itself {
            0
        } else {
            budget
        };
        let Some(slot) = buf.get_mut(len) else {
            return;
        };
        if self.get(natural_rank, suit) > 0 {
            *slot = Card::new(suit, natural_rank);
            self.extend_flush(start, suit, at + 1, left - 1, budget, buf, len + 1, emit);
        }
        if usable > 0 {
            if let Some(slot) = buf.get_mut(len) {
                *slot = Card::wild(self.level);
            }
            self.extend_flush(
                start,
                suit,
                at + 1,
                left - 1,
                budget - 1,
                buf,
                len + 1,
                emit,
            );
        }
    }
}

/// The play of the first `len` cards of `buf`.
fn play(kind: Kind, rank: u8, buf: &[Card; MAX_PLAY], len: usize) -> Play {
    Play {
        kind,
        rank,
        cards: Cards::from_buffer(*buf, u8::try_from(len.min(MAX_PLAY)).unwrap_or(0)),
    }
}

#[allow(clippy::too_many_arguments)]
fn extend_sequence(
    takes: &[Takes; 15],
    (kind, start): (Kind, u8),
    at: u8,
    left: u8,
    budget: u8,
    buf: &mut [Card; MAX_PLAY],
    len: usize,
    emit: &mut impl FnMut(Play),
) {
    if left == 0 {
        emit(play(kind, start, buf, len));
        return;
    }
    let natural_rank = if at == 1 { ACE } else { at };
    let Some(position) = takes.get(usize::from(natural_rank)) else {
        return;
    };
    let width = usize::from(position.n);
    for take in position.within(budget) {
        let end = len + width;
        // Three cards copied whatever the width (a fixed-size copy; the cards past `end` are
        // overwritten or ignored), as long as they fit.
        if let Some(slots) = buf.get_mut(len..len + 3) {
            slots.copy_from_slice(&take.cards);
        } else {
            let (Some(slots), Some(cards)) = (buf.get_mut(len..end), take.cards.get(..width))
            else {
                return;
            };
            slots.copy_from_slice(cards);
        }
        if left == 1 {
            // The last position: its plays emitted here, not one call deeper each.
            emit(play(kind, start, buf, end));
            continue;
        }
        let budget = budget - take.wilds;
        extend_sequence(
            takes,
            (kind, start),
            at + 1,
            left - 1,
            budget,
            buf,
            end,
            emit,
        );
    }
}

/// One way to take up to three cards of a rank, and the wilds it uses.
#[derive(Clone, Copy)]
struct Take {
    cards: [Card; 3],
    wilds: u8,
}

/// The ways to take `n` cards of one rank in [`Counts::fill`] order (fewest wilds first), so
/// those within a wild budget are a prefix. Two decks give at most 30 (three cards: 16
/// natural, 10 with one wild, 4 with two).
#[derive(Clone, Copy)]
struct Takes {
    items: [Take; 32],
    len: u8,
    n: u8,
    /// `upto[b]`: how many take at most `b` wilds.
    upto: [u8; 3],
}

impl Takes {
    const EMPTY: Takes = Takes {
        items: [Take {
            cards: [BLANK; 3],
            wilds: 0,
        }; 32],
        len: 0,
        n: 0,
        upto: [0; 3],
    };

    fn push(&mut self, cards: &[Card], wilds: u8) {
        let Some(item) = self.items.get_mut(usize::from(self.len)) else {
            return;
        };
        let head = cards.get(..3).unwrap_or(cards);
        let Some(slots) = item.cards.get_mut(..head.len()) else {
            return;
        };
        slots.copy_from_slice(head);
        item.wilds = wilds;
        self.len += 1;
        self.n = u8::try_from(head.len()).unwrap_or(0);
        for (b, upto) in self.upto.iter_mut().enumerate() {
            if usize::from(wilds) <= b {
                *upto = self.len;
            }
        }
    }

    /// The ways using at most `budget` wilds.
    fn within(&self, budget: u8) -> &[Take] {
        let n = self
            .upto
            .get(usize::from(budget))
            .copied()
            .unwrap_or(self.len);
        self.items.get(..usize::from(n)).unwrap_or(&[])
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
    generation: (u8, bool),
    kinds: &[Kind],
    rank: Option<u8>,
) -> Vec<Play> {
    let mut out = Vec::new();
    each_play(hand, level, generation, kinds, rank, &mut |p| out.push(p));
    out
}

/// Calls `emit` with every play of [`plays_of`], in the same order, allocating nothing.
pub fn each_play(
    hand: &[Card],
    level: u8,
    (max_bomb, wild_flush): (u8, bool),
    kinds: &[Kind],
    rank: Option<u8>,
    emit: &mut impl FnMut(Play),
) {
    let counts = Counts::new(hand, level, wild_flush);
    let wanted = |kind: Kind, r: u8| kinds.contains(&kind) && rank.is_none_or(|x| x == r);
    let kind_wanted = |kind: Kind| kinds.contains(&kind);
    let by_power = ranks_by_power(level);
    let single = |card: Card| Cards::from_slice(&[card]);
    let groups = |n: u8, kind: Kind, emit: &mut dyn FnMut(Play)| {
        for rank in by_power {
            if wanted(kind, rank) {
                counts.fill(rank, n, None, counts.wilds, false, &mut |cards, _| {
                    if let Some(cards) = Cards::from_slice(cards) {
                        emit(Play { kind, rank, cards });
                    }
                });
            }
        }
    };
    let jokers = [
        (Card::SMALL_JOKER, counts.small),
        (Card::BIG_JOKER, counts.big),
    ];
    if kind_wanted(Kind::Single) {
        for rank in by_power {
            for suit in 0..4 {
                let have =
                    counts.get(rank, suit) > 0 || (rank == level && suit == 1 && counts.wilds > 0);
                if let Some(cards) = single(Card::new(suit, rank)).filter(|_| have) {
                    if wanted(Kind::Single, rank) {
                        emit(Play {
                            kind: Kind::Single,
                            rank,
                            cards,
                        });
                    }
                }
            }
        }
        for (joker, n) in jokers {
            if let Some(cards) = single(joker).filter(|_| n > 0) {
                if wanted(Kind::Single, joker.rank) {
                    emit(Play {
                        kind: Kind::Single,
                        rank: joker.rank,
                        cards,
                    });
                }
            }
        }
    }
    if kind_wanted(Kind::Pair) {
        groups(2, Kind::Pair, emit);
        for (joker, n) in jokers {
            if n >= 2 && wanted(Kind::Pair, joker.rank) {
                if let Some(cards) = Cards::from_slice(&[joker, joker]) {
                    emit(Play {
                        kind: Kind::Pair,
                        rank: joker.rank,
                        cards,
                    });
                }
            }
        }
    }
    if kind_wanted(Kind::Trips) {
        groups(3, Kind::Trips, emit);
    }
    if kind_wanted(Kind::ThreePair) {
        let takes = counts.takes(2, true);
        for start in 1..=12 {
            if wanted(Kind::ThreePair, start) {
                counts.sequence(&takes, (Kind::ThreePair, start, 3), emit);
            }
        }
    }
    if kind_wanted(Kind::ThreeWithTwo) {
        three_with_two(&counts, &by_power, &wanted, emit);
    }
    if kind_wanted(Kind::TwoTrips) {
        let takes = counts.takes(3, true);
        for start in 1..=13 {
            if wanted(Kind::TwoTrips, start) {
                counts.sequence(&takes, (Kind::TwoTrips, start, 2), emit);
            }
        }
    }
    if kind_wanted(Kind::Straight) {
        let takes = counts.takes(1, true);
        for start in 1..=10 {
            if wanted(Kind::Straight, start) {
                counts.sequence(&takes, (Kind::Straight, start, 5), emit);
            }
        }
    }
    let flushes = |emit: &mut dyn FnMut(Play)| {
        for start in 1..=10 {
            for suit in 0..4 {
                if wanted(Kind::StraightFlush, start) {
                    counts.flush(start, suit, &mut |p| emit(p));
                }
            }
        }
    };
    if kind_wanted(Kind::Bomb) || kind_wanted(Kind::StraightFlush) {
        for n in 4..=max_bomb {
            if n == 6 && kind_wanted(Kind::StraightFlush) {
                flushes(emit);
            }
            if kind_wanted(Kind::Bomb) {
                groups(n, Kind::Bomb, emit);
            }
        }
        if max_bomb < 6 && kind_wanted(Kind::StraightFlush) {
            flushes(emit);
        }
        if counts.small == 2 && counts.big == 2 && wanted(Kind::Bomb, JOKER_BOMB) {
            let four = [
                Card::SMALL_JOKER,
                Card::SMALL_JOKER,
                Card::BIG_JOKER,
                Card::BIG_JOKER,
            ];
            if let Some(cards) = Cards::from_slice(&four) {
                emit(Play {
                    kind: Kind::Bomb,
                    rank: JOKER_BOMB,
                    cards,
                });
            }
        }
    }
}

/// Trips of one rank with a pair of another (jokers included), sharing the wild budget.
fn three_with_two(
    counts: &Counts,
    by_power: &[u8; 13],
    wanted: &dyn Fn(Kind, u8) -> bool,
    emit: &mut impl FnMut(Play),
) {
    let trips = counts.takes(3, false);
    let pairs = counts.takes(2, false);
    let mut buf = [BLANK; MAX_PLAY];
    for &trips_rank in by_power {
        if !wanted(Kind::ThreeWithTwo, trips_rank) {
            continue;
        }
        let Some(ways) = trips.get(usize::from(trips_rank)) else {
            continue;
        };
        for three in ways.within(counts.wilds) {
            buf[..3].copy_from_slice(&three.cards);
            let budget = counts.wilds - three.wilds;
            for &pair_rank in by_power {
                if pair_rank == trips_rank {
                    continue;
                }
                let Some(pair_ways) = pairs.get(usize::from(pair_rank)) else {
                    continue;
                };
                for two in pair_ways.within(budget) {
                    buf[3..5].copy_from_slice(&two.cards[..2]);
                    emit(play(Kind::ThreeWithTwo, trips_rank, &buf, 5));
                }
            }
            for (joker, n) in [
                (Card::SMALL_JOKER, counts.small),
                (Card::BIG_JOKER, counts.big),
            ] {
                if n >= 2 {
                    buf[3..5].copy_from_slice(&[joker, joker]);
                    emit(play(Kind::ThreeWithTwo, trips_rank, &buf, 5));
                }
            }
        }
    }
}

/// Ranks 2..=A ordered by strength at `level` (the level last).
pub fn ranks_by_power(level: u8) -> [u8; 13] {
    let mut ranks = [level; 13];
    let mut at = 0;
    for rank in (2..=ACE).filter(|&r| r != level) {
        if let Some(slot) = ranks.get_mut(at) {
            *slot = rank;
            at += 1;
        }
    }
    ranks
}
