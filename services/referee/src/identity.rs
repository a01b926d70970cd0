//! Which seat opened a connection, when the sandbox can tell.
//!
//! Bots claim a seat by player name, and names may be guessable (team names), so a hostile bot
//! could connect first under an opponent's name and play its seat. In the isolated sandbox every
//! seat runs as its own slot uid, and the kernel records the uid that created each socket; the
//! match's `/proc/<pid>/net/tcp` (read through any process inside the match namespace) gives the
//! uid of the client end of a connection. A claim is accepted only from the seat's own uid.
//! In mode `none` every bot has the worker's uid and names alone decide.

use std::net::{IpAddr, SocketAddr};

/// The uid that owns the client socket `peer` connected to `local`, read through a process
/// running as one of `uids` (all inside the match's network namespace). `None` if unknown.
pub(crate) fn socket_uid(uids: &[u32], peer: SocketAddr, local: SocketAddr) -> Option<u32> {
    if uids.is_empty() {
        return None;
    }
    lookup(processes_of(uids), peer, local)
}

/// [`socket_uid`] through the network namespaces of `pids`.
fn lookup(pids: Vec<u32>, peer: SocketAddr, local: SocketAddr) -> Option<u32> {
    let (peer, local) = (hex_addr(peer)?, hex_addr(local)?);
    for pid in pids {
        let Ok(table) = std::fs::read_to_string(format!("/proc/{pid}/net/tcp")) else {
            continue;
        };
        for line in table.lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            if let (Some(l), Some(r), Some(uid)) = (f.get(1), f.get(2), f.get(7)) {
                if l.eq_ignore_ascii_case(&peer) && r.eq_ignore_ascii_case(&local) {
                    return uid.parse().ok();
                }
            }
        }
    }
    None
}

/// `/proc/net/tcp`'s form of an IPv4 address: the address as a native-endian u32 and the
/// port, both in upper-case hex.
fn hex_addr(addr: SocketAddr) -> Option<String> {
    match addr.ip() {
        IpAddr::V4(ip) => Some(format!(
            "{:08X}:{:04X}",
            u32::from_ne_bytes(ip.octets()),
            addr.port()
        )),
        IpAddr::V6(_) => None,
    }
}

/// Pids whose real uid is one of `uids` (a few are enough).
fn processes_of(uids: &[u32]) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in dir.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let uid = status
            .lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|v| v.split_whitespace().next()?.parse::<u32>().ok());
        if uid.is_some_and(|u| uids.contains(&u)) {
            found.push(pid);
            if found.len() >= 4 {
                break;
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_written_as_proc_net_tcp_writes_them() {
        let addr: SocketAddr = "127.0.0.1:2004".parse().unwrap();
        let expected = if cfg!(target_endian = "little") {
            "0100007F:07D4"
        } else {
            "7F000001:07D4"
        };
        assert_eq!(hex_addr(addr).as_deref(), Some(expected));
    }

    #[test]
    fn our_own_test_connection_is_found_with_our_uid() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let me = std::process::id();
        let uid = lookup(
            vec![me],
            client.local_addr().unwrap(),
            listener.local_addr().unwrap(),
        );
        assert_eq!(uid, Some(own_uid()));
        assert!(socket_uid(
            &[],
            client.local_addr().unwrap(),
            listener.local_addr().unwrap()
        )
        .is_none());
    }

    fn own_uid() -> u32 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("Uid:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }
}
