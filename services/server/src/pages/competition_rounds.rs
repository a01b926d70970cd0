//! What a Swiss or adaptive competition's page says of its plan and its progress toward a
//! decided ranking (read from the state the workers' rounds tick stores after each round,
//! `croupier_league::RoundsState`), and the links between a competition and its stages.

use croupier_league::{CompetitionSettings, Decide, Plan, Progress, RoundsState};
use croupier_store::competitions::{self, Competition};
use croupier_store::PgPool;
use uuid::Uuid;

use crate::error::Result;
use crate::i18n;

/// A round-by-round competition's plan and progress, in words.
pub struct RoundsView {
    /// "Swiss rounds: 12 rounds …" / "Adaptive ranking: …".
    pub plan: String,
    /// "Round 3 of 12 · 6 sit this round out".
    pub round: String,
    /// Decided, or which places are still not apart; empty before the first results.
    pub decided: String,
    /// Whether the ranking is decided (for the page's emphasis).
    pub is_decided: bool,
}

impl RoundsView {
    /// `None` for a round-robin or a ladder.
    pub fn of(c: &Competition) -> Option<RoundsView> {
        let settings = CompetitionSettings::from_stored(&c.settings).ok()?;
        let plan = settings.plan?;
        let state: Option<RoundsState<Uuid>> = c
            .round_progress
            .clone()
            .and_then(|json| serde_json::from_value(json).ok());
        let mut words = plan_words(&plan);
        if let Some(n) = settings.final_top {
            words.push_str(&i18n::t_with("rounds-final-stage", &[("n", &n)]));
        }
        let Some(state) = state else {
            return Some(RoundsView {
                plan: words,
                round: String::new(),
                decided: String::new(),
                is_decided: false,
            });
        };
        Some(RoundsView {
            plan: words,
            round: round_words(&plan, &state),
            decided: decided_words(&state.progress),
            is_decided: state.progress.decided,
        })
    }
}

fn plan_words(plan: &Plan) -> String {
    match *plan {
        Plan::Swiss { rounds } => {
            let rounds = rounds.unwrap_or_default();
            i18n::t_with("rounds-plan-swiss", &[("rounds", &rounds)])
        }
        Plan::Adaptive {
            budget,
            decide: Decide::Top(k),
        } => {
            let args: [(&str, &dyn std::fmt::Display); 2] = [("k", &k), ("budget", &budget)];
            i18n::t_with("rounds-plan-adaptive-top", &args)
        }
        Plan::Adaptive {
            budget,
            decide: Decide::Order,
        } => i18n::t_with("rounds-plan-adaptive-order", &[("budget", &budget)]),
    }
}

fn round_words(plan: &Plan, state: &RoundsState<Uuid>) -> String {
    let p = &state.progress;
    if p.finished {
        return i18n::t_with("rounds-done", &[("rounds", &p.rounds_played)]);
    }
    let mut words = match plan {
        Plan::Swiss { rounds } => {
            let args: [(&str, &dyn std::fmt::Display); 2] = [
                ("round", &state.planned),
                ("rounds", &rounds.unwrap_or_default()),
            ];
            i18n::t_with("rounds-round-of", &args)
        }
        Plan::Adaptive { budget, .. } => {
            let args: [(&str, &dyn std::fmt::Display); 3] = [
                ("round", &state.planned),
                ("played", &p.matches_played),
                ("budget", budget),
            ];
            i18n::t_with("rounds-round-budget", &args)
        }
    };
    if !state.byes.is_empty() {
        words.push_str(&i18n::t_with("rounds-byes", &[("n", &state.byes.len())]));
    }
    words
}

fn decided_words(p: &Progress) -> String {
    if p.matches_played == 0 {
        return String::new();
    }
    if p.decided {
        return i18n::t("rounds-decided");
    }
    let runs: Vec<String> = p.ties.iter().map(|(a, b)| format!("{a}–{b}")).collect();
    i18n::t_with("rounds-undecided", &[("runs", &runs.join(", "))])
}

/// A competition's stages: the one it was seeded from and the one seeded from it, as
/// `(id, name)`.
pub struct Stages {
    pub from: Option<(Uuid, String)>,
    pub next: Option<(Uuid, String)>,
}

impl Stages {
    pub async fn of(pool: &PgPool, c: &Competition) -> Result<Stages> {
        async fn named(pool: &PgPool, id: Option<Uuid>) -> Result<Option<(Uuid, String)>> {
            match id {
                None => Ok(None),
                Some(id) => Ok(Some((id, competitions::get(pool, id).await?.name))),
            }
        }
        Ok(Stages {
            from: named(pool, c.stage_of).await?,
            next: named(pool, c.next_stage).await?,
        })
    }

    pub fn any(&self) -> bool {
        self.from.is_some() || self.next.is_some()
    }
}
