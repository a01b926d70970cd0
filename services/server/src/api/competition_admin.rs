//! An organiser's controls over the API (admins only), as on the competition's page: pause and
//! resume a round-robin, cancel its queued matches, rename, change the settings (time per move,
//! games per match, seat limits before play; a ladder's pace any time), archive or bring back,
//! delete one nothing was played in. A refusal is a 409 saying why.

use axum::extract::State;
use axum::Json;
use croupier_store::{competition_admin, competitions};
use serde::Deserialize;
use serde_json::{json, Value};
use uuid::Uuid;

use super::ApiRoute;
use crate::auth::ApiUser;
use crate::error::ApiResult;
use crate::extract::{ApiJson, ApiPath};
use crate::AppState;

pub fn routes() -> Vec<ApiRoute> {
    vec![
        ApiRoute::post("/admin/competitions/{competition_id}/pause", pause),
        ApiRoute::post("/admin/competitions/{competition_id}/resume", resume),
        ApiRoute::post("/admin/competitions/{competition_id}/cancel", cancel),
        ApiRoute::post("/admin/competitions/{competition_id}/rename", rename),
        ApiRoute::post("/admin/competitions/{competition_id}/settings", settings),
        ApiRoute::post("/admin/competitions/{competition_id}/archive", archive),
        ApiRoute::delete("/admin/competitions/{competition_id}", delete),
    ]
}

#[derive(Deserialize)]
struct Rename {
    name: String,
}

/// The whole set of changeable settings (each absent or null: the default).
#[derive(Deserialize)]
struct Settings {
    settings: serde_json::Map<String, Value>,
}

#[derive(Deserialize)]
struct Archive {
    archived: bool,
}

async fn pause(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<Value>> {
    api.require_admin()?;
    let held = competition_admin::pause(&state.pool, id).await?;
    Ok(Json(json!({ "held": held })))
}

async fn resume(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<Value>> {
    api.require_admin()?;
    let released = competition_admin::resume(&state.pool, id).await?;
    Ok(Json(json!({ "released": released })))
}

async fn cancel(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<Value>> {
    api.require_admin()?;
    let cancelled = competitions::cancel(&state.pool, id).await?;
    Ok(Json(json!({ "cancelled": cancelled })))
}

async fn rename(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(body): ApiJson<Rename>,
) -> ApiResult<Json<Value>> {
    api.require_admin()?;
    let name = crate::competition::check_name(&body.name)?;
    competition_admin::rename(&state.pool, id, name).await?;
    state.live.forget(id);
    Ok(Json(
        json!({ "competition": competitions::get(&state.pool, id).await? }),
    ))
}

async fn settings(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(body): ApiJson<Settings>,
) -> ApiResult<Json<Value>> {
    api.require_admin()?;
    let change: crate::competition::SettingsChange =
        serde_json::from_value(Value::Object(body.settings))
            .map_err(|e| crate::error::Error::BadRequest(format!("settings: {e}")))?;
    crate::competition::change_settings(&state, api.user.user_id, id, &change).await?;
    Ok(Json(
        json!({ "competition": competitions::get(&state.pool, id).await? }),
    ))
}

async fn archive(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(body): ApiJson<Archive>,
) -> ApiResult<Json<Value>> {
    api.require_admin()?;
    competition_admin::set_archived(&state.pool, id, body.archived).await?;
    Ok(Json(
        json!({ "competition": competitions::get(&state.pool, id).await? }),
    ))
}

async fn delete(
    State(state): State<AppState>,
    api: ApiUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<Value>> {
    api.require_admin()?;
    competition_admin::delete_unplayed(&state.pool, id).await?;
    state.live.forget(id);
    Ok(Json(json!({ "deleted": id })))
}
