//! API tokens for the JSON API and the CLI. Only the SHA-256 of a token is stored.

use sqlx::PgExecutor;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::StoreError;

#[derive(Debug, Clone, serde::Serialize)]
pub struct ApiToken {
    pub api_token_id: Uuid,
    pub team_id: Option<Uuid>,
    pub name: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    pub last_used_at: Option<OffsetDateTime>,
}

/// Stores a new token's hash.
pub async fn create(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    team_id: Option<Uuid>,
    name: &str,
    token_hash: &[u8],
) -> Result<ApiToken, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        ApiToken,
        r#"
        insert into api_token (user_id, team_id, name, token_hash) values ($1, $2, $3, $4)
        returning api_token_id, team_id, name, created_at, last_used_at
        "#,
        user_id,
        team_id,
        name,
        token_hash
    )
    .fetch_one(db)
    .await?)
}

/// Who a bearer token acts as.
#[derive(Debug, Clone, Copy)]
pub struct TokenOwner {
    pub api_token_id: Uuid,
    pub user_id: Uuid,
    /// The team the token was made for, if any.
    pub team_id: Option<Uuid>,
}

/// The live (not revoked) token with this hash (a team token only while its user is still in
/// the team); marks it used.
pub async fn authenticate(
    db: impl PgExecutor<'_>,
    token_hash: &[u8],
) -> Result<Option<TokenOwner>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        TokenOwner,
        r#"
        update api_token t set last_used_at = now()
        where token_hash = $1 and revoked_at is null
          and (team_id is null
               or exists (select 1 from team_member m where m.team_id = t.team_id and m.user_id = t.user_id))
        returning api_token_id, user_id, team_id
        "#,
        token_hash
    )
    .fetch_optional(db)
    .await?)
}

/// The user's live tokens for one team.
pub async fn list(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    team_id: Option<Uuid>,
) -> Result<Vec<ApiToken>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        ApiToken,
        r#"
        select api_token_id, team_id, name, created_at, last_used_at from api_token
        where user_id = $1 and team_id is not distinct from $2 and revoked_at is null
        order by created_at desc
        "#,
        user_id,
        team_id
    )
    .fetch_all(db)
    .await?)
}

/// Revokes one of the user's tokens; someone else's token is [`StoreError::NotFound`].
pub async fn revoke(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    api_token_id: Uuid,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"update api_token set revoked_at = now() where api_token_id = $1 and user_id = $2 and revoked_at is null"#,
        api_token_id,
        user_id
    )
    .execute(db)
    .await?;
    if done.rows_affected() == 0 {
        return Err(StoreError::NotFound);
    }
    Ok(())
}

/// How many live tokens the user has (for every team).
pub async fn count_live(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<i64, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"select count(*) as "n!" from api_token where user_id = $1 and revoked_at is null"#,
        user_id
    )
    .fetch_one(db)
    .await?)
}

/// Revokes every live token of the user but `except` (the token making the request, when a
/// password is changed through the API); returns how many.
pub async fn revoke_all(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    except: Option<Uuid>,
) -> Result<u64, StoreError> {
    // language=PostgreSQL
    let done = sqlx::query!(
        r#"
        update api_token set revoked_at = now()
        where user_id = $1 and revoked_at is null and api_token_id is distinct from $2
        "#,
        user_id,
        except
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}
