//! `croupier bench hosted`: matches per minute through the hosted pipeline (queue → worker →
//! sandbox + referee → results) in a scratch database.

use std::os::unix::fs::PermissionsExt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use croupier_pgcluster::{Cluster, ClusterOptions};
use croupier_sandbox::Sandbox;
use croupier_store::matches::{self, NewMatch, SeatRef};
use croupier_store::submissions::{self, NewFile, NewSubmission};
use croupier_store::{BundleKind, Language, MatchStatus, PgPool, SubmissionStatus};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use uuid::Uuid;

use crate::bench::fleet::{with_database, Fleet, FleetSpec};
use crate::isolation::SandboxTuning;
use crate::settings::DbArgs;
use crate::work::{pool_size, Scratch, Workers};

pub struct Options<'a> {
    pub matches: usize,
    pub workers: usize,
    pub python: bool,
    /// A whole round-robin of this many distinct uploaded bots (as an organiser's round-robin
    /// schedules it: every triple, 3 seatings each) instead of `matches` rotations of three.
    pub entrants: Option<usize>,
    /// Run the `workers` loops as that many `croupier work` processes (one loop each), with
    /// this sandbox setting and tuning, instead of loops in this process.
    pub processes: Option<(&'a str, &'a SandboxTuning)>,
}

/// A tiny No Thanks bot: takes a card when it carries enough coins (`GREED` is set per bot, so
/// that a round-robin's entrants are distinct uploads).
const PYTHON_BOT: &str = r#"import json, socket, sys
room, name = sys.stdin.readline().strip(), sys.stdin.readline().strip()
f = socket.create_connection(("127.0.0.1", 2004)).makefile("rw")
def send(kind, payload):
    f.write(json.dumps({"type": kind, "payload": payload}) + "\n"); f.flush()
for line in f:
    msg = json.loads(line); kind, p = msg["type"], msg["payload"]
    if kind == "request_room_name_and_role":
        send("reply_room_name_and_role", {"room_name": room, "role": "player", "player_name": name})
    elif kind == "request_action":
        field = p["game_status"]["fieldinfo"]
        take = "pass" not in p["action_types"] or field["fieldcoins"] * GREED >= field["fieldcard"]
        send("reply_action", {"action_type": "pick" if take else "pass"})
    elif kind == "notice_end":
        break
"#;

/// The scratch database, dropped (or its cluster stopped) by [`ScratchDb::close`].
enum ScratchDb {
    Server { admin: PgPool, name: String },
    Cluster(Box<Cluster>, tempfile::TempDir),
}

impl ScratchDb {
    /// The scratch database: its server's handle, how to connect, and its URL.
    async fn open(db: &DbArgs) -> Result<(Self, PgConnectOptions, String)> {
        if let Some(url) = db.database_url.as_deref().filter(|u| !u.trim().is_empty()) {
            let opts = PgConnectOptions::from_str(url).context("DATABASE_URL")?;
            let admin = PgPoolOptions::new()
                .max_connections(1)
                .connect_with(opts.clone())
                .await
                .context("cannot connect to DATABASE_URL")?;
            let name = format!("croupier_bench_{}", Uuid::new_v4().simple());
            sqlx::query(&format!("create database {name}"))
                .execute(&admin)
                .await
                .context("cannot create a scratch database on the DATABASE_URL server")?;
            let opts = opts.database(&name);
            let url = with_database(url, &name);
            return Ok((ScratchDb::Server { admin, name }, opts, url));
        }
        let dir = tempfile::Builder::new()
            .prefix("croupier-bench-db-")
            .tempdir()?;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))?;
        let cluster = Cluster::start(ClusterOptions::new(dir.path().join("data")))
            .await
            .context("cannot start a private PostgreSQL (or set DATABASE_URL)")?;
        let url = cluster.database_url();
        let opts = PgConnectOptions::from_str(&url)?;
        Ok((ScratchDb::Cluster(Box::new(cluster), dir), opts, url))
    }

    async fn close(self) {
        match self {
            ScratchDb::Server { admin, name } => {
                let drop = format!("drop database if exists {name} with (force)");
                if let Err(e) = sqlx::query(&drop).execute(&admin).await {
                    eprintln!("warning: could not drop the scratch database {name}: {e}");
                }
                admin.close().await;
            }
            ScratchDb::Cluster(cluster, _dir) => {
                if let Err(e) = cluster.stop().await {
                    eprintln!("warning: stopping the private PostgreSQL: {e}");
                }
            }
        }
    }
}

pub async fn run(
    sandbox: Sandbox,
    db: &DbArgs,
    opts: Options<'_>,
    goals: &mut super::Goals,
) -> Result<()> {
    let (scratch_db, connect, url) = ScratchDb::open(db).await?;
    let measured = async {
        let pool = PgPoolOptions::new()
            .max_connections(pool_size(opts.workers) + 2)
            .connect_with(connect)
            .await?;
        croupier_store::migrate(&pool).await?;
        let fleet = opts.processes.map(|(sandbox, tuning)| FleetSpec {
            database_url: &url,
            blob_store: &db.blob_store,
            sandbox,
            tuning,
        });
        let result = measure(&pool, sandbox, &opts, fleet.as_ref(), goals).await;
        pool.close().await;
        result
    }
    .await;
    scratch_db.close().await;
    measured
}

/// The worker loops of the run: in this process, or `croupier work` processes.
enum Running {
    Loops(Workers),
    Processes(Fleet),
}

impl Running {
    async fn stop(self) {
        match self {
            Running::Loops(w) => w.stop().await,
            Running::Processes(f) => f.stop().await,
        }
    }
}

async fn measure(
    pool: &PgPool,
    sandbox: Sandbox,
    opts: &Options<'_>,
    fleet: Option<&FleetSpec<'_>>,
    goals: &mut super::Goals,
) -> Result<()> {
    let user = croupier_store::users::create(pool, "bench", None, "-", true).await?;
    let team = croupier_store::teams::create(pool, "bench", "bench-invite", user.user_id).await?;
    let workers = match fleet {
        Some(spec) => Running::Processes(Fleet::start(opts.workers, spec)?),
        None => Running::Loops(Workers::start(
            pool,
            Arc::new(sandbox),
            opts.workers,
            Scratch::new(None)?,
            |cfg| {
                cfg.poll_every = Duration::from_millis(500);
            },
        )),
    };
    let measured = async {
        let bots: Vec<SeatRef> = if opts.python {
            let mut subs = Vec::new();
            for i in 0..opts.entrants.unwrap_or(3) {
                subs.push(upload(pool, team.team_id, user.user_id, i).await?);
            }
            ready(pool, &subs).await?;
            subs.into_iter().map(SeatRef::Submission).collect()
        } else {
            ["heuristic", "random", "random"]
                .map(|b| SeatRef::Builtin(b.into()))
                .to_vec()
        };
        let competition: Uuid = sqlx::query_scalar(
            "insert into competition (name, game, rules, created_by) values ('bench', 'nothanks', 'boardcoder', $1) returning competition_id",
        )
        .bind(user.user_id)
        .fetch_one(pool)
        .await?;
        let planned = plan(&bots, opts)?;
        let before = CpuNow::read();
        let t0 = Instant::now();
        let mut tx = pool.begin().await?;
        matches::create_many(&mut tx, competition, &planned).await?;
        tx.commit().await?;
        drained(pool, Duration::from_secs(3600)).await?;
        Ok::<_, anyhow::Error>((t0.elapsed(), before, planned.len()))
    }
    .await;
    workers.stop().await;
    let (elapsed, before, matches) = measured?;
    let cpu = CpuNow::read().since(&before);
    let statuses: Vec<(MatchStatus, i64)> =
        sqlx::query_as("select status, count(*) from match group by status order by status")
            .fetch_all(pool)
            .await?;
    let mean: Option<f64> = sqlx::query_scalar(
        "select avg(extract(epoch from finished_at - started_at))::float8 from match where status = 'finished'",
    )
    .fetch_one(pool)
    .await?;
    let statuses: Vec<String> = statuses.iter().map(|(s, n)| format!("{s} {n}")).collect();
    let kind = if opts.python {
        "3 tiny python bots (sandboxed)"
    } else {
        "3 built-in bots"
    };
    let played = match opts.entrants {
        Some(n) => {
            format!("a round-robin of {n} distinct uploaded bots: {matches} No Thanks matches of 3")
        }
        None => format!("{matches} No Thanks matches of {kind}"),
    };
    let workers_were = match opts.processes {
        Some(_) => "worker processes (`croupier work`, one loop each)",
        None => "worker loops in this process",
    };
    println!("hosted: {played}, {} {workers_were}", opts.workers);
    let per_minute = matches as f64 * 60.0 / elapsed.as_secs_f64();
    println!(
        "  {per_minute:.1} matches/min  ({:.2} s until the queue drained; {}; {:.0} ms per match on a worker)",
        elapsed.as_secs_f64(),
        statuses.join(", "),
        mean.unwrap_or(0.0) * 1e3
    );
    match opts.processes {
        None => {
            let split = cpu.describe(elapsed);
            println!("  {split}");
            goals.add(format!(
                "hosted, {played}: {per_minute:.1} matches/min; {split}"
            ));
        }
        // The bots/sandboxes counters are kept by the process that ran the sandboxes.
        Some(_) => println!(
            "  CPU: {:.2} s used of {:.2} s (the split into bots, sandboxes and platform is \
             counted inside each worker: run without --processes to see it)",
            cpu.machine.as_secs_f64(),
            elapsed.as_secs_f64()
                * std::thread::available_parallelism().map_or(1, std::num::NonZero::get) as f64
        ),
    }
    Ok(())
}

/// CPU counters at one moment: the machine's busy time (`/proc/stat`), this process's own
/// (`/proc/self/stat`: the workers, referees and their database clients), and the sandboxes' split
/// ([`croupier_sandbox::cpu_split`]).
struct CpuNow {
    machine: Duration,
    process: Duration,
    sandboxes: croupier_sandbox::CpuSplit,
}

impl CpuNow {
    fn read() -> Self {
        /// `/proc` counts CPU in USER_HZ ticks, 100 per second on Linux (fixed by its ABI).
        const TICK: Duration = Duration::from_millis(10);
        let ticks = |path: &str, skip: usize, fields: &[usize]| -> u32 {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            // /proc/self/stat: after the command's closing parenthesis; /proc/stat: line one.
            let rest = text.rsplit_once(')').map_or(text.as_str(), |(_, r)| r);
            let line = rest.lines().next().unwrap_or_default();
            // Every field keeps its place (the state letter and a tpgid of -1 read as 0).
            let f: Vec<u64> = line
                .split_whitespace()
                .skip(skip)
                .map(|v| v.parse().unwrap_or(0))
                .collect();
            let sum: u64 = fields.iter().filter_map(|&i| f.get(i)).sum();
            u32::try_from(sum).unwrap_or(u32::MAX)
        };
        CpuNow {
            // user nice system idle iowait irq softirq steal: all but idle and iowait.
            machine: TICK * ticks("/proc/stat", 1, &[0, 1, 2, 5, 6, 7]),
            // state ppid … utime stime (fields 14 and 15 of the whole line).
            process: TICK * ticks("/proc/self/stat", 0, &[11, 12]),
            sandboxes: croupier_sandbox::cpu_split(),
        }
    }

    fn since(&self, earlier: &CpuNow) -> CpuNow {
        CpuNow {
            machine: self.machine.saturating_sub(earlier.machine),
            process: self.process.saturating_sub(earlier.process),
            sandboxes: self.sandboxes.since(&earlier.sandboxes),
        }
    }

    /// One line: the machine's CPU over `elapsed`, split into bots, sandboxes and the platform.
    fn describe(&self, elapsed: Duration) -> String {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let s = |d: Duration| d.as_secs_f64();
        let used = s(self.machine).max(1e-9);
        let (bots, sandboxes) = (s(self.sandboxes.bots), s(self.sandboxes.sandboxes));
        let platform = (used - bots - sandboxes).max(0.0);
        let pct = |v: f64| v * 100.0 / used;
        format!(
            "CPU: {used:.2} s used of {:.2} s ({cores} cores): bots {bots:.2} s ({:.0} %), \
             sandboxes {sandboxes:.2} s ({:.0} %), platform {platform:.2} s ({:.0} %: this \
             process {:.2} s, the rest {:.2} s incl. PostgreSQL){}",
            s(elapsed) * cores as f64,
            pct(bots),
            pct(sandboxes),
            pct(platform),
            s(self.process),
            (platform - s(self.process)).max(0.0),
            match self.sandboxes.estimated {
                0 => String::new(),
                n => format!(
                    "; {n} of {} sandboxes were killed before reporting (their cost estimated)",
                    n + self.sandboxes.measured
                ),
            }
        )
    }
}

/// The matches to queue: `matches` rotations of the three bots, or with `entrants` the
/// round-robin an organiser's competition schedules ([`croupier_league::schedule`]).
fn plan(bots: &[SeatRef], opts: &Options) -> Result<Vec<NewMatch>> {
    let game = croupier_games::GameId::NO_THANKS;
    let new = |ordinal: usize, seed: u64, seats: Vec<SeatRef>| NewMatch {
        ordinal: i32::try_from(ordinal).unwrap_or(i32::MAX),
        game: game.as_str().into(),
        rules: "boardcoder".into(),
        seed,
        settings: serde_json::json!({}),
        seats,
        duplicate_set: None,
    };
    if opts.entrants.is_none() {
        return Ok((0..opts.matches)
            .map(|i| {
                new(
                    i,
                    i as u64,
                    (0..3).map(|s| bots[(s + i) % 3].clone()).collect(),
                )
            })
            .collect());
    }
    let ids: Vec<Uuid> = bots
        .iter()
        .filter_map(|b| match b {
            SeatRef::Submission(id) => Some(*id),
            _ => None,
        })
        .collect();
    let spec = croupier_league::ScheduleSpec::new("boardcoder", 1, 0);
    let planned = croupier_league::schedule(game, &spec, &ids)?;
    Ok(planned
        .into_iter()
        .map(|m| {
            let seats = m.seats.into_iter().map(SeatRef::Submission).collect();
            new(m.ordinal as usize, m.seed, seats)
        })
        .collect())
}

/// Uploads [`PYTHON_BOT`] (the `n`-th bench bot: its own greed) as a new version; the workers
/// compile and validate it.
async fn upload(pool: &PgPool, team: Uuid, user: Uuid, n: usize) -> Result<Uuid> {
    let source = PYTHON_BOT.replace("GREED", &(2 + n % 7).to_string());
    let source = format!("# bench bot {n}\n{source}");
    let new = NewSubmission {
        team_id: team,
        game: "nothanks",
        language: Language::Python3,
        label: "bench",
        filename: "bot.py",
        entry: "",
        bundle_kind: BundleKind::File,
        bytes: source.as_bytes(),
        unpacked_size: source.len() as u64,
        files: vec![NewFile {
            path: "bot.py".into(),
            size: source.len() as u64,
            executable: false,
        }],
        submitted_by: user,
        rules: "",
        players: None,
    };
    Ok(submissions::create(pool, &new).await?.submission_id)
}

/// Waits until every submission is `ready` (fails on `failed`).
async fn ready(pool: &PgPool, subs: &[Uuid]) -> Result<()> {
    let deadline = Instant::now() + Duration::from_secs(300);
    for id in subs {
        loop {
            let s = submissions::get(pool, *id).await?;
            match s.status {
                SubmissionStatus::Ready => break,
                SubmissionStatus::Failed => bail!(
                    "the bench bot failed to build: {:?}\n{}",
                    s.failure_reason,
                    s.compile_log
                ),
                SubmissionStatus::Pending
                | SubmissionStatus::Compiling
                | SubmissionStatus::Validating => {
                    if Instant::now() > deadline {
                        bail!(
                            "the bench bots were not ready within 5 minutes (status {})",
                            s.status
                        );
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    }
    Ok(())
}

/// Waits until no match job is queued or running.
async fn drained(pool: &PgPool, patience: Duration) -> Result<()> {
    let deadline = Instant::now() + patience;
    loop {
        let active: i64 = sqlx::query_scalar(
            "select count(*) from job where kind = 'match' and status in ('queued', 'running')",
        )
        .fetch_one(pool)
        .await?;
        if active == 0 {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("{active} match jobs were still queued or running after {patience:?}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
