//! Per-match network namespaces.
//!
//! Bots hard-code their endpoints (127.0.0.1:9999, :23456, :1000, :2004), so every match gets its own
//! network namespace with only a loopback interface. The match server never enters it: a throw-away
//! thread unshares (or joins) the namespace, binds a `std` listener there and returns it; a socket
//! stays in the namespace it was created in, so the tokio server adopts it with `from_std` and serves
//! from the normal runtime. Bots are started into the namespace by the launcher (`setns` in the
//! spawned child, see `bwrap.rs`) and can reach nothing but their own match's loopback.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::os::fd::{AsFd, BorrowedFd, FromRawFd, OwnedFd};

use nix::libc;
use nix::sched::{setns, unshare, CloneFlags};

/// A network namespace with `lo` up, kept alive by an open namespace fd.
#[derive(Debug)]
pub struct MatchNet {
    ns: File,
}

impl MatchNet {
    /// Creates a fresh namespace (about 0.5 ms). Needs CAP_SYS_ADMIN.
    pub fn new() -> io::Result<Self> {
        on_thread(|| {
            unshare(CloneFlags::CLONE_NEWNET)
                .map_err(|e| io::Error::other(format!("unshare(CLONE_NEWNET): {e}")))?;
            loopback_up()?;
            let ns = File::open("/proc/thread-self/ns/net")?;
            Ok(Self { ns })
        })
    }

    /// Binds a TCP listener on 127.0.0.1:`port` inside the namespace.
    pub fn listen_tcp(&self, port: u16) -> io::Result<TcpListener> {
        self.inside(move || {
            let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))?;
            listener.set_nonblocking(true)?; // ready for tokio::net::TcpListener::from_std
            Ok(listener)
        })
    }

    /// Runs `f` on a throw-away thread inside the namespace: the sockets it creates (a
    /// listener, a netlink socket for socket diagnostics) belong to the namespace for good.
    pub fn inside<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> io::Result<T> + Send + 'static,
    ) -> io::Result<T> {
        let ns = self.ns.try_clone()?;
        on_thread(move || {
            setns(&ns, CloneFlags::CLONE_NEWNET)
                .map_err(|e| io::Error::other(format!("setns(net): {e}")))?;
            f()
        })
    }

    /// The namespace fd, for the launcher's `setns`.
    pub(crate) fn fd(&self) -> BorrowedFd<'_> {
        self.ns.as_fd()
    }
}

/// Runs `f` on a fresh thread, so namespace changes never leak into a runtime thread.
fn on_thread<T: Send + 'static>(
    f: impl FnOnce() -> io::Result<T> + Send + 'static,
) -> io::Result<T> {
    std::thread::Builder::new()
        .name("croupier-netns".into())
        .spawn(f)?
        .join()
        .map_err(|_| io::Error::other("network namespace thread panicked"))?
}

/// `ioctl`'s request number has the C library's own type (glibc: `unsigned long`, musl: `int`,
/// for the static runner): the two requests [`loopback_up`] makes, in that type.
#[allow(clippy::unnecessary_cast)]
const SIOCGIFFLAGS: libc::Ioctl = libc::SIOCGIFFLAGS as libc::Ioctl;
#[allow(clippy::unnecessary_cast)]
const SIOCSIFFLAGS: libc::Ioctl = libc::SIOCSIFFLAGS as libc::Ioctl;

/// `ip link set lo up` with two ioctls on a throw-away socket.
fn loopback_up() -> io::Result<()> {
    // SAFETY: plain socket(2) call; the result is checked before use.
    let raw = unsafe { libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0) };
    if raw < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `raw` is a fresh, valid descriptor that nothing else owns.
    let sock = unsafe { OwnedFd::from_raw_fd(raw) };
    // SAFETY: ifreq is a plain C struct for which all-zeroes is a valid value.
    let mut req: libc::ifreq = unsafe { std::mem::zeroed() };
    for (dst, src) in req.ifr_name.iter_mut().zip(b"lo\0") {
        *dst = *src as libc::c_char;
    }
    use std::os::fd::AsRawFd;
    // SAFETY: SIOCGIFFLAGS reads the flags into `req`, which is a valid, live ifreq with a NUL-terminated name.
    if unsafe { libc::ioctl(sock.as_raw_fd(), SIOCGIFFLAGS, &mut req) } < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the union field ifru_flags is the one SIOCGIFFLAGS just filled in.
    unsafe { req.ifr_ifru.ifru_flags |= (libc::IFF_UP | libc::IFF_RUNNING) as libc::c_short };
    // SAFETY: as above; SIOCSIFFLAGS only reads `req`.
    if unsafe { libc::ioctl(sock.as_raw_fd(), SIOCSIFFLAGS, &req) } < 0 {
        return Err(io::Error::other(format!(
            "bringing lo up: {}",
            io::Error::last_os_error()
        )));
    }
    Ok(())
}
