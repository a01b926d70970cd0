//! The No Thanks match server's connections: listeners on 127.0.0.1:1000 and :2004 inside the
//! match's network namespace, served by the shared [`Hub`](crate::hub::Hub) with this
//! protocol's connection task.
//!
//! A connection task owns its socket. It reads JSON values as they complete (one per line in
//! practice; values without a newline between them are accepted too, as the original server's
//! per-packet parsing did), and writes the lines the referee queues, each followed by `\n`.
//! Messages over the line cap, bytes that are not JSON, or a queue the bot never drains end the
//! connection. Open connections are capped per port.

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use super::json_reader::JsonReader;
use std::sync::Arc;

use crate::hub::{Hub, HubEvent, HubLimits, Link, Uids};
use crate::identity::Owners;

/// Connections open at once on one port (the room also caps them per bot, by uid); lines
/// queued to a connection that does not read them before it is dropped.
const LIMITS: HubLimits = HubLimits {
    max_live: 256,
    out_queue: 256,
};

/// Serves `listeners` (bound, non-blocking). `uids` receives the seats' slot uids once they
/// run; connections wait for it before they are identified and announced.
pub(super) fn start(
    listeners: Vec<std::net::TcpListener>,
    owners: Arc<Owners>,
    uids: Uids,
    line_cap: usize,
) -> std::io::Result<Hub> {
    Hub::start(listeners, owners, uids, LIMITS, move |stream, link| {
        serve(stream, link, line_cap)
    })
}

async fn serve(stream: TcpStream, mut link: Link, line_cap: usize) {
    let Some(mut out_rx) = link.open().await else {
        return;
    };
    let conn = link.conn;
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
                if !link.report(event).await || last {
                    return;
                }
            }
        }
    }
}
