//! Settings from flags and environment variables. Every value is read as text and parsed
//! here, so an error names the flag *and* the variable it may have come from.

use std::net::SocketAddr;
use std::str::FromStr;

use anyhow::{anyhow, Result};
use clap::Args;
use croupier_server::ServerConfig;

/// Parses a setting, naming where it comes from in the error.
pub fn parse<T: FromStr>(value: &str, flag: &str, env: &str, expected: &str) -> Result<T> {
    value.trim().parse().map_err(|_| {
        anyhow!(
            "invalid value {value:?} for {flag} (environment variable {env}): expected {expected}"
        )
    })
}

/// Parses a flag that has no environment variable.
pub fn parse_flag<T: FromStr>(value: &str, flag: &str, expected: &str) -> Result<T> {
    value
        .trim()
        .parse()
        .map_err(|_| anyhow!("invalid value {value:?} for {flag}: expected {expected}"))
}

fn parse_bool(value: &str, flag: &str, env: &str) -> Result<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" | "" => Ok(false),
        _ => Err(anyhow!("invalid value {value:?} for {flag} (environment variable {env}): expected true or false")),
    }
}

/// Where the database is.
#[derive(Args, Debug, Clone)]
pub struct DbArgs {
    /// PostgreSQL URL, e.g. postgres://user:password@host/croupier.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<String>,
    /// Where blobs (uploads, builds, replays, logs) are kept: `postgres` (in the database),
    /// `file:///path` (a directory), or `s3://bucket[/prefix]` (any S3-compatible store;
    /// credentials, region and endpoint from the AWS_* variables). Every process of one
    /// deployment must say the same.
    #[arg(long, env = "CROUPIER_BLOB_STORE", default_value = "postgres")]
    pub blob_store: String,
}

impl DbArgs {
    /// Makes this process keep new blobs where `--blob-store` says.
    pub fn configure_blobs(&self) -> Result<()> {
        let location = croupier_store::blobs::Location::parse(&self.blob_store)?;
        croupier_store::blobs::configure(location)?;
        Ok(())
    }

    pub fn require(&self) -> Result<&str> {
        match self.database_url.as_deref().map(str::trim) {
            Some(url) if !url.is_empty() => Ok(url),
            _ => Err(anyhow!(
                "DATABASE_URL is not set: pass --database-url or set the environment variable DATABASE_URL \
                 (e.g. postgres://user:password@localhost/croupier), or use `croupier up`, which runs its own PostgreSQL"
            )),
        }
    }
}

/// Web server settings shared by `up` and `serve`.
#[derive(Args, Debug, Clone)]
pub struct WebArgs {
    /// Address to listen on.
    #[arg(long, env = "CROUPIER_BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// Largest upload accepted, in MiB.
    #[arg(long, env = "CROUPIER_MAX_UPLOAD_MIB", default_value = "10")]
    pub max_upload_mib: String,
    /// Mark the session cookie Secure and send Strict-Transport-Security (set this when serving
    /// over HTTPS).
    #[arg(long, env = "CROUPIER_SECURE_COOKIES", default_value = "false")]
    pub secure_cookies: String,
    /// Trust X-Forwarded-For for the client address (only behind your own reverse proxy).
    #[arg(long, env = "CROUPIER_TRUST_PROXY", default_value = "false")]
    pub trust_proxy: String,
    /// Serve /metrics (without a token) on this separate address, for operators only, e.g.
    /// 127.0.0.1:9090. Unset: no separate metrics listener.
    #[arg(long, env = "CROUPIER_METRICS_BIND")]
    pub metrics_bind: Option<String>,
    /// Serve /metrics on the web app's own address too, to requests bearing this token
    /// (Authorization: Bearer TOKEN). Unset: the web app has no /metrics.
    #[arg(long, env = "CROUPIER_METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,
    /// Replay retention: once an hour, drop the replays and seat logs of matches finished
    /// more than this many days ago in competitions that are over (and ladders); results,
    /// standings and ratings stay (docs/operations.md#data-growth). Unset: keep everything.
    #[arg(long, env = "CROUPIER_REPLAY_RETENTION_DAYS")]
    pub replay_retention_days: Option<String>,
    /// The directory `scripts/build-runner` wrote the runner into (the static `croupier`
    /// binary, the wheel, their .sha256 files), served under /download for bot authors.
    /// Unset: /download says how to build them.
    #[arg(long, env = "CROUPIER_DOWNLOADS_DIR")]
    pub downloads_dir: Option<std::path::PathBuf>,
}

/// Reads `--replay-retention-days`: a whole number of days from 1 (`None` when unset or empty).
pub fn retention_days(value: Option<&str>) -> Result<Option<u32>> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some(v) => {
            let days: u32 = parse(
                v,
                "--replay-retention-days",
                "CROUPIER_REPLAY_RETENTION_DAYS",
                "a whole number of days from 1",
            )?;
            if days == 0 {
                return Err(anyhow!(
                    "invalid value 0 for --replay-retention-days (environment variable CROUPIER_REPLAY_RETENTION_DAYS): expected a whole number of days from 1"
                ));
            }
            Ok(Some(days))
        }
    }
}

impl WebArgs {
    pub fn bind(&self) -> Result<SocketAddr> {
        parse(
            &self.bind,
            "--bind",
            "CROUPIER_BIND",
            "an address such as 127.0.0.1:8080 or 0.0.0.0:80",
        )
    }

    /// The separate metrics address, if one is set.
    pub fn metrics_bind(&self) -> Result<Option<SocketAddr>> {
        match self.metrics_bind.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(addr) => parse(
                addr,
                "--metrics-bind",
                "CROUPIER_METRICS_BIND",
                "an address such as 127.0.0.1:9090",
            )
            .map(Some),
        }
    }

    pub fn server_config(&self) -> Result<ServerConfig> {
        let mib: u64 = parse(
            &self.max_upload_mib,
            "--max-upload-mib",
            "CROUPIER_MAX_UPLOAD_MIB",
            "a whole number of MiB from 1 to 1024",
        )?;
        if !(1..=1024).contains(&mib) {
            return Err(anyhow!(
                "invalid value {mib} for --max-upload-mib (environment variable CROUPIER_MAX_UPLOAD_MIB): expected 1 to 1024"
            ));
        }
        let defaults = ServerConfig::default();
        let max_upload_bytes = mib * 1024 * 1024;
        let config = ServerConfig {
            max_upload_bytes,
            bundle_limits: croupier_bundle::Limits {
                max_upload_bytes,
                ..defaults.bundle_limits
            },
            secure_cookies: parse_bool(
                &self.secure_cookies,
                "--secure-cookies",
                "CROUPIER_SECURE_COOKIES",
            )?,
            trust_proxy_headers: parse_bool(
                &self.trust_proxy,
                "--trust-proxy",
                "CROUPIER_TRUST_PROXY",
            )?,
            metrics_token: match self.metrics_token.as_deref().map(str::trim) {
                None | Some("") => None,
                Some(t) if t.len() < 16 => {
                    return Err(anyhow!(
                        "the value of --metrics-token (environment variable CROUPIER_METRICS_TOKEN) is too short: use at least 16 characters"
                    ))
                }
                Some(t) => Some(t.to_owned()),
            },
            replay_retention_days: retention_days(self.replay_retention_days.as_deref())?,
            downloads_dir: self
                .downloads_dir
                .clone()
                .filter(|d| !d.as_os_str().is_empty()),
            ..defaults
        };
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_value_is_reported_with_its_flag_and_variable() {
        let err =
            parse::<SocketAddr>("nowhere", "--bind", "CROUPIER_BIND", "an address").unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("--bind") && text.contains("CROUPIER_BIND") && text.contains("nowhere")
        );
    }

    fn web(metrics_bind: Option<&str>, metrics_token: Option<&str>) -> WebArgs {
        WebArgs {
            bind: "127.0.0.1:8080".into(),
            max_upload_mib: "10".into(),
            secure_cookies: "false".into(),
            trust_proxy: "false".into(),
            metrics_bind: metrics_bind.map(Into::into),
            metrics_token: metrics_token.map(Into::into),
            replay_retention_days: None,
            downloads_dir: None,
        }
    }

    #[test]
    fn replay_retention_is_off_unless_a_number_of_days_is_given() {
        assert_eq!(retention_days(None).unwrap(), None);
        assert_eq!(retention_days(Some(" ")).unwrap(), None);
        assert_eq!(retention_days(Some("90")).unwrap(), Some(90));
        for bad in ["0", "-3", "ninety"] {
            let e = retention_days(Some(bad)).unwrap_err().to_string();
            assert!(e.contains("CROUPIER_REPLAY_RETENTION_DAYS"), "{e}");
        }
    }

    #[test]
    fn metrics_are_off_unless_an_address_or_a_long_enough_token_is_given() {
        let off = web(None, Some(" "));
        assert_eq!(off.metrics_bind().unwrap(), None);
        assert_eq!(off.server_config().unwrap().metrics_token, None);

        let on = web(Some("127.0.0.1:9090"), Some("a-token-of-20-chars!"));
        assert_eq!(
            on.metrics_bind().unwrap(),
            Some("127.0.0.1:9090".parse().unwrap())
        );
        assert_eq!(
            on.server_config().unwrap().metrics_token.as_deref(),
            Some("a-token-of-20-chars!")
        );

        let short = web(None, Some("secret")).server_config().unwrap_err();
        assert!(
            short.to_string().contains("CROUPIER_METRICS_TOKEN"),
            "{short}"
        );
        let bad = web(Some("nowhere"), None).metrics_bind().unwrap_err();
        assert!(bad.to_string().contains("--metrics-bind"), "{bad}");
    }

    #[test]
    fn a_missing_database_url_names_the_variable() {
        let err = DbArgs {
            database_url: None,
            blob_store: "postgres".into(),
        }
        .require()
        .unwrap_err();
        assert!(err.to_string().contains("DATABASE_URL"));
    }
}
