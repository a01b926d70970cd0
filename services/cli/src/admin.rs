//! `croupier admin …`: user management straight on the database.

use std::io::{IsTerminal, Read};

use anyhow::{anyhow, bail, Context, Result};
use clap::Subcommand;
use rand::distributions::{Alphanumeric, DistString};

use crate::settings::DbArgs;

#[derive(Subcommand, Debug)]
pub enum AdminCommand {
    /// Create a user. The password is read from stdin when piped, else generated and printed.
    CreateUser {
        username: String,
        /// Give the new user the admin role.
        #[arg(long)]
        admin: bool,
        #[arg(long)]
        email: Option<String>,
        #[command(flatten)]
        db: DbArgs,
    },
    /// Grant the admin role to an existing user.
    MakeAdmin {
        username: String,
        #[command(flatten)]
        db: DbArgs,
    },
}

fn read_password() -> Result<Option<String>> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Ok(None);
    }
    let mut buf = String::new();
    stdin
        .lock()
        .read_to_string(&mut buf)
        .context("reading the password from stdin")?;
    let pw = buf.trim_end_matches(['\r', '\n']).to_owned();
    Ok((!pw.is_empty()).then_some(pw))
}

pub async fn run(command: AdminCommand) -> Result<()> {
    match command {
        AdminCommand::CreateUser {
            username,
            admin,
            email,
            db,
        } => {
            croupier_server::validate::check_username(&username).map_err(|e| anyhow!("{e}"))?;
            let pool = croupier_store::connect(db.require()?, 2)
                .await
                .context("cannot connect to the database")?;
            croupier_store::migrate(&pool).await?;
            let (password, generated) = match read_password()? {
                Some(pw) => (pw, false),
                None => (
                    Alphanumeric.sample_string(&mut rand::thread_rng(), 20),
                    true,
                ),
            };
            let names = [username.as_str(), email.as_deref().unwrap_or("")];
            croupier_server::auth::password::check_strength(&password, &names)
                .map_err(|e| anyhow!("{e}"))?;
            let hash = croupier_server::auth::password::hash(password.clone()).await?;
            let user =
                croupier_store::users::create(&pool, &username, email.as_deref(), &hash, admin)
                    .await
                    .map_err(|e| anyhow!("{e}"))?;
            println!(
                "created {}user {}",
                if admin { "admin " } else { "" },
                user.username
            );
            if generated {
                println!("password: {password}");
            }
            Ok(())
        }
        AdminCommand::MakeAdmin { username, db } => {
            let pool = croupier_store::connect(db.require()?, 2)
                .await
                .context("cannot connect to the database")?;
            let creds = croupier_store::users::credentials(&pool, &username).await?;
            let Some(c) = creds else {
                bail!("no user named {username:?}")
            };
            croupier_store::users::set_admin(&pool, c.user_id, true).await?;
            println!("{username} is now an administrator");
            Ok(())
        }
    }
}
