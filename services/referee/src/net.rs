//! The match's network: a [`MatchNet`] with the match server's listeners bound inside it, on
//! the ports the original platform's bots hard-code, and the [`Owners`] lookup of its
//! connections. Shared by the socket protocols.

use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::sync::Arc;

use croupier_sandbox::MatchNet;

use crate::identity::Owners;
use crate::RefereeError;

/// A match's namespace (`None` without one), its listeners, and its connections' lookup.
pub(crate) struct MatchSockets {
    pub net: Option<Arc<MatchNet>>,
    pub listeners: Vec<TcpListener>,
    pub owners: Arc<Owners>,
}

/// A fresh namespace and a listener on 127.0.0.1:`port` inside it for each of `ports`.
///
/// Without root (sandbox mode `none` on a developer's machine) no namespace can be made: the
/// host's loopback is used instead, on whichever of the ports bind, and the bots run without
/// one (`None`).
pub(crate) fn open(ports: &[u16]) -> Result<MatchSockets, RefereeError> {
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
            let bind = |port: u16| {
                let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))?;
                listener.set_nonblocking(true)?;
                Ok::<_, std::io::Error>(listener)
            };
            let listeners: Vec<TcpListener> = ports.iter().filter_map(|&p| bind(p).ok()).collect();
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

fn running_as_root() -> bool {
    croupier_sandbox::running_as_root()
}
