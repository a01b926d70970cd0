//! Compile jobs end to end: real PostgreSQL, real sandbox, real compilers, a real validation game.

mod common;

use common::*;
use croupier_store::PgPool;

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_correct_python_bot_is_compiled_validated_and_ready(pool: PgPool) {
    let (worker, _scratch) = worker(&pool, 65100, |_| {}).await;
    let id = upload(
        &pool,
        team(&pool, "pythons").await,
        "python3",
        "bot.py",
        &python_bot(0.0),
    )
    .await;

    assert_eq!(drain(&worker).await, 1);

    let s = submission(&pool, id).await;
    assert_eq!(
        s.status, "ready",
        "{:?}\n{}",
        s.failure_reason, s.compile_log
    );
    let cmd: Vec<String> =
        sqlx::query_scalar("select run_command from submission where submission_id = $1")
            .bind(id)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(cmd, ["/usr/bin/python3", "/bot/bot.py"]);
    assert!(
        s.compile_log.contains("validation game"),
        "{}",
        s.compile_log
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_correct_c_bot_is_compiled_with_gcc_and_ready(pool: PgPool) {
    let (worker, _scratch) = worker(&pool, 65110, |_| {}).await;
    let id = upload(&pool, team(&pool, "cees").await, "c", "main.c", C_BOT).await;

    drain(&worker).await;

    let s = submission(&pool, id).await;
    assert_eq!(
        s.status, "ready",
        "{:?}\n{}",
        s.failure_reason, s.compile_log
    );
    assert!(
        s.compile_log
            .contains("$ gcc -O2 -std=gnu11 -o bot main.c -lm"),
        "{}",
        s.compile_log
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_c_bot_with_a_syntax_error_fails_with_the_gcc_message(pool: PgPool) {
    let (worker, _scratch) = worker(&pool, 65120, |_| {}).await;
    let id = upload(
        &pool,
        team(&pool, "typos").await,
        "c",
        "main.c",
        "int main(void) { return 0 }\n",
    )
    .await;

    drain(&worker).await;

    let s = submission(&pool, id).await;
    assert_eq!(s.status, "failed");
    assert_eq!(s.failure_reason.as_deref(), Some("compilation failed"));
    assert!(
        s.compile_log.contains("main.c:1:") && s.compile_log.contains("error"),
        "{}",
        s.compile_log
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_python_bot_with_a_syntax_error_fails_with_the_python_message(pool: PgPool) {
    let (worker, _scratch) = worker(&pool, 65130, |_| {}).await;
    let id = upload(
        &pool,
        team(&pool, "snakes").await,
        "python3",
        "bot.py",
        "def play(:\n    pass\n",
    )
    .await;

    drain(&worker).await;

    let s = submission(&pool, id).await;
    assert_eq!(s.status, "failed");
    assert_eq!(s.failure_reason.as_deref(), Some("compilation failed"));
    assert!(s.compile_log.contains("SyntaxError"), "{}", s.compile_log);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_bot_that_crashes_at_once_fails_its_validation_game(pool: PgPool) {
    let (worker, _scratch) = worker(&pool, 65140, |_| {}).await;
    let text = "import sys\nprint('giving up', file=sys.stderr)\nsys.exit(3)\n";
    let id = upload(
        &pool,
        team(&pool, "quitters").await,
        "python3",
        "bot.py",
        text,
    )
    .await;

    drain(&worker).await;

    let s = submission(&pool, id).await;
    assert_eq!(s.status, "failed", "{}", s.compile_log);
    let reason = s.failure_reason.unwrap_or_default();
    assert!(reason.starts_with("validation game: crashed"), "{reason}");
    assert!(s.compile_log.contains("giving up"), "{}", s.compile_log);
}
