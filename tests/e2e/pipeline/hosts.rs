//! Many workers on many hosts: each `croupier work` runs in a network namespace of its own (as
//! if on its own machine), reaching nothing but PostgreSQL over TCP through a bridge. During a
//! round-robin one worker is SIGKILLed and started again and another is cut off the network in
//! the middle of a match and later put back: every match is played to the end exactly once (one
//! result per seat, none lost, none doubled), the cut-off worker's lease runs out and another
//! worker takes its match over, and the fleet shows every worker process.
//!
//! Needs root and `ip` (iproute2) and `nsenter` (util-linux), which `scripts/test` has; without
//! them the test fails in CI (`CI=true`) and is skipped with a message elsewhere.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use tokio::net::{TcpListener, UnixStream};

use super::faults::{platform, results_per_match, three_bots_and_a_competition, Platform};
use super::procs::Proc;
use crate::binary::process::croupier_bin;

const LEASE: &str = "4";
const HOSTS: usize = 3;

/// Runs `ip <args>`, panicking with its output when it fails.
fn ip(args: &[&str]) {
    let out = Command::new("ip").args(args).output().expect("run ip");
    assert!(
        out.status.success(),
        "ip {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A bridge on this machine (the "switch", holding the database's address) and one network
/// namespace per worker host, each plugged into it by a veth pair; removed when dropped.
struct Network {
    bridge: String,
    /// The bridge's address: where the hosts reach PostgreSQL.
    gateway: String,
    hosts: Vec<Host>,
}

struct Host {
    /// The network namespace (`/run/netns/<ns>`).
    ns: String,
    /// The veth end on this machine's side: pulling it down cuts the host off.
    cable: String,
}

impl Network {
    fn new(hosts: usize) -> Network {
        let id = std::process::id() % 100_000;
        let (a, b) = (id / 250 % 250, id % 250);
        let bridge = format!("crb{id}");
        let gateway = format!("10.{}.{a}.1", 200 + b % 50);
        let subnet = |n: usize| format!("10.{}.{a}.{n}", 200 + b % 50);
        ip(&["link", "add", &bridge, "type", "bridge"]);
        let mut net = Network {
            bridge: bridge.clone(),
            gateway: gateway.clone(),
            hosts: Vec::new(),
        };
        ip(&["addr", "add", &format!("{gateway}/24"), "dev", &bridge]);
        ip(&["link", "set", &bridge, "up"]);
        for i in 1..=hosts {
            let ns = format!("cr{id}-{i}");
            let cable = format!("crv{id}{i}");
            let inside = format!("crw{id}{i}");
            ip(&["netns", "add", &ns]);
            net.hosts.push(Host {
                ns: ns.clone(),
                cable: cable.clone(),
            });
            ip(&[
                "link", "add", &cable, "type", "veth", "peer", "name", &inside,
            ]);
            ip(&["link", "set", &inside, "netns", &ns]);
            ip(&["link", "set", &cable, "master", &bridge]);
            ip(&["link", "set", &cable, "up"]);
            let addr = format!("{}/24", subnet(10 + i));
            ip(&["-n", &ns, "addr", "add", &addr, "dev", &inside]);
            ip(&["-n", &ns, "link", "set", &inside, "up"]);
            ip(&["-n", &ns, "link", "set", "lo", "up"]);
        }
        net
    }

    fn cut(&self, host: usize) {
        ip(&["link", "set", &self.hosts[host].cable, "down"]);
    }

    fn mend(&self, host: usize) {
        ip(&["link", "set", &self.hosts[host].cable, "up"]);
    }
}

impl Drop for Network {
    fn drop(&mut self) {
        for h in &self.hosts {
            let _ = Command::new("ip").args(["link", "del", &h.cable]).status();
            let _ = Command::new("ip").args(["netns", "del", &h.ns]).status();
        }
        let _ = Command::new("ip")
            .args(["link", "del", &self.bridge])
            .status();
    }
}

/// Whether this machine can make network namespaces (root, `ip`, `nsenter`): `false` with the
/// reason printed outside CI, a panic in CI.
fn hosts_or_skip() -> bool {
    let probe = format!("crprobe{}", std::process::id() % 100_000);
    let ok = nix::unistd::Uid::effective().is_root()
        && Command::new("nsenter").arg("--version").output().is_ok()
        && Command::new("ip")
            .args(["netns", "add", &probe])
            .status()
            .is_ok_and(|s| s.success());
    let _ = Command::new("ip").args(["netns", "del", &probe]).status();
    if !ok {
        let why = "the multi-host test needs root, ip (iproute2) and nsenter (util-linux)";
        assert!(!std::env::var("CI").is_ok_and(|v| v == "true"), "{why}");
        eprintln!("SKIPPED: {why}");
    }
    ok
}

/// PostgreSQL over TCP on `addr`: each connection is passed to the private server's unix
/// socket (it listens on no TCP address of its own). Returns the port.
async fn postgres_over_tcp(db_url: &str, addr: &str) -> u16 {
    let query = db_url.split_once('?').expect("socket url").1;
    let dir = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("host="))
        .expect("host=");
    let dir = dir.replace("%2F", "/");
    let port = db_url
        .split_once("@localhost:")
        .and_then(|(_, rest)| rest.split('/').next())
        .expect("port");
    let socket = Path::new(&dir).join(format!(".s.PGSQL.{port}"));
    let listener = TcpListener::bind((addr, 0)).await.expect("bind");
    let local = listener.local_addr().expect("addr").port();
    tokio::spawn(async move {
        while let Ok((mut tcp, _)) = listener.accept().await {
            let socket = socket.clone();
            tokio::spawn(async move {
                if let Ok(mut unix) = UnixStream::connect(&socket).await {
                    let _ = tokio::io::copy_bidirectional(&mut tcp, &mut unix).await;
                }
            });
        }
    });
    local
}

/// `croupier work` on `host`, reaching PostgreSQL at `url`.
async fn worker_on(net: &Network, host: usize, url: &str, log: &Path) -> Proc {
    let bin = croupier_bin();
    let ns = format!("--net=/run/netns/{}", net.hosts[host].ns);
    let args = [
        ns.as_str(),
        "--",
        bin.to_str().expect("utf-8"),
        "work",
        "--workers",
        "1",
        "--lease-secs",
        LEASE,
    ];
    Proc::start_program("nsenter", &args, &[("DATABASE_URL", url)], log, None).await
}

/// Waits (at most 2 minutes) for `workers[host]` to be playing a match and returns it; fails
/// showing every host's log.
async fn wait_playing(p: &Platform, workers: &[Proc], host: usize) -> uuid::Uuid {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        if let Some(id) = playing(p, &workers[host]).await {
            return id;
        }
        if tokio::time::Instant::now() > deadline {
            let logs: Vec<String> = workers
                .iter()
                .enumerate()
                .map(|(i, w)| format!("--- host {i}:\n{}", w.log_text()))
                .collect();
            panic!(
                "host {host} played nothing in 2 minutes\n{}",
                logs.join("\n")
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The match a worker process (by pid) is playing right now, if any.
async fn playing(p: &Platform, worker: &Proc) -> Option<uuid::Uuid> {
    let pattern = format!("%-{}-%", worker.pid());
    sqlx::query_scalar(
        "select match_id from job where status = 'running' and kind = 'match' and worker_id like $1",
    )
    .bind(pattern)
    .fetch_optional(&p.pool)
    .await
    .expect("query")
}

#[tokio::test(flavor = "multi_thread")]
async fn workers_on_three_hosts_survive_a_kill_and_a_network_cut_and_play_every_match_once() {
    if !hosts_or_skip() {
        return;
    }
    // Arrange: PostgreSQL and the web server on this machine; three worker hosts that reach
    // PostgreSQL only over the bridge; three ready bots; a 4-round round-robin (12 matches).
    let dir = super::procs::scratch();
    let p = platform(dir.path()).await;
    let net = Network::new(HOSTS);
    let port = postgres_over_tcp(&p.db_url, &net.gateway).await;
    let user = p
        .db_url
        .strip_prefix("postgresql://")
        .and_then(|r| r.split('@').next())
        .expect("user");
    let url = format!(
        "postgresql://{user}@{}:{port}/croupier?sslmode=disable",
        net.gateway
    );
    let mut workers = Vec::new();
    for h in 0..HOSTS {
        workers.push(worker_on(&net, h, &url, &dir.path().join(format!("host-{h}.log"))).await);
    }
    let (admin, competition_id) = three_bots_and_a_competition(&p, 4).await;

    // Act 1: host 0's worker dies in the middle of a match and is started again.
    let killed = wait_playing(&p, &workers, 0).await;
    let first = workers.remove(0);
    first.kill_hard().await;
    workers.insert(
        0,
        worker_on(&net, 0, &url, &dir.path().join("host-0-again.log")).await,
    );

    // Act 2: host 1 is cut off the network in the middle of a match, for longer than a lease.
    let cut_off = wait_playing(&p, &workers, 1).await;
    net.cut(1);
    tokio::time::sleep(Duration::from_secs(12)).await;
    net.mend(1);
    let board = admin
        .wait_finished(&competition_id, Duration::from_secs(300))
        .await;

    // Assert: every match finished once with one result per seat; the two interrupted
    // matches were played again, by a worker that could reach the database.
    let per_match = results_per_match(&p.pool).await;
    assert_eq!(per_match, vec![("finished".to_owned(), 3); 12], "{board:#}");
    for row in board["leaderboard"]["rows"].as_array().expect("rows") {
        assert_eq!(row["games"], 12, "{row:#}");
    }
    for (what, id) in [("killed", killed), ("cut-off", cut_off)] {
        let (attempt, done_by): (i32, String) = sqlx::query_as(
            "select attempt, worker_id from job where match_id = $1 and status = 'done'",
        )
        .bind(id)
        .fetch_one(&p.pool)
        .await
        .expect("the interrupted match's job is done");
        assert!(attempt >= 2, "the {what} match was not retried ({attempt})");
        assert!(!done_by.is_empty(), "the {what} match has no worker");
    }
    // Matches and results were spread over the hosts, and the fleet knows every process.
    // Each process shows as its worker loops and, beside them, its lane of tables with people.
    let (loops, lanes): (i64, i64) = sqlx::query_as(
        "select count(*) filter (where worker_id not like '%-tables'),
                count(*) filter (where worker_id like '%-tables') from worker",
    )
    .fetch_one(&p.pool)
    .await
    .expect("fleet");
    assert_eq!(loops, HOSTS as i64 + 1, "three hosts, one worker restarted");
    assert_eq!(
        lanes,
        HOSTS as i64 + 1,
        "each process has its lane of tables"
    );
    let players: i64 = sqlx::query_scalar(
        "select count(distinct worker_id) from job where kind = 'match' and status = 'done'",
    )
    .fetch_one(&p.pool)
    .await
    .expect("players");
    assert!(players >= 2, "one worker played every match");
    // The cut-off worker noticed by itself: its lease went unrenewed and it dropped the match.
    let cut_log = workers[1].log_text();
    assert!(
        cut_log.contains("dropping the job"),
        "host 1 did not drop its match:\n{cut_log}"
    );
    drop(workers);
    drop(p.serve);
}
