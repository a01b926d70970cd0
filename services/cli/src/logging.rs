//! Logs: `tracing` to stderr, filtered by `RUST_LOG` (default `info`; `warn` for the
//! interactive `play` and `bench`), as text or as JSON lines with `LOG_FORMAT=json` (for log
//! collectors).

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// The filter of the services (`up`, `serve`, `work`, …) when `RUST_LOG` is not set.
pub const SERVICE: &str = "info,sqlx=warn,tower_http=info";

/// Installs the subscriber; `default` is the filter used when `RUST_LOG` is not set.
pub fn init(default: &str) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let json = std::env::var("LOG_FORMAT").is_ok_and(|v| v.eq_ignore_ascii_case("json"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    if json {
        builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .init();
    } else {
        builder.init();
    }
}
