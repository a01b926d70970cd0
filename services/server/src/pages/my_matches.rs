//! "My matches": the list on a submission's page of the matches it sat in, newest first and
//! paged, filtered by its result (`?result=wins`, `losses`, `faults`; plain links, so it works
//! without JavaScript). A win is rank 1, a loss a lower rank, a fault any end but playing to
//! the end (`croupier_store::matches::listing`). A challenge's matches are listed only to its
//! team and admins (`crate::privacy`): a bot entered in a competition may sit in another
//! team's challenge, and that team's table is not its own team's to see.

use std::collections::HashMap;

use croupier_store::competitions;
use croupier_store::matches::listing::{self, MatchFilter, SeatOutcome};
use croupier_store::users::User;
use serde::Deserialize;
use uuid::Uuid;

use super::labels::{self, seat_name};
use crate::error::{Error, Result};
use crate::templates::{SubmissionMatchRow, SubmissionMatches};
use crate::AppState;

/// Matches per page of the list.
pub const PER_PAGE: u32 = 20;

/// The list's query string.
#[derive(Deserialize, Default)]
pub struct MatchesQuery {
    result: Option<String>,
    page: Option<u32>,
}

/// One page of `submission_id`'s matches as the query asks, those `viewer` may see.
pub async fn of_submission(
    state: &AppState,
    viewer: &User,
    submission_id: Uuid,
    query: &MatchesQuery,
) -> Result<SubmissionMatches> {
    let (name, result) = match query.result.as_deref().unwrap_or("all") {
        "" | "all" => ("all", None),
        asked => {
            let outcome = SeatOutcome::ALL
                .into_iter()
                .find(|o| o.as_str() == asked)
                .ok_or_else(|| {
                    let args: [(&str, &dyn std::fmt::Display); 1] = [("asked", &asked)];
                    Error::BadRequest(crate::i18n::t_with("competition-no-such-result", &args))
                })?;
            (outcome.as_str(), Some(outcome))
        }
    };
    let page = query.page.unwrap_or(1).max(1);
    let filter = MatchFilter {
        submission: Some(submission_id),
        result,
        viewer: crate::privacy::viewer(Some(viewer)),
        ..MatchFilter::default()
    };
    let (found, total) = listing::page(
        &state.pool,
        filter,
        i64::from(PER_PAGE),
        i64::from(page - 1) * i64::from(PER_PAGE),
    )
    .await?;
    let ids: Vec<Uuid> = found.iter().map(|m| m.match_id).collect();
    let seats = listing::seats_of(&state.pool, &ids).await?;
    let mut names: HashMap<Uuid, String> = HashMap::new();
    let mut rows = Vec::new();
    for m in &found {
        let competition = match m.competition_id {
            Some(id) => {
                let name = match names.get(&id) {
                    Some(name) => name.clone(),
                    None => competitions::get(&state.pool, id).await?.name,
                };
                names.insert(id, name.clone());
                Some((id, name))
            }
            None => None,
        };
        let here: Vec<_> = seats.iter().filter(|s| s.match_id == m.match_id).collect();
        let Some(mine) = here.iter().find(|s| s.submission_id == Some(submission_id)) else {
            continue;
        };
        let mut ranks = vec![None; here.len()];
        for s in &here {
            if let Some(slot) = usize::try_from(s.seat).ok().and_then(|i| ranks.get_mut(i)) {
                *slot = s.rank;
            }
        }
        let place = usize::try_from(mine.seat)
            .ok()
            .and_then(|i| labels::places(&m.game, &ranks).get(i).copied())
            .flatten();
        let opponents = here
            .iter()
            .filter(|s| s.submission_id != Some(submission_id))
            .map(|s| seat_name(&s.team_name, &s.version, &s.builtin, &s.person))
            .collect();
        rows.push(SubmissionMatchRow {
            match_id: m.match_id,
            number: m.ordinal + 1,
            competition,
            status: m.status,
            seat: labels::seat(&m.game, &mine.seat),
            opponents,
            place,
            score: mine.score,
            end_state: mine.end_state,
        });
    }
    let pages = u32::try_from((total + i64::from(PER_PAGE) - 1) / i64::from(PER_PAGE))
        .unwrap_or(u32::MAX)
        .max(1);
    Ok(SubmissionMatches {
        result: name,
        rows,
        total,
        page,
        pages,
    })
}
