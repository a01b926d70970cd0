//! Compile jobs end to end: real PostgreSQL, real sandbox, real compilers, a real validation game.

mod common;

use common::*;
use croupier_store::PgPool;

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_correct_python_bot_is_compiled_validated_and_ready(pool: PgPool) {
    let (worker, _scratch) = worker(&pool, |_| {}).await;
    let id = upload(
        &pool,
        team(&pool, "pythons").await,
        Language::Python3,
        "bot.py",
        &python_bot(0.0),
    )
    .await;

    assert_eq!(drain(&worker).await, 1);

    let s = submission(&pool, id).await;
    assert_ready(&s);
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
    let (worker, _scratch) = worker(&pool, |_| {}).await;
    let id = upload(
        &pool,
        team(&pool, "cees").await,
        Language::C,
        "main.c",
        C_BOT,
    )
    .await;

    drain(&worker).await;

    let s = submission(&pool, id).await;
    assert_ready(&s);
    assert!(
        s.compile_log
            .contains("$ gcc -O2 -std=gnu11 -o bot main.c -lm"),
        "{}",
        s.compile_log
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_c_bot_with_a_syntax_error_fails_with_the_gcc_message(pool: PgPool) {
    let (worker, _scratch) = worker(&pool, |_| {}).await;
    let id = upload(
        &pool,
        team(&pool, "typos").await,
        Language::C,
        "main.c",
        "int main(void) { return 0 }\n",
    )
    .await;

    drain(&worker).await;

    let s = submission(&pool, id).await;
    assert_eq!(s.status, SubmissionStatus::Failed);
    assert_eq!(s.failure_reason.as_deref(), Some("compilation failed"));
    assert!(
        s.compile_log.contains("main.c:1:") && s.compile_log.contains("error"),
        "{}",
        s.compile_log
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_python_bot_with_a_syntax_error_fails_with_the_python_message(pool: PgPool) {
    let (worker, _scratch) = worker(&pool, |_| {}).await;
    let id = upload(
        &pool,
        team(&pool, "snakes").await,
        Language::Python3,
        "bot.py",
        "def play(:\n    pass\n",
    )
    .await;

    drain(&worker).await;

    let s = submission(&pool, id).await;
    assert_eq!(s.status, SubmissionStatus::Failed);
    assert_eq!(s.failure_reason.as_deref(), Some("compilation failed"));
    assert!(s.compile_log.contains("SyntaxError"), "{}", s.compile_log);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_bot_that_crashes_at_once_fails_its_validation_game(pool: PgPool) {
    let (worker, _scratch) = worker(&pool, |_| {}).await;
    let text = "import sys\nprint('giving up', file=sys.stderr)\nsys.exit(3)\n";
    let id = upload(
        &pool,
        team(&pool, "quitters").await,
        Language::Python3,
        "bot.py",
        text,
    )
    .await;

    drain(&worker).await;

    let s = submission(&pool, id).await;
    assert_eq!(s.status, SubmissionStatus::Failed, "{}", s.compile_log);
    let reason = s.failure_reason.unwrap_or_default();
    assert!(reason.starts_with("validation game: crashed"), "{reason}");
    assert!(s.compile_log.contains("giving up"), "{}", s.compile_log);
}

/// A No Thanks bot in C++17 that reads the protocol with nlohmann-json and includes jsoncpp's
/// header too, as bots of the original platforms do.
const CPP_BOT: &str = r#"#include <arpa/inet.h>
#include <json/json.h>
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <unistd.h>
#include <iostream>
#include <string>

using nlohmann::json;

int main() {
    std::string room, name;
    std::getline(std::cin, room);
    std::getline(std::cin, name);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(2004);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return 2;
    Json::Value unused;  // jsoncpp links too
    std::string buf;
    char chunk[4096];
    auto send = [&](const json& msg) {
        std::string line = msg.dump() + "\n";
        write(fd, line.data(), line.size());
    };
    for (;;) {
        size_t nl;
        while ((nl = buf.find('\n')) == std::string::npos) {
            ssize_t n = read(fd, chunk, sizeof chunk);
            if (n <= 0) return 0;
            buf.append(chunk, n);
        }
        json msg = json::parse(buf.substr(0, nl));
        buf.erase(0, nl + 1);
        std::string type = msg["type"];
        if (type == "request_room_name_and_role") {
            send({{"type", "reply_room_name_and_role"},
                  {"payload", {{"room_name", room}, {"role", "player"}, {"player_name", name}}}});
        } else if (type == "request_action") {
            auto field = msg["payload"]["game_status"]["fieldinfo"];
            bool can_pass = msg["payload"]["action_types"].size() > 1;
            bool take = !can_pass || field["fieldcoins"].get<int>() * 3 >= field["fieldcard"].get<int>();
            send({{"type", "reply_action"}, {"payload", {{"action_type", take ? "pick" : "pass"}}}});
        } else if (type == "notice_end") {
            return 0;
        }
    }
}
"#;

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_cpp_bot_using_nlohmann_json_and_jsoncpp_is_compiled_with_gplusplus_and_ready(
    pool: PgPool,
) {
    let (worker, _scratch) = worker(&pool, |_| {}).await;
    let id = upload(
        &pool,
        team(&pool, "plusplus").await,
        Language::Cpp,
        "bot.cpp",
        CPP_BOT,
    )
    .await;

    drain(&worker).await;

    let s = submission(&pool, id).await;
    assert_ready(&s);
    assert!(
        s.compile_log.contains("g++ -O2 -std=c++17"),
        "{}",
        s.compile_log
    );
}

/// A Splendor bot that bundles its own JSON library as contestants bundled jsoncpp's
/// amalgamation (`tests/data/bundled_json`: `json/json.h` and `jsoncpp.cpp` beside `main.cpp`,
/// included as `<json/json.h>`) is built with that copy, not the system's jsoncpp: the folder
/// first on the include path, its `jsoncpp.cpp` compiled in, no `-ljsoncpp`. Its header stops
/// the build when the system's is used instead, and the moves of its validation game are
/// written by its own library (its stderr says so).
#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_cpp_bot_bundling_its_own_jsoncpp_is_built_with_its_copy_and_plays(pool: PgPool) {
    let (worker, _scratch) = worker(&pool, |_| {}).await;
    let id = upload_folder(
        &pool,
        team(&pool, "bundlers").await,
        "splendor",
        Language::Cpp,
        "bundled_json",
    )
    .await;

    drain(&worker).await;

    let s = submission(&pool, id).await;
    assert_ready(&s);
    assert!(
        s.compile_log
            .starts_with("$ g++ -O2 -std=c++17 -I. -o bot jsoncpp.cpp main.cpp -lm\n"),
        "{}",
        s.compile_log
    );
    assert!(
        s.compile_log.contains(
            "written by the JSON library bundled with this bot: {\"get_different_color_gems\":["
        ),
        "{}",
        s.compile_log
    );
}
