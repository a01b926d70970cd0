//! The fixed sets of values the database stores as `text`: job kinds and statuses, submission,
//! competition and match statuses, competition kinds, seat end states and team roles.
//!
//! Each is one enum here, mapped once: `sqlx::Type` reads and writes it as its snake_case name
//! (the column keeps its `text` type and the CHECK constraint of `migrations/` listing the same
//! names), serde uses the same name in JSON, and [`Display`](std::fmt::Display) prints it for the
//! pages. An unknown value in a row is a decode error, never a silent string. In `query!` a
//! column is read as one with an override (`status as "status: JobStatus"`) and a parameter is
//! bound with a cast (`status as SubmissionStatus`), which tells the macro the Rust type.
//!
//! The SQL itself still names states as literals (`where status = 'queued'`). The columns' CHECK
//! constraints list exactly these enums' names (a test compares them with the migrations).

use std::fmt;

macro_rules! text_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, sqlx::Type)]
        #[serde(rename_all = "snake_case")]
        #[sqlx(type_name = "text", rename_all = "snake_case")]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl $name {
            /// Every value, in the order of the column's CHECK constraint.
            pub const ALL: &[$name] = &[$($name::$variant,)+];

            /// The stored name.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

text_enum! {
    /// `job.kind`: what a worker does with a job.
    JobKind {
        /// Build a submission and play its validation game (`job.submission_id` is set).
        Compile = "compile",
        /// Play a match (`job.match_id` is set).
        Match = "match",
    }
}

text_enum! {
    /// `job.status`.
    JobStatus {
        /// Waiting for a worker (from `run_after` on).
        Queued = "queued",
        /// Claimed: a worker holds its lease.
        Running = "running",
        /// Completed with its result written.
        Done = "done",
        /// Given up for good (out of attempts, or a fault a retry cannot mend).
        Failed = "failed",
        /// Cancelled by an administrator before a worker claimed it.
        Cancelled = "cancelled",
    }
}

text_enum! {
    /// `submission.status`: `pending` → `compiling` → `validating` → `ready` | `failed`.
    SubmissionStatus {
        /// Uploaded; its compile job waits for a worker.
        Pending = "pending",
        /// A worker is building it.
        Compiling = "compiling",
        /// Built; its validation game is being played.
        Validating = "validating",
        /// Built and validated: it may enter competitions.
        Ready = "ready",
        /// Its build or validation game failed (the reason is stored beside it).
        Failed = "failed",
    }
}

text_enum! {
    /// `competition.status`: what the administrator asked for (the status shown is derived
    /// from the match counts, see `competitions::Progress::status`).
    CompetitionStatus {
        /// Created; its matches are queued.
        Scheduled = "scheduled",
        /// Running (set again when failed matches are re-run).
        Running = "running",
        /// A ladder an organiser paused: no new matches until it is resumed.
        Paused = "paused",
        /// Every match is done.
        Finished = "finished",
        /// Cancelled by an administrator.
        Cancelled = "cancelled",
    }
}

text_enum! {
    /// `competition.kind`.
    CompetitionKind {
        /// Every entrant meets the others by the game's scheme, scheduled at creation.
        RoundRobin = "round_robin",
        /// A ladder: runs continuously, matches chosen by rating and uncertainty as results land.
        Ladder = "ladder",
        /// Each entrant plays with copies of itself.
        Selfplay = "selfplay",
        /// Swiss rounds: each round planned when the previous one has ended.
        Swiss = "swiss",
        /// Budgeted adaptive ranking: rounds of the least certain groups until the ranking is
        /// decided or the match budget spent.
        Adaptive = "adaptive",
    }
}

text_enum! {
    /// `match.status`.
    MatchStatus {
        /// Waiting for a worker.
        Queued = "queued",
        /// A worker plays it.
        Running = "running",
        /// Played; its seat results and replay are stored.
        Finished = "finished",
        /// A platform fault after the last attempt: never counted.
        Failed = "failed",
        /// Cancelled by an administrator before it was played.
        Cancelled = "cancelled",
    }
}

text_enum! {
    /// `seat_result.end_state`: how a seat's program ended its match.
    EndState {
        /// It played to the end.
        Ok = "ok",
        /// It did not answer in time.
        TimeLimit = "time_limit",
        /// It used more memory than allowed.
        MemoryLimit = "memory_limit",
        /// It crashed or exited before the end.
        Crashed = "crashed",
        /// It wrote more output than allowed.
        OutputLimit = "output_limit",
        /// It sent a message the protocol does not allow.
        InvalidOutput = "invalid_output",
        /// It chose a move the rules forbid.
        IllegalAction = "illegal_action",
        /// The platform could not start it (not the bot's fault).
        SetupError = "setup_error",
    }
}

text_enum! {
    /// `team_member.role`.
    TeamRole {
        /// Created the team; manages it.
        Owner = "owner",
        /// Joined with the invite code.
        Member = "member",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names are the ones the migrations' CHECK constraints list.
    #[test]
    fn every_state_is_stored_under_its_snake_case_name() {
        let names: Vec<&str> = JobStatus::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(names, ["queued", "running", "done", "failed", "cancelled"]);
        assert_eq!(CompetitionKind::RoundRobin.to_string(), "round_robin");
        assert_eq!(
            serde_json::to_value(EndState::TimeLimit).unwrap(),
            serde_json::json!("time_limit")
        );
        for s in SubmissionStatus::ALL {
            let json = serde_json::to_value(s).unwrap();
            assert_eq!(json, serde_json::json!(s.as_str()));
            assert_eq!(
                serde_json::from_value::<SubmissionStatus>(json).unwrap(),
                *s
            );
        }
    }

    /// The same lists as the CHECK constraints of the migrations that created (or last changed)
    /// the columns.
    #[test]
    fn the_enums_list_the_values_the_migrations_allow() {
        let migrations = concat!(
            include_str!("../../../migrations/20261121000002_account.sql"),
            include_str!("../../../migrations/20261121000003_submission.sql"),
            include_str!("../../../migrations/20261121000004_competition.sql"),
            include_str!("../../../migrations/20261126093000_ladder.sql"),
            include_str!("../../../migrations/20261129000000_contest_rounds.sql"),
        );
        let quoted = |all: Vec<&str>| {
            all.iter()
                .map(|s| format!("'{s}'"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let lists = [
            quoted(JobKind::ALL.iter().map(|s| s.as_str()).collect()),
            quoted(JobStatus::ALL.iter().map(|s| s.as_str()).collect()),
            quoted(SubmissionStatus::ALL.iter().map(|s| s.as_str()).collect()),
            quoted(CompetitionStatus::ALL.iter().map(|s| s.as_str()).collect()),
            quoted(CompetitionKind::ALL.iter().map(|s| s.as_str()).collect()),
            quoted(MatchStatus::ALL.iter().map(|s| s.as_str()).collect()),
            quoted(TeamRole::ALL.iter().map(|s| s.as_str()).collect()),
            quoted(EndState::ALL.iter().map(|s| s.as_str()).collect()),
        ];
        let flat: String = migrations.split_whitespace().collect::<Vec<_>>().join(" ");
        for list in lists {
            assert!(
                flat.contains(&format!("in ({list})")),
                "no CHECK constraint lists exactly ({list})"
            );
        }
    }
}
