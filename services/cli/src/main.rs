//! `croupier` — the one binary of the Croupier platform.
//!
//! * `up`: everything on one machine — a private PostgreSQL under the data dir (unless
//!   `DATABASE_URL` is set), migrations, the web app, and a first admin account.
//! * `serve`: the web app only, against `DATABASE_URL`.
//! * `migrate`: apply the database migrations.
//! * `db`: run only the private PostgreSQL and print its URL (development and tests).
//! * `admin`: create users, grant the admin role.
//! * `submit`: upload a bot through the JSON API.

mod admin;
mod logging;
mod settings;
mod submit;
mod up;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "croupier",
    version,
    about = "Croupier: a hosted competition platform for game-playing bots"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run everything on this machine: a private PostgreSQL (unless DATABASE_URL is set), migrations and the web app.
    Up(up::UpArgs),
    /// Run the web app against DATABASE_URL (for deployments with a managed PostgreSQL).
    Serve(up::ServeArgs),
    /// Apply pending database migrations to DATABASE_URL.
    Migrate(settings::DbArgs),
    /// Run only the private PostgreSQL under the data dir and print its URL; stops on Ctrl-C.
    Db(up::DbOnlyArgs),
    /// Administrative tasks on the database.
    Admin {
        #[command(subcommand)]
        command: admin::AdminCommand,
    },
    /// Upload a bot to a Croupier server with an API token.
    Submit(submit::SubmitArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    logging::init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async {
        match cli.command {
            Command::Up(args) => up::up(args).await,
            Command::Serve(args) => up::serve(args).await,
            Command::Migrate(args) => up::migrate(args).await,
            Command::Db(args) => up::db_only(args).await,
            Command::Admin { command } => admin::run(command).await,
            Command::Submit(args) => submit::run(args).await,
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
