//! What a match shows, and to whom (docs/competitions.md#what-is-hidden-and-from-whom): the one
//! place every route that shows a match asks. The rules themselves are SQL functions of
//! the migrations (`match_visible`, `deal_out`, `seeds_out`), so that a single match, a page of
//! a list and its count all ask the same question.
//!
//! * **Private matches.** A challenge's matches — challenges, A/B tests, tables with a person —
//!   are for the challenge's team's members and administrators; to anyone else (signed out,
//!   another team) they do not exist: [`match_for`] answers [`Error::NotFound`] for the page,
//!   the API, the downloads, the replay viewer and the live stream, and the lists
//!   (`croupier_store::matches::listing`) leave them out of the rows and the total.
//! * **The deal.** What was dealt — the replay, the viewer's frames, the protocol log, the
//!   seats' logs — is shown once the match has finished and no match dealt from the same seed
//!   (the other matches of its round, the other tables of its duplicate set) is queued or
//!   running: [`dealt`].
//! * **Seeds.** A match's seed, a competition's and a challenge's base seed are shown once
//!   nothing more will be played on seeds drawn from that base seed (a match seed gives the
//!   base seed away, the base seed every other seed), to everyone alike, administrators
//!   included: `Match::shown_seed`, the competition's `Settings::shown`, the challenge's
//!   `shown_base_seed`. Until then the API says `null` (a competition's settings leave
//!   `base_seed` out) and the pages say it is hidden.

use croupier_store::matches::{self, Match};
use croupier_store::users::User;
use croupier_store::MatchStatus;
use uuid::Uuid;

use crate::error::Error;
use crate::pages::labels::tk;
use crate::AppState;

/// The match, if `user` (`None`: signed out) may see it; [`Error::NotFound`] otherwise, as for
/// a match that does not exist.
pub async fn match_for(
    state: &AppState,
    user: Option<&User>,
    match_id: Uuid,
) -> Result<Match, Error> {
    Ok(matches::get_visible(&state.pool, match_id, viewer(user)).await?)
}

/// Who asks, as the store's lists take it.
pub fn viewer(user: Option<&User>) -> Option<Uuid> {
    user.map(|u| u.user_id)
}

/// Whether what was dealt in `m` may be shown: it has finished and no match dealt from the same
/// seed is still to play.
pub fn deal_shown(m: &Match) -> bool {
    m.status == MatchStatus::Finished && m.deal_out
}

/// `Ok` when what was dealt in `m` may be shown ([`deal_shown`]); a 409 otherwise, saying
/// `not_yet(status)` (in the words of the thing asked for) while it has not finished.
pub fn dealt(m: &Match, not_yet: impl FnOnce(&str) -> String) -> Result<(), Error> {
    if m.status != MatchStatus::Finished {
        // The API's words are English (`crate::i18n::negotiate`); a page's, the page's.
        let status = crate::pages::labels::status(m.status.as_str());
        return Err(Error::Conflict(not_yet(&status)));
    }
    if !m.deal_out {
        return Err(Error::Conflict(tk("match-deal-not-out", &[], &[])));
    }
    Ok(())
}
