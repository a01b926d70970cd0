//! The match server's sockets: listeners on 127.0.0.1:1000 and :2004 inside the match's network
//! namespace, one task per connection, and the events they produce.
//!
//! A connection task owns its socket. It reads JSON values as they complete (one per line in
//! practice; values without a newline between them are accepted too, as the original server's
//! per-packet parsing did), and writes the lines the referee queues, each followed by `\n`.
//! Messages over the line cap, bytes that are not JSON, or a queue the bot never drains end the
//! connection. Open connections are capped per port.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};

use super::json_reader::JsonReader;
use crate::identity;
use crate::seat::AbortOnDrop;

pub(crate) type ConnId = u64;

/// Connections open at once on one port (the room also caps them per bot, by uid).
const MAX_LIVE: usize = 256;
/// Lines queued to a connection that does not read them before it is dropped.
const OUT_QUEUE: usize = 256;

/// What happened on the sockets.
#[derive(Debug)]
pub(crate) enum HubEvent {
    /// A new connection; `uid` owns its client socket when the sandbox can tell.
    Opened {
        conn: ConnId,
        uid: Option<u32>,
    },
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
    /// The connection is gone (a `Closed` event comes or came).
    Gone,
    /// The bot has not read its socket for a long time; the connection was closed.
    NotReading,
}

pub(crate) struct Hub {
    events: mpsc::Receiver<Event>,
    writers: HashMap<ConnId, mpsc::Sender<Arc<str>>>,
    _accepting: Vec<AbortOnDrop<()>>,
}

impl Hub {
    /// Serves `listeners` (bound, non-blocking). `uids` receives the seats' slot uids once they
    /// run; connections wait for it before they are identified and announced.
    pub fn start(
        listeners: Vec<std::net::TcpListener>,
        uids: watch::Receiver<Option<Arc<[u32]>>>,
        line_cap: usize,
    ) -> std::io::Result<Hub> {
        let (tx, rx) = mpsc::channel(64);
        let next_id = Arc::new(AtomicU64::new(0));
        let mut accepting = Vec::new();
        for listener in listeners {
            let listener = TcpListener::from_std(listener)?;
            let task = accept(
                listener,
                next_id.clone(),
                tx.clone(),
                uids.clone(),
                line_cap,
            );
            accepting.push(AbortOnDrop(tokio::spawn(task)));
        }
        Ok(Hub {
            events: rx,
            writers: HashMap::new(),
            _accepting: accepting,
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

    /// Queues one line (without its `\n`).
    pub fn send(&mut self, conn: ConnId, line: &str) -> Result<(), SendError> {
        let writer = self.writers.get(&conn).ok_or(SendError::Gone)?;
        match writer.try_send(Arc::from(line)) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Closed(_)) => Err(SendError::Gone),
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.close(conn);
                Err(SendError::NotReading)
            }
        }
    }

    /// Closes the connection (its task ends and drops the socket).
    pub fn close(&mut self, conn: ConnId) {
        self.writers.remove(&conn);
    }
}

async fn accept(
    listener: TcpListener,
    next_id: Arc<AtomicU64>,
    events: mpsc::Sender<Event>,
    uids: watch::Receiver<Option<Arc<[u32]>>>,
    line_cap: usize,
) {
    let Ok(local) = listener.local_addr() else {
        return;
    };
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
            line_cap,
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
    line_cap: usize,
) {
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
    // Lock-step small messages: Nagle + delayed ACKs would add ~40 ms to many turns.
    let _ = stream.set_nodelay(true);
    let (read, mut write) = stream.into_split();
    let mut reader = JsonReader::new(read, line_cap);
    loop {
        tokio::select! {
            biased;
            line = out_rx.recv() => match line {
                Some(line) => {
                    let mut bytes = Vec::with_capacity(line.len() + 1);
                    bytes.extend_from_slice(line.as_bytes());
                    bytes.push(b'\n');
                    let _ = write.write_all(&bytes).await; // a dead peer shows up on the read side
                }
                None => return, // closed by the referee
            },
            item = reader.next() => {
                let (event, last) = match item {
                    Ok(Some((value, text))) => (HubEvent::Message { conn, value, text }, false),
                    Ok(None) => (HubEvent::Closed { conn }, true),
                    Err(reason) => (HubEvent::Garbage { conn, reason }, true),
                };
                if events.send(Event::Other(event)).await.is_err() || last {
                    return;
                }
            }
        }
    }
}
