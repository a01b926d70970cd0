//! The app served for real on a free local port (`croupier_server::serve`, as `croupier up`
//! does: with the live-update listener), for what the in-process [`super::TestApp`] cannot do:
//! a long-lived streaming response read with reqwest, or pages a real browser opens.
//!
//! Also [`EventStream`], a server-sent events reader over a streaming reqwest response.

use std::time::Duration;

use croupier_server::{serve, AppState, ServerConfig};
use serde_json::Value;
use sqlx::PgPool;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// How long to wait for the next event before the test fails (a generous bound, not a
/// measurement: the events come in milliseconds).
const EVENT_WAIT: Duration = Duration::from_secs(30);

/// A running server; [`Served::stop`] shuts it down as Ctrl-C does.
pub struct Served {
    pub base: String,
    stop: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Served {
    pub async fn start(pool: &PgPool) -> Served {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a free port");
        let base = format!("http://{}", listener.local_addr().expect("address"));
        let (stop, stopped) = oneshot::channel::<()>();
        let state = AppState::new(pool.clone(), ServerConfig::default());
        let task = tokio::spawn(serve(listener, state, async move {
            let _ = stopped.await;
        }));
        Served { base, stop, task }
    }

    /// Shuts the server down and waits until it has (open event streams end first).
    pub async fn stop(self) {
        let _ = self.stop.send(());
        tokio::time::timeout(EVENT_WAIT, self.task)
            .await
            .expect("the server stops")
            .expect("the server task")
            .expect("the server");
    }

    /// Opens the event stream at `path`.
    pub async fn events(&self, path: &str) -> EventStream {
        EventStream::open(&format!("{}{path}", self.base)).await
    }
}

/// One server-sent event: its name and its JSON data.
#[derive(Debug, Clone, PartialEq)]
pub struct Sent {
    pub name: String,
    pub data: Value,
    /// The data as sent.
    pub raw: String,
}

/// The events of a `text/event-stream` response, one by one (comments skipped).
pub struct EventStream {
    pub response: reqwest::Response,
    buffer: Vec<u8>,
}

impl EventStream {
    /// Opens the event stream at `url`.
    pub async fn open(url: &str) -> EventStream {
        let response = reqwest::get(url)
            .await
            .unwrap_or_else(|e| panic!("GET {url}: {e}"));
        assert_eq!(response.status(), 200, "GET {url}");
        EventStream {
            response,
            buffer: Vec::new(),
        }
    }

    /// The next event; `None` when the server ended the stream. Fails the test after
    /// [`EVENT_WAIT`] without one.
    pub async fn next(&mut self) -> Option<Sent> {
        loop {
            if let Some(end) = self.buffer.windows(2).position(|w| w == b"\n\n") {
                let bytes: Vec<u8> = self.buffer.drain(..end + 2).collect();
                let block = String::from_utf8(bytes).expect("utf-8 events");
                let mut name = "message".to_owned();
                let mut raw = Vec::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        name = v.trim().to_owned();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        raw.push(v.strip_prefix(' ').unwrap_or(v).to_owned());
                    }
                }
                if raw.is_empty() {
                    continue; // a keep-alive comment
                }
                let raw = raw.join("\n");
                let data = serde_json::from_str(&raw)
                    .unwrap_or_else(|e| panic!("event {name}: {raw:?} is not JSON: {e}"));
                return Some(Sent { name, data, raw });
            }
            let chunk = tokio::time::timeout(EVENT_WAIT, self.response.chunk())
                .await
                .unwrap_or_else(|_| {
                    let so_far = String::from_utf8_lossy(&self.buffer);
                    panic!("no event within {EVENT_WAIT:?}; so far: {so_far:?}")
                })
                .expect("the stream reads");
            match chunk {
                Some(bytes) => self.buffer.extend_from_slice(&bytes),
                None => return None,
            }
        }
    }

    /// Events until one named `name` for which `wanted` holds; all of them, that one last.
    pub async fn until(&mut self, name: &str, wanted: impl Fn(&Value) -> bool) -> Vec<Sent> {
        let mut seen = Vec::new();
        loop {
            let event = self
                .next()
                .await
                .unwrap_or_else(|| panic!("the stream ended before {name}; saw {seen:#?}"));
            let done = event.name == name && wanted(&event.data);
            seen.push(event);
            if done {
                return seen;
            }
        }
    }
}
