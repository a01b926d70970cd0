//! One call of a program seat ([`Match::program_move`]) and what a violation does
//! ([`Match::violation`]); see the module docs of [`super`].

use croupier_games::bridge::FaultPenalty;
use croupier_games::{Game, Seat, Viewer};

use super::answer::{judge, Signer, Violation};
use super::files::{board_text, player};
use super::workdir::{BOARD, STEPLOG};
use super::{bridge, internal, Match, ARGS};
use crate::result::Direction;
use crate::verdict::FaultKind;
use crate::RefereeError;

impl Match {
    /// Runs the program once: `true` when its move was played, `false` after a violation.
    pub(super) async fn program_move(&mut self, seat: Seat) -> Result<bool, RefereeError> {
        let obs = bridge(&self.table)?.observe(Viewer::Seat(seat));
        let signer = Signer {
            seat,
            hand: obs.playing_hand.unwrap_or(seat),
        };
        let board = board_text(&obs).ok_or_else(|| internal(seat, "no Board.txt to write"))?;
        let log = self.log.text();
        self.calls += 1;
        let conn = self.calls;
        let Some(Some(program)) = self.programs.get_mut(seat.index()) else {
            return Err(internal(seat, "not a program seat"));
        };
        // The files live in the bot's own capped directory: a bot that filled it (or left
        // something that cannot be moved aside) cannot be given its files, which is its fault.
        let written = program
            .dir
            .write(BOARD, board.as_bytes())
            .and_then(|()| program.dir.write(STEPLOG, log.as_bytes()));
        if let Err(e) = written {
            let reason =
                format!("Board.txt and StepLog.txt could not be written into its directory: {e}");
            self.violation(seat, FaultKind::InvalidOutput, &reason)?;
            return Ok(false);
        }
        self.transcript
            .push(conn, Some(seat), Direction::ToBot, &board);
        let args: Vec<String> = ARGS.iter().map(|a| (*a).to_owned()).collect();
        let call = program.seat.call(&args, Vec::new()).await?;
        let (board_now, log_now) = (program.dir.read(BOARD), program.dir.read(STEPLOG));
        if let Some(appended) = log_now
            .as_deref()
            .and_then(|l| l.strip_prefix(log.as_bytes()))
        {
            let text = String::from_utf8_lossy(&appended[..appended.len().min(512)]);
            self.transcript
                .push(conn, Some(seat), Direction::FromBot, &text);
        }
        if let Some((kind, reason)) = call.outcome.fault(self.move_time) {
            self.violation(seat, kind, &reason)?;
            return Ok(false);
        }
        let judged = judge(
            board.as_bytes(),
            board_now.as_deref(),
            log.as_bytes(),
            log_now.as_deref(),
            signer,
        );
        let (action, line) = match judged {
            Ok(answer) => answer,
            Err(violation) => {
                self.violation(seat, violation.kind(), &violation.reason())?;
                return Ok(false);
            }
        };
        let json = serde_json::to_value(action).map_err(|e| internal(seat, e))?;
        match self.table.apply_bot(seat, json, call.wall) {
            Ok(()) => Ok(true),
            Err(refused) => {
                let violation = Violation::Illegal {
                    line,
                    why: refused.to_string(),
                };
                self.violation(seat, violation.kind(), &violation.reason())?;
                Ok(false)
            }
        }
    }

    /// Records a violation of `seat` and hands it to the Robot for the rest of the deal.
    fn violation(&mut self, seat: Seat, kind: FaultKind, reason: &str) -> Result<(), RefereeError> {
        let game = bridge(&self.table)?;
        let obs = game.observe(Viewer::Spectator);
        let when = match obs.contract {
            None => "the auction".to_owned(),
            Some(_) => format!("trick {}", obs.round()),
        };
        let penalty = match game.settings().fault_penalty {
            FaultPenalty::ConcedeRemainingTricks => {
                "its side concedes every trick not yet played (the first fault of the deal counts)"
            }
            FaultPenalty::None => "no score penalty (fault_penalty = none)",
        };
        let detail = format!(
            "board {}, {when}, {}: {reason}; the Robot plays the seat for the rest of the deal; \
             penalty: {penalty}",
            self.board + 1,
            player(seat),
        );
        if let Some(faults) = self.faults.get_mut(seat.index()) {
            faults.push(kind, detail.clone());
        }
        self.table.fault(seat, &detail);
        if let Some(robot) = self.robot.get_mut(seat.index()) {
            *robot = true;
        }
        self.transcript.push(
            0,
            Some(seat),
            Direction::ToBot,
            &format!("violation: {detail}"),
        );
        Ok(())
    }
}
