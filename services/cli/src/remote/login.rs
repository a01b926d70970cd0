//! `croupier login`: exchanges a user name and password for an API token
//! (`POST /api/v1/tokens`) — or takes a token made on the team page — checks it
//! (`GET /api/v1/me`) and saves it ([`super::credentials`]). `--show` says who is logged in
//! where; `--forget` removes the saved login. The password is read from the terminal without
//! echo, or as one line from stdin (`--password-stdin`) for scripts.

use std::io::{BufRead as _, IsTerminal as _, Write as _};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use serde_json::{json, Value};

use super::credentials::{self, Credentials};
use super::{normalize, Remote};

#[derive(Args, Debug)]
pub struct LoginArgs {
    /// The Croupier server, e.g. https://croupier.example.org.
    #[arg(long, env = "CROUPIER_SERVER", required_unless_present_any = ["show", "forget"])]
    pub server: Option<String>,
    /// Your user name on it (asked when not given).
    #[arg(long)]
    pub username: Option<String>,
    /// Read the password as one line from stdin instead of asking on the terminal.
    #[arg(long)]
    pub password_stdin: bool,
    /// Save this API token (made on your team's page) instead of logging in with a password.
    #[arg(long, env = "CROUPIER_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// Make the token for this team only (its id); default: a token for all your teams.
    #[arg(long)]
    pub team: Option<String>,
    /// Say who is logged in where, and change nothing.
    #[arg(long, conflicts_with_all = ["forget", "username", "password_stdin", "token"])]
    pub show: bool,
    /// Forget the saved login.
    #[arg(long, conflicts_with_all = ["username", "password_stdin", "token"])]
    pub forget: bool,
}

pub async fn run(args: LoginArgs) -> Result<()> {
    if args.forget {
        let path = credentials::path()?;
        if credentials::remove()? {
            println!("forgot the login saved in {}", path.display());
        } else {
            println!("no login saved in {}", path.display());
        }
        return Ok(());
    }
    if args.show {
        return show().await;
    }
    let server = normalize(args.server.as_deref().unwrap_or_default())?;
    let token = match args.token.clone().filter(|t| !t.trim().is_empty()) {
        Some(token) => token.trim().to_owned(),
        None => new_token(&server, &args).await?,
    };
    let remote = Remote::with_token(&server, Some(token.clone()))?;
    let me = remote.get("/me").await.context("the token does not work")?;
    let username = me["user"]["username"].as_str().map(str::to_owned);
    let path = credentials::save(&Credentials {
        server: server.clone(),
        token,
        username: username.clone(),
    })?;
    println!(
        "logged in to {server} as {}{}; the token is saved in {}",
        username.as_deref().unwrap_or("?"),
        teams_note(&me),
        path.display()
    );
    Ok(())
}

/// ` (team a, team b)`: the caller's teams, or the token's one.
fn teams_note(me: &Value) -> String {
    let teams: Vec<&str> = (me["teams"].as_array().into_iter().flatten())
        .filter(|t| me["token_team_id"].is_null() || t["team_id"] == me["token_team_id"])
        .filter_map(|t| t["name"].as_str())
        .collect();
    match teams.as_slice() {
        [] => " (in no team yet)".to_owned(),
        [one] => format!(" (team {one})"),
        many => format!(" (teams {})", many.join(", ")),
    }
}

async fn show() -> Result<()> {
    let path = credentials::path()?;
    let Some(saved) = credentials::load()? else {
        println!("not logged in (no login saved in {})", path.display());
        return Ok(());
    };
    let remote = Remote::with_token(&saved.server, Some(saved.token.clone()))?;
    match remote.get("/me").await {
        Ok(me) => println!(
            "logged in to {} as {}{} ({})",
            saved.server,
            me["user"]["username"].as_str().unwrap_or("?"),
            teams_note(&me),
            path.display()
        ),
        Err(e) => bail!(
            "a login to {} is saved in {}, but it does not work: {e:#}\nrun `croupier login --server {}` again",
            saved.server,
            path.display(),
            saved.server
        ),
    }
    Ok(())
}

/// `POST /api/v1/tokens` with the user name and password.
async fn new_token(server: &str, args: &LoginArgs) -> Result<String> {
    let username = match args.username.clone().filter(|u| !u.trim().is_empty()) {
        Some(u) => u.trim().to_owned(),
        None if args.password_stdin => {
            bail!("--password-stdin needs --username: stdin holds the password")
        }
        None => prompt("user name: ")?,
    };
    let password = if args.password_stdin {
        read_line()?
    } else {
        ask_password()?
    };
    if password.is_empty() {
        bail!("no password given");
    }
    let mut body = json!({ "username": username, "password": password, "name": "croupier login" });
    if let Some(team) = args.team.as_deref().filter(|t| !t.trim().is_empty()) {
        body["team_id"] = json!(team.trim());
    }
    let remote = Remote::with_token(server, None)?;
    let answer = remote.post("/tokens", &body).await?;
    answer["token"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| anyhow!("unexpected answer from the server: no token"))
}

/// One line from stdin, without its line end.
fn read_line() -> Result<String> {
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .context("cannot read stdin")?;
    Ok(line.trim_end_matches(['\r', '\n']).to_owned())
}

fn prompt(question: &str) -> Result<String> {
    eprint!("{question}");
    std::io::stderr().flush()?;
    Ok(read_line()?.trim().to_owned())
}

/// The password, typed on the terminal without echo (`stty -echo`), or a line of stdin when it
/// is not a terminal.
fn ask_password() -> Result<String> {
    if !std::io::stdin().is_terminal() {
        return read_line();
    }
    let stty = |arg: &str| {
        std::process::Command::new("stty")
            .arg(arg)
            .stdin(std::process::Stdio::inherit())
            .status()
            .is_ok_and(|s| s.success())
    };
    eprint!("password: ");
    std::io::stderr().flush()?;
    let hidden = stty("-echo");
    let line = read_line();
    if hidden {
        stty("echo");
    }
    eprintln!();
    line
}
