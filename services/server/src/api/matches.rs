//! Matches over the API: the lists and records of matches, the replay of a finished match, and
//! a seat's log for its team. Who sees which match, and when its seed and its deal are shown,
//! is `crate::privacy`'s rule (a challenge's matches only to its team and admins, as if the
//! others did not exist); the downloads' rules are `match_files`'s, shared with the match
//! page's downloads.

use axum::extract::State;

use axum::response::Response;
use axum::Json;
use croupier_store::matches::listing::{self, ListedSeat, MatchFilter, SeatOutcome};
use croupier_store::matches::Match;
use croupier_store::{competitions, EndState};
use serde::Deserialize;
use serde_json::{json, Value};
use uuid::Uuid;

use super::ApiRoute;
use crate::auth::{ApiUser, MaybeApiUser};
use crate::error::{ApiResult, Error};
use crate::extract::{ApiPath, ApiQuery};
use crate::AppState;
use crate::{download, match_files, privacy};

/// Matches per page when the request does not say.
pub const PER_PAGE: u32 = 20;
/// The most matches one page may hold.
pub const MAX_PER_PAGE: u32 = 100;

pub fn routes() -> Vec<ApiRoute> {
    vec![
        ApiRoute::get("/matches", list),
        ApiRoute::get("/matches/{match_id}", show),
        ApiRoute::get("/matches/{match_id}/replay", replay),
        ApiRoute::get("/matches/{match_id}/seats/{seat}/log", seat_log),
    ]
}

#[derive(Deserialize)]
struct ListQuery {
    competition: Option<Uuid>,
    submission: Option<Uuid>,
    team: Option<Uuid>,
    result: Option<SeatOutcome>,
    page: Option<u32>,
    per_page: Option<u32>,
}

/// A match as the lists and the record show it: the seed as the engines take it (unsigned),
/// `null` until it may be shown (`crate::privacy`).
fn match_json(m: &Match, seats: &[&ListedSeat]) -> Value {
    let mut doc = serde_json::to_value(m).unwrap_or_else(|_| json!({}));
    doc["seed"] = json!(m.shown_seed());
    doc["seats"] = json!(seats);
    doc["link"] = json!(format!("/matches/{}", m.match_id));
    doc["replay"] = json!(format!("{}/matches/{}/replay", super::PREFIX, m.match_id));
    doc
}

async fn list(
    State(state): State<AppState>,
    api: MaybeApiUser,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> ApiResult<Json<Value>> {
    if q.competition.is_none() && q.submission.is_none() && q.team.is_none() {
        return Err(Error::BadRequest(
            "say whose matches: competition=ID, submission=ID or team=ID".into(),
        )
        .into());
    }
    if q.result.is_some() && q.submission.is_none() {
        return Err(Error::BadRequest(
            "result= filters a submission's matches: give submission=ID with it".into(),
        )
        .into());
    }
    let page = q.page.unwrap_or(1);
    let per_page = q.per_page.unwrap_or(PER_PAGE);
    if page == 0 || per_page == 0 || per_page > MAX_PER_PAGE {
        return Err(Error::BadRequest(format!(
            "page counts from 1 and per_page is 1 to {MAX_PER_PAGE}"
        ))
        .into());
    }
    let filter = MatchFilter {
        competition: q.competition,
        submission: q.submission,
        team: q.team,
        result: q.result,
        viewer: privacy::viewer(api.user()),
    };
    let (found, total) = listing::page(
        &state.pool,
        filter,
        i64::from(per_page),
        i64::from(page - 1) * i64::from(per_page),
    )
    .await?;
    let ids: Vec<Uuid> = found.iter().map(|m| m.match_id).collect();
    let seats = listing::seats_of(&state.pool, &ids).await?;
    let items: Vec<Value> = found
        .iter()
        .map(|m| {
            let mine: Vec<&ListedSeat> =
                seats.iter().filter(|s| s.match_id == m.match_id).collect();
            match_json(m, &mine)
        })
        .collect();
    Ok(Json(json!({
        "matches": items,
        "page": page,
        "per_page": per_page,
        "total": total,
    })))
}

async fn show(
    State(state): State<AppState>,
    api: MaybeApiUser,
    ApiPath(match_id): ApiPath<Uuid>,
) -> ApiResult<Json<Value>> {
    let m = privacy::match_for(&state, api.user(), match_id).await?;
    let seats = listing::seats_of(&state.pool, &[match_id]).await?;
    let competition = match m.competition_id {
        Some(id) => {
            let c = competitions::get(&state.pool, id).await?;
            json!({ "competition_id": id, "name": c.name })
        }
        None => Value::Null,
    };
    let faults = seats
        .iter()
        .filter(|s| s.end_state.is_some_and(|e| e != EndState::Ok))
        .count();
    let refs: Vec<&ListedSeat> = seats.iter().collect();
    let mut doc = match_json(&m, &refs);
    // Replay retention: when the replay (and the seats' logs) expired; then there is none.
    let expired = croupier_store::retention::replay_expired_at(&state.pool, match_id).await?;
    if let Some(when) = expired {
        doc["replay"] = Value::Null;
        doc["replay_expired_at"] = json!(when
            .format(&time::format_description::well_known::Rfc3339)
            .ok());
    } else {
        doc["replay_expired_at"] = Value::Null;
    }
    doc["competition"] = competition;
    doc["faults"] = json!(faults);
    // How far a running match has got, as its worker last published it.
    let progress = match m.status {
        croupier_store::MatchStatus::Running => {
            croupier_store::matches::progress::read(&state.pool, match_id).await?
        }
        _ => None,
    };
    doc["progress"] = match progress {
        Some((game, moves)) => json!({ "game": game + 1, "moves": moves }),
        None => Value::Null,
    };
    Ok(Json(json!({ "match": doc })))
}

async fn replay(
    State(state): State<AppState>,
    api: MaybeApiUser,
    ApiPath(match_id): ApiPath<Uuid>,
) -> ApiResult<Response> {
    let doc = match_files::replay(&state, api.user(), match_id).await?;
    let name = match_files::replay_filename(match_id);
    Ok(download::bytes(doc, "application/json", Some(&name)))
}

async fn seat_log(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath((match_id, seat)): ApiPath<(Uuid, u32)>,
) -> ApiResult<Json<Value>> {
    let seat = i32::try_from(seat).map_err(|_| Error::NotFound)?;
    let log = match_files::seat_log(&state, Some(&api.user), match_id, seat).await?;
    let s = &log.seat;
    Ok(Json(json!({
        "match_id": match_id,
        "seat": s.seat,
        "submission_id": s.submission_id,
        "team_name": s.team_name,
        "version": s.version,
        "rank": s.rank,
        "score": s.score,
        "end_state": s.end_state,
        "end_detail": s.end_detail,
        "moves": s.moves,
        "cpu_ms": s.cpu_ms,
        "max_rss_kb": s.max_rss_kb,
        "timings": s.timings,
        "stderr": String::from_utf8_lossy(&log.stderr),
        "move_log": log.moves,
    })))
}
