//! Challenges and A/B tests, shared by the API and the pages: who may ask (a member of the
//! team), what may sit at the table (the competition's active entries, the team's own ready
//! bots of the game, built-in bots), how much (at most [`MAX_GROUPS`] groups per challenge,
//! [`PER_HOUR`] challenges per team per hour, [`MAX_PENDING`] of the team's challenge matches
//! waiting; a table with a person uses none of it), and the creation itself: a challenge's matches are all queued at once; an A/B
//! test's are fed by the workers until it is decided. Unrated: no board ever counts them.

use croupier_board::challenge::{plan, rotations, Report};
use croupier_games::GameId;
use croupier_store::challenges::{self, NewChallenge};
use croupier_store::matches::{self, NewMatch, Owner, SeatRef};
use croupier_store::{competitions, submissions, teams, StoreError, SubmissionStatus};
use serde::Deserialize;
use serde_json::json;
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::AppState;

/// The most duplicate groups one challenge (or A/B test) may ask for.
pub const MAX_GROUPS: i32 = 200;
/// Challenges and A/B tests a team may start per hour.
pub const PER_HOUR: i64 = 20;
/// The team's challenge matches that may wait or run at once.
pub const MAX_PENDING: i64 = 400;

/// A seat of a challenge: a submission, a built-in bot, or the asking person
/// (`{"human": true}`), who plays in the browser.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
pub enum SeatChoice {
    Submission { submission_id: Uuid },
    Builtin { builtin: String },
    Human { human: bool },
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    /// The asking team (the caller must be a member).
    pub team_id: Uuid,
    /// One per seat, in seat order.
    pub seats: Vec<SeatChoice>,
    /// Duplicate groups: each plays the seating and its rotations on one seed (default 1).
    /// With a person at the table: exactly one match, in the seat order given.
    #[serde(default = "one")]
    pub games: i32,
    /// The person's time per move in seconds (default
    /// [`DEFAULT_HUMAN_MOVE_SECS`](croupier_games::DEFAULT_HUMAN_MOVE_SECS)).
    #[serde(default)]
    pub human_move_secs: Option<i32>,
}

/// The range of a person's time per move, in seconds.
pub const HUMAN_MOVE_SECS: std::ops::RangeInclusive<i32> = 5..=3600;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbRequest {
    pub team_id: Uuid,
    /// The two versions, both the team's ready bots of the competition's game.
    pub a: Uuid,
    pub b: Uuid,
    /// The most duplicate groups it may play before saying "inconclusive" (default 100).
    #[serde(default = "hundred")]
    pub max_games: i32,
}

fn one() -> i32 {
    1
}

fn hundred() -> i32 {
    100
}

/// Creates a challenge in competition `competition_id` and queues its matches.
pub async fn create(
    state: &AppState,
    user_id: Uuid,
    competition_id: Uuid,
    req: &ChallengeRequest,
) -> Result<Uuid> {
    let people = req
        .seats
        .iter()
        .filter(|s| matches!(s, SeatChoice::Human { .. }))
        .count();
    // A table with a person is played, not computed: it uses none of the team's budget.
    let budget = if people > 0 {
        Budget::Free
    } else {
        Budget::Counted
    };
    let (game, rules) = allowed(
        state,
        user_id,
        competition_id,
        req.team_id,
        req.games,
        budget,
    )
    .await?;
    if req.seats.len() != game.default_seats() {
        return Err(Error::BadRequest(format!(
            "{} is played by {} seats here, not {}",
            game.display_name(),
            game.default_seats(),
            req.seats.len()
        )));
    }
    let move_secs = req
        .human_move_secs
        .unwrap_or_else(|| i32::try_from(croupier_games::DEFAULT_HUMAN_MOVE_SECS).unwrap_or(90));
    if people > 0 {
        person_rules(people, req.games, move_secs)?;
    }
    let mut seating = Vec::with_capacity(req.seats.len());
    for seat in &req.seats {
        seating.push(match seat {
            SeatChoice::Human { .. } => SeatRef::Human { user_id, move_secs },
            SeatChoice::Submission { submission_id } => {
                visible(state, competition_id, req.team_id, game, *submission_id).await?;
                SeatRef::Submission(*submission_id)
            }
            SeatChoice::Builtin { builtin } => {
                if croupier_games::bots::builtin(game, builtin).is_none() {
                    return Err(Error::BadRequest(format!(
                        "{} has the built-in bots {}, not {builtin:?}",
                        game.display_name(),
                        croupier_games::bots::names(game).join(", ")
                    )));
                }
                SeatRef::Builtin(builtin.clone())
            }
        });
    }
    let stored = json!(req
        .seats
        .iter()
        .map(|s| match s {
            SeatChoice::Submission { submission_id } => json!({ "submission_id": submission_id }),
            SeatChoice::Builtin { builtin } => json!({ "builtin": builtin }),
            SeatChoice::Human { .. } => json!({ "human": user_id }),
        })
        .collect::<Vec<_>>());
    let base_seed = rand::random::<u64>() >> 11;
    let groups = u32::try_from(req.games).unwrap_or(1);
    // A person sits where they chose: one match, no rotations.
    let seatings = match people {
        0 => rotations(&seating),
        _ => vec![seating],
    };
    let planned = plan(game, &rules, base_seed, &seatings, 0..groups, 0);
    let new = NewChallenge {
        competition_id,
        team_id: req.team_id,
        created_by: user_id,
        kind: "challenge",
        seats: stored,
        games: req.games,
        base_seed: i64::from_ne_bytes(base_seed.to_ne_bytes()),
    };
    insert(state, &new, &planned).await
}

/// A table with a person: the asking person, once, in one match, with a time per move in
/// [`HUMAN_MOVE_SECS`].
fn person_rules(people: usize, games: i32, move_secs: i32) -> Result<()> {
    if people > 1 {
        return Err(Error::BadRequest(
            "one seat may be yours ({\"human\": true}); the others are bots".into(),
        ));
    }
    if games != 1 {
        return Err(Error::BadRequest(format!(
            "a table with a person plays one match: games must be 1, not {games}"
        )));
    }
    if !HUMAN_MOVE_SECS.contains(&move_secs) {
        return Err(Error::BadRequest(format!(
            "human_move_secs must be {} to {}, not {move_secs}",
            HUMAN_MOVE_SECS.start(),
            HUMAN_MOVE_SECS.end()
        )));
    }
    Ok(())
}

/// Creates an A/B test of two of the team's versions; the workers play it.
pub async fn create_ab(
    state: &AppState,
    user_id: Uuid,
    competition_id: Uuid,
    req: &AbRequest,
) -> Result<Uuid> {
    let (game, _) = allowed(
        state,
        user_id,
        competition_id,
        req.team_id,
        req.max_games,
        Budget::Counted,
    )
    .await?;
    if req.a == req.b {
        return Err(Error::BadRequest(
            "an A/B test needs two different versions".into(),
        ));
    }
    for id in [req.a, req.b] {
        let s = submissions::get(&state.pool, id).await?;
        if s.team_id != req.team_id
            || s.game != game.as_str()
            || s.status != SubmissionStatus::Ready
        {
            return Err(Error::BadRequest(format!(
                "submission {id} is not a ready {} bot of your team",
                game.display_name()
            )));
        }
    }
    let base_seed = rand::random::<u64>() >> 11;
    let new = NewChallenge {
        competition_id,
        team_id: req.team_id,
        created_by: user_id,
        kind: "ab_test",
        seats: json!([req.a, req.b]),
        games: req.max_games,
        base_seed: i64::from_ne_bytes(base_seed.to_ne_bytes()),
    };
    insert(state, &new, &[]).await
}

/// Stores the challenge and its first matches in one transaction.
async fn insert(state: &AppState, new: &NewChallenge, planned: &[NewMatch]) -> Result<Uuid> {
    let mut tx = state.pool.begin().await.map_err(StoreError::from)?;
    let id = challenges::create(&mut tx, new).await?;
    matches::insert(&mut tx, Owner::Challenge(id), planned).await?;
    tx.commit().await.map_err(StoreError::from)?;
    tracing::info!(challenge_id = %id, kind = new.kind, competition_id = %new.competition_id,
                   matches = planned.len(), "challenge created");
    Ok(id)
}

/// Whether a challenge uses the team's budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Budget {
    Counted,
    /// A table with a person.
    Free,
}

/// Why the team may not start another challenge now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spent {
    /// [`PER_HOUR`] started in the last hour: the next may start at this time.
    Hour(time::OffsetDateTime),
    /// [`MAX_PENDING`] of its matches wait or run: the next may start once fewer do.
    Pending,
}

impl Spent {
    /// The API's message (English, the time in UTC).
    pub fn message(self) -> String {
        match self {
            Spent::Hour(at) => format!(
                "a team may start {PER_HOUR} challenges an hour; the next may start at {} UTC",
                hh_mm(at)
            ),
            Spent::Pending => format!(
                "a team may have at most {MAX_PENDING} challenge matches waiting or running; the next challenge may start once some of them have been played"
            ),
        }
    }

    /// Seconds until the next may start (a guess for [`Spent::Pending`]).
    pub fn retry_after_secs(self) -> u64 {
        match self {
            Spent::Hour(at) => {
                let left = (at - time::OffsetDateTime::now_utc()).whole_seconds();
                u64::try_from(left.max(1)).unwrap_or(1)
            }
            Spent::Pending => 300,
        }
    }
}

/// `14:05`, in UTC.
pub fn hh_mm(at: time::OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    format!("{:02}:{:02}", at.hour(), at.minute())
}

/// Whether the team's budget allows another challenge now (`None`) or why not.
pub async fn spent(state: &AppState, team_id: Uuid) -> Result<Option<Spent>> {
    let used = challenges::team_use(&state.pool, team_id).await?;
    if used.last_hour >= PER_HOUR {
        let oldest = used.oldest.unwrap_or_else(time::OffsetDateTime::now_utc);
        // The next minute's start after the oldest leaves the hour, so the time shown is never early.
        let at = oldest + time::Duration::hours(1) + time::Duration::minutes(1);
        let at = at
            .replace_second(0)
            .unwrap_or(at)
            .replace_nanosecond(0)
            .unwrap_or(at);
        return Ok(Some(Spent::Hour(at)));
    }
    if used.pending >= MAX_PENDING {
        return Ok(Some(Spent::Pending));
    }
    Ok(None)
}

/// Checks the caller, the competition, the size and (unless `budget` is free) the team's
/// budget; returns the game and its rule set.
async fn allowed(
    state: &AppState,
    user_id: Uuid,
    competition_id: Uuid,
    team_id: Uuid,
    groups: i32,
    budget: Budget,
) -> Result<(GameId, String)> {
    teams::role_of(&state.pool, team_id, user_id)
        .await?
        .ok_or(Error::NotFound)?;
    let c = competitions::get(&state.pool, competition_id).await?;
    let game: GameId = c.game.parse().map_err(Error::internal)?;
    if !(1..=MAX_GROUPS).contains(&groups) {
        return Err(Error::BadRequest(format!(
            "games must be 1 to {MAX_GROUPS}, not {groups}"
        )));
    }
    if budget == Budget::Counted {
        if let Some(spent) = spent(state, team_id).await? {
            return Err(Error::TooManyRequests {
                message: spent.message(),
                retry_after_secs: spent.retry_after_secs(),
            });
        }
    }
    Ok((game, c.rules))
}

/// A submission a challenge may seat: an active entry of the competition, or a ready bot of the
/// asking team for the game.
async fn visible(
    state: &AppState,
    competition_id: Uuid,
    team_id: Uuid,
    game: GameId,
    submission_id: Uuid,
) -> Result<()> {
    let entered = competitions::entries(&state.pool, competition_id)
        .await?
        .iter()
        .any(|e| e.submission_id == submission_id);
    if entered {
        return Ok(());
    }
    let own = match submissions::get(&state.pool, submission_id).await {
        Ok(s) => {
            s.team_id == team_id && s.game == game.as_str() && s.status == SubmissionStatus::Ready
        }
        Err(StoreError::NotFound) => false,
        Err(e) => return Err(e.into()),
    };
    if own {
        return Ok(());
    }
    Err(Error::BadRequest(format!(
        "submission {submission_id} is neither entered in this competition nor a ready bot of your team"
    )))
}

/// The challenge with its report so far.
pub async fn load(state: &AppState, challenge_id: Uuid) -> Result<Report> {
    let c = challenges::get(&state.pool, challenge_id).await?;
    let seats = challenges::seats(&state.pool, challenge_id).await?;
    Ok(croupier_board::challenge::report(c, &seats))
}
