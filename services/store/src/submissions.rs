//! Submissions: every upload of a bot is a new, numbered version; nothing is overwritten.

use sqlx::{PgExecutor, PgPool};
use time::OffsetDateTime;
use uuid::Uuid;

use croupier_bundle::{Kind, Language};

use crate::state::SubmissionStatus;
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
    // language=PostgreSQL
    let submission_id = sqlx::query_scalar!(
        r#"
        insert into submission (team_id, game, language, version, label, filename, bundle_kind,
                                source_sha256, source_size, unpacked_size, submitted_by, entry)
        values ($1, $2, $3,
                (select coalesce(max(version), 0) + 1 from submission where team_id = $1 and game = $2),
                $4, $5, $6, $7, $8, $9, $10, $11)
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
        new.entry
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

/// One submission, whoever owns it (callers check visibility with [`visible_to`]).
pub async fn get(db: impl PgExecutor<'_>, submission_id: Uuid) -> Result<Submission, StoreError> {
    // language=PostgreSQL
    sqlx::query_as!(
        Submission,
        r#"
        select s.submission_id, s.team_id, t.name as team_name, s.game, s.language as "language: Language",
               s.version, s.status as "status: SubmissionStatus", s.label, s.filename, s.entry,
               s.bundle_kind as "bundle_kind: Kind", s.source_size, s.unpacked_size, s.compile_log,
               s.failure_reason, u.username as submitted_by, s.created_at
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
               s.failure_reason, u.username as submitted_by, s.created_at
        from submission s join team t using (team_id) join app_user u on u.user_id = s.submitted_by
        where s.team_id = $1
        order by s.created_at desc
        "#,
        team_id
    )
    .fetch_all(db)
    .await?)
}
