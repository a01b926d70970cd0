//! The Hanabi match server's websocket: a listener on 127.0.0.1:9999 inside the match's network
//! namespace, served by the shared [`Hub`](crate::hub::Hub) with this protocol's connection task.
//!
//! Any request path is accepted (the original server ignores it). Each message the referee
//! queues is sent as one **binary** frame of UTF-8 JSON, as the original's
//! `json.dumps(x).encode()`; text and binary frames are both read. A message over the size cap,
//! bytes that are not JSON, a failed handshake (within [`HANDSHAKE_TIME`]) or a queue the bot
//! never drains end the connection. Pings are answered by the library.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use crate::hub::{ConnId, Hub, HubEvent, HubLimits, Link, Uids};
use crate::identity::Owners;

/// Connections open at once (players are few; the rest are closed by the session anyway);
/// messages queued to a connection that does not read them before it is dropped.
const LIMITS: HubLimits = HubLimits {
    max_live: 64,
    out_queue: 512,
};
/// Time a client has to finish the websocket handshake.
pub(crate) const HANDSHAKE_TIME: Duration = Duration::from_secs(5);

/// Serves `listener` (bound, non-blocking). `uids` receives the seats' slot uids once they
/// run; connections wait for it before they are identified and announced.
pub(super) fn start(
    listener: Option<std::net::TcpListener>,
    owners: Arc<Owners>,
    uids: Uids,
    message_cap: usize,
) -> std::io::Result<Hub> {
    Hub::start(
        listener.into_iter().collect(),
        owners,
        uids,
        LIMITS,
        move |stream, link| serve(stream, link, message_cap),
    )
}

async fn serve(stream: TcpStream, mut link: Link, message_cap: usize) {
    let _ = stream.set_nodelay(true);
    let config = WebSocketConfig::default()
        .max_message_size(Some(message_cap))
        .max_frame_size(Some(message_cap));
    let handshake = tokio_tungstenite::accept_async_with_config(stream, Some(config));
    let Ok(Ok(mut ws)) = tokio::time::timeout(HANDSHAKE_TIME, handshake).await else {
        return;
    };
    let Some(mut out_rx) = link.open().await else {
        return;
    };
    let conn = link.conn;
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
                if !link.report(event).await || last {
                    return;
                }
            }
        }
    }
}

/// A frame's payload as JSON (text or binary frames alike).
pub(crate) fn parse(conn: ConnId, bytes: &[u8]) -> HubEvent {
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
