//! The home page.

use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use croupier_store::teams;

use crate::error::Result;
use crate::templates::{games, render, Ctx, HomePage};
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/", get(home))
}

async fn home(State(state): State<AppState>, ctx: Ctx) -> Result<Response> {
    let teams = match &ctx.user {
        Some(u) => teams::of_user(&state.pool, u.user_id).await?,
        None => Vec::new(),
    };
    Ok(render(&HomePage {
        ctx,
        games: games(),
        teams,
    }))
}
