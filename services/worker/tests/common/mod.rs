//! Shared helpers: a worker with a real sandbox (its own slot uids), a team, uploads, bots.
#![allow(dead_code)]

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use croupier_sandbox::{Config, Sandbox};
use croupier_store::submissions::{self, NewFile, NewSubmission};
use croupier_store::PgPool;
// Each test file uses some of these.
#[allow(unused_imports)]
pub use croupier_store::{
    BundleKind, EndState, JobStatus, Language, MatchStatus, SubmissionStatus,
};
use croupier_worker::{Step, Worker, WorkerConfig};
use tempfile::TempDir;
use uuid::Uuid;

/// Slot uids per test worker.
pub const SLOTS: u32 = 8;

/// A worker whose sandbox has slot uids no other test uses (tests run in parallel).
pub async fn worker(pool: &PgPool, tune: impl FnOnce(&mut WorkerConfig)) -> (Worker, TempDir) {
    let (worker, scratch, _) = worker_and_uids(pool, tune).await;
    (worker, scratch)
}

/// [`worker`], and the first of its slot uids (`uids .. uids + SLOTS`).
pub async fn worker_and_uids(
    pool: &PgPool,
    tune: impl FnOnce(&mut WorkerConfig),
) -> (Worker, TempDir, u32) {
    let base = croupier_sandbox::testing::uid_range(SLOTS);
    let _ = tracing_subscriber::fmt()
        .with_test_writer()
        .with_env_filter("info")
        .try_init();
    let sandbox = Sandbox::new(Config {
        first_uid: base,
        slots: SLOTS,
        state_dir: PathBuf::from("/tmp/croupier-worker-tests"),
        init: PathBuf::from(env!("CARGO_BIN_EXE_croupier-worker-sandbox-init")),
        ..Config::default()
    })
    .await
    .expect("the sandbox probe passes on this machine");
    let scratch = tempfile::Builder::new()
        .prefix("croupier-worker-")
        .tempdir()
        .unwrap();
    std::fs::set_permissions(scratch.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut cfg = WorkerConfig::new(format!("test-{base}"), scratch.path());
    tune(&mut cfg);
    let worker = Worker::new(pool.clone(), Arc::new(sandbox), cfg);
    (worker, scratch, base)
}

/// A user and their team; returns `(user_id, team_id)`.
pub async fn team(pool: &PgPool, name: &str) -> (Uuid, Uuid) {
    let user: Uuid = sqlx::query_scalar(
        "insert into app_user (username, password_hash) values ($1, 'x') returning user_id",
    )
    .bind(format!("{name}_owner"))
    .fetch_one(pool)
    .await
    .unwrap();
    let team: Uuid = sqlx::query_scalar(
        "insert into team (name, invite_code, created_by) values ($1, $2, $3) returning team_id",
    )
    .bind(name)
    .bind(format!("invite-{name}"))
    .bind(user)
    .fetch_one(pool)
    .await
    .unwrap();
    (user, team)
}

/// Uploads one file as a No Thanks bot; returns the submission id (a compile job is queued).
pub async fn upload(
    pool: &PgPool,
    who: (Uuid, Uuid),
    language: Language,
    filename: &str,
    text: &str,
) -> Uuid {
    let bot = Bot::new("nothanks", filename, text);
    upload_bot(pool, who, language, &bot).await
}

/// One file to upload as a bot of `game`, for a table (`rules`, `players`: empty and `None`
/// are the game's defaults) and with an entry point.
pub struct Bot<'a> {
    pub game: &'a str,
    pub rules: &'a str,
    pub players: Option<i32>,
    pub entry: &'a str,
    pub filename: &'a str,
    pub text: &'a str,
}

impl<'a> Bot<'a> {
    pub fn new(game: &'a str, filename: &'a str, text: &'a str) -> Self {
        Bot {
            game,
            rules: "",
            players: None,
            entry: "",
            filename,
            text,
        }
    }
}

/// Uploads `bot`; returns the submission id (a compile job is queued).
pub async fn upload_bot(
    pool: &PgPool,
    who: (Uuid, Uuid),
    language: Language,
    bot: &Bot<'_>,
) -> Uuid {
    let files = vec![NewFile {
        path: bot.filename.into(),
        size: bot.text.len() as u64,
        executable: false,
    }];
    let upload = (BundleKind::File, bot.text.as_bytes());
    submit(pool, who, bot, language, upload, files).await
}

/// Uploads the folder `tests/data/<folder>` as a `.tar.gz` bot of `game`; returns the
/// submission id.
pub async fn upload_folder(
    pool: &PgPool,
    who: (Uuid, Uuid),
    game: &str,
    language: Language,
    folder: &str,
) -> Uuid {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(folder);
    let mut paths = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                paths.push(path);
            }
        }
    }
    paths.sort();
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    ));
    let mut files = Vec::new();
    for path in paths {
        let name = path
            .strip_prefix(&root)
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        tar.append_path_with_name(&path, &name).unwrap();
        files.push(NewFile {
            size: std::fs::metadata(&path).unwrap().len(),
            path: name,
            executable: false,
        });
    }
    let bytes = tar.into_inner().unwrap().finish().unwrap();
    let filename = format!("{folder}.tar.gz");
    let bot = Bot::new(game, &filename, "");
    submit(
        pool,
        who,
        &bot,
        language,
        (BundleKind::TarGz, &bytes),
        files,
    )
    .await
}

/// Stores an upload `(kind, bytes)` of `files` as the team's new submission, named and for the
/// table `bot` says.
async fn submit(
    pool: &PgPool,
    (user, team): (Uuid, Uuid),
    bot: &Bot<'_>,
    language: Language,
    (bundle_kind, bytes): (BundleKind, &[u8]),
    files: Vec<NewFile>,
) -> Uuid {
    let new = NewSubmission {
        team_id: team,
        game: bot.game,
        language,
        label: "",
        filename: bot.filename,
        entry: bot.entry,
        bundle_kind,
        bytes,
        unpacked_size: files.iter().map(|f| f.size).sum(),
        files,
        submitted_by: user,
        rules: bot.rules,
        players: bot.players,
    };
    submissions::create(pool, &new).await.unwrap().submission_id
}

/// Runs steps until the queue is empty; returns how many jobs ran.
pub async fn drain(worker: &Worker) -> usize {
    let mut ran = 0;
    while let Step::Ran(_) = worker.step().await.unwrap() {
        ran += 1;
    }
    ran
}

pub async fn submission(pool: &PgPool, id: Uuid) -> submissions::Submission {
    submissions::get(pool, id).await.unwrap()
}

/// The submission, checked `ready` (else the test fails with its failure reason and log).
pub fn assert_ready(s: &submissions::Submission) {
    assert_eq!(
        s.status,
        SubmissionStatus::Ready,
        "{:?}\n{}",
        s.failure_reason,
        s.compile_log
    );
}

/// Polls until `sql` (one bool) is true, for at most a minute.
pub async fn until(pool: &PgPool, sql: &str, id: Uuid) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !sqlx::query_scalar::<_, bool>(sql)
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap()
    {
        assert!(Instant::now() < deadline, "timed out waiting for: {sql}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A correct No Thanks bot: reads room and name from stdin, joins on 127.0.0.1:1000, takes a
/// card when it carries enough coins. `delay` seconds of sleep first.
pub fn python_bot(delay: f32) -> String {
    format!(
        r#"import json, socket, sys, time
time.sleep({delay})
room = sys.stdin.readline().strip()
name = sys.stdin.readline().strip()
sock = socket.create_connection(("127.0.0.1", 1000))
f = sock.makefile("rw")
def send(kind, payload):
    f.write(json.dumps({{"type": kind, "payload": payload}}) + "\n")
    f.flush()
for line in f:
    msg = json.loads(line)
    kind, p = msg["type"], msg["payload"]
    if kind == "request_room_name_and_role":
        send("reply_room_name_and_role", {{"room_name": room, "role": "player", "player_name": name}})
    elif kind == "request_action":
        field = p["game_status"]["fieldinfo"]
        take = "pass" not in p["action_types"] or field["fieldcoins"] * 3 >= field["fieldcard"]
        send("reply_action", {{"action_type": "pick" if take else "pass"}})
    elif kind == "notice_end":
        break
"#
    )
}

/// A correct No Thanks bot in C that always takes the card.
pub const C_BOT: &str = r#"#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void) {
    char room[256], name[256];
    if (!fgets(room, sizeof room, stdin) || !fgets(name, sizeof name, stdin)) return 1;
    room[strcspn(room, "\n")] = 0;
    name[strcspn(name, "\n")] = 0;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons(1000);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(s, (struct sockaddr *)&a, sizeof a) != 0) return 2;
    FILE *in = fdopen(s, "r"), *out = fdopen(dup(s), "w");
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, in) > 0) {
        if (strstr(line, "\"request_room_name_and_role\"")) {
            fprintf(out, "{\"type\": \"reply_room_name_and_role\", \"payload\": {\"room_name\": \"%s\", "
                         "\"role\": \"player\", \"player_name\": \"%s\"}}\n", room, name);
        } else if (strstr(line, "\"request_action\"")) {
            fprintf(out, "{\"type\": \"reply_action\", \"payload\": {\"action_type\": \"pick\"}}\n");
        } else if (strstr(line, "\"notice_end\"")) {
            break;
        }
        fflush(out);
    }
    return 0;
}
"#;
