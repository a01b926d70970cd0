//! Socket diagnostics (`NETLINK_SOCK_DIAG`) inside a match's network namespace: for one TCP
//! connection, the uid that created its client socket and the bytes waiting unread in that
//! socket's receive queue — one exact kernel lookup, no scan of `/proc`.
//!
//! The uid identifies which seat opened a connection (every seat runs as its own slot uid in
//! the isolated sandbox); the receive queue tells when a client has read what the server sent
//! (the websocket handshake's 101 response), so that the first frame never arrives in the same
//! read as the handshake (ws4py clients crash on that).
//!
//! Request and answer are the kernel's `inet_diag_req_v2` and `inet_diag_msg`
//! (`linux/inet_diag.h`), written and read by hand as bytes: the lookup names both ends of the
//! connection, with no cookie.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::Mutex;

use croupier_sandbox::MatchNet;
use nix::sys::socket::{
    recv, sendto, socket, AddressFamily, MsgFlags, NetlinkAddr, SockFlag, SockProtocol, SockType,
};

const SOCK_DIAG_BY_FAMILY: u16 = 20;
const NLM_F_REQUEST: u16 = 1;
const NLMSG_ERROR: u16 = 2;
const NLMSG_HDR: usize = 16;
const AF_INET: u8 = 2;
const IPPROTO_TCP: u8 = 6;
/// Every TCP state.
const ALL_STATES: u32 = !0;

/// What the kernel says about the client end of one connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ClientSocket {
    /// The uid that created the socket.
    pub uid: u32,
    /// Bytes received and not yet read by the client.
    pub unread: u32,
    pub inode: u32,
}

/// A netlink socket for lookups in one network namespace.
#[derive(Debug)]
pub(crate) struct SockDiag {
    fd: Mutex<OwnedFd>,
}

impl SockDiag {
    /// Opens the lookup socket in `net` (or in the current namespace when `None`).
    pub fn open(net: Option<&MatchNet>) -> io::Result<Self> {
        let fd = match net {
            Some(net) => net.inside(open_socket)?,
            None => open_socket()?,
        };
        Ok(Self { fd: Mutex::new(fd) })
    }

    /// The client socket connected from `client` to `server` (IPv4 only); `Ok(None)` if the
    /// kernel knows no such connection.
    pub fn client(
        &self,
        client: SocketAddr,
        server: SocketAddr,
    ) -> io::Result<Option<ClientSocket>> {
        let request = request(client, server)
            .ok_or_else(|| io::Error::other("socket diagnostics cover IPv4 connections only"))?;
        let fd = self.fd.lock().map_err(|_| io::Error::other("poisoned"))?;
        sendto(
            fd.as_raw_fd(),
            &request,
            &NetlinkAddr::new(0, 0),
            MsgFlags::empty(),
        )?;
        let mut buf = [0_u8; 512];
        let n = recv(fd.as_raw_fd(), &mut buf, MsgFlags::empty())?;
        parse(&buf[..n])
    }
}

fn open_socket() -> io::Result<OwnedFd> {
    Ok(socket(
        AddressFamily::Netlink,
        SockType::Datagram,
        SockFlag::SOCK_CLOEXEC,
        SockProtocol::NetlinkSockDiag,
    )?)
}

/// The 48-byte `inet_diag_sockid` of a connection seen from `src`'s socket.
fn sockid(src: SocketAddr, dst: SocketAddr) -> Option<[u8; 48]> {
    let (IpAddr::V4(s), IpAddr::V4(d)) = (src.ip(), dst.ip()) else {
        return None;
    };
    let mut id = [0_u8; 48];
    id[0..2].copy_from_slice(&src.port().to_be_bytes());
    id[2..4].copy_from_slice(&dst.port().to_be_bytes());
    id[4..8].copy_from_slice(&s.octets());
    id[20..24].copy_from_slice(&d.octets());
    // interface 0 (any); cookie INET_DIAG_NOCOOKIE (all ones): no cookie check.
    id[40..48].fill(0xff);
    Some(id)
}

fn request(client: SocketAddr, server: SocketAddr) -> Option<Vec<u8>> {
    let id = sockid(client, server)?;
    let len = NLMSG_HDR + 8 + id.len();
    let mut msg = Vec::with_capacity(len);
    msg.extend_from_slice(&u32::try_from(len).ok()?.to_ne_bytes());
    msg.extend_from_slice(&SOCK_DIAG_BY_FAMILY.to_ne_bytes());
    msg.extend_from_slice(&NLM_F_REQUEST.to_ne_bytes());
    msg.extend_from_slice(&1_u32.to_ne_bytes()); // sequence
    msg.extend_from_slice(&0_u32.to_ne_bytes()); // port id: the kernel fills it in
    msg.extend_from_slice(&[AF_INET, IPPROTO_TCP, 0, 0]);
    msg.extend_from_slice(&ALL_STATES.to_ne_bytes());
    msg.extend_from_slice(&id);
    Some(msg)
}

fn u32_at(buf: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_ne_bytes(buf.get(at..at + 4)?.try_into().ok()?))
}

/// Reads the kernel's answer: an `inet_diag_msg`, or an error (`ENOENT`: no such socket).
fn parse(buf: &[u8]) -> io::Result<Option<ClientSocket>> {
    let short = || io::Error::other("short socket diagnostics answer");
    let kind = buf
        .get(4..6)
        .map(|b| u16::from_ne_bytes([b[0], b[1]]))
        .ok_or_else(short)?;
    let body = &buf[NLMSG_HDR.min(buf.len())..];
    if kind == NLMSG_ERROR {
        let errno = u32_at(body, 0).ok_or_else(short)? as i32;
        return match -errno {
            0 => Err(short()),
            e if e == nix::libc::ENOENT => Ok(None),
            e => Err(io::Error::from_raw_os_error(e)),
        };
    }
    if kind != SOCK_DIAG_BY_FAMILY {
        return Err(io::Error::other(format!(
            "unexpected socket diagnostics message type {kind}"
        )));
    }
    // family, state, timer, retrans (4), sockid (48), expires, rqueue, wqueue, uid, inode.
    Ok(Some(ClientSocket {
        unread: u32_at(body, 56).ok_or_else(short)?,
        uid: u32_at(body, 64).ok_or_else(short)?,
        inode: u32_at(body, 68).ok_or_else(short)?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::os::unix::fs::MetadataExt;

    #[test]
    fn a_connection_of_ours_shows_our_uid_and_its_unread_bytes() {
        let diag = SockDiag::open(None).unwrap();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let server = listener.local_addr().unwrap();
        let mut client = std::net::TcpStream::connect(server).unwrap();
        let (mut accepted, _) = listener.accept().unwrap();
        let me = std::fs::metadata("/proc/self").unwrap().uid();

        let found = diag.client(client.local_addr().unwrap(), server).unwrap();
        assert_eq!(found.map(|c| (c.uid, c.unread)), Some((me, 0)));
        accepted
            .write_all(b"HTTP/1.1 101 Switching Protocols\r\n\r\n")
            .unwrap();
        let from = client.local_addr().unwrap();
        let unread = || diag.client(from, server).unwrap().unwrap().unread;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while unread() != 36 && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!(unread(), 36);
        let mut buf = [0_u8; 36];
        client.read_exact(&mut buf).unwrap();
        assert_eq!(unread(), 0);

        let nobody: SocketAddr = "127.0.0.1:1".parse().unwrap();
        assert_eq!(diag.client(nobody, server).unwrap(), None);
    }
}
