//! A sixth game is one module and one registry line (`docs/adding-a-game.md`). This file is
//! that module for a tiny game, two-player Nim, and proves it: registered from here, touching
//! nothing else in the repository, it passes the engines' conformance test, plays in
//! `croupier play` (real sandbox, Croupier's JSON-per-move protocol), and is hosted — uploaded
//! over the HTTP API, compiled and validated by a worker, scheduled as a round-robin and ranked
//! on the leaderboard.

use std::fmt;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Parser;
use croupier_games::conformance::{dyn_random_playouts, random_playouts, Playouts};
use croupier_games::leaderboard::{Format, Leaderboard};
use croupier_games::registry::{self, GameDef};
use croupier_games::{
    Game, GameId, GameRng, GameSettings, IllegalAction, Outcome, ScoreOrder, Seat, SettingsError,
    Turn, Viewer,
};
use croupier_server::{AppState, ServerConfig};
use croupier_store::PgPool;
use croupier_worker::{Step, Worker, WorkerConfig};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

// ---------------------------------------------------------------------------------------------
// The game module: rules, settings, the registry entry.
// ---------------------------------------------------------------------------------------------

/// Nim: heaps of counters; a move takes one or more from one heap; who takes the last wins.
#[derive(Debug, Clone, PartialEq)]
struct Nim {
    settings: NimSettings,
    heaps: Vec<u32>,
    to_act: usize,
    /// The seat that took the last counter.
    winner: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct NimSettings {
    /// How many heaps.
    heaps: usize,
    /// Each heap holds 1 to `max_heap` counters, drawn from the seed.
    max_heap: u32,
}

impl GameSettings for NimSettings {
    const GAME: GameId = GameId::of(&NIM);

    fn preset(rules: &str) -> Option<Self> {
        (rules == "standard").then_some(NimSettings {
            heaps: 3,
            max_heap: 7,
        })
    }

    fn validate(&self) -> Result<(), String> {
        if !(1..=8).contains(&self.heaps) || !(1..=64).contains(&self.max_heap) {
            return Err("heaps must be 1 to 8 and max_heap 1 to 64".into());
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Take {
    heap: usize,
    take: u32,
}

#[derive(Debug, Clone, Serialize)]
struct Took {
    seat: usize,
    heap: usize,
    take: u32,
}

impl fmt::Display for Took {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seat {} takes {} from heap {}",
            self.seat, self.take, self.heap
        )
    }
}

#[derive(Debug, Clone, Serialize)]
struct NimView {
    heaps: Vec<u32>,
    to_act: Option<usize>,
}

impl Game for Nim {
    const ID: GameId = GameId::of(&NIM);
    type Settings = NimSettings;
    type Action = Take;
    type Observation = NimView;
    type Event = Took;

    fn new(settings: NimSettings, seed: u64) -> Result<Self, SettingsError> {
        settings.check()?;
        let mut rng = GameRng::new(seed);
        let heaps = (0..settings.heaps)
            .map(|_| 1 + rng.below(settings.max_heap as usize) as u32)
            .collect();
        Ok(Nim {
            settings,
            heaps,
            to_act: 0,
            winner: None,
        })
    }

    fn settings(&self) -> &NimSettings {
        &self.settings
    }

    fn seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.winner {
            Some(_) => Turn::Over,
            None => Turn::Seat(Seat(self.to_act)),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Take> {
        if self.turn() != Turn::Seat(seat) {
            return Vec::new();
        }
        let heaps = self.heaps.iter().enumerate();
        heaps
            .flat_map(|(heap, &n)| (1..=n).map(move |take| Take { heap, take }))
            .collect()
    }

    fn apply(&mut self, seat: Seat, action: Take) -> Result<Vec<Took>, IllegalAction> {
        self.check_turn(seat)?;
        let Some(heap) = self.heaps.get_mut(action.heap) else {
            return Err(IllegalAction::against_rules("there is no such heap"));
        };
        if action.take == 0 || action.take > *heap {
            return Err(IllegalAction::against_rules(format!(
                "take 1 to {} from heap {}",
                *heap, action.heap
            )));
        }
        *heap -= action.take;
        if self.heaps.iter().all(|&n| n == 0) {
            self.winner = Some(seat.index());
        }
        self.to_act = 1 - seat.index();
        Ok(vec![Took {
            seat: seat.index(),
            heap: action.heap,
            take: action.take,
        }])
    }

    fn observe(&self, _viewer: Viewer) -> NimView {
        NimView {
            heaps: self.heaps.clone(),
            to_act: match self.turn() {
                Turn::Seat(s) => Some(s.index()),
                Turn::Over => None,
            },
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let winner = self.winner?;
        let scores: Vec<i64> = (0..2).map(|s| i64::from(s == winner)).collect();
        Some(Outcome::from_scores(ScoreOrder::HigherIsBetter, &scores))
    }
}

/// The registry line: Nim with the defaults (JSON per move, the random bot, 10 s per move),
/// two seats, and heads-up matches both ways round on one seed.
static NIM: GameDef = GameDef::new::<Nim>("nim", "Nim")
    .seats(2)
    .leaderboard(Leaderboard {
        formats: &[Format::CrossPlay],
        ..Leaderboard::FREE_FOR_ALL
    });

/// A perfect Nim player for Croupier's JSON-per-move protocol: leaves a zero nim-sum when it
/// can, else takes one counter.
const PERFECT_BOT: &str = r#"import json, sys
state = json.load(sys.stdin)
heaps = state["observation"]["heaps"]
x = 0
for n in heaps:
    x ^= n
move = None
if x:
    for i, n in enumerate(heaps):
        if n ^ x < n:
            move = {"heap": i, "take": n - (n ^ x)}
            break
if move is None:
    i = next(i for i, n in enumerate(heaps) if n > 0)
    move = {"heap": i, "take": 1}
print(json.dumps(move))
"#;

/// Answers with the first legal action, by index.
const FIRST_BOT: &str = "import sys\nsys.stdin.read()\nprint(0)\n";

fn register_nim() -> GameId {
    registry::register(&NIM).expect("nim registers")
}

// ---------------------------------------------------------------------------------------------
// 1. The engines' conformance test.
// ---------------------------------------------------------------------------------------------

#[test]
fn nim_passes_the_conformance_test_typed_and_through_the_dynamic_layer() {
    let nim = register_nim();
    let settings = NimSettings::parse("standard", &Value::Null).unwrap();
    let stats = random_playouts::<Nim>(&settings, &Playouts::quick());
    assert!(stats.games > 0 && stats.moves >= stats.games as usize);
    let moves = dyn_random_playouts(nim, "standard", &json!({"heaps": 4}), &Playouts::quick());
    assert!(moves > 0);
    assert!(
        GameId::all().contains(&nim),
        "listed with the built-in games"
    );
    assert_eq!("nim".parse::<GameId>(), Ok(nim));
}

// ---------------------------------------------------------------------------------------------
// 2. `croupier play`, in the real sandbox.
// ---------------------------------------------------------------------------------------------

/// Whether the tests run as root (a new file's owner is the effective uid).
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    let probe = tempfile::NamedTempFile::new().unwrap();
    probe.as_file().metadata().unwrap().uid() == 0
}

/// A bot file in a world-readable directory (the sandbox's slot uids must read it).
fn bot_file(dir: &std::path::Path, name: &str, text: &str) -> PathBuf {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    path
}

#[tokio::test(flavor = "multi_thread")]
async fn croupier_play_plays_nim_between_a_program_and_a_built_in() {
    register_nim();
    let dir = tempfile::tempdir().unwrap();
    let perfect = bot_file(dir.path(), "perfect.py", PERFECT_BOT);
    let replays = dir.path().join("replays");
    let sandbox = if is_root() { "isolated" } else { "none" };
    let bot = format!("python3 {}", perfect.display());
    let init = env!("CARGO_BIN_EXE_croupier-cli-sandbox-init");
    let first_uid = croupier_sandbox::testing::uid_range(4).to_string();
    let cli = croupier_cli::Cli::try_parse_from([
        "croupier",
        "play",
        "nim",
        "--bot",
        &bot,
        "--bot",
        "builtin:random",
        "--games",
        "6",
        "--json",
        "--replay-dir",
        replays.to_str().unwrap(),
        "--sandbox",
        sandbox,
        "--sandbox-init",
        init,
        "--sandbox-first-uid",
        &first_uid,
        "--sandbox-slots",
        "4",
    ])
    .expect("the command line parses");
    croupier_cli::execute(cli).await.expect("croupier play nim");

    let mut program_wins = 0;
    for i in 0..6 {
        let path = replays.join(format!("match-{i:04}.json"));
        let doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let replay = &doc["games"][0]["replay"];
        assert_eq!(replay["game"], "nim", "match {i}: {doc}");
        let players = doc["players"].as_array().unwrap();
        let program = players.iter().position(|p| p != "random").unwrap();
        let entries = replay["entries"].as_array().unwrap();
        let mine: Vec<&Value> = entries.iter().filter(|e| e["seat"] == program).collect();
        assert!(!mine.is_empty(), "match {i}: the program moved");
        for entry in mine {
            assert_eq!(entry["entry"], "move", "match {i}: {entry}");
            assert!(
                entry.get("forced").is_none(),
                "match {i}: its own move: {entry}"
            );
        }
        program_wins += u32::from(doc["outcome"]["seats"][program]["rank"] == 1);
    }
    // From a deal with a non-zero nim-sum the player to move wins with perfect play; the random
    // bot errs sooner or later in the others: the perfect bot loses at most the rare deal it
    // cannot save.
    assert!(program_wins >= 4, "the perfect bot won {program_wins} of 6");
}

// ---------------------------------------------------------------------------------------------
// 3. Hosted: the HTTP API, a worker, a round-robin, the leaderboard.
// ---------------------------------------------------------------------------------------------

/// Serves the web app on a free port; returns its API base URL.
async fn serve(pool: &PgPool) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let state = AppState::new(pool.clone(), ServerConfig::default());
    tokio::spawn(croupier_server::serve(
        listener,
        state,
        std::future::pending(),
    ));
    format!("http://{addr}/api/v1")
}

async fn worker(pool: &PgPool) -> (Worker, tempfile::TempDir) {
    let sandbox = croupier_sandbox::Sandbox::new(croupier_sandbox::Config {
        first_uid: croupier_sandbox::testing::uid_range(4),
        slots: 4,
        state_dir: PathBuf::from("/tmp/croupier-cli-extra-game"),
        init: PathBuf::from(env!("CARGO_BIN_EXE_croupier-cli-sandbox-init")),
        ..croupier_sandbox::Config::default()
    })
    .await
    .expect("the sandbox probe passes (run the tests as root)");
    let scratch = tempfile::tempdir().unwrap();
    std::fs::set_permissions(scratch.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let cfg = WorkerConfig::new("extra-game", scratch.path());
    (Worker::new(pool.clone(), Arc::new(sandbox), cfg), scratch)
}

/// Runs jobs until the queue is empty.
async fn drain(worker: &Worker) -> usize {
    let mut done = 0;
    while let Step::Ran(_) = worker.step().await.expect("a worker step") {
        done += 1;
    }
    done
}

const PASSWORD: &str = "plum-orbit-canyon-47";

/// Signs up `name` with a team and an API token; returns `(client, token, team_id)`.
async fn sign_up(api: &str, name: &str) -> (reqwest::Client, String, String) {
    let http = reqwest::Client::new();
    let signup = json!({"username": name, "password": PASSWORD});
    let r = http.post(format!("{api}/users")).json(&signup).send().await;
    assert_eq!(r.unwrap().status(), 201);
    let r = http
        .post(format!("{api}/tokens"))
        .json(&signup)
        .send()
        .await;
    let token: Value = r.unwrap().json().await.unwrap();
    let token = token["token"].as_str().expect("a token").to_owned();
    let team = json!({"name": format!("{name} team")});
    let r = http
        .post(format!("{api}/teams"))
        .bearer_auth(&token)
        .json(&team);
    let team: Value = r.send().await.unwrap().json().await.unwrap();
    let team_id = team["team"]["team_id"]
        .as_str()
        .expect("a team id")
        .to_owned();
    (http, token, team_id)
}

async fn upload(api: &str, (http, token, team): &(reqwest::Client, String, String), text: &str) {
    let form = reqwest::multipart::Form::new()
        .text("game", "nim")
        .text("language", "python3")
        .part(
            "file",
            reqwest::multipart::Part::bytes(text.as_bytes().to_vec()).file_name("bot.py"),
        );
    let r = http
        .post(format!("{api}/teams/{team}/submissions"))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap_or_default());
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_nim_round_robin_is_hosted_from_upload_to_leaderboard(pool: PgPool) {
    if !is_root() {
        eprintln!("skipped: the hosted sandbox needs root");
        return;
    }
    register_nim();
    let api = serve(&pool).await;
    let (worker, _scratch) = worker(&pool).await;

    let games: Value = reqwest::get(format!("{api}/games"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        games.to_string().contains("\"nim\""),
        "GET /games lists nim: {games}"
    );

    let alice = sign_up(&api, "alice").await;
    let bob = sign_up(&api, "bob").await;
    upload(&api, &alice, PERFECT_BOT).await;
    upload(&api, &bob, FIRST_BOT).await;
    assert_eq!(
        drain(&worker).await,
        2,
        "two compile jobs, each with its validation game"
    );
    let statuses: Vec<String> = sqlx::query_scalar("select status from submission")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(statuses, ["ready", "ready"]);

    let admin: uuid::Uuid =
        sqlx::query_scalar("select user_id from app_user where username = 'alice'")
            .fetch_one(&pool)
            .await
            .unwrap();
    croupier_store::users::set_admin(&pool, admin, true)
        .await
        .unwrap();
    let (http, token, _) = &alice;
    let cup = json!({"name": "Nim cup", "game": "nim", "rounds": 3, "base_seed": 11});
    let r = http
        .post(format!("{api}/admin/competitions"))
        .bearer_auth(token)
        .json(&cup)
        .send()
        .await
        .unwrap();
    let status = r.status();
    let cup: Value = r.json().await.unwrap();
    assert_eq!(status, 201, "{cup}");
    let id = cup["competition"]["competition_id"]
        .as_str()
        .expect("an id")
        .to_owned();
    assert_eq!(
        cup["matches"], 6,
        "cross-play: 2 matches (both ways round) x 3 rounds: {cup}"
    );

    let played = drain(&worker).await;
    assert_eq!(played, 6, "every match job ran once");

    let doc: Value = reqwest::get(format!("{api}/competitions/{id}/leaderboard"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let board = &doc["leaderboard"];
    let text = board.to_string();
    assert_eq!(board["matches"], 6, "{text}");
    let rows = board["rows"].as_array().expect("leaderboard rows");
    assert_eq!(rows.len(), 2, "{text}");
    assert_eq!(
        rows[0]["team_name"], "alice team",
        "the perfect bot leads: {text}"
    );
    assert_eq!(rows[0]["position"], 1, "{text}");
    assert_eq!(rows[0]["games"], 6, "{text}");
    assert_eq!(rows[0]["faults"], 0, "{text}");
    assert!(rows[0]["rating"].is_object(), "a rated game: {text}");
}
