//! Which seat opened a connection, and whether a client has read what it was sent.
//!
//! Bots claim a seat by player name, and names may be guessable (team names), so a hostile bot
//! could connect first under an opponent's name and play its seat. In the isolated sandbox every
//! seat runs as its own slot uid, and the kernel records the uid that created each socket:
//! [`Owners`] asks it with one socket-diagnostics lookup inside the match's network namespace
//! ([`crate::sockdiag`]) — no scan of `/proc`, so no confusion by a previous bot's zombies, and
//! no cost that grows with the machine's processes. In mode `none` every bot has the worker's
//! uid and names alone decide.
//!
//! The same lookup tells how many bytes a client has not read yet. A websocket server must
//! not let its first frame reach a client in the same read as the handshake's 101 response:
//! ws4py clients (the Guandan platform's samples and most contest bots) then crash with
//! `'NoneType' object has no attribute 'parser'`. [`Owners::drained`] waits until the client
//! has read the response before anything else is sent.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use croupier_sandbox::MatchNet;

use crate::sockdiag::SockDiag;

/// Looks up client sockets of one match's connections.
#[derive(Debug)]
pub(crate) struct Owners {
    diag: Option<SockDiag>,
}

impl Owners {
    /// Lookups inside `net` (the current namespace when `None`). Without socket diagnostics
    /// (a kernel without `inet_diag`) owners are unknown and [`Owners::drained`] waits a fixed
    /// settle time instead.
    pub fn open(net: Option<&MatchNet>) -> Arc<Self> {
        let diag = SockDiag::open(net)
            .inspect_err(|e| tracing::warn!(error = %e, "no socket diagnostics: connection owners are unknown"))
            .ok();
        Arc::new(Self { diag })
    }

    /// No lookups: every owner is unknown (a match nobody connects to).
    pub fn unknown() -> Arc<Self> {
        Arc::new(Self { diag: None })
    }

    /// Whether the kernel answers lookups here.
    pub fn available(&self) -> bool {
        self.diag.is_some()
    }

    /// The uid that created the client socket `peer` connected to `local`; `None` when the
    /// kernel cannot say (the client is gone, or no diagnostics).
    pub fn uid(&self, peer: SocketAddr, local: SocketAddr) -> Option<u32> {
        let diag = self.diag.as_ref()?;
        match diag.client(peer, local) {
            Ok(found) => found.map(|c| c.uid),
            Err(e) => {
                tracing::warn!(error = %e, %peer, "socket owner lookup failed");
                None
            }
        }
    }

    /// Waits until the client at `peer` has read everything sent to it so far (or is gone),
    /// at most `patience`. `false` if it had not by then.
    pub async fn drained(&self, peer: SocketAddr, local: SocketAddr, patience: Duration) -> bool {
        let Some(diag) = &self.diag else {
            tokio::time::sleep(SETTLE.min(patience)).await;
            return true;
        };
        let deadline = Instant::now() + patience;
        loop {
            match diag.client(peer, local) {
                Ok(Some(c)) if c.unread > 0 => {}
                _ => return true,
            }
            if Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(POLL).await;
        }
    }
}

/// How often [`Owners::drained`] looks.
const POLL: Duration = Duration::from_millis(2);
/// The wait when the kernel cannot tell.
const SETTLE: Duration = Duration::from_millis(200);

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::os::unix::fs::MetadataExt;

    #[tokio::test]
    async fn our_own_connection_is_found_with_our_uid_and_drains_once_read() {
        let owners = Owners::open(None);
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let local = listener.local_addr().unwrap();
        let mut client = std::net::TcpStream::connect(local).unwrap();
        let (mut server, peer) = listener.accept().unwrap();
        let me = std::fs::metadata("/proc/self").unwrap().uid();
        assert_eq!(owners.uid(peer, local), Some(me));

        server.write_all(b"hello").unwrap();
        let patience = Duration::from_millis(50);
        assert!(!owners.drained(peer, local, patience).await);
        let mut buf = [0_u8; 5];
        client.read_exact(&mut buf).unwrap();
        assert!(owners.drained(peer, local, patience).await);
        drop((client, server));
    }
}
