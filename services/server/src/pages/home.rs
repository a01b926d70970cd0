//! The home page and the (for now empty) list of competitions.

use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use croupier_store::teams;

use crate::error::Result;
use crate::templates::{games, render, CompetitionsPage, Ctx, HomePage};
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(home))
        .route("/competitions", get(competitions))
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

async fn competitions(ctx: Ctx) -> Response {
    render(&CompetitionsPage {
        ctx,
        games: games(),
    })
}
