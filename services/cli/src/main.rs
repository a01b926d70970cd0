//! `croupier` — the one binary of the Croupier platform; see the library ([`croupier_cli`]) for
//! the commands.

use std::process::ExitCode;

use clap::Parser;
use croupier_cli::{execute, init_logging, Cli};

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.command.default_log());
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
    match runtime.block_on(execute(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
