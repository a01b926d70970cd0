//! End-to-end tests against the machine's real PostgreSQL server programs.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use croupier_pgcluster::{find_server_binaries, Cluster, ClusterError, ClusterOptions};
use sqlx::{Connection, PgConnection};
use tempfile::TempDir;

/// A fresh temp dir that the `postgres` user can enter (0755, whatever the umask), and a
/// data dir inside it.
fn data_dir() -> (TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let data = tmp.path().join("data");
    (tmp, data)
}

async fn connect(cluster: &Cluster) -> PgConnection {
    PgConnection::connect(&cluster.database_url())
        .await
        .unwrap()
}

fn server_pid_file(cluster_dir: &Path) -> PathBuf {
    cluster_dir.join("postmaster.pid")
}

#[tokio::test]
async fn a_cluster_keeps_its_data_across_a_stop_and_a_start() {
    let (_tmp, data) = data_dir();
    let started = Instant::now();
    let cluster = Cluster::start(ClusterOptions::new(&data)).await.unwrap();
    eprintln!(
        "first start (initdb + start + create database): {:?}",
        started.elapsed()
    );
    assert!(
        cluster.socket_dir().starts_with(&data),
        "{}",
        cluster.socket_dir().display()
    );
    assert!(
        cluster.database_url().contains("?host=/"),
        "{}",
        cluster.database_url()
    );
    let port = cluster.port();
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
        "the server must not listen on TCP"
    );

    let mut conn = connect(&cluster).await;
    sqlx::raw_sql("create table bots (name text primary key); insert into bots values ('alice')")
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    let stopping = Instant::now();
    cluster.stop().await.unwrap();
    eprintln!("stop: {:?}", stopping.elapsed());
    assert!(!server_pid_file(&data.join("postgres")).exists());

    let restarted = Instant::now();
    let cluster = Cluster::start(ClusterOptions::new(&data)).await.unwrap();
    eprintln!("restart: {:?}", restarted.elapsed());
    assert_eq!(cluster.port(), port, "restarts keep the port");
    let mut conn = connect(&cluster).await;
    let names: Vec<String> = sqlx::query_scalar("select name from bots")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    assert_eq!(names, ["alice"]);
    conn.close().await.unwrap();
    cluster.stop().await.unwrap();
}

#[tokio::test]
async fn two_clusters_in_different_data_dirs_run_at_the_same_time() {
    let (_tmp_a, data_a) = data_dir();
    let (_tmp_b, data_b) = data_dir();
    let mut opts_b = ClusterOptions::new(&data_b);
    opts_b.database = "other".into();
    let (a, b) = tokio::join!(
        Cluster::start(ClusterOptions::new(&data_a)),
        Cluster::start(opts_b)
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    let mut conn_a = connect(&a).await;
    let mut conn_b = connect(&b).await;
    let db_a: String = sqlx::query_scalar("select current_database()")
        .fetch_one(&mut conn_a)
        .await
        .unwrap();
    let db_b: String = sqlx::query_scalar("select current_database()")
        .fetch_one(&mut conn_b)
        .await
        .unwrap();
    assert_eq!((db_a.as_str(), db_b.as_str()), ("croupier", "other"));
    conn_a.close().await.unwrap();
    conn_b.close().await.unwrap();
    a.stop().await.unwrap();
    b.stop().await.unwrap();
}

#[tokio::test]
async fn a_second_croupier_on_the_same_data_dir_is_told_it_is_in_use() {
    let (_tmp, data) = data_dir();
    let cluster = Cluster::start(ClusterOptions::new(&data)).await.unwrap();
    let err = Cluster::start(ClusterOptions::new(&data))
        .await
        .unwrap_err();
    assert!(matches!(err, ClusterError::InUse { .. }), "{err}");
    assert!(
        err.to_string().contains("in use by another croupier"),
        "{err}"
    );
    cluster.stop().await.unwrap();
}

#[tokio::test]
async fn a_dropped_cluster_stops_its_server() {
    let (_tmp, data) = data_dir();
    let cluster = Cluster::start(ClusterOptions::new(&data)).await.unwrap();
    let pid_file = server_pid_file(cluster.cluster_dir());
    assert!(pid_file.exists());
    drop(cluster);
    assert!(!pid_file.exists(), "the server is still running");
}

#[tokio::test]
async fn a_server_left_running_by_a_dead_croupier_is_restarted() {
    let (_tmp, data) = data_dir();
    let cluster = Cluster::start(ClusterOptions::new(&data)).await.unwrap();
    let cluster_dir = cluster.cluster_dir().to_path_buf();
    cluster.stop().await.unwrap();
    // What a croupier killed with SIGKILL leaves behind: a running server, no lock.
    let mut pg_ctl = std::process::Command::new(find_server_binaries().unwrap().join("pg_ctl"));
    pg_ctl
        .args(["start", "-w", "-D"])
        .arg(&cluster_dir)
        .arg("-l")
        .arg(data.join("postgres.log"));
    if nix::unistd::Uid::effective().is_root() {
        use std::os::unix::process::CommandExt;
        let user = nix::unistd::User::from_name("postgres").unwrap().unwrap();
        pg_ctl
            .uid(user.uid.as_raw())
            .gid(user.gid.as_raw())
            .current_dir("/");
    }
    assert!(pg_ctl.output().unwrap().status.success());
    let old_pid = std::fs::read_to_string(server_pid_file(&cluster_dir)).unwrap();

    let cluster = Cluster::start(ClusterOptions::new(&data)).await.unwrap();
    let new_pid = std::fs::read_to_string(server_pid_file(&cluster_dir)).unwrap();
    assert_ne!(
        old_pid.lines().next(),
        new_pid.lines().next(),
        "the old server was restarted"
    );
    let mut conn = connect(&cluster).await;
    let one: i32 = sqlx::query_scalar("select 1")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(one, 1);
    conn.close().await.unwrap();
    cluster.stop().await.unwrap();
}

#[tokio::test]
async fn a_data_dir_too_long_for_a_socket_path_gets_its_socket_under_tmp() {
    let (tmp, _) = data_dir();
    let data = tmp.path().join("d".repeat(60)).join("e".repeat(40));
    let cluster = Cluster::start(ClusterOptions::new(&data)).await.unwrap();
    let socket_dir = cluster.socket_dir().to_path_buf();
    assert!(
        socket_dir
            .to_str()
            .unwrap()
            .starts_with("/tmp/croupier-pg-"),
        "{}",
        socket_dir.display()
    );
    let mode = std::fs::metadata(&socket_dir).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700);
    cluster.stop().await.unwrap();

    // After a reboot emptied /tmp, the same directory is made again.
    std::fs::remove_dir_all(&socket_dir).unwrap();
    let cluster = Cluster::start(ClusterOptions::new(&data)).await.unwrap();
    assert_eq!(cluster.socket_dir(), socket_dir);
    let conn = connect(&cluster).await;
    conn.close().await.unwrap();
    cluster.stop().await.unwrap();
    std::fs::remove_dir_all(&socket_dir).unwrap();
}

#[tokio::test]
async fn a_data_dir_behind_a_private_parent_is_reported_with_the_directory_to_open() {
    if !nix::unistd::Uid::effective().is_root() {
        eprintln!("skipped: only root runs the server as another user");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let data = tmp.path().join("data");
    let err = Cluster::start(ClusterOptions::new(&data))
        .await
        .unwrap_err();
    assert!(matches!(err, ClusterError::Unreachable { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains(&format!("cannot enter {}", tmp.path().display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("chmod o+x {}", tmp.path().display())),
        "{text}"
    );
    assert!(text.contains("DATABASE_URL"), "{text}");
}

#[tokio::test]
async fn a_cluster_of_another_major_version_is_refused_clearly() {
    let (_tmp, data) = data_dir();
    let cluster_dir = data.join("postgres");
    std::fs::create_dir_all(&cluster_dir).unwrap();
    std::fs::write(cluster_dir.join("PG_VERSION"), "9.6\n").unwrap();
    if nix::unistd::Uid::effective().is_root() {
        let user = nix::unistd::User::from_name("postgres").unwrap().unwrap();
        nix::unistd::chown(&cluster_dir, Some(user.uid), Some(user.gid)).unwrap();
    }
    let err = Cluster::start(ClusterOptions::new(&data))
        .await
        .unwrap_err();
    assert!(matches!(err, ClusterError::VersionMismatch { .. }), "{err}");
    assert!(
        err.to_string().contains("created by PostgreSQL 9.6"),
        "{err}"
    );
}

#[test]
fn the_server_binaries_of_postgresql_15_are_found() {
    let dir = find_server_binaries().unwrap();
    assert_eq!(dir, Path::new("/usr/lib/postgresql/15/bin"));
}

#[tokio::test]
async fn a_killed_server_is_noticed_and_restarted_with_its_committed_data() {
    // Arrange: a running cluster with a committed row
    let (_tmp, data) = data_dir();
    let mut cluster = Cluster::start(ClusterOptions::new(&data)).await.unwrap();
    assert!(cluster.is_alive());
    let mut conn = connect(&cluster).await;
    sqlx::raw_sql("create table bots (name text primary key); insert into bots values ('alice')")
        .execute(&mut conn)
        .await
        .unwrap();

    // Act: SIGKILL the postmaster, as an OOM killer would
    let pid = cluster.postmaster_pid().expect("postmaster.pid");
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::SIGKILL).unwrap();
    let deadline = Instant::now() + std::time::Duration::from_secs(10);
    while cluster.is_alive() {
        assert!(
            Instant::now() < deadline,
            "the killed server still looks alive"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    drop(conn);
    let mut tries = 0;
    loop {
        tries += 1;
        match cluster.restart().await {
            Ok(()) => break,
            Err(e) if tries < 20 => {
                eprintln!("restart {tries}: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            }
            Err(e) => panic!("no restart after {tries} tries: {e}"),
        }
    }

    // Assert: alive again, same address, the row kept
    assert!(cluster.is_alive());
    assert_ne!(cluster.postmaster_pid(), Some(pid));
    let mut conn = connect(&cluster).await;
    let names: Vec<String> = sqlx::query_scalar("select name from bots")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    assert_eq!(names, ["alice"]);
    conn.close().await.unwrap();
    cluster.stop().await.unwrap();
}
