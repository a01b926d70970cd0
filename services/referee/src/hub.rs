//! The match server's connections, shared by the socket protocols whose bots may connect in any
//! order and are told apart by what they send or by the uid that owns their socket (No Thanks'
//! TCP lobby, Hanabi's websocket): the accept loop, the socket-owner lookup, one task per
//! connection, and the [`Hub`] the referee reads [`HubEvent`]s from and queues messages with.
//!
//! A protocol supplies only its connection task (`serve`): it may do its own handshake, then
//! calls [`Link::open`] (which waits for the seats' uids, looks up the socket's owner and
//! announces the connection), writes the messages the referee queues and reports what the bot
//! sends with [`Link::report`]. Dropping the [`Hub`] aborts the accept loops and with them every
//! connection task.

use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};

use crate::identity::Owners;
use crate::seat::AbortOnDrop;

pub(crate) type ConnId = u64;

/// How long a client may take to read the handshake's answer before messages follow anyway.
const HANDSHAKE_READ: Duration = Duration::from_secs(2);

/// The seats' slot uids, known once every seat runs (`None` until then).
pub(crate) type Uids = watch::Receiver<Option<Arc<[u32]>>>;

/// What happened on the sockets.
#[derive(Debug)]
pub(crate) enum HubEvent {
    /// A new connection; `uid` owns its client socket when the sandbox can tell.
    Opened {
        conn: ConnId,
        uid: Option<u32>,
    },
    /// One complete JSON message and its text.
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

/// The verdict's words for [`SendError::NotReading`]: a bot that does not read is stuck,
/// which is a time limit, not bad output.
pub(crate) const NOT_READING: &str =
    "stopped reading its connection: the messages sent to it waited unread until its queue was full";

/// Why [`Hub::send`] failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SendError {
    /// The connection is gone (a `Closed` event comes or came).
    Gone,
    /// The bot has not read its socket for a long time; the connection was closed.
    NotReading,
}

/// Per-protocol caps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HubLimits {
    /// Connections open at once on one listener; more are closed at once.
    pub max_live: usize,
    /// Messages queued to a connection that does not read them before it is dropped.
    pub out_queue: usize,
}

pub(crate) struct Hub {
    events: mpsc::Receiver<Event>,
    writers: HashMap<ConnId, mpsc::Sender<Arc<str>>>,
    _accepting: Vec<AbortOnDrop<()>>,
}

impl Hub {
    /// Serves `listeners` (bound, non-blocking), each accepted connection with `serve`.
    /// Connection ids are unique across the listeners, in accept order.
    pub fn start<F, Fut>(
        listeners: Vec<std::net::TcpListener>,
        owners: Arc<Owners>,
        uids: Uids,
        limits: HubLimits,
        serve: F,
    ) -> std::io::Result<Hub>
    where
        F: Fn(TcpStream, Link) -> Fut + Clone + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let (tx, rx) = mpsc::channel(64);
        let next_id = Arc::new(AtomicU64::new(0));
        let mut accepting = Vec::new();
        for listener in listeners {
            let listener = TcpListener::from_std(listener)?;
            let task = accept(
                listener,
                next_id.clone(),
                tx.clone(),
                owners.clone(),
                uids.clone(),
                limits,
                serve.clone(),
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

    /// Queues one message for the connection's task to write.
    pub fn send(&mut self, conn: ConnId, message: &str) -> Result<(), SendError> {
        let writer = self.writers.get(&conn).ok_or(SendError::Gone)?;
        match writer.try_send(Arc::from(message)) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Closed(_)) => Err(SendError::Gone),
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.close(conn);
                Err(SendError::NotReading)
            }
        }
    }

    /// Closes the connection: its task sees its queue end, and ends.
    pub fn close(&mut self, conn: ConnId) {
        self.writers.remove(&conn);
    }
}

/// A connection task's way to the referee.
pub(crate) struct Link {
    pub conn: ConnId,
    peer: SocketAddr,
    local: SocketAddr,
    owners: Arc<Owners>,
    uids: Uids,
    events: mpsc::Sender<Event>,
    out_queue: usize,
}

impl Link {
    /// Waits for the seats' uids, looks up who owns the client socket, waits until the
    /// client has read whatever the protocol's handshake sent it (so the first message never
    /// shares a read with the handshake), and announces the connection
    /// ([`HubEvent::Opened`]). Returns the queue of messages to write, or `None` when the
    /// match is over.
    pub async fn open(&mut self) -> Option<mpsc::Receiver<Arc<str>>> {
        let uids = self
            .uids
            .wait_for(Option::is_some)
            .await
            .map(|u| u.clone().unwrap_or_default())
            .ok()?;
        let (peer, local) = (self.peer, self.local);
        let uid = if uids.is_empty() {
            None // mode `none`: every bot has our uid
        } else {
            self.owners.uid(peer, local)
        };
        self.owners.drained(peer, local, HANDSHAKE_READ).await;
        let (out_tx, out_rx) = mpsc::channel::<Arc<str>>(self.out_queue);
        let opened = Event::Opened(self.conn, uid, out_tx);
        self.events.send(opened).await.ok()?;
        Some(out_rx)
    }

    /// Reports what the bot did; `false` when the referee is gone.
    pub async fn report(&self, event: HubEvent) -> bool {
        self.events.send(Event::Other(event)).await.is_ok()
    }
}

async fn accept<F, Fut>(
    listener: TcpListener,
    next_id: Arc<AtomicU64>,
    events: mpsc::Sender<Event>,
    owners: Arc<Owners>,
    uids: Uids,
    limits: HubLimits,
    serve: F,
) where
    F: Fn(TcpStream, Link) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
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
        if connections.len() >= limits.max_live {
            continue; // dropped: closed at once
        }
        let link = Link {
            conn: next_id.fetch_add(1, Ordering::Relaxed),
            peer,
            local,
            owners: owners.clone(),
            uids: uids.clone(),
            events: events.clone(),
            out_queue: limits.out_queue,
        };
        connections.spawn(serve(stream, link));
    }
}
