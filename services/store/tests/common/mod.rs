//! Shared fixtures of the store's tests (each test binary uses a part of them).
#![allow(dead_code)]

pub mod seed;

use croupier_store::submissions::{self, NewFile, NewSubmission};
use croupier_store::{BundleKind, Language};
use sqlx::PgPool;
use uuid::Uuid;

/// What [`a_team_with_a_submission`] made.
pub struct Entrant {
    pub user: Uuid,
    pub team: Uuid,
    pub submission: Uuid,
}

/// A new user, their team and one Python No Thanks submission (which queues one compile job);
/// `n` keeps the names apart.
pub async fn a_team_with_a_submission(pool: &PgPool, n: usize) -> Entrant {
    let user = croupier_store::users::create(pool, &format!("user{n}"), None, "x", false)
        .await
        .unwrap();
    let team = croupier_store::teams::create(
        pool,
        &format!("Team {n}"),
        &format!("CODE{n}"),
        user.user_id,
    )
    .await
    .unwrap();
    let source = format!("print({n})");
    let sub = submissions::create(
        pool,
        &NewSubmission {
            team_id: team.team_id,
            game: "nothanks",
            language: Language::Python3,
            label: "",
            filename: "bot.py",
            entry: "",
            bundle_kind: BundleKind::File,
            bytes: source.as_bytes(),
            unpacked_size: source.len() as u64,
            files: vec![NewFile {
                path: "bot.py".into(),
                size: source.len() as u64,
                executable: false,
            }],
            submitted_by: user.user_id,
            rules: "",
            players: None,
        },
    )
    .await
    .unwrap();
    Entrant {
        user: user.user_id,
        team: team.team_id,
        submission: sub.submission_id,
    }
}
