//! The embedded cards and nobles match the reference data and its published checks.

use super::*;

#[test]
fn there_are_90_distinct_cards_40_30_20_by_level() {
    let cards = all_cards();
    assert_eq!(cards.len(), 90);
    for (level, count) in [(1, 40), (2, 30), (3, 20)] {
        assert_eq!(cards.iter().filter(|c| c.level == level).count(), count);
    }
    let distinct: std::collections::HashSet<_> = cards.iter().collect();
    assert_eq!(distinct.len(), 90);
    assert!(cards
        .iter()
        .all(|c| c.color != Color::Gold && c.cost.gold == 0));
}

#[test]
fn each_colour_has_8_6_4_cards_per_level_and_costs_33_41_43_gems() {
    let cards = all_cards();
    for (level, per_colour, cost) in [(1, 8, 33), (2, 6, 41), (3, 4, 43)] {
        for color in Color::GEMS {
            let of_level = || cards.iter().filter(|c| c.level == level);
            assert_eq!(of_level().filter(|c| c.color == color).count(), per_colour);
            let total: u32 = of_level().map(|c| u32::from(c.cost.get(color))).sum();
            assert_eq!(total, cost, "level {level} {color}");
        }
    }
}

#[test]
fn the_cards_are_worth_140_points() {
    let total: u32 = all_cards().iter().map(|c| u32::from(c.points)).sum();
    assert_eq!(total, 140);
}

#[test]
fn there_are_10_distinct_nobles_of_3_points() {
    let nobles = all_nobles();
    assert_eq!(nobles.len(), 10);
    assert!(nobles.iter().all(|n| n.points == 3 && n.requires.gold == 0));
    let distinct: std::collections::HashSet<_> = nobles.iter().collect();
    assert_eq!(distinct.len(), 10);
    // Five nobles need 4+4 of two colours, five need 3+3+3 of three colours.
    assert_eq!(nobles.iter().filter(|n| n.requires.total() == 8).count(), 5);
    assert_eq!(nobles.iter().filter(|n| n.requires.total() == 9).count(), 5);
    // The file's column order (white,black,blue,green,red) is read by name.
    assert_eq!(
        nobles.first().map(|n| (n.requires.green, n.requires.red)),
        Some((4, 4))
    );
}
