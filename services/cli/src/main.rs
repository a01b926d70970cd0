//! `croupier` — the one binary of the Croupier platform; see the library ([`croupier_cli`]) for
//! the commands.
//!
//! The binary is also the sandbox's init when it is started under one of the init's names
//! ([`croupier_cli::is_sandbox_init`]): the sandbox mounts its init at `/.croupier-init`, so a
//! lone `croupier` (the static runner bot authors download) needs no second file.

use std::process::ExitCode;

use clap::Parser;
use croupier_cli::{execute, init_logging, is_sandbox_init, Cli};

fn main() -> ExitCode {
    if is_sandbox_init(std::env::args_os().next().as_deref()) {
        croupier_sandbox::init::main();
    }
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
