//! International Match Points (WBF Law 78B), from the table in `data/imp_table.csv` (embedded
//! at compile time; the same table as `services/games/data/bridge/imp_table.csv`).

use std::sync::OnceLock;

const IMP_CSV: &str = include_str!("../data/imp_table.csv");

/// `(diff_from, imps)` per row, ascending; the last row's upper bound is open (`inf`).
fn table() -> &'static [(i64, i64)] {
    static TABLE: OnceLock<Vec<(i64, i64)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        IMP_CSV
            .lines()
            .skip(1)
            .filter_map(|line| {
                let mut fields = line.split(',');
                let from = fields.next()?.trim().parse().ok()?;
                let imps = fields.nth(1)?.trim().parse().ok()?;
                Some((from, imps))
            })
            .collect()
    })
}

/// The IMPs for a net score difference: the row whose range holds `|diff|`, with the sign of
/// `diff`. Differences inside a gap of the table (11–19, which Bridge scores, all multiples of
/// 10, never produce) take the row below.
pub fn imps(score_diff: i64) -> i64 {
    let magnitude = score_diff.unsigned_abs();
    let imps = table()
        .iter()
        .take_while(|&&(from, _)| from.unsigned_abs() <= magnitude)
        .last()
        .map_or(0, |&(_, imps)| imps);
    imps * score_diff.signum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CSV's rows, read independently of [`table`]: (from, to or None for inf, imps).
    fn rows() -> Vec<(i64, Option<i64>, i64)> {
        IMP_CSV
            .lines()
            .skip(1)
            .map(|line| {
                let f: Vec<&str> = line.split(',').collect();
                let to = (f[1] != "inf").then(|| f[1].parse().expect("to"));
                (f[0].parse().expect("from"), to, f[2].parse().expect("imps"))
            })
            .collect()
    }

    #[test]
    fn every_row_of_the_imp_table_holds_at_both_ends_for_either_sign() {
        let rows = rows();
        assert_eq!(rows.len(), 25);
        for (from, to, expected) in rows {
            let to = to.unwrap_or(from + 100_000);
            for diff in [from, to, (from + to) / 2 / 10 * 10] {
                assert_eq!(imps(diff), expected, "+{diff}");
                assert_eq!(imps(-diff), -expected, "-{diff}");
            }
        }
    }

    #[test]
    fn known_swings_score_the_usual_imps() {
        assert_eq!(imps(0), 0);
        assert_eq!(imps(10), 0);
        assert_eq!(imps(20), 1);
        assert_eq!(imps(-620 - 170), -13); // game made at one table, part-score at the other
        assert_eq!(imps(1430 + 100), 17);
        assert_eq!(imps(i64::MIN), -24);
        assert_eq!(imps(15), 0, "inside a gap: the row below");
    }

    #[test]
    fn the_embedded_table_keeps_the_shared_header_and_open_last_row() {
        let header = IMP_CSV.lines().next();
        assert_eq!(header, Some("diff_from,diff_to,imps"));
        assert!(IMP_CSV.contains("4000,inf,24"));
    }
}
