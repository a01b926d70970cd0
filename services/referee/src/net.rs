//! The match's network: a [`MatchNet`] with the match server's listeners bound inside it, on
//! the ports the original platform's bots hard-code, and the [`Owners`] lookup of its
//! connections. Shared by the socket protocols.

use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::sync::Arc;

use croupier_sandbox::MatchNet;

use crate::identity::Owners;
use crate::{RefereeError, SeatSpec};

/// A match's namespace (`None` without one), its listeners, and its connections' lookup.
pub(crate) struct MatchSockets {
    pub net: Option<Arc<MatchNet>>,
    pub listeners: Vec<TcpListener>,
    pub owners: Arc<Owners>,
}

/// A fresh namespace and a listener on 127.0.0.1:`port` inside it for each of `ports`.
///
/// A match without a program seat (built-in bots and people only) has nobody to connect: it
/// gets no namespace and no listener at all (no socket is opened, bound or closed for it).
///
/// Without root (sandbox mode `none` on a developer's machine) no namespace can be made: the
/// host's loopback is used instead, on whichever of the ports bind, and the bots run without
/// one (`None`).
pub(crate) fn open(ports: &[u16], seats: &[SeatSpec]) -> Result<MatchSockets, RefereeError> {
    if !seats.iter().any(|s| matches!(s, SeatSpec::Program { .. })) {
        return Ok(MatchSockets {
            net: None,
            listeners: Vec::new(),
            owners: Owners::unknown(),
        });
    }
    let (net, listeners) = bind(ports)?;
    let owners = Owners::open(net.as_deref());
    Ok(MatchSockets {
        net,
        listeners,
        owners,
    })
}

fn bind(ports: &[u16]) -> Result<(Option<Arc<MatchNet>>, Vec<TcpListener>), RefereeError> {
    match MatchNet::new() {
        Ok(net) => {
            let listeners = ports.iter().map(|&p| net.listen_tcp(p));
            let listeners = listeners.collect::<Result<Vec<_>, _>>();
            Ok((
                Some(Arc::new(net)),
                listeners.map_err(RefereeError::Network)?,
            ))
        }
        Err(e) if !running_as_root() => {
            tracing::warn!(error = %e, "no network namespace without root: the match server listens on the host's loopback");
            let listeners: Vec<TcpListener> =
                ports.iter().filter_map(|&p| loopback(p).ok()).collect();
            if listeners.is_empty() {
                let e =
                    std::io::Error::other(format!("could not listen on 127.0.0.1 ports {ports:?}"));
                return Err(RefereeError::Network(e));
            }
            Ok((None, listeners))
        }
        Err(e) => Err(RefereeError::Network(e)),
    }
}

/// A non-blocking listener on the host's 127.0.0.1:`port` (0: any free port). The previous
/// match's listener on the same port may still be closing (its accept task is dropped by the
/// runtime after the match returns), so a port in use is tried again for up to 2 s before it
/// counts as taken; this only happens without root, where the host's loopback is shared.
fn loopback(port: u16) -> std::io::Result<TcpListener> {
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let mut tries = 0;
    let listener = loop {
        match TcpListener::bind(addr) {
            Err(e) if e.kind() == std::io::ErrorKind::AddrInUse && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => break other?,
        }
    };
    listener.set_nonblocking(true)?;
    Ok(listener)
}

fn running_as_root() -> bool {
    croupier_sandbox::running_as_root()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without root, consecutive matches share the host's fixed ports: a listener the previous
    /// match is still closing delays the next one instead of failing it.
    #[test]
    fn a_loopback_port_still_closing_is_waited_for() {
        let held = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let port = held.local_addr().expect("address").port();
        let closer = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            drop(held);
        });

        let listener = loopback(port).expect("the port, once the old listener closed");

        assert_eq!(listener.local_addr().expect("address").port(), port);
        closer.join().expect("closer");
    }

    #[test]
    fn a_match_without_programs_gets_no_namespace_and_no_socket() {
        let seats = [SeatSpec::builtin("random"), SeatSpec::builtin("random")];
        let sockets = open(&[2004, 1000], &seats).expect("nothing to open");
        assert!(sockets.net.is_none(), "nobody connects: no namespace");
        assert!(!sockets.owners.available());
        assert!(
            sockets.listeners.is_empty(),
            "nobody connects: no listener, and the bots' ports stay free"
        );
    }
}
