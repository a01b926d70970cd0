//! Hostile bots through the whole worker: each is compiled, sandboxed and played in its
//! validation game; its misbehaviour is recorded as the right end state on the submission, the
//! worker goes on to the next job (a correct bot uploaded after it becomes `ready`), and no
//! process of the sandbox's uids survives.

mod common;

use std::time::Duration;

use common::*;
use croupier_store::PgPool;

/// Runs `prelude` (Python, at the top of an otherwise correct bot) in a validation game and
/// returns the submission's `(status, failure_reason)`; checks the worker carried on and left
/// nothing running.
async fn validate(pool: &PgPool, prelude: &str) -> (SubmissionStatus, String) {
    let (worker, _scratch, base) = worker_and_uids(pool, |cfg| {
        cfg.validation.join_time = Duration::from_secs(3);
        cfg.validation.move_time = Duration::from_secs(2);
    })
    .await;
    let hostile = format!("{prelude}\n{}", python_bot(0.0));
    let bad = upload(
        pool,
        team(pool, "mallory").await,
        Language::Python3,
        "bot.py",
        &hostile,
    )
    .await;
    let good = upload(
        pool,
        team(pool, "alice").await,
        Language::Python3,
        "bot.py",
        &python_bot(0.0),
    )
    .await;

    assert_eq!(drain(&worker).await, 2, "both compile jobs ran");

    assert_eq!(
        submission(pool, good).await.status,
        SubmissionStatus::Ready,
        "the worker kept working after the hostile bot"
    );
    for uid in base..base + SLOTS {
        let left = std::process::Command::new("pgrep")
            .args(["-u", &uid.to_string()])
            .output()
            .unwrap();
        assert!(
            left.stdout.is_empty(),
            "processes of uid {uid} survived: {}",
            String::from_utf8_lossy(&left.stdout)
        );
    }
    let s = submission(pool, bad).await;
    (s.status, s.failure_reason.unwrap_or_default())
}

fn assert_failed_with(result: (SubmissionStatus, String), end_state: &str) {
    assert_eq!(result.0, SubmissionStatus::Failed, "{result:?}");
    assert!(
        result
            .1
            .starts_with(&format!("validation game: {end_state}")),
        "expected {end_state}: {result:?}"
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_infinite_loop_is_a_time_limit(pool: PgPool) {
    assert_failed_with(validate(&pool, "while True:\n    pass").await, "time_limit");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_2_gib_allocation_is_a_memory_limit(pool: PgPool) {
    let prelude = "hog = bytearray(2 << 30)\nfor i in range(0, len(hog), 4096):\n    hog[i] = 1";
    assert_failed_with(validate(&pool, prelude).await, "memory_limit");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_fork_bomb_is_contained_and_leaves_nothing_behind(pool: PgPool) {
    let prelude =
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass";
    let (status, reason) = validate(&pool, prelude).await;
    assert_eq!(status, SubmissionStatus::Failed);
    assert!(
        reason.starts_with("validation game: time_limit")
            || reason.starts_with("validation game: crashed"),
        "{reason}"
    );
}

/// Python ignores SIGXFSZ, so the file-size cap reaches it as `OSError: File too large` and
/// the bot dies of the exception (`crashed`, the message in its log); a C bot gets SIGXFSZ and
/// `output_limit` (see the sandbox's tests). Either way nothing past the cap is written.
#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_10_gib_write_is_stopped_at_the_file_size_cap(pool: PgPool) {
    let prelude = "with open('/tmp/fill', 'wb') as f:\n    for _ in range(10 * 1024):\n        f.write(b'x' * (1 << 20))";
    let (status, reason) = validate(&pool, prelude).await;
    assert_eq!(status, SubmissionStatus::Failed);
    assert!(
        reason.starts_with("validation game: output_limit")
            || reason.starts_with("validation game: crashed"),
        "{reason}"
    );
    let log: String =
        sqlx::query_scalar("select compile_log from submission where status = 'failed'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(
        reason.starts_with("validation game: output_limit")
            || log.contains("File too large")
            || log.contains("No space left"),
        "the log says why: {log}"
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn flooding_stdout_is_an_output_limit(pool: PgPool) {
    let prelude = "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)";
    assert_failed_with(validate(&pool, prelude).await, "output_limit");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn garbage_json_is_invalid_output(pool: PgPool) {
    let prelude = "import socket\ns = socket.create_connection(('127.0.0.1', 1000))\ns.sendall(b'{this is not json\\n')\nimport time\ntime.sleep(5)";
    assert_failed_with(validate(&pool, prelude).await, "invalid_output");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_bot_that_exits_at_once_has_crashed(pool: PgPool) {
    assert_failed_with(validate(&pool, "import sys\nsys.exit(0)").await, "crashed");
}

/// The bot exits 42 if it can reach PostgreSQL on the host; blocked, it plays normally.
#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_bot_cannot_reach_the_database_port(pool: PgPool) {
    let prelude = "import socket, sys\ntry:\n    socket.create_connection(('127.0.0.1', 5432), timeout=1)\n    sys.exit(42)\nexcept OSError:\n    pass";
    assert_eq!(validate(&pool, prelude).await.0, SubmissionStatus::Ready);
}

/// The bot exits 42 if it can read secrets or other teams' files; blocked, it plays normally.
#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_bot_cannot_read_other_teams_files_or_host_secrets(pool: PgPool) {
    let prelude = r#"import os, sys
for path in ['/etc/shadow', '/root', '/work', '/tmp/croupier-worker-tests', '/proc/1/environ']:
    try:
        if os.path.isdir(path):
            if os.listdir(path):
                sys.exit(42)
        else:
            open(path, 'rb').read(1)
            sys.exit(42)
    except OSError:
        pass
for top in os.listdir('/'):
    if top in ('proc', 'sys', 'dev', 'usr', 'bot', 'etc', 'tmp', 'lib', 'lib64', 'bin', 'sbin'):
        continue
    for root, dirs, files in os.walk('/' + top):
        if any(f.endswith(('.py', '.c')) for f in files):
            sys.exit(42)"#;
    assert_eq!(validate(&pool, prelude).await.0, SubmissionStatus::Ready);
}

/// The child keeps sleeping after the bot's game; the sandbox kills it with the match.
#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_child_left_running_is_killed_with_the_match(pool: PgPool) {
    let prelude = "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(1000)\n    os._exit(0)";
    assert_eq!(validate(&pool, prelude).await.0, SubmissionStatus::Ready);
}
