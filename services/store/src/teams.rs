//! Teams and their members.

use sqlx::{PgExecutor, PgPool};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::state::TeamRole;
use crate::{ResultExt, StoreError};

#[derive(Debug, Clone, serde::Serialize)]
pub struct Team {
    pub team_id: Uuid,
    pub name: String,
    pub invite_code: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

/// A team with the caller's role in it, for "my teams" lists.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Membership {
    pub team_id: Uuid,
    pub name: String,
    pub role: TeamRole,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Member {
    pub user_id: Uuid,
    pub username: String,
    pub role: TeamRole,
    #[serde(with = "time::serde::rfc3339")]
    pub joined_at: OffsetDateTime,
}

/// A row of the admin's team list.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TeamSummary {
    pub team_id: Uuid,
    pub name: String,
    pub members: i64,
    pub submissions: i64,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

fn name_taken(name: &str) -> StoreError {
    StoreError::Conflict(format!("the team name {name:?} is already taken"))
}

/// Creates a team with `owner` as its first member, in one transaction.
pub async fn create(
    pool: &PgPool,
    name: &str,
    invite_code: &str,
    owner: Uuid,
) -> Result<Team, StoreError> {
    let mut tx = pool.begin().await?;
    // language=PostgreSQL
    let team = sqlx::query_as!(
        Team,
        r#"
        insert into team (name, invite_code, created_by) values ($1, $2, $3)
        returning team_id, name, invite_code, created_at
        "#,
        name,
        invite_code,
        owner
    )
    .fetch_one(&mut *tx)
    .await
    .on_constraint("team_name_key", |_| name_taken(name))?;
    // language=PostgreSQL
    sqlx::query!(
        r#"insert into team_member (team_id, user_id, role) values ($1, $2, 'owner')"#,
        team.team_id,
        owner
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(team)
}

pub async fn get(db: impl PgExecutor<'_>, team_id: Uuid) -> Result<Team, StoreError> {
    // language=PostgreSQL
    sqlx::query_as!(
        Team,
        r#"select team_id, name, invite_code, created_at from team where team_id = $1"#,
        team_id
    )
    .fetch_optional(db)
    .await?
    .ok_or(StoreError::NotFound)
}

/// Adds `user_id` to the team whose invite code this is. Unknown code: [`StoreError::NotFound`].
/// Already a member: [`StoreError::Conflict`].
pub async fn join(
    db: impl PgExecutor<'_>,
    invite_code: &str,
    user_id: Uuid,
) -> Result<Team, StoreError> {
    // language=PostgreSQL
    let row = sqlx::query!(
        r#"
        with t as (select team_id, name, invite_code, created_at from team where invite_code = $1),
             ins as (insert into team_member (team_id, user_id)
                     select team_id, $2 from t
                     on conflict do nothing
                     returning team_id)
        select t.team_id, t.name, t.invite_code, t.created_at, (select count(*) from ins) as "inserted!"
        from t
        "#,
        invite_code,
        user_id
    )
    .fetch_optional(db)
    .await?
    .ok_or(StoreError::NotFound)?;
    if row.inserted == 0 {
        return Err(StoreError::Conflict(format!(
            "you are already a member of {}",
            row.name
        )));
    }
    Ok(Team {
        team_id: row.team_id,
        name: row.name,
        invite_code: row.invite_code,
        created_at: row.created_at,
    })
}

/// Replaces the invite code (an owner's action after a code leaked).
pub async fn rotate_invite(
    db: impl PgExecutor<'_>,
    team_id: Uuid,
    invite_code: &str,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"update team set invite_code = $2 where team_id = $1"#,
        team_id,
        invite_code
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The caller's role in the team, or `None` when not a member.
pub async fn role_of(
    db: impl PgExecutor<'_>,
    team_id: Uuid,
    user_id: Uuid,
) -> Result<Option<TeamRole>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_scalar!(
        r#"select role as "role: TeamRole" from team_member where team_id = $1 and user_id = $2"#,
        team_id,
        user_id
    )
    .fetch_optional(db)
    .await?)
}

pub async fn members(db: impl PgExecutor<'_>, team_id: Uuid) -> Result<Vec<Member>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        Member,
        r#"
        select u.user_id, u.username, m.role as "role: TeamRole", m.joined_at
        from team_member m join app_user u using (user_id)
        where m.team_id = $1
        order by m.joined_at
        "#,
        team_id
    )
    .fetch_all(db)
    .await?)
}

pub async fn of_user(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
) -> Result<Vec<Membership>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        Membership,
        r#"
        select t.team_id, t.name, m.role as "role: TeamRole"
        from team_member m join team t using (team_id)
        where m.user_id = $1
        order by t.name
        "#,
        user_id
    )
    .fetch_all(db)
    .await?)
}

pub async fn list(db: impl PgExecutor<'_>) -> Result<Vec<TeamSummary>, StoreError> {
    // language=PostgreSQL
    Ok(sqlx::query_as!(
        TeamSummary,
        r#"
        select t.team_id, t.name, t.created_at,
               (select count(*) from team_member m where m.team_id = t.team_id) as "members!",
               (select count(*) from submission s where s.team_id = t.team_id) as "submissions!"
        from team t
        order by t.name
        "#
    )
    .fetch_all(db)
    .await?)
}

/// `user_id` leaves the team. The owner cannot (hand the team over, or delete it, first):
/// [`StoreError::Conflict`]; not a member: [`StoreError::NotFound`]. Their API tokens that
/// name the team are revoked with it.
pub async fn leave(pool: &PgPool, team_id: Uuid, user_id: Uuid) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    match role_of(&mut *tx, team_id, user_id).await? {
        None => return Err(StoreError::NotFound),
        Some(TeamRole::Owner) => {
            return Err(StoreError::Conflict(
                "the owner cannot leave: make another member the owner first, or delete the team"
                    .into(),
            ))
        }
        Some(TeamRole::Member) => {}
    }
    remove(&mut tx, team_id, user_id).await?;
    tx.commit().await?;
    Ok(())
}

/// The owner removes a member (not themselves: [`StoreError::Conflict`]; not a member:
/// [`StoreError::NotFound`]). The member's tokens naming the team are revoked.
pub async fn remove_member(pool: &PgPool, team_id: Uuid, user_id: Uuid) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    match role_of(&mut *tx, team_id, user_id).await? {
        None => return Err(StoreError::NotFound),
        Some(TeamRole::Owner) => {
            return Err(StoreError::Conflict(
                "the owner cannot be removed; to leave, make another member the owner first".into(),
            ))
        }
        Some(TeamRole::Member) => {}
    }
    remove(&mut tx, team_id, user_id).await?;
    tx.commit().await?;
    Ok(())
}

async fn remove(
    tx: &mut sqlx::PgConnection,
    team_id: Uuid,
    user_id: Uuid,
) -> Result<(), StoreError> {
    // language=PostgreSQL
    sqlx::query!(
        r#"
        with gone as (delete from team_member where team_id = $1 and user_id = $2)
        update api_token set revoked_at = now()
        where team_id = $1 and user_id = $2 and revoked_at is null
        "#,
        team_id,
        user_id
    )
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Makes member `to` the team's owner and the current owner a member, in one transaction.
/// `to` not a member: [`StoreError::NotFound`].
pub async fn transfer(pool: &PgPool, team_id: Uuid, to: Uuid) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    if role_of(&mut *tx, team_id, to).await?.is_none() {
        return Err(StoreError::NotFound);
    }
    // language=PostgreSQL
    sqlx::query!(
        r#"
        update team_member
        set role = case when user_id = $2 then 'owner' else 'member' end
        where team_id = $1 and (role = 'owner' or user_id = $2)
        "#,
        team_id,
        to
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Deletes a team that has never uploaded a bot (its members, tokens and challenges go with
/// it). A team with submissions keeps its history: [`StoreError::Conflict`].
pub async fn delete(pool: &PgPool, team_id: Uuid) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    // language=PostgreSQL
    let submissions = sqlx::query_scalar!(
        r#"
        select count(s.submission_id) as "n!"
        from (select team_id from team where team_id = $1 for update) t
             left join submission s using (team_id)
        group by t.team_id
        "#,
        team_id
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(StoreError::NotFound)?;
    if submissions > 0 {
        let noun = if submissions == 1 {
            "submission"
        } else {
            "submissions"
        };
        return Err(StoreError::Conflict(format!(
            "the team has {submissions} {noun} and keeps its history; only a team that never \
             uploaded a bot can be deleted"
        )));
    }
    // language=PostgreSQL
    sqlx::query!(r#"delete from team where team_id = $1"#, team_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}
