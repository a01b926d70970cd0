//! The websocket side: the handshake (paths `/game/*` only) and one task per seat connection.
//!
//! The task owns the socket: it writes the text frames the referee queues and reports what the
//! bot sends. Text frames are read as they are; a binary frame holding UTF-8 is read as text
//! (lenient: some websocket libraries send bytes), anything else is garbage. A message over
//! `line_bytes` ends the connection as garbage. The queue to the bot is bounded and
//! [`Conn::send`] waits for room, so the referee goes at the pace of the slowest reader (as
//! the original server, which writes synchronously); a bot that reads nothing for a whole
//! `move_time` is recorded (`invalid_output`). What bots send goes through a bounded channel
//! too ([`EVENT_QUEUE`]), so a bot that floods the referee is slowed to its pace, never
//! buffered without limit.

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::StatusCode;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::WebSocketStream;

use crate::seat::AbortOnDrop;
use croupier_games::Seat;

/// Reports from all connections queued for the referee before a connection waits.
pub(super) const EVENT_QUEUE: usize = 1024;
/// Messages queued to a bot before the referee waits for it to read.
const OUT_QUEUE: usize = 64;

/// What a seat's connection reports.
#[derive(Debug)]
pub(super) enum ConnEvent {
    Text(String),
    /// Unreadable input (a non-UTF-8 binary frame, an over-long message); the connection ends.
    Garbage(String),
    /// The bot closed the connection (or it broke).
    Closed,
}

/// Whether the original server would take a connection to `path`.
pub(super) fn path_allowed(path: &str) -> bool {
    path.starts_with("/game/")
}

/// The websocket handshake, refusing (404) any path but `/game/…`.
#[allow(clippy::result_large_err)] // the callback's type is tungstenite's
pub(super) async fn accept(
    stream: TcpStream,
    max_message: usize,
) -> Result<WebSocketStream<TcpStream>, String> {
    let check = |request: &Request, response: Response| -> Result<Response, ErrorResponse> {
        if path_allowed(request.uri().path()) {
            Ok(response)
        } else {
            let mut refusal = ErrorResponse::new(Some("only /game/{user_info}".to_owned()));
            *refusal.status_mut() = StatusCode::NOT_FOUND;
            Err(refusal)
        }
    };
    let config = WebSocketConfig::default()
        .max_message_size(Some(max_message))
        .max_frame_size(Some(max_message));
    tokio_tungstenite::accept_hdr_async_with_config(stream, check, Some(config))
        .await
        .map_err(|e| e.to_string())
}

/// A live seat connection. Dropping it closes the socket.
pub(super) struct Conn {
    out: mpsc::Sender<String>,
    _task: AbortOnDrop<()>,
}

impl Conn {
    /// Starts the connection task; its reports go to `events` tagged with `seat`.
    pub fn spawn(
        seat: Seat,
        ws: WebSocketStream<TcpStream>,
        events: mpsc::Sender<(Seat, ConnEvent)>,
    ) -> Conn {
        let (out, rx) = mpsc::channel(OUT_QUEUE);
        let task = tokio::spawn(serve(seat, ws, rx, events));
        Conn {
            out,
            _task: AbortOnDrop(task),
        }
    }

    /// The queue to the bot (see [`send`]).
    pub fn queue(&self) -> mpsc::Sender<String> {
        self.out.clone()
    }
}

/// Queues a text frame, waiting up to `patience` for room; `false` when the bot did not read
/// meanwhile or the connection is gone.
/// Why a frame could not be queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SendFailed {
    /// The bot read nothing for `patience` while its queue was full.
    Stalled,
    /// The connection is gone.
    Broken,
}

pub(super) async fn send(
    queue: mpsc::Sender<String>,
    text: String,
    patience: std::time::Duration,
) -> Result<(), SendFailed> {
    match tokio::time::timeout(patience, queue.send(text)).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(_)) => Err(SendFailed::Broken),
        Err(_) => Err(SendFailed::Stalled),
    }
}

async fn serve(
    seat: Seat,
    ws: WebSocketStream<TcpStream>,
    mut out: mpsc::Receiver<String>,
    events: mpsc::Sender<(Seat, ConnEvent)>,
) {
    let (mut sink, mut stream) = ws.split();
    let report = |e: ConnEvent| {
        let events = events.clone();
        async move {
            let _ = events.send((seat, e)).await;
        }
    };
    loop {
        tokio::select! {
            text = out.recv() => match text {
                Some(text) => {
                    if sink.send(Message::text(text)).await.is_err() {
                        report(ConnEvent::Closed).await;
                        return;
                    }
                }
                None => {
                    let _ = sink.close().await;
                    return;
                }
            },
            frame = stream.next() => match frame {
                Some(Ok(Message::Text(text))) => report(ConnEvent::Text(text.to_string())).await,
                Some(Ok(Message::Binary(bytes))) => match String::from_utf8(bytes.to_vec()) {
                    Ok(text) => report(ConnEvent::Text(text)).await,
                    Err(_) => {
                        report(ConnEvent::Garbage("a binary frame that is not UTF-8 text".into())).await;
                        return;
                    }
                },
                Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => {}
                Some(Ok(Message::Close(_))) | None => {
                    report(ConnEvent::Closed).await;
                    return;
                }
                Some(Err(WsError::Capacity(e))) => {
                    report(ConnEvent::Garbage(format!("message too long: {e}"))).await;
                    return;
                }
                Some(Err(WsError::Utf8)) => {
                    report(ConnEvent::Garbage("a text frame that is not UTF-8".into())).await;
                    return;
                }
                Some(Err(_)) => {
                    report(ConnEvent::Closed).await;
                    return;
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::path_allowed;

    #[test]
    fn only_paths_under_game_are_served() {
        assert!(path_allowed("/game/client1"));
        assert!(path_allowed("/game/gd/client1"));
        assert!(path_allowed("/game/"));
        assert!(!path_allowed("/"));
        assert!(!path_allowed("/gamex/1"));
        assert!(!path_allowed("/other/game/1"));
    }
}
