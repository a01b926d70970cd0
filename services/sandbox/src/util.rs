//! Small I/O helpers: capped pipe reading, the sandbox hosts file.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::oneshot;

/// Reads up to `cap` bytes; beyond that, signals `over` and stops, or (without `over`) discards.
pub(crate) async fn read_capped(
    pipe: Option<impl AsyncRead + Unpin>,
    cap: usize,
    mut over: Option<oneshot::Sender<()>>,
) -> Vec<u8> {
    let (mut buf, mut chunk) = (Vec::new(), vec![0u8; 64 << 10]);
    let Some(mut pipe) = pipe else { return buf };
    while let Ok(n @ 1..) = pipe.read(&mut chunk).await {
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..n.min(room)]);
        if n > room {
            if let Some(tx) = over.take() {
                let _ = tx.send(());
                break;
            }
        }
    }
    buf
}

/// What a pipe reader collected, waiting at most 2 s more once the process is gone (a
/// grandchild still holding the pipe cannot hold the report back).
pub(crate) async fn collected(reader: tokio::task::JoinHandle<Vec<u8>>) -> Vec<u8> {
    tokio::time::timeout(std::time::Duration::from_secs(2), reader)
        .await
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default()
}

pub(crate) fn write_hosts(path: &Path) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("/"));
    fs::create_dir_all(dir)?;
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755))?;
    fs::write(
        path,
        "127.0.0.1 localhost croupier\n::1 localhost ip6-localhost\n",
    )?;
    fs::set_permissions(path, fs::Permissions::from_mode(0o644))
}
