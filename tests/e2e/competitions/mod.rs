//! Competitions end to end: the admin's form and API, the progress page and its admin buttons,
//! the leaderboard and the rating histories, and the match page with its private parts. Ready
//! submissions are written straight into the database and finished matches are written as the
//! worker would, so no worker runs here.

mod board;
mod challenge_pages;
mod chinese;
mod control;
mod create;
mod csrf;
mod game_words;
mod history;
mod live;
mod match_api;
mod match_page;
mod my_matches;
mod organiser;
mod page_timing;
mod people;
mod privacy;
mod replay_expiry;
mod replay_frames;
mod rounds;
mod seeds;

use axum::http::StatusCode;
use serde_json::Value;
use sqlx::PgPool;
use uuid::Uuid;

use crate::helpers::{make_admin, user_id, Page, TestApp};

/// Plays `recorder`'s game to its end with the game's first built-in bot (its randomness from
/// `seed`); the replay, and the seat results its fair outcome gives.
pub fn play_out(
    mut recorder: croupier_games::Recorder,
    seed: u64,
) -> (croupier_games::Replay, Vec<Result3>) {
    use croupier_games::{bots, GameRng, Stream, Turn};
    let game = recorder.replay().game;
    let mut bot = bots::builtin(game, bots::names(game)[0]).expect("a built-in bot");
    let mut rng = GameRng::derive(seed, Stream::Testing);
    while let Turn::Seat(seat) = recorder.game().turn() {
        let action = bot.choose(recorder.game(), seat, &mut rng).expect("a move");
        recorder.apply(seat, action).expect("a legal move");
    }
    let replay = recorder.into_replay();
    let results = replay
        .fair_outcome()
        .expect("an outcome")
        .seats
        .iter()
        .map(|s| (i32::try_from(s.rank).unwrap(), s.score as f64, "ok"))
        .collect();
    (replay, results)
}

/// The worker's replay document (format 1) of a one-game match between `players`.
pub fn one_game_doc(players: &[String], replay: &croupier_games::Replay) -> Value {
    let outcome = replay.fair_outcome();
    serde_json::json!({
        "format": 1,
        "players": players,
        "games": [{ "replay": replay, "outcome": outcome }],
        "outcome": outcome,
        "transcript": [],
        "transcript_truncated": false,
        "wall_ms": 42
    })
}

/// A team with one ready bot, and one of its members' browser.
pub struct Entrant {
    pub app: TestApp,
    pub team: &'static str,
    pub team_id: Uuid,
    pub submission_id: Uuid,
}

/// An admin ("root") and teams Owls (alice), Bats (bob), Cats (cyd), … each with a ready
/// No Thanks bot (version 1).
pub struct League {
    pub admin: TestApp,
    pub entrants: Vec<Entrant>,
}

const TEAMS: [(&str, &str); 4] = [
    ("alice", "Owls"),
    ("bob", "Bats"),
    ("cyd", "Cats"),
    ("dee", "Moles"),
];

impl League {
    /// An API token of the admin, root.
    pub async fn admin_token(&self) -> String {
        let login = serde_json::json!({ "username": "root", "password": crate::helpers::PASSWORD });
        let reply = self
            .admin
            .api(
                axum::http::Method::POST,
                "/api/v1/tokens",
                None,
                Some(login),
            )
            .await;
        reply.json["token"].as_str().expect("a token").to_owned()
    }

    pub async fn with_teams(pool: &PgPool, n: usize) -> League {
        League::of_game(pool, "nothanks", n).await
    }

    /// An admin and `n` teams, each with a ready bot (version 1) of `game`.
    pub async fn of_game(pool: &PgPool, game: &str, n: usize) -> League {
        let mut admin = TestApp::new(pool.clone());
        admin.sign_up("root").await;
        make_admin(pool, "root").await;
        let mut entrants = Vec::new();
        for (user, team) in TEAMS.into_iter().take(n) {
            let mut app = admin.new_visitor();
            app.sign_up(user).await;
            let team_id = app.create_team(team).await;
            let submission_id = ready_submission(pool, team_id, user, game).await;
            entrants.push(Entrant {
                app,
                team,
                team_id,
                submission_id,
            });
        }
        League { admin, entrants }
    }

    pub fn submissions(&self) -> Vec<Uuid> {
        self.entrants.iter().map(|e| e.submission_id).collect()
    }

    /// The team whose submission is `submission_id`.
    pub fn team_of(&self, submission_id: Uuid) -> &'static str {
        self.entrants
            .iter()
            .find(|e| e.submission_id == submission_id)
            .map_or("?", |e| e.team)
    }

    /// The admin fills in and sends the new-competition form for No Thanks.
    pub async fn submit_form(&mut self, name: &str, chosen: &[Uuid], rounds: &str) -> Page {
        let csrf = self
            .admin
            .csrf("/admin/competitions/new?game=nothanks")
            .await;
        let ids: Vec<String> = chosen.iter().map(Uuid::to_string).collect();
        let mut fields = vec![
            ("csrf", csrf.as_str()),
            ("game", "nothanks"),
            ("name", name),
            ("rules", "boardcoder"),
            ("rounds", rounds),
            ("base_seed", "7"),
            ("move_time_ms", "2000"),
        ];
        fields.extend(ids.iter().map(|id| ("submission", id.as_str())));
        self.admin
            .post_form("/admin/competitions/new", &fields)
            .await
    }

    /// Creates a one-round competition of `game` (the game's default rule set and format) of
    /// every entrant through the form; its id.
    pub async fn create_of(&mut self, game: &str) -> Uuid {
        self.create_rounds_of(game, "1").await
    }

    /// [`create_of`](Self::create_of) with `rounds` rounds.
    pub async fn create_rounds_of(&mut self, game: &str, rounds: &str) -> Uuid {
        let csrf = self
            .admin
            .csrf(&format!("/admin/competitions/new?game={game}"))
            .await;
        let ids: Vec<String> = self.submissions().iter().map(Uuid::to_string).collect();
        let mut fields = vec![
            ("csrf", csrf.as_str()),
            ("game", game),
            ("shown_game", game),
            ("name", "Cup"),
            ("rounds", rounds),
            ("base_seed", "7"),
        ];
        fields.extend(ids.iter().map(|id| ("submission", id.as_str())));
        let page = self
            .admin
            .post_form("/admin/competitions/new", &fields)
            .await;
        created(&page)
    }

    /// Creates a one-round No Thanks competition of every entrant and returns its first
    /// scheduled match.
    pub async fn first_match(&mut self, pool: &PgPool) -> FirstMatch {
        let competition_id = self.create("1").await;
        let (match_id, seats) = schedule(pool, competition_id).await.remove(0);
        let players = seats
            .iter()
            .map(|s| format!("{}-v1", self.team_of(*s)))
            .collect();
        FirstMatch {
            competition_id,
            match_id,
            seats,
            players,
        }
    }

    /// [`first_match`](Self::first_match), the rest of the schedule cancelled: its replay and
    /// its seed show as soon as it has finished ([`cancel_the_rest`]).
    pub async fn lone_match(&mut self, pool: &PgPool) -> FirstMatch {
        let first = self.first_match(pool).await;
        cancel_the_rest(pool, first.competition_id, first.match_id).await;
        first
    }

    /// Creates a No Thanks competition of every entrant through the form; its id.
    pub async fn create(&mut self, rounds: &str) -> Uuid {
        let page = self
            .submit_form("Spring cup", &self.submissions(), rounds)
            .await;
        created(&page)
    }
}

/// The id of the competition a form post created (it redirects to its page).
fn created(page: &Page) -> Uuid {
    page.assert_status(StatusCode::SEE_OTHER);
    let location = page.location().expect("a redirect");
    location
        .strip_prefix("/competitions/")
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("unexpected redirect {location}"))
}

/// A `ready` submission of `team_id`, written straight into the database (as if compiled).
pub async fn ready_submission(pool: &PgPool, team_id: Uuid, user: &str, game: &str) -> Uuid {
    let source = format!("# bot of {team_id}\n");
    put_blob(pool, source.as_bytes()).await;
    sqlx::query_scalar(
        "insert into submission (team_id, game, language, version, status, filename, bundle_kind,
                                 source_sha256, source_size, unpacked_size, submitted_by)
         values ($1, $2, 'python3',
                 (select coalesce(max(version), 0) + 1 from submission where team_id = $1 and game = $2),
                 'ready', 'bot.py', 'file', sha256($3), length($3), length($3), $4)
         returning submission_id",
    )
    .bind(team_id)
    .bind(game)
    .bind(source.as_bytes())
    .bind(user_id(pool, user).await)
    .fetch_one(pool)
    .await
    .expect("submission")
}

/// The competition's matches in schedule order, each with its seats' submissions.
pub async fn schedule(pool: &PgPool, competition_id: Uuid) -> Vec<(Uuid, Vec<Uuid>)> {
    let ids: Vec<Uuid> =
        sqlx::query_scalar("select match_id from match where competition_id = $1 order by ordinal")
            .bind(competition_id)
            .fetch_all(pool)
            .await
            .expect("matches");
    let mut out = Vec::new();
    for id in ids {
        let seats = sqlx::query_scalar(
            "select submission_id from match_seat where match_id = $1 order by seat",
        )
        .bind(id)
        .fetch_all(pool)
        .await
        .expect("seats");
        out.push((id, seats));
    }
    out
}

/// One seat's result: rank, score, end state.
pub type Result3 = (i32, f64, &'static str);

/// Results where the seat of `winner_seat` is 1st and the others follow, all played out.
pub fn won_by(seats: usize, winner_seat: usize) -> Vec<Result3> {
    let mut next = 1;
    (0..seats)
        .map(|seat| {
            if seat == winner_seat {
                (1, 30.0, "ok")
            } else {
                next += 1;
                (next, 10.0, "ok")
            }
        })
        .collect()
}

/// A competition's first scheduled match ([`League::first_match`]).
pub struct FirstMatch {
    pub competition_id: Uuid,
    pub match_id: Uuid,
    /// The submission in each seat.
    pub seats: Vec<Uuid>,
    /// The players' names as the worker writes them (`<team>-v1`), in seat order.
    pub players: Vec<String>,
}

/// Stores `bytes` as a blob (once, as the store does).
pub async fn put_blob(pool: &PgPool, bytes: &[u8]) {
    sqlx::query(
        "insert into blob (sha256, size, data) values (sha256($1), length($1), $1) on conflict do nothing",
    )
    .bind(bytes)
    .execute(pool)
    .await
    .expect("blob");
}

/// A seat's private file of a finished match, as the worker stores it: `bytes` as a blob and
/// `column` (`stderr_sha256` or `move_log_sha256`) of the seat's result pointing at it.
pub async fn attach_blob(pool: &PgPool, match_id: Uuid, seat: usize, column: &str, bytes: &[u8]) {
    put_blob(pool, bytes).await;
    sqlx::query(&format!(
        "update seat_result set {column} = sha256($3) where match_id = $1 and seat = $2"
    ))
    .bind(match_id)
    .bind(i32::try_from(seat).unwrap())
    .bind(bytes)
    .execute(pool)
    .await
    .expect("seat result");
}

/// Writes a finished match as the worker does: the seat results, `finished`, the job done,
/// and the replay document when one is given.
pub async fn finish(pool: &PgPool, match_id: Uuid, seats: &[Result3], replay: Option<&Value>) {
    for (seat, (rank, score, end_state)) in seats.iter().enumerate() {
        sqlx::query(
            "insert into seat_result (match_id, seat, rank, score, end_state, moves, cpu_ms, timings)
             values ($1, $2, $3, $4, $5, 3, 12, '[5, 9, 7]')",
        )
        .bind(match_id)
        .bind(i32::try_from(seat).unwrap())
        .bind(rank)
        .bind(score)
        .bind(end_state)
        .execute(pool)
        .await
        .expect("seat result");
    }
    if let Some(doc) = replay {
        let bytes = serde_json::to_vec(doc).unwrap();
        put_blob(pool, &bytes).await;
        sqlx::query("insert into replay (match_id, sha256) values ($1, sha256($2))")
            .bind(match_id)
            .bind(&bytes)
            .execute(pool)
            .await
            .expect("replay");
    }
    set_status(pool, match_id, "finished", "done").await;
    // As the worker does in its result transaction: the board takes the result.
    let mut tx = pool.begin().await.expect("a transaction");
    croupier_board::record(&mut tx, match_id)
        .await
        .expect("the board takes the result");
    tx.commit().await.expect("commit");
}

/// Cancels the competition's queued matches but `keep`, as an organiser's *Cancel* would. A
/// finished match's replay shows once no match dealt the same cards is still to play, and its
/// seed once none of its competition's is (docs/competitions.md#what-is-hidden-and-from-whom):
/// the tests of one match end the rest of its schedule so.
pub async fn cancel_the_rest(pool: &PgPool, competition_id: Uuid, keep: Uuid) {
    for sql in [
        "update job set status = 'cancelled', finished_at = now()
         where status = 'queued' and match_id in (select match_id from match
               where competition_id = $1 and match_id <> $2 and status = 'queued')",
        "update match set status = 'cancelled', finished_at = now()
         where competition_id = $1 and match_id <> $2 and status = 'queued'",
    ] {
        sqlx::query(sql)
            .bind(competition_id)
            .bind(keep)
            .execute(pool)
            .await
            .expect("cancelled");
    }
}

/// Sets a match's status and its latest job's.
pub async fn set_status(pool: &PgPool, match_id: Uuid, match_status: &str, job_status: &str) {
    sqlx::query("update match set status = $2, finished_at = case when $2 in ('finished', 'failed') then now() end where match_id = $1")
        .bind(match_id)
        .bind(match_status)
        .execute(pool)
        .await
        .expect("match status");
    sqlx::query(
        "update job set status = $2, attempt = case when $2 = 'failed' then 3 else attempt end
         where job_id = (select job_id from job where match_id = $1 order by created_at desc limit 1)",
    )
    .bind(match_id)
    .bind(job_status)
    .execute(pool)
    .await
    .expect("job status");
}

/// Rows of `sql` (a count query from these tests) with one uuid parameter.
pub async fn count_where(pool: &PgPool, sql: &str, id: Uuid) -> i64 {
    sqlx::query_scalar(sql)
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}
