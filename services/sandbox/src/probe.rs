//! The startup capability probe: checks every layer and names exactly what is missing.
//!
//! Layers: bubblewrap present and runnable; the init binary present and executable by the slot
//! uids; cgroup controllers writable (memory + pids limits, a test group created and removed); the
//! slot lock directory; a network namespace with `lo` up and a listener bound in it; and one real
//! sandboxed run in a seat dir (a tmpfs mounted for it) joined to that namespace that must report
//! the slot uid with no supplementary groups, its own pid namespace, a writable `/bot`, `ok`, and
//! CPU accounting from the cgroup.

use std::os::unix::fs::PermissionsExt;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::cgroup::Cgroup;
use crate::{CgroupLayout, Config, EndState, Limits, MatchNet, Sandbox, Spec};

/// The sandbox cannot provide the configured isolation. Lists every missing layer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("sandbox unavailable: {}", missing.join("; "))]
pub struct ProbeError {
    pub missing: Vec<String>,
}

impl ProbeError {
    pub(crate) fn one(problem: String) -> Self {
        Self {
            missing: vec![problem],
        }
    }
}

/// Runs the probe for `cfg` (what [`Sandbox::new`] does before returning).
pub async fn probe(cfg: Config) -> Result<(), ProbeError> {
    Sandbox::new(cfg).await.map(drop)
}

pub(crate) async fn check(sb: &Sandbox) -> Result<(), ProbeError> {
    let cfg = &sb.cfg;
    let mut missing = Vec::new();
    match Command::new(&cfg.bwrap).arg("--version").output() {
        Ok(out) if out.status.success() => {}
        Ok(out) => missing.push(format!(
            "{} --version failed: {}",
            cfg.bwrap.display(),
            out.status
        )),
        Err(e) => missing.push(format!(
            "bubblewrap at {}: {e} (apt-get install bubblewrap)",
            cfg.bwrap.display()
        )),
    }
    match std::fs::metadata(&cfg.init) {
        Ok(m) if m.permissions().mode() & 0o005 == 0o005 => {}
        Ok(_) => missing.push(format!(
            "{} is not readable and executable by others",
            cfg.init.display()
        )),
        Err(e) => missing.push(format!("sandbox init {}: {e}", cfg.init.display())),
    }
    let layout = cfg.cgroups.clone().map_or_else(CgroupLayout::detect, Ok);
    match &layout {
        Ok(layout) => {
            static PROBES: AtomicU32 = AtomicU32::new(0);
            let n = PROBES.fetch_add(1, Ordering::Relaxed);
            let name = format!("probe-{}-{n}", std::process::id());
            match Cgroup::create(layout, &name, &Limits::default()).await {
                Ok(cg) => {
                    if let Err(e) = cg.destroy().await {
                        missing.push(format!("cgroup removal: {e}"));
                    }
                }
                Err(e) => missing.push(format!("cgroup limits not writable: {e}")),
            }
        }
        Err(e) => missing.push(e.clone()),
    }
    let net = match MatchNet::new().and_then(|n| n.listen_tcp(0).map(|_| n)) {
        Ok(n) => Some(Arc::new(n)),
        Err(e) => {
            missing.push(format!("network namespace: {e}"));
            None
        }
    };
    if missing.is_empty() {
        if let Err(e) = trial_run(sb, net).await {
            missing.push(e);
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(ProbeError { missing })
    }
}

/// One real sandboxed run of `/bin/sh` inside a match namespace.
async fn trial_run(sb: &Sandbox, net: Option<Arc<MatchNet>>) -> Result<(), String> {
    let empty = sb.cfg.state_dir.join("seats").join("empty");
    std::fs::create_dir_all(&empty).map_err(|e| format!("{}: {e}", empty.display()))?;
    let mut spec = Spec::new("/bin/sh", &empty);
    spec.args = ["-c", "id -u; id -G; echo $$; touch /bot/w && echo writable"]
        .map(String::from)
        .to_vec();
    spec.net = net;
    spec.limits.wall = Duration::from_secs(10);
    let seat = sb.seat_dir(&empty, "/bot", &spec.limits).await;
    spec.seat_dir = Some(seat.map_err(|e| format!("seat dir: {e}"))?);
    let report = sb.run(spec, Vec::new()).await;
    if report.end_state != EndState::Ok {
        return Err(format!(
            "trial sandbox run ended {:?}: {}",
            report.end_state,
            String::from_utf8_lossy(&report.stderr).trim()
        ));
    }
    let out = String::from_utf8_lossy(&report.stdout);
    let lines: Vec<&str> = out.lines().collect();
    let uid_ok = matches!(lines.as_slice(), [u, g, _, _] if u == g && u.parse::<u32>().is_ok_and(|u| u >= sb.cfg.first_uid));
    if !uid_ok {
        return Err(format!(
            "uid drop: the trial run reported uid/groups {lines:?}"
        ));
    }
    if lines[2] != "2" {
        return Err(format!(
            "pid namespace: the trial shell was pid {} instead of 2",
            lines[2]
        ));
    }
    if lines[3] != "writable" {
        return Err("seat dir: the trial run could not write to its /bot".into());
    }
    if report.cpu.is_zero() {
        return Err("CPU accounting: the trial run's cgroup reported no CPU time".into());
    }
    Ok(())
}
