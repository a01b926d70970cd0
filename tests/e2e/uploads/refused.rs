//! Uploads that are refused: each gets a clear message on the upload form, and not a single
//! row is written (no submission, blob, file or job).

use axum::http::StatusCode;
use sqlx::PgPool;
use uuid::Uuid;

use super::{alice_and_her_team, submission_of};
use crate::helpers::archives::{
    tar_gz_with_raw_name, tar_gz_with_symlink, zip, zip_bomb, zip_with_files, zip_with_symlink,
};
use crate::helpers::{Part, Stored, TestApp, Upload, BOT_PY};

/// Uploads `upload` through the form and checks the refusal: `status`, `message` shown on
/// the upload form, nothing stored.
async fn assert_refused(
    app: &mut TestApp,
    team_id: Uuid,
    upload: &Upload,
    status: StatusCode,
    message: &str,
) {
    let page = app.upload(team_id, upload).await;
    page.assert_status(status);
    page.assert_shows(message);
    page.assert_shows("Upload a bot for Owls");
    assert_eq!(
        Stored::now(&app.pool).await,
        Stored::NOTHING,
        "a refused upload stored rows"
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_upload_over_the_size_cap_is_refused_with_413_naming_the_cap(pool: PgPool) {
    // Arrange
    let cap = 64 * 1024;
    let (mut alice, team_id) =
        alice_and_her_team(TestApp::with_upload_cap(pool.clone(), cap)).await;
    alice
        .get(&format!("/teams/{team_id}/upload"))
        .await
        .assert_shows("at most 64 KiB");
    let just_over = vec![b'#'; cap as usize + 1];
    let far_over = vec![b'#'; 1024 * 1024];
    let over_zip = zip(&[("main.py", &just_over[..])]);

    // Act + Assert
    for (name, bytes) in [("bot.py", &just_over), ("bot.py", &far_over)] {
        assert_refused(
            &mut alice,
            team_id,
            &Upload::python(name, bytes),
            StatusCode::PAYLOAD_TOO_LARGE,
            "the upload is larger than the 64 KiB limit",
        )
        .await;
    }
    // A zip under the cap that unpacks past it is fine: the cap is on what is sent.
    assert!(over_zip.len() < cap as usize);
    let exactly = vec![b'#'; cap as usize];
    submission_of(
        &alice
            .upload(team_id, &Upload::python("bot.py", &exactly))
            .await,
    );
    submission_of(
        &alice
            .upload(team_id, &Upload::python("bot.zip", &over_zip))
            .await,
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_unknown_game_is_refused(pool: PgPool) {
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool)).await;
    let upload = Upload::python("bot.py", BOT_PY).game("chess");
    assert_refused(
        &mut alice,
        team_id,
        &upload,
        StatusCode::BAD_REQUEST,
        r#"unknown game "chess""#,
    )
    .await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_unknown_language_is_refused(pool: PgPool) {
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool)).await;
    let upload = Upload::python("bot.py", BOT_PY).language("cobol");
    let message = r#"unknown language "cobol": expected one of python3, c, cpp, binary"#;
    assert_refused(
        &mut alice,
        team_id,
        &upload,
        StatusCode::BAD_REQUEST,
        message,
    )
    .await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_empty_file_is_refused(pool: PgPool) {
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool)).await;
    let upload = Upload::python("bot.py", b"");
    assert_refused(
        &mut alice,
        team_id,
        &upload,
        StatusCode::BAD_REQUEST,
        r#"the file "bot.py" is empty"#,
    )
    .await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_form_without_a_file_is_refused(pool: PgPool) {
    // Arrange
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool.clone())).await;
    let form = format!("/teams/{team_id}/upload");
    let csrf = alice.csrf(&form).await;
    let without_file = [
        Part::Text("csrf", &csrf),
        Part::Text("game", "nothanks"),
        Part::Text("language", "python3"),
    ];
    let unnamed_file = [
        Part::Text("csrf", &csrf),
        Part::Text("game", "nothanks"),
        Part::Text("language", "python3"),
        Part::File {
            name: "file",
            filename: "",
            bytes: b"",
        },
    ];

    for parts in [&without_file[..], &unnamed_file[..]] {
        // Act
        let page = alice.post_multipart(&form, parts).await;

        // Assert
        page.assert_status(StatusCode::BAD_REQUEST);
        page.assert_shows("choose a file to upload");
        assert_eq!(Stored::now(&pool).await, Stored::NOTHING);
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_archive_with_an_absolute_path_is_refused(pool: PgPool) {
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool)).await;
    let zipped = zip(&[("main.py", BOT_PY), ("/tmp/evil.py", BOT_PY)]);
    let message = r#""/tmp/evil.py" is an absolute path; archive paths must be relative"#;
    assert_refused(
        &mut alice,
        team_id,
        &Upload::python("bot.zip", &zipped),
        StatusCode::BAD_REQUEST,
        message,
    )
    .await;
    let tarred = tar_gz_with_raw_name("/tmp/evil.py");
    assert_refused(
        &mut alice,
        team_id,
        &Upload::python("bot.tar.gz", &tarred),
        StatusCode::BAD_REQUEST,
        message,
    )
    .await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_archive_with_a_parent_directory_component_is_refused(pool: PgPool) {
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool)).await;
    let zipped = zip(&[("main.py", BOT_PY), ("lib/../../evil.py", BOT_PY)]);
    let message = r#""lib/../../evil.py" contains a ".." component"#;
    assert_refused(
        &mut alice,
        team_id,
        &Upload::python("bot.zip", &zipped),
        StatusCode::BAD_REQUEST,
        message,
    )
    .await;
    let tarred = tar_gz_with_raw_name("lib/../../evil.py");
    assert_refused(
        &mut alice,
        team_id,
        &Upload::python("bot.tgz", &tarred),
        StatusCode::BAD_REQUEST,
        message,
    )
    .await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_archive_with_a_symbolic_link_is_refused(pool: PgPool) {
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool)).await;
    let message = r#""link.py" is a symbolic link; only regular files and directories are allowed"#;
    let zipped = zip_with_symlink();
    assert_refused(
        &mut alice,
        team_id,
        &Upload::python("bot.zip", &zipped),
        StatusCode::BAD_REQUEST,
        message,
    )
    .await;
    let tarred = tar_gz_with_symlink();
    assert_refused(
        &mut alice,
        team_id,
        &Upload::python("bot.tar.gz", &tarred),
        StatusCode::BAD_REQUEST,
        message,
    )
    .await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_archive_with_201_files_is_refused_and_200_are_accepted(pool: PgPool) {
    // Arrange
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool.clone())).await;
    let too_many = zip_with_files(201);

    // Act + Assert
    let message = "the archive contains more than 200 files";
    assert_refused(
        &mut alice,
        team_id,
        &Upload::python("bot.zip", &too_many),
        StatusCode::BAD_REQUEST,
        message,
    )
    .await;
    submission_of(
        &alice
            .upload(team_id, &Upload::python("bot.zip", &zip_with_files(200)))
            .await,
    );
    assert_eq!(Stored::now(&pool).await.files, 200);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_zip_bomb_is_refused_once_it_unpacks_past_64_mib(pool: PgPool) {
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool)).await;
    let bomb = zip_bomb();
    assert!(
        bomb.len() < 1024 * 1024,
        "the bomb should be small: {} bytes",
        bomb.len()
    );
    let message = "the archive unpacks to more than 64 MiB";
    assert_refused(
        &mut alice,
        team_id,
        &Upload::python("bot.zip", bomb),
        StatusCode::BAD_REQUEST,
        message,
    )
    .await;
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_c_bot_without_a_c_file_is_refused(pool: PgPool) {
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool)).await;
    let upload = Upload::python("bot.py", BOT_PY).language("c");
    let message = "a c bot needs a .c file, and the upload has none";
    assert_refused(
        &mut alice,
        team_id,
        &upload,
        StatusCode::BAD_REQUEST,
        message,
    )
    .await;
}

/// The upload check reads source endings as the compiler does, case included: `BOT.PY` is no
/// Python source for `python3 -m py_compile` or the entry point, so it is refused here, not
/// accepted and then failed by the build.
#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_python_bot_whose_file_ends_in_capitals_is_refused_at_upload(pool: PgPool) {
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool)).await;
    let upload = Upload::python("BOT.PY", BOT_PY);
    let message = "a python3 bot needs a .py file, and the upload has none";
    assert_refused(
        &mut alice,
        team_id,
        &upload,
        StatusCode::BAD_REQUEST,
        message,
    )
    .await;
}

/// The HTML of the form field `name`: from its control to the end of its label.
fn field_html<'a>(page: &'a crate::helpers::Page, name: &str) -> &'a str {
    let at = page
        .body
        .find(&format!(r#"name="{name}""#))
        .unwrap_or_else(|| panic!("no field {name}:\n{}", page.body));
    let rest = &page.body[at..];
    &rest[..rest.find("</label>").unwrap_or(rest.len())]
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_refused_upload_keeps_the_users_choices_and_shows_the_error_next_to_its_field(
    pool: PgPool,
) {
    // Arrange: a C Hanabi bot whose entry names a class (only Python class bots may)
    let (mut alice, team_id) = alice_and_her_team(TestApp::new(pool.clone())).await;
    let mut upload = Upload::python("bot.c", b"int main(void) { return 0; }\n")
        .game("hanabi")
        .language("c")
        .entry("bot.c:Cautious(0.3)");
    upload.label = "greedy v2".into();
    let wrong_language = Upload::python("bot.py", BOT_PY)
        .game("guandan")
        .language("cpp");

    // Act
    let page = alice.upload(team_id, &upload).await;
    let language_page = alice.upload(team_id, &wrong_language).await;

    // Assert: every choice kept; the message inside the entry field's label, not above the form
    page.assert_status(StatusCode::BAD_REQUEST);
    page.assert_shows(r#"<option value="hanabi" selected>"#);
    page.assert_shows(r#"<option value="c" selected>"#);
    page.assert_shows(r#"name="label" maxlength="80" value="greedy v2""#);
    let entry = field_html(&page, "entry");
    assert!(entry.contains(r#"value="bot.c:Cautious(0.3)""#), "{entry}");
    assert!(entry.contains(r#"aria-invalid="true""#), "{entry}");
    assert!(
        entry.contains(r#"id="error-entry""#) && entry.contains("the entry names a class"),
        "the error is not next to the entry field: {entry}"
    );
    assert!(!field_html(&page, "label").contains("error"));
    language_page.assert_status(StatusCode::BAD_REQUEST);
    language_page.assert_shows(r#"<option value="guandan" selected>"#);
    let language = field_html(&language_page, "language");
    assert!(
        language.contains(r#"<option value="cpp" selected>"#)
            && language.contains("a cpp bot needs a"),
        "{language}"
    );
    assert_eq!(Stored::now(&pool).await, Stored::NOTHING);
}
