//! The messages between the worker and a seat's zygote, one per `SOCK_SEQPACKET` datagram.
//!
//! * worker → zygote: a **request**, `run\0<cpu seconds>\0<program>\0<arg>\0…`, carrying the
//!   move's stdin, stdout and stderr as three descriptors (`SCM_RIGHTS`); or, once before the
//!   first move, `warm\0<python>\0<script>`: start the seat's warm Python ([`super::python`]);
//! * zygote → worker: `init` once it is ready, then one report line per request, in the
//!   init's report format ([`crate::init`]): `exit <code|-> <signal|-> <cpu_us> <maxrss_kb>` or
//!   `exec-error <errno> <message>`; to `warm`: `warm ready` or `warm off <why>`.
#![allow(unsafe_code)]

use std::io::{self, IoSlice, IoSliceMut};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use nix::cmsg_space;
use nix::sys::socket::{recvmsg, sendmsg, ControlMessage, ControlMessageOwned, MsgFlags};

/// The largest request (the program and its arguments) a zygote takes.
pub(crate) const MAX_REQUEST: usize = 64 << 10;

/// One move's process: what to run and its CPU backstop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Request {
    pub cpu_secs: u64,
    pub program: String,
    pub args: Vec<String>,
}

/// What the worker asks of a zygote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Message {
    Run(Request),
    /// Start a warm `python` for the requests that run `python script …`.
    Warm {
        python: String,
        script: String,
    },
}

impl Message {
    pub fn decode(bytes: &[u8]) -> Option<Self> {
        if let Some(rest) = bytes.strip_prefix(b"warm\0") {
            let text = std::str::from_utf8(rest).ok()?;
            let (python, script) = text.split_once('\0')?;
            if script.contains('\0') {
                return None;
            }
            return Some(Message::Warm {
                python: python.to_owned(),
                script: script.to_owned(),
            });
        }
        Request::decode(bytes).map(Message::Run)
    }

    /// `warm\0<python>\0<script>`; an error for a NUL byte in either.
    pub fn encode_warm(python: &str, script: &str) -> io::Result<Vec<u8>> {
        if python.contains('\0') || script.contains('\0') {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a path holds a NUL byte",
            ));
        }
        Ok(format!("warm\0{python}\0{script}").into_bytes())
    }
}

impl Request {
    pub fn encode(&self) -> io::Result<Vec<u8>> {
        let fields =
            std::iter::once(self.program.as_str()).chain(self.args.iter().map(String::as_str));
        let mut out = format!("run\0{}", self.cpu_secs).into_bytes();
        for f in fields {
            if f.contains('\0') {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "an argument holds a NUL byte",
                ));
            }
            out.push(0);
            out.extend_from_slice(f.as_bytes());
        }
        if out.len() > MAX_REQUEST {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the command line is longer than 64 KiB",
            ));
        }
        Ok(out)
    }

    pub fn decode(bytes: &[u8]) -> Option<Self> {
        let text = std::str::from_utf8(bytes).ok()?;
        let mut fields = text.split('\0');
        if fields.next()? != "run" {
            return None;
        }
        let cpu_secs = fields.next()?.parse().ok()?;
        let program = fields.next()?.to_owned();
        Some(Self {
            cpu_secs,
            program,
            args: fields.map(str::to_owned).collect(),
        })
    }
}

/// Sends one datagram with `fds` attached.
pub(crate) fn send(socket: RawFd, bytes: &[u8], fds: &[RawFd]) -> io::Result<()> {
    let iov = [IoSlice::new(bytes)];
    let rights = [ControlMessage::ScmRights(fds)];
    let cmsgs: &[ControlMessage] = if fds.is_empty() { &[] } else { &rights };
    let sent = sendmsg::<()>(socket, &iov, cmsgs, MsgFlags::MSG_NOSIGNAL, None)?;
    if sent != bytes.len() {
        return Err(io::Error::other("a short datagram"));
    }
    Ok(())
}

/// Receives one datagram into `buf` with the descriptors it carries; `None` at end of stream.
/// A truncated datagram is an error (its descriptors are closed).
pub(crate) fn recv(
    socket: &impl AsRawFd,
    buf: &mut [u8],
) -> io::Result<Option<(usize, Vec<OwnedFd>)>> {
    let mut space = cmsg_space!([RawFd; 4]);
    let mut iov = [IoSliceMut::new(buf)];
    let msg = recvmsg::<()>(
        socket.as_raw_fd(),
        &mut iov,
        Some(&mut space),
        MsgFlags::MSG_CMSG_CLOEXEC,
    )?;
    let mut fds = Vec::new();
    for c in msg.cmsgs()? {
        if let ControlMessageOwned::ScmRights(received) = c {
            // SAFETY: SCM_RIGHTS just installed these descriptors in this process; nothing
            // else owns them.
            fds.extend(
                received
                    .into_iter()
                    .map(|fd| unsafe { OwnedFd::from_raw_fd(fd) }),
            );
        }
    }
    let truncated = msg
        .flags
        .intersects(MsgFlags::MSG_TRUNC | MsgFlags::MSG_CTRUNC);
    let n = msg.bytes;
    if truncated {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "a truncated datagram",
        ));
    }
    if n == 0 && fds.is_empty() {
        return Ok(None);
    }
    Ok(Some((n, fds)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_round_trips_and_refuses_nul_bytes() {
        let r = Request {
            cpu_secs: 3,
            program: "/bot/run".into(),
            args: vec!["a b".into(), String::new(), "ü".into()],
        };
        assert_eq!(Request::decode(&r.encode().unwrap()), Some(r.clone()));
        let run = Message::Run(r.clone());
        assert_eq!(Message::decode(&r.encode().unwrap()), Some(run));
        let bad = Request {
            args: vec!["x\0y".into()],
            ..r
        };
        assert!(bad.encode().is_err());
        assert_eq!(Request::decode(b"exit 0"), None);
    }

    #[test]
    fn a_warm_message_round_trips() {
        let bytes = Message::encode_warm("/usr/bin/python3", "/bot/bot.py").unwrap();
        assert_eq!(
            Message::decode(&bytes),
            Some(Message::Warm {
                python: "/usr/bin/python3".into(),
                script: "/bot/bot.py".into()
            })
        );
        assert!(Message::encode_warm("/usr/bin/python3", "a\0b").is_err());
        assert_eq!(Message::decode(b"warm\0only"), None);
    }
}
