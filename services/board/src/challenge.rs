//! Challenges and A/B tests as the league sees them: the matches a challenge plays (its seating
//! and that seating's rotations on each group's seed, so every participant sits everywhere on
//! the same deal) and its report (per participant, and for an A/B test the sequential test of
//! `croupier_league::ab_test`). Unrated: nothing here touches a board.

use std::collections::BTreeMap;

use croupier_games::{GameId, ScoreOrder};
use croupier_league::{round_seed, AbConfig, AbReport, Interval, Moments};
use croupier_store::challenges::{Challenge, ChallengeSeat};
use croupier_store::matches::{NewMatch, SeatRef};
use croupier_store::{EndState, MatchStatus};
use serde::Serialize;
use uuid::Uuid;

/// The distinct rotations of `seating` (seat `i` gets `seating[(i + r) % n]`), in order: the
/// seatings one group plays on its seed.
pub fn rotations(seating: &[SeatRef]) -> Vec<Vec<SeatRef>> {
    let n = seating.len();
    let mut out: Vec<Vec<SeatRef>> = Vec::new();
    for r in 0..n {
        let rotated: Vec<SeatRef> = (0..n).map(|i| seating[(i + r) % n].clone()).collect();
        if !out.contains(&rotated) {
            out.push(rotated);
        }
    }
    out
}

/// The seatings of one A/B group of `a` against `b`: in a cooperative game (one shared score)
/// each plays the seed alone in every seat; otherwise they share the table — in seats 0+2 and
/// 1+3 of a partnership game, else `a`, `b` and the game's default built-in bot in the other
/// seats — and play every rotation.
pub fn ab_seatings(game: GameId, seats: usize, a: Uuid, b: Uuid) -> Vec<Vec<SeatRef>> {
    let (a, b) = (SeatRef::Submission(a), SeatRef::Submission(b));
    if game.def().shared_score {
        return vec![vec![a; seats], vec![b; seats]];
    }
    let filler = SeatRef::Builtin(
        game.def()
            .bot_names()
            .first()
            .copied()
            .unwrap_or("random")
            .to_owned(),
    );
    let partnerships = game.def().partnerships();
    let seating: Vec<SeatRef> = (0..seats)
        .map(|i| match (i, partnerships) {
            (_, true) if i % 2 == 0 => a.clone(),
            (_, true) => b.clone(),
            (0, false) => a.clone(),
            (1, false) => b.clone(),
            _ => filler.clone(),
        })
        .collect();
    rotations(&seating)
}

/// The matches of groups `groups` of a challenge: each group's `seatings` on the group's seed.
pub fn plan(
    game: GameId,
    rules: &str,
    base_seed: u64,
    seatings: &[Vec<SeatRef>],
    groups: std::ops::Range<u32>,
    first_ordinal: i32,
) -> Vec<NewMatch> {
    let mut out = Vec::new();
    for group in groups {
        let seed = round_seed(base_seed, group);
        for seating in seatings {
            out.push(NewMatch {
                ordinal: first_ordinal.saturating_add(i32::try_from(out.len()).unwrap_or(i32::MAX)),
                game: game.as_str().to_owned(),
                rules: rules.to_owned(),
                seed,
                settings: serde_json::json!({}),
                seats: seating.clone(),
                duplicate_set: Some(i32::try_from(group).unwrap_or(i32::MAX)),
            });
        }
    }
    out
}

/// How one participant (a submission, a built-in bot, a person) did in a challenge.
#[derive(Debug, Clone, Serialize)]
pub struct Participant {
    pub submission_id: Option<Uuid>,
    pub builtin: Option<String>,
    /// A person who played in the browser: their user name.
    pub person: Option<String>,
    /// Finished matches it sat in.
    pub games: u32,
    /// Its score per match (its seats averaged), with the 95% confidence interval.
    pub score: Interval,
    /// Matches where its best seat ranked 1st.
    pub wins: u32,
    /// Matches where one of its seats broke a limit, crashed or misbehaved.
    pub faults: u32,
}

/// One of a challenge's matches.
#[derive(Debug, Clone, Serialize)]
pub struct ChallengeMatch {
    pub match_id: Uuid,
    pub status: MatchStatus,
    /// The user names of the people at the table (none for bots only).
    pub people: Vec<String>,
}

/// Matches per status.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Counts {
    pub queued: u32,
    pub running: u32,
    pub finished: u32,
    pub failed: u32,
    pub cancelled: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub challenge: Challenge,
    pub matches: Counts,
    /// Over: `finished` (a challenge: its last match ended; an A/B test: decided or out of
    /// games) and nothing queued or running any more.
    pub done: bool,
    pub participants: Vec<Participant>,
    /// Its matches in order, with the people at each table.
    pub match_list: Vec<ChallengeMatch>,
    /// An A/B test's sequential test so far (A = the first of its two submissions).
    pub ab: Option<AbReport>,
}

/// The A/B settings: the test stops when decided or after the challenge's games.
pub fn ab_config(challenge: &Challenge) -> AbConfig {
    AbConfig {
        max_games: u32::try_from(challenge.games).unwrap_or(1),
        min_games: 10.min(u32::try_from(challenge.games).unwrap_or(1)),
        ..AbConfig::default()
    }
}

/// The report of `challenge` from its seats.
pub fn report(challenge: Challenge, seats: &[ChallengeSeat]) -> Report {
    let game: Option<GameId> = challenge.game.parse().ok();
    let order = game.map_or(ScoreOrder::HigherIsBetter, |g| {
        g.def().leaderboard.score_order
    });
    let mut by_match: BTreeMap<(i32, Uuid), Vec<&ChallengeSeat>> = BTreeMap::new();
    for s in seats {
        by_match.entry((s.ordinal, s.match_id)).or_default().push(s);
    }
    let match_list = by_match
        .values()
        .map(|seats| ChallengeMatch {
            match_id: seats[0].match_id,
            status: seats[0].status,
            people: seats.iter().filter_map(|s| s.person.clone()).collect(),
        })
        .collect();
    let mut counts = Counts::default();
    type Key = (Option<Uuid>, Option<String>, Option<String>);
    let mut tallies: BTreeMap<Key, (Moments, u32, u32)> = BTreeMap::new();
    // Per group: each submission's per-match scores, and whether every match finished.
    let mut groups: BTreeMap<i32, (BTreeMap<Uuid, Moments>, bool)> = BTreeMap::new();
    for seats in by_match.values() {
        let status = seats[0].status;
        match status {
            MatchStatus::Queued => counts.queued += 1,
            MatchStatus::Running => counts.running += 1,
            MatchStatus::Finished => counts.finished += 1,
            MatchStatus::Failed => counts.failed += 1,
            MatchStatus::Cancelled => counts.cancelled += 1,
        }
        let group = groups
            .entry(seats[0].duplicate_set.unwrap_or(-1))
            .or_default();
        if status != MatchStatus::Finished {
            group.1 = true;
            continue;
        }
        let mut per: BTreeMap<Key, (f64, u32, i32, bool)> = BTreeMap::new();
        for s in seats {
            let key = (s.submission_id, s.builtin.clone(), s.person.clone());
            let e = per.entry(key).or_insert((0.0, 0, i32::MAX, false));
            e.0 += s.score.unwrap_or(0.0);
            e.1 += 1;
            e.2 = e.2.min(s.rank.unwrap_or(i32::MAX));
            e.3 |= s.end_state.is_some_and(|e| e != EndState::Ok);
        }
        for (key, (sum, n, best, faulted)) in per {
            let score = sum / f64::from(n.max(1));
            let t = tallies.entry(key.clone()).or_default();
            t.0.push(score);
            t.1 += u32::from(best == 1);
            t.2 += u32::from(faulted);
            if let (Some(id), None, None) = key {
                group.0.entry(id).or_default().push(score);
            }
        }
    }
    let participants = tallies
        .into_iter()
        .map(
            |((submission_id, builtin, person), (m, wins, faults))| Participant {
                submission_id,
                builtin,
                person,
                games: m.n,
                score: m.interval(),
                wins,
                faults,
            },
        )
        .collect();
    let ab = (challenge.kind == "ab_test").then(|| {
        let arms: Vec<Uuid> = serde_json::from_value(challenge.seats.clone()).unwrap_or_default();
        let diffs: Vec<f64> = match arms.as_slice() {
            [a, b] => groups
                .values()
                .filter(|(_, unfinished)| !unfinished)
                .filter_map(|(scores, _)| {
                    let (sa, sb) = (scores.get(a)?.mean(), scores.get(b)?.mean());
                    Some(match order {
                        ScoreOrder::HigherIsBetter => sa - sb,
                        ScoreOrder::LowerIsBetter => sb - sa,
                    })
                })
                .collect(),
            _ => Vec::new(),
        };
        croupier_league::ab_test(&diffs, &ab_config(&challenge))
    });
    let done = counts.queued + counts.running == 0 && challenge.status == "finished";
    Report {
        challenge,
        matches: counts,
        done,
        participants,
        match_list,
        ab,
    }
}
