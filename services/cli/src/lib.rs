//! The `croupier` command as a library: the binary (`src/main.rs`) parses the command line and
//! calls [`execute`]; tests call it too, in-process (e.g. with a game they
//! [register](croupier_games::registry::register) themselves).
//!
//! * `up`: everything on one machine — a private PostgreSQL under the data dir (unless
//!   `DATABASE_URL` is set), migrations, the web app, a first admin account, and worker loops.
//! * `serve`: the web app only, against `DATABASE_URL`.
//! * `work`: worker loops only (compile and match jobs in the sandbox), against `DATABASE_URL`.
//! * `play`: local offline matches between local bots, with standings.
//! * `bench`: sandbox spawn cost, engine speed and hosted match throughput on this machine.
//! * `migrate`: apply the database migrations.
//! * `db`: run only the private PostgreSQL and print its URL (development and tests).
//! * `admin`: create users, grant the admin role.
//! * `blobs`: where blobs are kept, and moving them from PostgreSQL to an object store.
//! * `submit`: upload a bot through the JSON API.
//! * `login`, `submissions`, `matches`, `replay`, `logs`, `leaderboard`, `challenge`: a hosted
//!   platform from the terminal, with a token kept in the user's config directory ([`remote`]).
//!
//! The same binary is the bot sandbox's init when started under the init's name
//! ([`is_sandbox_init`]), so the static runner bot authors download is one file.

mod admin;
mod bench;
mod blobs;
mod isolation;
mod lifecycle;
mod logging;
mod play;
mod remote;
mod settings;
mod submit;
mod up;
mod work;

use clap::{Parser, Subcommand};

pub use isolation::is_sandbox_init;
pub use logging::{init as init_logging, SERVICE as SERVICE_LOG};

/// The command line.
#[derive(Parser)]
#[command(
    name = "croupier",
    version,
    about = "Croupier: a hosted competition platform for game-playing bots"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// A subcommand.
#[derive(Subcommand)]
pub enum Command {
    /// Run everything on this machine: a private PostgreSQL (unless DATABASE_URL is set), migrations, the web app and workers.
    Up(up::UpArgs),
    /// Run the web app against DATABASE_URL (for deployments with a managed PostgreSQL).
    Serve(up::ServeArgs),
    /// Run worker loops against DATABASE_URL: compile uploads and play matches in the sandbox, until Ctrl-C / SIGTERM.
    Work(work::WorkArgs),
    /// Play local matches between local bots (built-in or commands) and print standings.
    Play(play::PlayArgs),
    /// Measure sandbox spawn cost, engine speed and hosted match throughput on this machine.
    Bench(bench::BenchArgs),
    /// Apply pending database migrations to DATABASE_URL.
    Migrate(settings::DbArgs),
    /// Run only the private PostgreSQL under the data dir and print its URL; stops on Ctrl-C.
    Db(up::DbOnlyArgs),
    /// Administrative tasks on the database.
    Admin {
        #[command(subcommand)]
        command: admin::AdminCommand,
    },
    /// Where blobs (uploads, builds, replays, logs) are kept; move them to an object store.
    Blobs {
        #[command(subcommand)]
        command: blobs::BlobsCommand,
    },
    /// Upload a bot to a Croupier server (with the saved login, or --server and --token).
    Submit(submit::SubmitArgs),
    /// Log in to a Croupier server and keep the token in your config directory.
    Login(remote::login::LoginArgs),
    /// List your team's bots on the server.
    Submissions(remote::matches::SubmissionsArgs),
    /// List your team's matches on the server (or a submission's, or a competition's).
    Matches(remote::matches::MatchesArgs),
    /// Download a match's replay (JSON).
    Replay(remote::matches::ReplayArgs),
    /// Print your bot's log (stderr and verdict) of one seat of a match.
    Logs(remote::matches::LogsArgs),
    /// Show a competition's leaderboard, or list the competitions.
    Leaderboard(remote::standings::LeaderboardArgs),
    /// Start a challenge: your bots and built-in bots at one table, unrated.
    Challenge(remote::challenge::ChallengeArgs),
}

impl Command {
    /// The log filter the command runs with by default: quiet for the interactive ones.
    pub fn default_log(&self) -> &'static str {
        match self {
            Command::Play(_) | Command::Bench(_) => {
                "warn,sqlx=error,croupier_sandbox::sandbox=error,croupier_referee::net=error"
            }
            _ => logging::SERVICE,
        }
    }
}

/// Runs one command to its end.
pub async fn execute(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Up(args) => up::up(args).await,
        Command::Serve(args) => up::serve(args).await,
        Command::Work(args) => work::work(args).await,
        Command::Play(args) => play::run(args).await,
        Command::Bench(args) => bench::run(args).await,
        Command::Migrate(args) => up::migrate(args).await,
        Command::Db(args) => up::db_only(args).await,
        Command::Admin { command } => admin::run(command).await,
        Command::Blobs { command } => blobs::run(command).await,
        Command::Submit(args) => submit::run(args).await,
        Command::Login(args) => remote::login::run(args).await,
        Command::Submissions(args) => remote::matches::submissions(args).await,
        Command::Matches(args) => remote::matches::matches(args).await,
        Command::Replay(args) => remote::matches::replay(args).await,
        Command::Logs(args) => remote::matches::logs(args).await,
        Command::Leaderboard(args) => remote::standings::run(args).await,
        Command::Challenge(args) => remote::challenge::run(args).await,
    }
}
