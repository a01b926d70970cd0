//! Bridge against the reference data kept in the repo (`services/games/data/bridge/`): every
//! Law 77 scoring vector and the Law 2 dealer/vulnerability table.

use croupier_games::bridge::{
    board_dealer_vulnerability, duplicate_score, Doubled, Strain, Vulnerability,
};
use croupier_games::Seat;

fn rows(file: &str) -> Vec<Vec<String>> {
    let table = match file {
        "bridge_score_vectors.csv" => include_str!("../data/bridge/bridge_score_vectors.csv"),
        "board_dealer_vulnerability.csv" => {
            include_str!("../data/bridge/board_dealer_vulnerability.csv")
        }
        other => panic!("no reference table {other}"),
    };
    table
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim().split(',').map(str::to_owned).collect())
        .collect()
}

#[test]
fn every_scoring_vector_of_the_shared_table_is_reproduced() {
    let vectors = rows("bridge_score_vectors.csv");
    assert!(vectors.len() >= 40, "{} vectors", vectors.len());
    for row in &vectors {
        let [level, strain, doubled, tricks, vulnerable, expected] = row.as_slice() else {
            panic!("malformed row {row:?}");
        };
        let strain = match strain.as_str() {
            "C" => Strain::Clubs,
            "D" => Strain::Diamonds,
            "H" => Strain::Hearts,
            "S" => Strain::Spades,
            "N" => Strain::NoTrump,
            other => panic!("strain {other}"),
        };
        let doubled = match doubled.as_str() {
            "" => Doubled::No,
            "X" => Doubled::Doubled,
            "XX" => Doubled::Redoubled,
            other => panic!("doubled {other}"),
        };
        let got = duplicate_score(
            level.parse().unwrap(),
            strain,
            doubled,
            tricks.parse().unwrap(),
            vulnerable == "1",
        );
        assert_eq!(got, expected.parse::<i64>().unwrap(), "row {row:?}");
    }
}

#[test]
fn dealer_and_vulnerability_follow_the_shared_law_2_table_and_repeat_every_16_boards() {
    let table = rows("board_dealer_vulnerability.csv");
    assert_eq!(table.len(), 16);
    for row in &table {
        let board: u32 = row[0].parse().unwrap();
        let dealer = Seat("NESW".find(row[1].as_str()).unwrap());
        let vulnerable = match row[2].as_str() {
            "None" => Vulnerability::None,
            "NS" => Vulnerability::NorthSouth,
            "EW" => Vulnerability::EastWest,
            "All" => Vulnerability::All,
            other => panic!("{other}"),
        };
        assert_eq!(
            board_dealer_vulnerability(board),
            Some((dealer, vulnerable))
        );
        assert_eq!(
            board_dealer_vulnerability(board + 16),
            Some((dealer, vulnerable))
        );
    }
    assert_eq!(board_dealer_vulnerability(0), None);
}

#[test]
fn the_first_four_boards_match_rules_md() {
    let expected = [
        (Seat(0), Vulnerability::None),
        (Seat(1), Vulnerability::NorthSouth),
        (Seat(2), Vulnerability::EastWest),
        (Seat(3), Vulnerability::All),
    ];
    for (board, want) in (1..=4).zip(expected) {
        assert_eq!(board_dealer_vulnerability(board), Some(want));
    }
    assert!(Vulnerability::NorthSouth.of(Seat(2)) && !Vulnerability::NorthSouth.of(Seat(3)));
}
