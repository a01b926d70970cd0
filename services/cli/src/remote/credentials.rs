//! The saved login: the server's address and an API token, kept by `croupier login` in
//! `$XDG_CONFIG_HOME/croupier/credentials.json` (`~/.config/croupier/…` when the variable is
//! unset; `CROUPIER_CONFIG_DIR` overrides the directory), readable by its owner only. The client
//! commands use it when `--server` / `--token` (or `CROUPIER_SERVER` / `CROUPIER_TOKEN`) are not
//! given.

use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;

use anyhow::{anyhow, Context, Result};
use serde::{Deserialize, Serialize};

/// What `croupier login` keeps.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Credentials {
    /// `https://croupier.example.org`, without a trailing slash.
    pub server: String,
    pub token: String,
    /// Who logged in (shown by `croupier login --show`), when known.
    #[serde(default)]
    pub username: Option<String>,
}

/// The directory of the saved login.
pub fn dir() -> Result<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("CROUPIER_CONFIG_DIR") {
        return Ok(PathBuf::from(dir));
    }
    if let Some(config) = var("XDG_CONFIG_HOME") {
        return Ok(PathBuf::from(config).join("croupier"));
    }
    let home = var("HOME").ok_or_else(|| {
        anyhow!(
            "cannot tell where to keep the login: set HOME, XDG_CONFIG_HOME or CROUPIER_CONFIG_DIR"
        )
    })?;
    Ok(PathBuf::from(home).join(".config").join("croupier"))
}

/// The file of the saved login.
pub fn path() -> Result<PathBuf> {
    Ok(dir()?.join("credentials.json"))
}

/// The saved login, if there is one.
pub fn load() -> Result<Option<Credentials>> {
    let path = path()?;
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text).map(Some).with_context(|| {
            format!(
                "{} is not a saved login: run `croupier login` again",
                path.display()
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Saves `creds` (replacing any saved login) with mode 0600; returns the file's path.
pub fn save(creds: &Credentials) -> Result<PathBuf> {
    let path = path()?;
    let dir = dir()?;
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let partial = dir.join(".credentials.json.partial");
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&partial)
        .with_context(|| format!("cannot write {}", partial.display()))?;
    file.write_all(serde_json::to_string_pretty(creds)?.as_bytes())?;
    file.sync_all()?;
    std::fs::rename(&partial, &path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

/// Forgets the saved login; whether there was one.
pub fn remove() -> Result<bool> {
    let path = path()?;
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e).with_context(|| format!("cannot remove {}", path.display())),
    }
}
