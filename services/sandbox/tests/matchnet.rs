//! Per-match network namespaces: the match server listens on the original hard-coded port inside
//! each match's namespace, many matches at once.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::*;
use croupier_sandbox::{EndState, MatchNet, Sandbox};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;

const CLIENT: &str = r#"import socket
s = socket.create_connection(("127.0.0.1", 2004), timeout=5)
print(s.recv(100).decode().strip())
"#;

async fn play(
    sb: &Sandbox,
    name: &'static str,
    barrier: Arc<tokio::sync::Barrier>,
) -> (String, EndState) {
    let net = Arc::new(MatchNet::new().unwrap());
    let listener = TcpListener::from_std(net.listen_tcp(2004).unwrap()).unwrap();
    barrier.wait().await; // both matches listen on 2004 at the same time
    let server = tokio::spawn(async move {
        let (mut sock, _) = listener.accept().await.unwrap();
        sock.write_all(format!("{name}\n").as_bytes())
            .await
            .unwrap();
    });
    let bot = script_bot("bot.py", CLIENT);
    let mut spec = spec("python3", bot.path(), Duration::from_secs(10));
    spec.args = vec!["/bot/bot.py".into()];
    spec.net = Some(net);
    let report = sb.run(spec, Vec::new()).await;
    server.await.unwrap();
    (
        String::from_utf8_lossy(&report.stdout).trim().to_string(),
        report.end_state,
    )
}

#[tokio::test]
async fn two_matches_each_listening_on_port_2004_reach_only_their_own_bots() {
    let (sb, uids) = sandbox().await;
    let barrier = Arc::new(tokio::sync::Barrier::new(2));

    let (a, b) = tokio::join!(
        play(&sb, "match-A", barrier.clone()),
        play(&sb, "match-B", barrier)
    );

    eprintln!("match A bot read {a:?}, match B bot read {b:?}");
    assert_eq!(a, ("match-A".to_string(), EndState::Ok));
    assert_eq!(b, ("match-B".to_string(), EndState::Ok));
    assert!(
        std::net::TcpStream::connect("127.0.0.1:2004").is_err(),
        "the host's loopback is untouched"
    );
    assert_no_slot_processes(uids);
}

#[tokio::test]
async fn a_listener_can_be_bound_on_every_original_port() {
    let net = MatchNet::new().unwrap();

    let listeners: Vec<_> = [9999, 23456, 1000, 2004]
        .map(|port| net.listen_tcp(port))
        .into_iter()
        .collect();

    assert!(listeners.iter().all(Result::is_ok), "{listeners:?}");
}
