//! `/download`: the runner for bot authors without a Rust toolchain. The page lists what
//! `scripts/build-runner` put in the configured directory
//! ([`ServerConfig::downloads_dir`](crate::ServerConfig::downloads_dir)) — the static
//! `croupier` binary for Linux x86-64 and the Python wheel holding it, each with its size and
//! SHA-256 — how to install and use them, and every game's starter kits. `/download/{file}`
//! serves those files (and their `.sha256`), nothing else from the directory. With no
//! directory configured, or nothing built in it, the page says so and how to build them.

use std::path::{Path, PathBuf};

use askama::Template;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use croupier_games::GameId;
use tower::ServiceExt;
use tower_http::services::ServeFile;

use super::games::{game_name, kits_of};
use crate::error::{Error, Result};
use crate::extract::PagePath;
use crate::templates::{render, Ctx};
use crate::AppState;

/// The static binary's file name, as `scripts/build-runner` writes it.
pub const BINARY: &str = "croupier-linux-x86_64";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/download", get(page))
        .route("/download/{file}", get(file))
}

/// One file of the runner found in the directory.
struct Artifact {
    name: String,
    /// `12.3 MiB`.
    size: String,
    /// From `<name>.sha256` (the first word, when it is 64 hex digits).
    sha256: Option<String>,
}

/// A game's kits as the page links them.
struct GameKits {
    id: &'static str,
    name: String,
    /// The kits' languages.
    languages: Vec<&'static str>,
}

#[derive(Template)]
#[template(path = "download.html")]
struct DownloadPage {
    ctx: Ctx,
    binary: Option<Artifact>,
    wheel: Option<Artifact>,
    /// Whether a directory is configured at all (else the page names the setting).
    configured: bool,
    games: Vec<GameKits>,
}

/// Whether `name` is a file of the runner: the binary or a wheel of the `croupier` package.
fn is_artifact(name: &str) -> bool {
    name == BINARY || (name.starts_with("croupier-") && name.ends_with(".whl"))
}

/// Whether `/download/{name}` may serve `name`: an artifact or an artifact's `.sha256`.
fn servable(name: &str) -> bool {
    !name.contains(['/', '\\']) && is_artifact(name.strip_suffix(".sha256").unwrap_or(name))
}

/// The runner files in `dir`, sorted by name (a missing directory holds none).
fn artifacts(dir: &Path) -> Vec<Artifact> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<Artifact> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let meta = entry.metadata().ok().filter(std::fs::Metadata::is_file)?;
            if !is_artifact(&name) {
                return None;
            }
            let sha256 = std::fs::read_to_string(dir.join(format!("{name}.sha256")))
                .ok()
                .and_then(|text| text.split_whitespace().next().map(str::to_owned))
                .filter(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()));
            Some(Artifact {
                size: mebibytes(meta.len()),
                name,
                sha256,
            })
        })
        .collect();
    found.sort_by(|a, b| a.name.cmp(&b.name));
    found
}

/// `12.3 MiB`.
fn mebibytes(bytes: u64) -> String {
    // Precision is not at stake: a size shown to one decimal.
    #[allow(clippy::cast_precision_loss)]
    let mib = bytes as f64 / (1024.0 * 1024.0);
    format!("{mib:.1} MiB")
}

async fn page(ctx: Ctx, State(state): State<AppState>) -> Result<Response> {
    let dir = state.config.downloads_dir.clone();
    let found = match &dir {
        Some(dir) => {
            let dir = dir.clone();
            tokio::task::spawn_blocking(move || artifacts(&dir))
                .await
                .map_err(|e| Error::internal(format!("listing the downloads: {e}")))?
        }
        None => Vec::new(),
    };
    let mut binary = None;
    let mut wheel = None;
    for artifact in found {
        if artifact.name == BINARY {
            binary = Some(artifact);
        } else {
            // The newest version sorts last.
            wheel = Some(artifact);
        }
    }
    let games = GameId::all()
        .into_iter()
        .map(|game| GameKits {
            id: game.as_str(),
            name: game_name(game, ctx.lang),
            languages: kits_of(game.as_str())
                .into_iter()
                .map(|(lang, _)| lang)
                .collect(),
        })
        .collect();
    Ok(render(&DownloadPage {
        ctx,
        binary,
        wheel,
        configured: dir.is_some(),
        games,
    }))
}

/// One runner file (or its `.sha256`) from the directory, offered as a download.
async fn file(
    State(state): State<AppState>,
    PagePath(name): PagePath<String>,
    request: Request,
) -> Result<Response> {
    let dir: PathBuf = state.config.downloads_dir.clone().ok_or(Error::NotFound)?;
    if !servable(&name) {
        return Err(Error::NotFound);
    }
    let path = dir.join(&name);
    if !tokio::fs::metadata(&path).await.is_ok_and(|m| m.is_file()) {
        return Err(Error::NotFound);
    }
    let mut response = ServeFile::new(&path)
        .oneshot(request)
        .await
        .map_err(|e| Error::internal(format!("serving {name}: {e}")))?
        .into_response();
    let headers = response.headers_mut();
    let kind = if name.ends_with(".sha256") {
        "text/plain; charset=utf-8"
    } else {
        "application/octet-stream"
    };
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_runner_and_its_checksums_are_served() {
        for name in [
            "croupier-linux-x86_64",
            "croupier-linux-x86_64.sha256",
            "croupier-0.1.0-py3-none-manylinux_2_17_x86_64.whl",
            "croupier-0.1.0-py3-none-manylinux_2_17_x86_64.whl.sha256",
        ] {
            assert!(servable(name), "{name}");
        }
        for name in [
            "",
            ".sha256",
            "secrets.txt",
            "croupier-linux-x86_64.partial",
            ".croupier-linux-x86_64.partial",
            "../croupier-linux-x86_64",
            "sub/croupier-1.whl",
            "croupier-1.whl\\x",
            "other-1.whl",
        ] {
            assert!(!servable(name), "{name}");
        }
    }

    #[test]
    fn sizes_read_in_mebibytes() {
        assert_eq!(mebibytes(0), "0.0 MiB");
        assert_eq!(mebibytes(15 * 1024 * 1024 + 512 * 1024), "15.5 MiB");
    }
}
