//! Actions as the protocol's JSON text, written straight into a message: the same bytes as
//! serialising [`Value::from`](serde_json::Value) of each action (`["Pair","7",["S7","C7"]]`,
//! compact), without building a `Value` per action and per card. The referee's `act` message
//! writes its `actionList` with [`write_actions`].
//!
//! A play is written in place from fixed-size pieces (its opening `["Pair","7",[` in one
//! 32-byte copy, then one 8-byte copy per card) into zeroed room made 4 KiB ahead at a time
//! (still in the L1 cache when written over), with no call per piece; the list is checked as
//! UTF-8 once. Anything outside the tables (impossible cards, ranks) takes the plain, slower
//! path.

use super::action::{rank_label, Action, Kind, Play, MAX_PLAY};
use super::cards::Card;

/// `"S2",` (five bytes, padded to eight: one store per card) at `suit << 8 | rank`, suits 0..=3
/// and ranks 2..=16; zero elsewhere (one bounds check and one test of the first byte per card).
/// (Indexing in a constant cannot panic at run time: out of bounds would not compile.)
#[allow(clippy::indexing_slicing)]
const CARD_BYTES: [[u8; 8]; 1024] = {
    let (suits, ranks) = (*b"SHCD", *b"??23456789TJQKABR");
    let mut table = [[0; 8]; 1024];
    let mut s = 0;
    while s < 4 {
        let mut r = 2;
        while r < 17 {
            table[s << 8 | r] = [b'"', suits[s], ranks[r], b'"', b',', 0, 0, 0];
            r += 1;
        }
        s += 1;
    }
    table
};

/// A piece of at most 32 bytes, padded: copied whole, then `len` of it kept.
#[derive(Clone, Copy)]
struct Piece {
    bytes: [u8; 32],
    len: usize,
}

/// `text` then `more`, as one piece (cut at 32 bytes; every piece below fits).
const fn piece2(text: &[u8], more: &[u8]) -> Piece {
    piece3(b"", text, more)
}

/// `lead`, `text` then `more`, as one piece (cut at 32 bytes; every piece below fits).
#[allow(clippy::indexing_slicing)] // evaluated at compile time only
const fn piece3(lead: &[u8], text: &[u8], more: &[u8]) -> Piece {
    let mut bytes = [0; 32];
    let (a, b) = (lead.len(), lead.len() + text.len());
    let mut i = 0;
    while i < b + more.len() && i < 32 {
        bytes[i] = if i < a {
            lead[i]
        } else if i < b {
            text[i - a]
        } else {
            more[i - b]
        };
        i += 1;
    }
    Piece { bytes, len: i }
}

/// `["Single",` … `["Bomb",` in [`Kind::ALL`] order.
const KIND_OPEN: [&[u8]; 9] = [
    br#"["Single","#,
    br#"["Pair","#,
    br#"["Trips","#,
    br#"["ThreePair","#,
    br#"["ThreeWithTwo","#,
    br#"["TwoTrips","#,
    br#"["Straight","#,
    br#"["StraightFlush","#,
    br#"["Bomb","#,
];

/// `"A",[` … `"JOKER",[` by play rank 1..=17 (0 unused: empty).
const RANK_OPEN: [&[u8]; 18] = [
    b"",
    br#""A",["#,
    br#""2",["#,
    br#""3",["#,
    br#""4",["#,
    br#""5",["#,
    br#""6",["#,
    br#""7",["#,
    br#""8",["#,
    br#""9",["#,
    br#""T",["#,
    br#""J",["#,
    br#""Q",["#,
    br#""K",["#,
    br#""A",["#,
    br#""B",["#,
    br#""R",["#,
    br#""JOKER",["#,
];

/// A play's opening, `["Pair","7",[`, by separator (none, or the comma before every play
/// but the first), kind (in [`Kind::ALL`] order) and rank 1..=17: one copy per play. Rank 0
/// is empty (not in the table).
#[allow(clippy::indexing_slicing)] // evaluated at compile time only
const OPEN: [[[Piece; 18]; 9]; 2] = {
    let mut table = [[[piece2(b"", b""); 18]; 9]; 2];
    let mut k = 0;
    while k < 9 {
        let mut r = 1;
        while r < 18 {
            table[0][k][r] = piece2(KIND_OPEN[k], RANK_OPEN[r]);
            table[1][k][r] = piece3(b",", KIND_OPEN[k], RANK_OPEN[r]);
            r += 1;
        }
        k += 1;
    }
    table
};

const fn kind_index(kind: Kind) -> usize {
    match kind {
        Kind::Single => 0,
        Kind::Pair => 1,
        Kind::Trips => 2,
        Kind::ThreePair => 3,
        Kind::ThreeWithTwo => 4,
        Kind::TwoTrips => 5,
        Kind::Straight => 6,
        Kind::StraightFlush => 7,
        Kind::Bomb => 8,
    }
}

fn card_bytes(card: Card) -> Option<&'static [u8; 8]> {
    CARD_BYTES
        .get(usize::from(card.suit) << 8 | usize::from(card.rank))
        .filter(|bytes| bytes.first() == Some(&b'"'))
}

/// Copies `bytes` into `buf` at `at`.
fn put(buf: &mut [u8], at: usize, bytes: &[u8]) -> Option<()> {
    buf.get_mut(at..at + bytes.len())?.copy_from_slice(bytes);
    Some(())
}

/// Writes a play from the tables at the start of `window` in fixed-size copies (its opening,
/// after a comma if `sep`, then eight bytes per card; each copy's padding lands on bytes
/// written next); its length, or `None` if a card or the rank is not in the tables (the
/// plain path writes it then). Every offset is bounded by the window's size, so the copies
/// need no checks of their own.
fn write_play_at(window: &mut [u8; ROOM], sep: bool, play: &Play) -> Option<usize> {
    let open = OPEN
        .get(usize::from(sep))?
        .get(kind_index(play.kind))?
        .get(usize::from(play.rank))
        .filter(|p| p.len > 0)?;
    let (head, _) = window.split_first_chunk_mut::<32>()?;
    *head = open.bytes;
    // An opening is at most 27 bytes and a play at most 10 cards: `end` stays below 32 + 50.
    let mut end = open.len % 32;
    for &card in play.cards.iter().take(MAX_PLAY) {
        let bytes = card_bytes(card)?;
        window.get_mut(end..end + 8)?.copy_from_slice(bytes);
        end += 5;
    }
    if !play.cards.is_empty() {
        end -= 1; // the last card's comma
    }
    window.get_mut(end..end + 2)?.copy_from_slice(b"]]");
    Some(end + 2)
}

/// The [`ROOM`] bytes of `buf` from `at`, if there are that many.
fn window(buf: &mut [u8], at: usize) -> Option<&mut [u8; ROOM]> {
    buf.get_mut(at..)?.first_chunk_mut::<ROOM>()
}

/// Room enough for any play from the tables with its padding, and a separator.
const ROOM: usize = 128;

/// The plain path: each piece formatted in turn.
fn write_play_plain(out: &mut Vec<u8>, play: &Play) {
    out.extend_from_slice(b"[\"");
    out.extend_from_slice(play.kind.name().as_bytes());
    out.extend_from_slice(b"\",\"");
    out.extend_from_slice(rank_label(play.rank).as_bytes());
    out.extend_from_slice(b"\",");
    write_cards(out, &play.cards);
    out.push(b']');
}

fn write_cards(out: &mut Vec<u8>, cards: &[Card]) {
    out.push(b'[');
    for (i, &card) in cards.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.push(b'"');
        out.extend_from_slice(card.to_string().as_bytes());
        out.push(b'"');
    }
    out.push(b']');
}

fn write_action_bytes(out: &mut Vec<u8>, action: &Action) {
    match action {
        Action::Pass => out.extend_from_slice(br#"["PASS","PASS","PASS"]"#),
        Action::Play(play) => {
            let start = out.len();
            out.resize(start + ROOM, 0);
            match window(out, start).and_then(|w| write_play_at(w, false, play)) {
                Some(len) => out.truncate(start + len),
                None => {
                    out.truncate(start);
                    write_play_plain(out, play);
                }
            }
        }
        Action::Tribute(card) => {
            out.extend_from_slice(br#"["tribute","tribute","#);
            write_cards(out, &[*card]);
            out.push(b']');
        }
        Action::Back(card) => {
            out.extend_from_slice(br#"["back","back","#);
            write_cards(out, &[*card]);
            out.push(b']');
        }
    }
}

/// Writes the array of `actions` onto `out`, each play from the tables in place in room made
/// ahead in 4 KiB steps (no copy per play); the others (PASS, tribute, odd cards) formatted
/// aside and copied in.
fn write_list(out: &mut Vec<u8>, actions: &[Action]) {
    let mut at = out.len();
    // Most plays are 30 to 50 bytes: one allocation for a typical list, not a copy per growth.
    out.reserve(actions.len() * 48 + 2 * ROOM);
    let mut aside = Vec::new();
    // Zeroed room ahead in 4 KiB steps, within the capacity while it lasts: each step is
    // still in the L1 cache when the plays are written over it (zeroing far ahead in one go
    // evicts it first and costs a second trip to memory).
    let room = |out: &mut Vec<u8>, at: usize, len: usize| {
        let need = at + len;
        if out.len() < need {
            let step = 4096;
            let target = if need <= out.capacity() {
                (need + step).min(out.capacity())
            } else {
                need + step
            };
            out.resize(target, 0);
        }
    };
    room(out, at, 2 * ROOM);
    put(out, at, b"[");
    at += 1;
    for (i, action) in actions.iter().enumerate() {
        room(out, at, ROOM);
        let written = match action {
            Action::Play(play) => window(out, at).and_then(|w| write_play_at(w, i > 0, play)),
            _ => None,
        };
        if let Some(len) = written {
            at += len;
        } else {
            if i > 0 {
                put(out, at, b",");
                at += 1;
            }
            aside.clear();
            write_action_bytes(&mut aside, action);
            room(out, at, aside.len() + ROOM);
            put(out, at, &aside);
            at += aside.len();
        }
    }
    room(out, at, ROOM);
    put(out, at, b"]");
    out.truncate(at + 1);
}

/// Appends `bytes` (written by this module: always UTF-8) to `out`, reusing its buffer.
fn append(out: &mut String, write: impl FnOnce(&mut Vec<u8>)) {
    let mut bytes = std::mem::take(out).into_bytes();
    write(&mut bytes);
    *out = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
}

/// Appends `action`'s JSON text.
pub fn write_action(out: &mut String, action: &Action) {
    append(out, |bytes| write_action_bytes(bytes, action));
}

/// Appends the JSON array of `actions` (the `actionList`).
pub fn write_actions(out: &mut String, actions: &[Action]) {
    append(out, |bytes| write_list(bytes, actions));
}

/// [`write_actions`] into a new string.
pub fn actions_text(actions: &[Action]) -> String {
    let mut out = String::new();
    write_actions(&mut out, actions);
    out
}
