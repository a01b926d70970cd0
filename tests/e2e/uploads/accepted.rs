//! Uploads that are stored: a single file, new versions, zip and tar.gz archives, and who
//! may look at them afterwards.

use axum::http::StatusCode;
use sqlx::PgPool;

use super::{alice_and_her_team, scalar, submission_of};
use crate::helpers::archives::{tar_gz, zip};
use crate::helpers::{invite_code, make_admin, Stored, TestApp, Upload, BOT_PY};

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_single_python_file_is_stored_as_version_1_pending_and_listed_on_the_team_page(
    pool: PgPool,
) {
    // Arrange
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool.clone())).await;
    let mut upload = Upload::python("bot.py", BOT_PY);
    upload.label = "greedy".into();

    // Act
    let page = alice.upload(team_id, &upload).await;

    // Assert: what the user sees
    let id = submission_of(&page);
    let shown = alice.get(&format!("/submissions/{id}")).await;
    shown.assert_status(StatusCode::OK);
    shown.assert_shows("Uploaded version 1 of your No Thanks! bot; it is queued for compilation.");
    shown.assert_shows("No Thanks! bot v1");
    shown.assert_shows(r#"<td class="mono">bot.py</td>"#);
    shown.assert_shows("pending");
    let team = alice.get(&format!("/teams/{team_id}")).await;
    team.assert_shows(&format!(
        r#"<a href="/submissions/{id}">v1</a> <span class="muted">greedy</span>"#
    ));
    team.assert_shows(r#"<span class="status pending">pending</span>"#);
    let download = alice.get(&format!("/submissions/{id}/download")).await;
    download.assert_status(StatusCode::OK);
    assert_eq!(download.bytes, BOT_PY);

    // Assert: what the database holds
    let (version, status, kind): (i32, String, String) = sqlx::query_as(
        "select version, status, bundle_kind from submission where submission_id = $1",
    )
    .bind(id)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(
        (version, status.as_str(), kind.as_str()),
        (1, "pending", "file")
    );
    assert_eq!(
        Stored::now(&pool).await,
        Stored {
            submissions: 1,
            blobs: 1,
            files: 1,
            jobs: 1
        }
    );
    let job: String = scalar(
        &pool,
        "select kind || '/' || status from job where submission_id = $1",
        id,
    )
    .await;
    assert_eq!(job, "compile/queued");
    let stored: Vec<u8> =
        scalar(&pool, "select b.data from blob b join submission s on s.source_sha256 = b.sha256 where submission_id = $1", id).await;
    assert_eq!(stored, BOT_PY);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_second_upload_becomes_version_2_and_the_first_is_kept(pool: PgPool) {
    // Arrange
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool.clone())).await;
    let first = submission_of(
        &alice
            .upload(team_id, &Upload::python("bot.py", BOT_PY))
            .await,
    );

    // Act
    let second_bytes = b"print('better')\n";
    let second = submission_of(
        &alice
            .upload(team_id, &Upload::python("bot.py", second_bytes))
            .await,
    );

    // Assert
    assert_ne!(first, second);
    alice
        .get(&format!("/submissions/{second}"))
        .await
        .assert_shows("Uploaded version 2");
    let team = alice.get(&format!("/teams/{team_id}")).await;
    team.assert_shows(&format!(r#"<a href="/submissions/{first}">v1</a>"#));
    team.assert_shows(&format!(r#"<a href="/submissions/{second}">v2</a>"#));
    let versions: Vec<i32> = sqlx::query_scalar("select version from submission order by version")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(versions, [1, 2]);
    assert_eq!(
        Stored::now(&pool).await,
        Stored {
            submissions: 2,
            blobs: 2,
            files: 2,
            jobs: 2
        }
    );
    let kept = alice.get(&format!("/submissions/{first}/download")).await;
    assert_eq!(kept.bytes, BOT_PY);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_zip_with_subdirectories_lists_every_file_on_the_submission_page(pool: PgPool) {
    // Arrange
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool.clone())).await;
    let archive = zip(&[
        ("main.py", BOT_PY),
        (
            "lib/strategy.py",
            b"def choose(state):\n    return 'pass'\n",
        ),
        ("lib/data/weights.json", b"[0.5, 0.25]"),
    ]);

    // Act
    let page = alice
        .upload(team_id, &Upload::python("bot.zip", &archive))
        .await;

    // Assert
    let id = submission_of(&page);
    let shown = alice.get(&format!("/submissions/{id}")).await;
    for path in ["main.py", "lib/strategy.py", "lib/data/weights.json"] {
        shown.assert_shows(&format!(r#"<td class="mono">{path}</td>"#));
    }
    shown.assert_shows("bot.zip (zip,");
    shown.assert_shows("in 3 files");
    let files: Vec<String> = sqlx::query_scalar(
        "select path from submission_file where submission_id = $1 order by path",
    )
    .bind(id)
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(
        files,
        ["lib/data/weights.json", "lib/strategy.py", "main.py"]
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_tar_gz_lists_every_file_and_its_executable_bit_on_the_submission_page(pool: PgPool) {
    // Arrange
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool.clone())).await;
    let archive = tar_gz(&[
        ("bot/main.py", BOT_PY, false),
        ("bot/run.sh", b"#!/bin/sh\nexec python3 bot/main.py\n", true),
    ]);

    // Act
    let page = alice
        .upload(team_id, &Upload::python("bot.tar.gz", &archive))
        .await;

    // Assert
    let id = submission_of(&page);
    let shown = alice.get(&format!("/submissions/{id}")).await;
    shown.assert_shows(r#"<td class="mono">bot/main.py</td>"#);
    shown.assert_shows(r#"<td class="mono">bot/run.sh</td>"#);
    shown.assert_shows("executable");
    shown.assert_shows("bot.tar.gz (tar.gz,");
    let rows: Vec<(String, bool)> = sqlx::query_as(
        "select path, executable from submission_file where submission_id = $1 order by path",
    )
    .bind(id)
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(
        rows,
        [
            ("bot/main.py".to_owned(), false),
            ("bot/run.sh".to_owned(), true)
        ]
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn another_teams_member_gets_404_for_a_submission_and_its_download_but_an_admin_sees_both(
    pool: PgPool,
) {
    // Arrange
    let (mut alice, owls) = alice_and_her_team(TestApp::new(pool.clone())).await;
    let id = submission_of(&alice.upload(owls, &Upload::python("bot.py", BOT_PY)).await);
    let mut bob = alice.new_visitor();
    bob.sign_up("bob").await;
    let ravens = bob.create_team("Ravens").await;
    let mut carol = alice.new_visitor();
    carol.sign_up("carol").await;
    carol
        .join_team(&invite_code(&pool, ravens).await)
        .await
        .assert_status(StatusCode::SEE_OTHER);
    let mut admin = alice.new_visitor();
    admin.sign_up("root").await;
    make_admin(&pool, "root").await;

    // Act
    let page = format!("/submissions/{id}");
    let download = format!("/submissions/{id}/download");
    let refused = [
        bob.get(&page).await,
        bob.get(&download).await,
        carol.get(&page).await,
        carol.get(&download).await,
    ];
    let admin_page = admin.get(&page).await;
    let admin_download = admin.get(&download).await;

    // Assert
    for answer in &refused {
        answer.assert_status(StatusCode::NOT_FOUND);
        assert!(
            !answer.body.contains("bot.py"),
            "the 404 leaks the upload:\n{}",
            answer.body
        );
    }
    admin_page.assert_status(StatusCode::OK);
    admin_page.assert_shows(r#"<td class="mono">bot.py</td>"#);
    admin_download.assert_status(StatusCode::OK);
    assert_eq!(admin_download.bytes, BOT_PY);
    let disposition = admin_download
        .headers
        .get("content-disposition")
        .unwrap()
        .to_str()
        .unwrap();
    assert_eq!(disposition, r#"attachment; filename="bot.py""#);
}

/// `g++` compiles `main.C` as C++, so the upload check accepts it as a C++ source too (it used
/// to lower-case the name and refuse it).
#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_cpp_bot_whose_source_ends_in_a_capital_c_is_accepted(pool: PgPool) {
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool.clone())).await;
    let upload = Upload::python("main.C", b"int main() { return 0; }\n").language("cpp");

    let page = alice.upload(team_id, &upload).await;

    let id = submission_of(&page);
    let language: String = scalar(
        &pool,
        "select language from submission where submission_id = $1",
        id,
    )
    .await;
    assert_eq!(language, "cpp");
}
