//! An organiser's levers on a ladder, shared by the competition page and the admin API:
//! pause (no new matches; queued and running ones play on), resume, close or open entries
//! (closed: no new submissions enter; entered ones play on), and finish (queued matches are
//! cancelled, running ones finish and count). Re-running failed matches is the same lever as a
//! round-robin's (`competitions::rerun_failed`).

use croupier_store::{ladders, CompetitionStatus, StoreError};
use serde::Deserialize;
use uuid::Uuid;

use crate::error::{Error, Result};
use crate::i18n;
use crate::AppState;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LadderAction {
    Pause,
    Resume,
    CloseEntries,
    OpenEntries,
    Finish,
}

/// Applies `action` to ladder `competition_id`; returns what happened, for the organiser (in
/// the request's language: English under the API).
pub async fn control(
    state: &AppState,
    competition_id: Uuid,
    action: LadderAction,
) -> Result<String> {
    let mut tx = state.pool.begin().await.map_err(StoreError::from)?;
    let (done, said) = match action {
        LadderAction::Pause => (
            ladders::set_status(&mut tx, competition_id, CompetitionStatus::Paused).await?,
            i18n::t("competition-ladder-paused"),
        ),
        LadderAction::Resume => (
            ladders::set_status(&mut tx, competition_id, CompetitionStatus::Running).await?,
            i18n::t("competition-ladder-resumed"),
        ),
        LadderAction::Finish => (
            ladders::set_status(&mut tx, competition_id, CompetitionStatus::Finished).await?,
            i18n::t("competition-ladder-finished"),
        ),
        LadderAction::CloseEntries => (
            ladders::set_entries_open(&mut *tx, competition_id, false).await?,
            i18n::t("competition-ladder-closed"),
        ),
        LadderAction::OpenEntries => (
            ladders::set_entries_open(&mut *tx, competition_id, true).await?,
            i18n::t("competition-ladder-open"),
        ),
    };
    if !done {
        return Err(Error::Conflict(i18n::t("competition-ladder-not-running")));
    }
    if action == LadderAction::Finish {
        // Its final stage, when the organiser asked for one: seeded from the ladder's ranking.
        croupier_board::stages::create_final(&mut tx, competition_id)
            .await
            .map_err(Error::internal)?;
    }
    tx.commit().await.map_err(StoreError::from)?;
    tracing::info!(%competition_id, ?action, "ladder changed");
    Ok(said)
}
