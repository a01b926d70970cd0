//! The worker's [`HumanDesk`]: a person's turn is written to `human_turn`
//! ([`croupier_store::humans::ask`]), where the site's play page shows it and writes the
//! chosen move back; the desk reads the answer every [`POLL`] (a primary-key read) until the
//! referee stops waiting at the move time. A database that cannot take the turn is a
//! platform fault (the match is retried); one that blinks while the person thinks is read again.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use croupier_referee::{HumanDesk, HumanTurn, RefereeError};
use croupier_store::humans::{self, Ask};
use futures_util::future::BoxFuture;
use sqlx::PgPool;
use uuid::Uuid;

/// How often the answer is looked for.
pub(crate) const POLL: Duration = Duration::from_millis(150);

#[derive(Debug)]
pub(crate) struct PgDesk {
    pool: PgPool,
    match_id: Uuid,
    /// Turns asked so far, per seat.
    asked: Mutex<HashMap<usize, i32>>,
}

impl PgDesk {
    pub(crate) fn new(pool: PgPool, match_id: Uuid) -> Self {
        PgDesk {
            pool,
            match_id,
            asked: Mutex::new(HashMap::new()),
        }
    }

    fn next_turn(&self, seat: usize) -> i32 {
        let mut asked = self
            .asked
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let n = asked.entry(seat).or_insert(0);
        *n += 1;
        *n
    }
}

impl HumanDesk for PgDesk {
    fn ask(&self, turn: HumanTurn) -> BoxFuture<'_, Result<usize, RefereeError>> {
        Box::pin(async move {
            let seat = i32::try_from(turn.seat.index()).unwrap_or(i32::MAX);
            let number = self.next_turn(turn.seat.index());
            let legal = serde_json::Value::from(turn.legal.clone());
            let recent = serde_json::to_value(&turn.recent)
                .map_err(|e| RefereeError::Desk(e.to_string()))?;
            let ask = Ask {
                match_id: self.match_id,
                seat,
                turn: number,
                game: i32::try_from(turn.game).unwrap_or(i32::MAX),
                observation: &turn.observation,
                legal: &legal,
                recent: &recent,
                secs: turn.time.as_secs_f64(),
            };
            humans::ask(&self.pool, &ask)
                .await
                .map_err(|e| RefereeError::Desk(format!("showing the turn: {e}")))?;
            loop {
                tokio::time::sleep(POLL).await;
                match humans::answer_of(&self.pool, self.match_id, seat, number).await {
                    Ok(Some(index)) => {
                        return usize::try_from(index)
                            .map_err(|_| RefereeError::Desk(format!("answer {index}")))
                    }
                    Ok(None) => {}
                    Err(e) => tracing::warn!(error = %e, "reading a person's answer; trying again"),
                }
            }
        })
    }
}
