//! Submissions: every upload of a bot is a new, numbered version; nothing is overwritten.

use sha2::{Digest, Sha256};
use sqlx::types::Json;
use sqlx::{PgExecutor, PgPool};
use time::OffsetDateTime;
use uuid::Uuid;

use croupier_bundle::{Kind, Language};

use crate::state::{EndState, SubmissionStatus};
use crate::{blobs, StoreError};

/// A validated upload, ready to be stored.
#[derive(Debug, Clone)]
pub struct NewSubmission<'a> {
    pub team_id: Uuid,
    pub game: &'a str,
    pub language: Language,
    pub label: &'a str,
    pub filename: &'a str,
    /// The chosen entry point (`bot/client0.py`, `player.py:cautious(0.3)`), or empty.
    pub entry: &'a str,
    pub bundle_kind: Kind,
    pub bytes: &'a [u8],
    pub unpacked_size: u64,
    pub files: Vec<NewFile>,
    pub submitted_by: Uuid,
    /// The table the bot is for (what its validation game plays): a rule set of the game, and
    /// the number of players where the rule set lets it be chosen (`None`: the rule set's own).
    pub rules: &'a str,
    pub players: Option<i32>,
}

#[derive(Debug, Clone)]
pub struct NewFile {
    pub path: String,
    pub size: u64,
    pub executable: bool,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Submission {
    pub submission_id: Uuid,
    pub team_id: Uuid,
    pub team_name: String,
    pub game: String,
    pub language: Language,
    pub version: i32,
    pub status: SubmissionStatus,
    pub label: String,
    pub filename: String,
    /// The entry point chosen at upload (see [`NewSubmission::entry`]); empty if none.
    pub entry: String,
    pub bundle_kind: Kind,
    pub source_size: i64,
    pub unpacked_size: i64,
    pub compile_log: String,
    pub failure_reason: Option<String>,
    pub submitted_by: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// The rule set its validation game plays (empty for uploads made before it was stored:
    /// the game's default).
    pub rules: String,
    /// The number of players of its validation game, where the rule set lets it be chosen.
    pub players: Option<i32>,
    /// The validation game's seed ([`validation_seed`]), which also picks the bot's seat.
    pub validation_seed: i64,
    /// The faults of a bot that passed its validation game anyway; `None` when it made none.
    pub validation_warning: Option<Json<ValidationWarning>>,
}

/// What the validation game saw go wrong in a bot that is still usable (`ready`): faults the
/// game treats as a lost turn, or that the bot played on after.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ValidationWarning {
    /// Every fault, of every kind.
    pub faults: u32,
    /// How many of each kind, the most frequent first.
    pub kinds: Vec<FaultCount>,
    /// The first faults' reasons, in the order they happened.
    pub reasons: Vec<String>,
}

/// How many faults of one kind (named as a seat's end state: `illegal_action`, `crashed`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FaultCount {
    pub kind: EndState,
    pub count: u32,
}

/// The seed of a submission's validation game: a hash of the uploaded bytes' hash, the game,
/// the rule set and the number of players, so the same upload for the same table always
/// plays the same game (and gets the same verdict). 53 bits, exact in any JSON reader.
pub fn validation_seed(source_sha256: &[u8], game: &str, rules: &str, players: Option<i32>) -> i64 {
    let players = players.map_or_else(String::new, |n| n.to_string());
    let mut hash = Sha256::new();
    hash.update(b"croupier validation\0");
    hash.update(source_sha256);
    for part in [game, rules, &players] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    let digest = hash.finalize();
    let mut first = [0_u8; 8];
    first.copy_from_slice(&digest[..8]);
    (u64::from_le_bytes(first) & ((1 << 53) - 1)) as i64
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct SubmissionFile {
    pub path: String,
    pub size: i64,
    pub executable: bool,
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Stores the upload, its file list and a queued compile job in one transaction.
/// The version is the next number for this team and game.
pub async fn create(pool: &PgPool, new: &NewSubmission<'_>) -> Result<Submission, StoreError> {
    let mut tx = pool.begin().await?;
    // Serialises concurrent uploads of one team so versions never collide.
    // language=PostgreSQL
    sqlx::query!(
        r#"select team_id from team where team_id = $1 for update"#,
        new.team_id
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(StoreError::NotFound)?;
    let sha = blobs::put(&mut *tx, new.bytes).await?;
    let seed = validation_seed(&sha, new.game, new.rules, new.players);
    // language=PostgreSQL
    let submission_id = sqlx::query_scalar!(
        r#"
        insert into submission (team_id, game, language, version, label, filename, bundle_kind,
                                source_sha256, source_size, unpacked_size, submitted_by, entry,
                                rules, players, validation_seed)
        values ($1, $2, $3,
                (select coalesce(max(version), 0) + 1 from submission where team_id = $1 and game = $2),
                $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
        returning submission_id
        "#,
        new.team_id,
        new.game,
        new.language as Language,
        new.label,
        new.filename,
        new.bundle_kind as Kind,
        &sha[..],
        to_i64(new.bytes.len() as u64),
        to_i64(new.unpacked_size),
        new.submitted_by,
        new.entry,
        new.rules,
        new.players,
        seed
    )
    .fetch_one(&mut *tx)
    .await?;
    let paths: Vec<String> = new.files.iter().map(|f| f.path.clone()).collect();
    let sizes: Vec<i64> = new.files.iter().map(|f| to_i64(f.size)).collect();
    let exec: Vec<bool> = new.files.iter().map(|f| f.executable).collect();
    // language=PostgreSQL
    sqlx::query!(
        r#"
        insert into submission_file (submission_id, path, size, executable)
        select $1, * from unnest($2::text[], $3::bigint[], $4::bool[])
        "#,
        submission_id,
        &paths,
        &sizes,
        &exec
    )
    .execute(&mut *tx)
    .await?;
    // language=PostgreSQL
    sqlx::query!(
        r#"insert into job (kind, submission_id) values ('compile', $1)"#,
        submission_id
    )
    .execute(&mut *tx)
    .await?;
    let created = get(&mut *tx, submission_id).await?;
    tx.commit().await?;
    Ok(created)
}

/// The table of the game's newest open competition (scheduled or running, a ladder included,
/// not archived): its rule set and its `players` override, if it has one. New uploads are
/// validated for it unless they name their own.
pub async fn open_table(
    db: impl PgExecutor<'_>,
    game: &str,
) -> Result<Option<(String, Option<i32>)>, StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"
        select rules, (settings -> 'rule_settings' ->> 'players')::int as players
        from competition
        where game = $1 and status in ('scheduled', 'running') and archived_at is null
        order by created_at desc
        limit 1
        "#,
        game
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| (r.rules, r.players)))
}

/// One submission, whoever owns it (callers check visibility with [`visible_to`]).
pub async fn get(db: impl PgExecutor<'_>, submission_id: Uuid) -> Result<Submission, StoreError> {
    // language=PostgreSQL
    sqlx::query_as!(
        Submission,
        r#"
        select s.submission_id, s.team_id, t.name as team_name, s.game, s.language as "language: Language",
               s.version, s.status as "status: SubmissionStatus", s.label, s.filename, s.entry,
               s.bundle_kind as "bundle_kind: Kind", s.source_size, s.unpacked_size, s.compile_log,
               s.failure_reason, u.username as submitted_by, s.created_at, s.rules, s.players,
               s.validation_seed,
               s.validation_warning as "validation_warning: Json<ValidationWarning>"
        from submission s join team t using (team_id) join app_user u on u.user_id = s.submitted_by
        where s.submission_id = $1
        "#,
        submission_id
    )
    .fetch_optional(db)
    .await?
    .ok_or(StoreError::NotFound)
}

/// The submission if `user_id` may see its files (a member of its team, or an admin);
/// [`StoreError::NotFound`] otherwise, so other teams cannot even learn that it exists.
pub async fn visible_to(
    pool: &PgPool,
    submission_id: Uuid,
    user_id: Uuid,
) -> Result<Submission, StoreError> {
    // language=PostgreSQL
    let allowed = sqlx::query_scalar!(
        r#"
        select exists (
            select 1 from submission s join team_member m using (team_id)
            where s.submission_id = $1 and m.user_id = $2
        ) or exists (select 1 from app_user where user_id = $2 and is_admin) as "allowed!"
        "#,
        submission_id,
        user_id
    )
    .fetch_one(pool)
    .await?;
    if !allowed {
        return Err(StoreError::NotFound);
    }
    get(pool, submission_id).await
}

pub async fn files(
    db: impl PgExecutor<'_>,
    submission_id: Uuid,
) -> Result<Vec<SubmissionFile>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        SubmissionFile,
        r#"select path, size, executable from submission_file where submission_id = $1 order by path"#,
        submission_id
    )
    .fetch_all(db)
    .await?)
}

/// The hash of the uploaded bytes' blob (for [`crate::blobs::open`], to stream them).
pub async fn source_sha256(
    db: impl PgExecutor<'_>,
    submission_id: Uuid,
) -> Result<Vec<u8>, StoreError> {
    // language=PostgreSQL
    sqlx::query_scalar!(
        r#"select source_sha256 from submission where submission_id = $1"#,
        submission_id
    )
    .fetch_optional(db)
    .await?
    .ok_or(StoreError::NotFound)
}

/// The uploaded bytes as they arrived (the file or the archive).
pub async fn source(db: impl PgExecutor<'_>, submission_id: Uuid) -> Result<Vec<u8>, StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"select b.sha256, b.data from submission s join blob b on b.sha256 = s.source_sha256 where s.submission_id = $1"#,
        submission_id
    )
    .fetch_optional(db)
    .await?
    .ok_or(StoreError::NotFound)?;
    crate::blobs::resolve(&row.sha256, row.data).await
}

/// A team's submissions, newest first.
pub async fn of_team(
    db: impl PgExecutor<'_>,
    team_id: Uuid,
) -> Result<Vec<Submission>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        Submission,
        r#"
        select s.submission_id, s.team_id, t.name as team_name, s.game, s.language as "language: Language",
               s.version, s.status as "status: SubmissionStatus", s.label, s.filename, s.entry,
               s.bundle_kind as "bundle_kind: Kind", s.source_size, s.unpacked_size, s.compile_log,
               s.failure_reason, u.username as submitted_by, s.created_at, s.rules, s.players,
               s.validation_seed,
               s.validation_warning as "validation_warning: Json<ValidationWarning>"
        from submission s join team t using (team_id) join app_user u on u.user_id = s.submitted_by
        where s.team_id = $1
        order by s.created_at desc
        "#,
        team_id
    )
    .fetch_all(db)
    .await?)
}
