//! A competition's final stage: a round-robin of the top of its fitted ranking, made when the
//! first stage ends (a Swiss or adaptive plan done, a ladder finished by its organiser) and
//! linked to it (`competition.stage_of`), so the two show as one competition with its stages.

use croupier_games::GameId;
use croupier_league::CompetitionSettings;
use croupier_store::competitions::{self, NewCompetition};
use croupier_store::CompetitionKind;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{to_results, BoardError};

/// Creates, in the caller's transaction, the final stage of `competition_id` when its settings
/// ask for one (`final_top`) and it has none yet: a round-robin of the fitted ranking's top n
/// (fewer when fewer were ranked), one round on a fresh base seed (the first stage's seeds are
/// shown once it has ended), with the first stage's time and limits. Returns the stage's id.
pub async fn create_final(
    conn: &mut PgConnection,
    competition_id: Uuid,
) -> Result<Option<Uuid>, BoardError> {
    let first = competitions::get(&mut *conn, competition_id).await?;
    let corrupt = |reason: String| BoardError::Corrupt {
        competition_id,
        reason,
    };
    let settings =
        CompetitionSettings::from_stored(&first.settings).map_err(|e| corrupt(e.to_string()))?;
    let Some(top) = settings.final_top else {
        return Ok(None);
    };
    if first.next_stage.is_some() {
        return Ok(None);
    }
    let game: GameId = first.game.parse().map_err(|e| corrupt(format!("{e}")))?;
    let seats = competitions::seat_scores(&mut *conn, competition_id).await?;
    let results = to_results(game, settings.format_of(game), &seats);
    let ranking = croupier_league::fitted(game, &results);
    let listed = competitions::entries(&mut *conn, competition_id).await?;
    let chosen: Vec<Uuid> = ranking
        .rows
        .iter()
        .map(|r| r.entrant)
        .filter(|id| listed.iter().any(|e| e.submission_id == *id))
        .take(top as usize)
        .collect();
    let format = settings.format_of(game);
    if chosen.len() < format.min_entrants() {
        // Too few ranked (a ladder finished before it played): nothing to seed a final from.
        tracing::warn!(%competition_id, ranked = chosen.len(), "no final stage: too few ranked");
        return Ok(None);
    }
    let stage = CompetitionSettings {
        rounds: 1,
        base_seed: Uuid::new_v4().as_u64_pair().0 >> 11,
        plan: None,
        final_top: None,
        ..settings
    };
    let planned = croupier_league::schedule(game, &stage.schedule_spec(&first.rules), &chosen)
        .map_err(|e| corrupt(e.to_string()))?;
    let matches = crate::new_matches(game, &first.rules, planned);
    let name = stage_name(&first.name);
    let new = NewCompetition {
        name: &name,
        game: &first.game,
        rules: &first.rules,
        settings: &stage.to_stored(),
        created_by: first.created_by_id,
        entries: &chosen,
        kind: CompetitionKind::RoundRobin,
        stage_of: Some(competition_id),
        round_progress: None,
    };
    let stage_id = competitions::create_in(conn, &new, &matches).await?;
    tracing::info!(%competition_id, %stage_id, entrants = chosen.len(), "final stage created");
    Ok(Some(stage_id))
}

/// "<name> · final", the name shortened to keep within a competition name's 80 characters.
fn stage_name(name: &str) -> String {
    const SUFFIX: &str = " · final";
    let room = 80 - SUFFIX.chars().count();
    let short: String = name.chars().take(room).collect();
    format!("{}{SUFFIX}", short.trim_end())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_stage_name_stays_within_eighty_characters() {
        assert_eq!(super::stage_name("Spring cup"), "Spring cup · final");
        let long = "x".repeat(80);
        let named = super::stage_name(&long);
        assert_eq!(named.chars().count(), 80);
        assert!(named.ends_with(" · final"));
    }
}
