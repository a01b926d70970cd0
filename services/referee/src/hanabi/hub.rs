//! The match server's websocket: a listener on 127.0.0.1:9999 inside the match's network
//! namespace, one task per connection, and the events they produce.
//!
//! Any request path is accepted (the original server ignores it). Each message the referee
//! queues is sent as one **binary** frame of UTF-8 JSON, as the original's
//! `json.dumps(x).encode()`; text and binary frames are both read. A message over the size cap,
//! bytes that are not JSON, a failed handshake (within [`HANDSHAKE_TIME`]) or a queue the bot
//! never drains end the connection. Pings are answered by the library.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use crate::identity;
use crate::seat::AbortOnDrop;

pub(crate) type ConnId = u64;

/// Connections open at once (players are few; the rest are closed by the session anyway).
const MAX_LIVE: usize = 64;
/// Messages queued to a connection that does not read them before it is dropped.
const OUT_QUEUE: usize = 512;
/// Time a client has to finish the websocket handshake.
pub(crate) const HANDSHAKE_TIME: Duration = Duration::from_secs(5);

/// What happened on the socket.
#[derive(Debug)]
pub(crate) enum HubEvent {
    /// A finished handshake; `uid` owns the client socket when the sandbox can tell.
    Opened {
        conn: ConnId,
        uid: Option<u32>,
    },
    /// One frame's JSON and its text.
    Message {
        conn: ConnId,
        value: Value,
        text: String,
    },
    /// Unreadable input; the connection is closed.
    Garbage {
        conn: ConnId,
        reason: String,
    },
    Closed {
        conn: ConnId,
    },
}

enum Event {
    Opened(ConnId, Option<u32>, mpsc::Sender<Arc<str>>),
    Other(HubEvent),
}

/// Why [`Hub::send`] failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SendError {
    Gone,
    /// The bot has not read its socket for a long time; the connection was closed.
    NotReading,
}

pub(crate) struct Hub {
    events: mpsc::Receiver<Event>,
    writers: std::collections::HashMap<ConnId, mpsc::Sender<Arc<str>>>,
    _accepting: AbortOnDrop<()>,
}

impl Hub {
    /// Serves `listener` (bound, non-blocking). `uids` receives the seats' slot uids once they
    /// run; connections wait for it before they are identified and announced.
    pub fn start(
        listener: std::net::TcpListener,
        uids: watch::Receiver<Option<Arc<[u32]>>>,
        message_cap: usize,
    ) -> std::io::Result<Hub> {
        let (tx, rx) = mpsc::channel(64);
        let listener = TcpListener::from_std(listener)?;
        let task = accept(listener, tx, uids, message_cap);
        Ok(Hub {
            events: rx,
            writers: std::collections::HashMap::new(),
            _accepting: AbortOnDrop(tokio::spawn(task)),
        })
    }

    pub async fn recv(&mut self) -> Option<HubEvent> {
        match self.events.recv().await? {
            Event::Opened(conn, uid, writer) => {
                self.writers.insert(conn, writer);
                Some(HubEvent::Opened { conn, uid })
            }
            Event::Other(event) => Some(event),
        }
    }

    /// Queues one message, sent as a binary frame.
    pub fn send(&mut self, conn: ConnId, text: &str) -> Result<(), SendError> {
        let writer = self.writers.get(&conn).ok_or(SendError::Gone)?;
        match writer.try_send(Arc::from(text)) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Closed(_)) => Err(SendError::Gone),
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.close(conn);
                Err(SendError::NotReading)
            }
        }
    }

    /// Closes the connection: its task sends what is queued, a close frame, and ends.
    pub fn close(&mut self, conn: ConnId) {
        self.writers.remove(&conn);
    }
}

async fn accept(
    listener: TcpListener,
    events: mpsc::Sender<Event>,
    uids: watch::Receiver<Option<Arc<[u32]>>>,
    message_cap: usize,
) {
    let Ok(local) = listener.local_addr() else {
        return;
    };
    let next_id = AtomicU64::new(0);
    let mut connections = tokio::task::JoinSet::new(); // aborted when this task is
    loop {
        while connections.try_join_next().is_some() {}
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                tracing::debug!(error = %e, "accept failed");
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        if connections.len() >= MAX_LIVE {
            continue; // dropped: closed at once
        }
        let conn = next_id.fetch_add(1, Ordering::Relaxed);
        let task = serve(
            conn,
            stream,
            (peer, local),
            uids.clone(),
            events.clone(),
            message_cap,
        );
        connections.spawn(task);
    }
}

async fn serve(
    conn: ConnId,
    stream: TcpStream,
    (peer, local): (SocketAddr, SocketAddr),
    mut uids: watch::Receiver<Option<Arc<[u32]>>>,
    events: mpsc::Sender<Event>,
    message_cap: usize,
) {
    let _ = stream.set_nodelay(true);
    let config = WebSocketConfig::default()
        .max_message_size(Some(message_cap))
        .max_frame_size(Some(message_cap));
    let handshake = tokio_tungstenite::accept_async_with_config(stream, Some(config));
    let Ok(Ok(mut ws)) = tokio::time::timeout(HANDSHAKE_TIME, handshake).await else {
        return;
    };
    let Ok(uids) = uids
        .wait_for(Option::is_some)
        .await
        .map(|u| u.clone().unwrap_or_default())
    else {
        return;
    };
    let lookup = tokio::task::spawn_blocking(move || identity::socket_uid(&uids, peer, local));
    let uid = lookup.await.ok().flatten();
    let (out_tx, mut out_rx) = mpsc::channel::<Arc<str>>(OUT_QUEUE);
    if events.send(Event::Opened(conn, uid, out_tx)).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            biased;
            out = out_rx.recv() => match out {
                // A dead peer shows up on the read side.
                Some(text) => { let _ = ws.send(Message::binary(text.as_bytes().to_vec())).await; }
                None => {
                    let _ = tokio::time::timeout(Duration::from_secs(1), ws.close(None)).await;
                    return;
                }
            },
            frame = ws.next() => {
                let (event, last) = match frame {
                    None | Some(Err(WsError::ConnectionClosed | WsError::AlreadyClosed)) => {
                        (HubEvent::Closed { conn }, true)
                    }
                    Some(Ok(Message::Close(_))) => (HubEvent::Closed { conn }, true),
                    Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => continue,
                    Some(Ok(Message::Text(text))) => (parse(conn, text.as_bytes()), false),
                    Some(Ok(Message::Binary(bytes))) => (parse(conn, &bytes), false),
                    Some(Err(WsError::Capacity(e))) => {
                        let reason = format!("sent a message over {message_cap} bytes ({e})");
                        (HubEvent::Garbage { conn, reason }, true)
                    }
                    Some(Err(WsError::Io(_) | WsError::Protocol(_))) => (HubEvent::Closed { conn }, true),
                    Some(Err(e)) => (HubEvent::Garbage { conn, reason: format!("broken websocket frame: {e}") }, true),
                };
                let last = last || matches!(event, HubEvent::Garbage { .. });
                if events.send(Event::Other(event)).await.is_err() || last {
                    return;
                }
            }
        }
    }
}

/// A frame's payload as JSON (text or binary frames alike).
fn parse(conn: ConnId, bytes: &[u8]) -> HubEvent {
    let text = String::from_utf8_lossy(bytes).into_owned();
    match serde_json::from_slice::<Value>(bytes) {
        Ok(value) => HubEvent::Message { conn, value, text },
        Err(e) => HubEvent::Garbage {
            conn,
            reason: format!("sent a message that is not JSON ({e}): {}", clip(&text)),
        },
    }
}

/// At most 200 characters of `text`, for fault details.
pub(crate) fn clip(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}
