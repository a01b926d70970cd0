//! Competitions: creating one with its entries and its whole schedule in one transaction, the
//! reads the progress page and the leaderboard need, and the admin's cancel and re-run.
//!
//! **Status.** `competition.status` holds what the admin asked for: `scheduled` at creation,
//! `cancelled` after [`cancel`], `running` again after [`rerun_failed`]. The status shown is
//! derived from the match counts on every read ([`Progress::status`]): `finished` as soon as no
//! match is queued or running. So the worker, which only writes matches, never has to touch the
//! competition row, and the two can never disagree.
//!
//! **Cancel** marks the queued matches and their queued jobs `cancelled`; running matches play
//! to their end and count (their result is as good as any). **Re-run** puts failed matches back
//! to `queued` with a fresh job (attempts start again at 0); the failed job stays as history.

use serde::Serialize;
use sqlx::{PgExecutor, PgPool};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::matches::{self, NewMatch};
use crate::state::{CompetitionKind, CompetitionStatus};
use crate::{Language, StoreError};

/// A competition to create.
#[derive(Debug, Clone)]
pub struct NewCompetition<'a> {
    pub name: &'a str,
    pub game: &'a str,
    pub rules: &'a str,
    /// Rounds, base seed, format, move time … as the admin chose them, validated (the JSON of
    /// `croupier_league::CompetitionSettings`).
    pub settings: &'a serde_json::Value,
    pub created_by: Uuid,
    /// The entered submissions: each must be a `ready` bot of `game`.
    pub entries: &'a [Uuid],
    /// A round-robin comes with its whole schedule; a ladder starts `running` with none; a
    /// Swiss or adaptive competition with its first round.
    pub kind: CompetitionKind,
    /// The competition this one is a stage of (seeded from its ranking), if any.
    pub stage_of: Option<Uuid>,
    /// A round-by-round competition's standing after its first round (the league's JSON).
    pub round_progress: Option<&'a serde_json::Value>,
}

/// Matches of a competition per status (kept by triggers in `competition_progress`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Progress {
    pub queued: i64,
    pub running: i64,
    pub finished: i64,
    pub failed: i64,
    pub cancelled: i64,
}

impl Progress {
    pub fn total(&self) -> i64 {
        self.queued + self.running + self.finished + self.failed + self.cancelled
    }

    /// Matches that will not change any more.
    pub fn done(&self) -> i64 {
        self.finished + self.failed + self.cancelled
    }

    /// The status to show, from the stored one (the admin's intent) and these counts.
    pub fn status(&self, stored: CompetitionStatus) -> CompetitionStatus {
        let active = self.queued + self.running > 0;
        match stored {
            CompetitionStatus::Cancelled => CompetitionStatus::Cancelled,
            CompetitionStatus::Paused => CompetitionStatus::Paused,
            CompetitionStatus::Scheduled
            | CompetitionStatus::Running
            | CompetitionStatus::Finished => match active {
                false => CompetitionStatus::Finished,
                true if self.running + self.done() > 0 => CompetitionStatus::Running,
                true => CompetitionStatus::Scheduled,
            },
        }
    }

    /// The status to show for a competition of `kind`: a ladder's is what its organiser set
    /// (it runs with or without queued matches); a round-robin's follows its matches; a Swiss
    /// or adaptive competition is finished when its plan is (between two rounds nothing is
    /// queued, yet it is running).
    pub fn shown_status(
        &self,
        kind: CompetitionKind,
        stored: CompetitionStatus,
    ) -> CompetitionStatus {
        use CompetitionStatus::{Cancelled, Finished, Paused, Running, Scheduled};
        match (kind, stored) {
            (CompetitionKind::Ladder, _) => stored,
            (CompetitionKind::Swiss | CompetitionKind::Adaptive, Cancelled | Paused) => stored,
            (CompetitionKind::Swiss | CompetitionKind::Adaptive, Finished) => self.status(Finished),
            (CompetitionKind::Swiss | CompetitionKind::Adaptive, _) => {
                match self.running + self.done() {
                    0 => Scheduled,
                    _ => Running,
                }
            }
            _ => self.status(stored),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Competition {
    pub competition_id: Uuid,
    pub name: String,
    pub game: String,
    pub rules: String,
    pub kind: CompetitionKind,
    /// Rounds, base seed, format … as the admin chose them (what the schedule and the workers
    /// read); serialized without `base_seed` until [`Settings::seeds_out`].
    pub settings: Settings,
    /// Derived with [`Progress::status`] (a ladder's is the organiser's).
    pub status: CompetitionStatus,
    /// A ladder enters new submissions (always true for a round-robin).
    pub entries_open: bool,
    /// Archived by its organiser: out of the public list, still reachable.
    pub archived: bool,
    pub created_by: String,
    /// The organiser who created it (a stage made later is theirs too).
    #[serde(skip)]
    pub created_by_id: Uuid,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    pub progress: Progress,
    /// Swiss and adaptive: rounds planned so far.
    pub rounds_started: i32,
    /// Swiss and adaptive: where the plan stood when its last round was planned (the league's
    /// `RoundsState` as JSON).
    pub round_progress: Option<serde_json::Value>,
    /// The competition this one is a stage of.
    pub stage_of: Option<Uuid>,
    /// The stage seeded from this one.
    pub next_stage: Option<Uuid>,
}

/// A competition's settings and whether its base seed may be shown: once nothing more will
/// be played on the seeds drawn from it (the `seeds_out` rule of the migrations: every match
/// ended, a ladder finished), for everyone alike. A match seed gives the base seed away, and
/// the base seed every round's seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub json: serde_json::Value,
    pub seeds_out: bool,
}

impl std::ops::Deref for Settings {
    type Target = serde_json::Value;

    fn deref(&self) -> &serde_json::Value {
        &self.json
    }
}

impl Settings {
    /// The settings as people may see them: without `base_seed` until the seeds are out.
    pub fn shown(&self) -> serde_json::Value {
        let mut shown = self.json.clone();
        if let (false, Some(fields)) = (self.seeds_out, shown.as_object_mut()) {
            fields.remove("base_seed");
        }
        shown
    }
}

impl Serialize for Settings {
    fn serialize<S: serde::Serializer>(&self, to: S) -> Result<S::Ok, S::Error> {
        self.shown().serialize(to)
    }
}

struct Row {
    competition_id: Uuid,
    name: String,
    game: String,
    rules: String,
    kind: CompetitionKind,
    settings: serde_json::Value,
    seeds_out: bool,
    status: CompetitionStatus,
    entries_open: bool,
    archived: bool,
    created_by: String,
    created_by_id: Uuid,
    created_at: OffsetDateTime,
    rounds_started: i32,
    round_progress: Option<serde_json::Value>,
    stage_of: Option<Uuid>,
    next_stage: Option<Uuid>,
    queued: i64,
    running: i64,
    finished: i64,
    failed: i64,
    cancelled: i64,
}

impl From<Row> for Competition {
    fn from(r: Row) -> Self {
        let progress = Progress {
            queued: r.queued,
            running: r.running,
            finished: r.finished,
            failed: r.failed,
            cancelled: r.cancelled,
        };
        Competition {
            competition_id: r.competition_id,
            name: r.name,
            game: r.game,
            rules: r.rules,
            kind: r.kind,
            settings: Settings {
                json: r.settings,
                seeds_out: r.seeds_out,
            },
            status: progress.shown_status(r.kind, r.status),
            entries_open: r.entries_open,
            archived: r.archived,
            created_by: r.created_by,
            created_by_id: r.created_by_id,
            created_at: r.created_at,
            progress,
            rounds_started: r.rounds_started,
            round_progress: r.round_progress,
            stage_of: r.stage_of,
            next_stage: r.next_stage,
        }
    }
}

/// One competition (`Some(id)`), or those `entrant` (a submission) is entered in, or all of
/// them; newest first.
async fn fetch(
    db: impl PgExecutor<'_>,
    id: Option<Uuid>,
    entrant: Option<Uuid>,
) -> Result<Vec<Competition>, StoreError> {
    // language=PostgreSQL
    let rows = sqlx::query_as!(
        Row,
        r#"
        select c.competition_id, c.name, c.game, c.rules, c.kind as "kind: CompetitionKind", c.settings,
               seeds_out(c.competition_id, null) as "seeds_out!",
               c.status as "status: CompetitionStatus", c.entries_open,
               c.archived_at is not null as "archived!",
               u.username as created_by, c.created_by as created_by_id, c.created_at, c.rounds_started, c.round_progress,
               c.stage_of, (select n.competition_id from competition n where n.stage_of = c.competition_id) as next_stage,
               coalesce(sum(p.matches) filter (where p.status = 'queued'), 0)::bigint as "queued!",
               coalesce(sum(p.matches) filter (where p.status = 'running'), 0)::bigint as "running!",
               coalesce(sum(p.matches) filter (where p.status = 'finished'), 0)::bigint as "finished!",
               coalesce(sum(p.matches) filter (where p.status = 'failed'), 0)::bigint as "failed!",
               coalesce(sum(p.matches) filter (where p.status = 'cancelled'), 0)::bigint as "cancelled!"
        from competition c
             join app_user u on u.user_id = c.created_by
             left join competition_progress p on p.competition_id = c.competition_id
        where ($1::uuid is null or c.competition_id = $1)
          and ($2::uuid is null or exists (
                select 1 from competition_entry e
                where e.competition_id = c.competition_id and e.submission_id = $2))
        group by c.competition_id, u.username
        order by c.created_at desc, c.competition_id
        "#,
        id,
        entrant
    )
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(Competition::from).collect())
}

pub async fn get(db: impl PgExecutor<'_>, competition_id: Uuid) -> Result<Competition, StoreError> {
    fetch(db, Some(competition_id), None)
        .await?
        .into_iter()
        .next()
        .ok_or(StoreError::NotFound)
}

/// Only the competition's settings (cheap: no match counts), for the worker's per-match limits.
pub async fn settings(
    db: impl PgExecutor<'_>,
    competition_id: Uuid,
) -> Result<serde_json::Value, StoreError> {
    // language=PostgreSQL
    sqlx::query_scalar!(
        r#"select settings from competition where competition_id = $1"#,
        competition_id
    )
    .fetch_optional(db)
    .await?
    .ok_or(StoreError::NotFound)
}

/// Every competition, newest first.
pub async fn list(db: impl PgExecutor<'_>) -> Result<Vec<Competition>, StoreError> {
    fetch(db, None, None).await
}

/// The competitions a submission is entered in, newest first.
pub async fn entered(
    db: impl PgExecutor<'_>,
    submission_id: Uuid,
) -> Result<Vec<Competition>, StoreError> {
    fetch(db, None, Some(submission_id)).await
}

/// A `ready` submission that may be entered.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    pub submission_id: Uuid,
    pub team_id: Uuid,
    pub team_name: String,
    pub version: i32,
    pub label: String,
    pub language: Language,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// The team's newest ready version for this game (the default choice).
    pub latest: bool,
}

/// The ready submissions of `game`, by team name, newest version first.
pub async fn candidates(db: impl PgExecutor<'_>, game: &str) -> Result<Vec<Candidate>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        Candidate,
        r#"
        select s.submission_id, s.team_id, t.name as team_name, s.version, s.label,
               s.language as "language: Language", s.created_at, s.version = max(s.version) over (partition by s.team_id) as "latest!"
        from submission s join team t using (team_id)
        where s.game = $1 and s.status = 'ready'
        order by lower(t.name), s.version desc
        "#,
        game
    )
    .fetch_all(db)
    .await?)
}

/// Two entries whose teams share a person: a person may enter one team per competition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedMember {
    pub username: String,
    /// The team that keeps its place (created first).
    pub first_team: String,
    pub second_team: String,
    /// The entry of the second team, the one to leave out.
    pub second_submission: Uuid,
}

/// Every pair of `submissions` from different teams with a person in both, the earlier-made
/// team first.
pub async fn shared_members(
    db: impl PgExecutor<'_>,
    submissions: &[Uuid],
) -> Result<Vec<SharedMember>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        SharedMember,
        r#"
        select u.username, ta.name as first_team, tb.name as second_team,
               sb.submission_id as second_submission
        from submission sa
        join submission sb on sb.team_id <> sa.team_id
        join team ta on ta.team_id = sa.team_id
        join team tb on tb.team_id = sb.team_id
                    and (ta.created_at, ta.team_id) < (tb.created_at, tb.team_id)
        join team_member ma on ma.team_id = sa.team_id
        join team_member mb on mb.team_id = sb.team_id and mb.user_id = ma.user_id
        join app_user u on u.user_id = ma.user_id
        where sa.submission_id = any($1) and sb.submission_id = any($1)
        order by tb.created_at, u.username
        "#,
        submissions
    )
    .fetch_all(db)
    .await?)
}

/// Inserts the competition, its entries and every planned match with its seats and queued job,
/// in one transaction: either all of it is stored or nothing.
pub async fn create(
    pool: &PgPool,
    new: &NewCompetition<'_>,
    planned: &[NewMatch],
) -> Result<Uuid, StoreError> {
    let mut tx = pool.begin().await?;
    let competition_id = create_in(&mut tx, new, planned).await?;
    tx.commit().await?;
    Ok(competition_id)
}

/// [`create`] in the caller's transaction (a stage made by the worker's rounds tick).
pub async fn create_in(
    tx: &mut sqlx::PgConnection,
    new: &NewCompetition<'_>,
    planned: &[NewMatch],
) -> Result<Uuid, StoreError> {
    let rounds_started = i32::from(new.round_progress.is_some());
    // language=PostgreSQL
    let competition_id = sqlx::query_scalar!(
        r#"
        insert into competition (name, game, rules, settings, created_by, kind, status, standings_ready,
                                 stage_of, round_progress, rounds_started)
        values ($1, $2, $3, $4, $5, $6,
                case when $6 = 'ladder' then 'running' else 'scheduled' end, true, $7, $8, $9)
        returning competition_id
        "#,
        new.name,
        new.game,
        new.rules,
        new.settings,
        new.created_by,
        new.kind as CompetitionKind,
        new.stage_of,
        new.round_progress,
        rounds_started
    )
    .fetch_one(&mut *tx)
    .await?;
    // language=PostgreSQL
    let entered = sqlx::query!(
        r#"
        insert into competition_entry (competition_id, submission_id)
        select $1, submission_id from submission
        where submission_id = any($2) and game = $3 and status = 'ready'
        "#,
        competition_id,
        new.entries,
        new.game
    )
    .execute(&mut *tx)
    .await?;
    if entered.rows_affected() != new.entries.len() as u64 {
        return Err(StoreError::Conflict(
            "a chosen submission is no longer a ready bot of this game; reload the form".into(),
        ));
    }
    matches::create_many(&mut *tx, competition_id, planned).await?;
    Ok(competition_id)
}

/// An entered submission.
#[derive(Debug, Clone, Serialize)]
pub struct Entrant {
    pub submission_id: Uuid,
    pub team_id: Uuid,
    pub team_name: String,
    pub version: i32,
    pub label: String,
}

/// The active entries (a ladder's replaced versions are not), by team name and version.
pub async fn entries(
    db: impl PgExecutor<'_>,
    competition_id: Uuid,
) -> Result<Vec<Entrant>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        Entrant,
        r#"
        select s.submission_id, s.team_id, t.name as team_name, s.version, s.label
        from competition_entry e join submission s using (submission_id) join team t using (team_id)
        where e.competition_id = $1 and e.active
        order by lower(t.name), s.version
        "#,
        competition_id
    )
    .fetch_all(db)
    .await?)
}

mod control;
mod results;

pub use control::{cancel, cancel_queued, rerun_failed};
pub(crate) use control::{has_matches_to_play, is_over, FINISHED};
pub use results::{match_lines, seat_scores, MatchLine, SeatLine, SeatScore};

#[cfg(test)]
mod tests {
    use super::Progress;
    use crate::state::CompetitionStatus::{Cancelled, Finished, Running, Scheduled};

    #[test]
    fn the_shown_status_follows_the_match_counts_and_the_admins_cancel() {
        let p = |queued, running, finished, failed| Progress {
            queued,
            running,
            finished,
            failed,
            cancelled: 0,
        };
        assert_eq!(p(6, 0, 0, 0).status(Scheduled), Scheduled);
        assert_eq!(p(5, 1, 0, 0).status(Scheduled), Running);
        assert_eq!(p(4, 0, 1, 1).status(Scheduled), Running);
        assert_eq!(p(0, 0, 5, 1).status(Scheduled), Finished);
        assert_eq!(p(0, 0, 6, 0).status(Running), Finished);
        assert_eq!(p(0, 1, 2, 0).status(Cancelled), Cancelled);
    }
}
