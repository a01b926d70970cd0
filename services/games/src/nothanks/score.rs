//! No Thanks scoring: each run of consecutive cards counts only its lowest card; coins count
//! one point off each.

/// The card part of the score: the sum of the lowest card of each run of consecutive numbers.
/// `cards` must be sorted ascending (hands always are).
pub fn card_points(cards: &[u8]) -> i64 {
    let mut total = 0;
    let mut previous: Option<u8> = None;
    for &card in cards {
        if previous.and_then(|p| p.checked_add(1)) != Some(card) {
            total += i64::from(card);
        }
        previous = Some(card);
    }
    total
}

/// A player's points: card points minus coins. Lower is better.
pub fn points(cards: &[u8], coins: u32) -> i64 {
    card_points(cards) - i64::from(coins)
}

/// How taking `card` would change the card points of the sorted hand `cards` (coins aside):
/// the card's value alone, 0 when it extends a run upwards, negative when it extends a run
/// downwards or joins two runs.
pub fn marginal_card_points(cards: &[u8], card: u8) -> i64 {
    let below = card
        .checked_sub(1)
        .is_some_and(|c| cards.binary_search(&c).is_ok());
    let above = card
        .checked_add(1)
        .is_some_and(|c| cards.binary_search(&c).is_ok());
    let card = i64::from(card);
    match (below, above) {
        // The run above started at card + 1; now it starts lower, inside the run below.
        (true, true) => -(card + 1),
        (true, false) => 0,
        (false, true) => card - (card + 1),
        (false, false) => card,
    }
}
