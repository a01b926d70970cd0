//! `croupier up` end to end: a browser (reqwest with cookies) signs up, makes a team and
//! uploads through the HTML forms; the admin logs in with the printed password; the data
//! survives a SIGTERM and a restart.

use std::os::unix::fs::PermissionsExt;

use reqwest::multipart::{Form, Part};
use reqwest::{Client, StatusCode};

use super::process::Running;
use crate::helpers::archives::zip;
use crate::helpers::{csrf_in, BOT_PY, PASSWORD};

/// A browser: cookies kept, redirects followed.
fn browser() -> Client {
    Client::builder()
        .cookie_store(true)
        .build()
        .expect("client")
}

/// GETs `path` and returns its CSRF token.
async fn csrf(client: &Client, base: &str, path: &str) -> String {
    let page = client
        .get(format!("{base}{path}"))
        .send()
        .await
        .expect("GET");
    assert_eq!(page.status(), StatusCode::OK, "GET {path}");
    csrf_in(&page.text().await.expect("body"))
}

/// Fills the form on `page` and posts it to `action`; returns the final (redirected-to) path and body.
async fn submit(
    client: &Client,
    base: &str,
    page: &str,
    action: &str,
    fields: &[(&str, &str)],
) -> (String, String) {
    let token = csrf(client, base, page).await;
    let mut all = vec![("csrf", token.as_str())];
    all.extend_from_slice(fields);
    let response = client
        .post(format!("{base}{action}"))
        .form(&all)
        .send()
        .await
        .expect("POST");
    let path = response.url().path().to_owned();
    let status = response.status();
    let body = response.text().await.expect("body");
    assert_eq!(
        status,
        StatusCode::OK,
        "POST {action} ended at {path}:\n{body}"
    );
    (path, body)
}

async fn log_in(client: &Client, base: &str, username: &str, password: &str) {
    let (path, body) = submit(
        client,
        base,
        "/login",
        "/login",
        &[("username", username), ("password", password)],
    )
    .await;
    assert_eq!(path, "/teams", "login as {username} failed:\n{body}");
}

/// Uploads through the team's upload form; returns the submission page's body.
async fn upload(client: &Client, base: &str, team: &str, filename: &str, bytes: &[u8]) -> String {
    let form_page = format!("/teams/{team}/upload");
    let token = csrf(client, base, &form_page).await;
    let form = Form::new()
        .text("csrf", token)
        .text("game", "nothanks")
        .text("language", "python3")
        .text("label", "")
        .part(
            "file",
            Part::bytes(bytes.to_vec()).file_name(filename.to_owned()),
        );
    let response = client
        .post(format!("{base}{form_page}"))
        .multipart(form)
        .send()
        .await
        .expect("upload");
    let path = response.url().path().to_owned();
    let body = response.text().await.expect("body");
    assert!(
        path.starts_with("/submissions/"),
        "the upload of {filename} ended at {path}:\n{body}"
    );
    body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn croupier_up_serves_the_forms_and_keeps_everything_across_a_restart() {
    // Arrange: a data dir the `postgres` user can reach (croupier runs PostgreSQL as that
    // user when it is itself root).
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let data = tmp.path().join("data");
    let log = tmp.path().join("croupier.log");

    // Act: first start
    let first = Running::up(&data, &log).await;
    let base = first.url.clone();
    let admin_password = first.admin_password().unwrap_or_else(|| {
        panic!(
            "no admin password printed on first start:\n{}",
            first.diagnostics()
        )
    });
    assert!(
        first.banner.iter().any(|l| l.contains("username: admin")),
        "{}",
        first.diagnostics()
    );

    // Act: a student signs up, makes a team, uploads a file and an archive
    let alice = browser();
    let signup = [
        ("username", "alice"),
        ("email", ""),
        ("password", PASSWORD),
        ("password_again", PASSWORD),
    ];
    let (path, _) = submit(&alice, &base, "/signup", "/signup", &signup).await;
    assert_eq!(path, "/teams");
    let (team_path, _) = submit(&alice, &base, "/teams", "/teams", &[("name", "Owls")]).await;
    let team = team_path
        .strip_prefix("/teams/")
        .expect("redirected to the team page")
        .to_owned();
    let single = upload(&alice, &base, &team, "bot.py", BOT_PY).await;
    let archive = zip(&[("main.py", BOT_PY), ("lib/util.py", b"X = 1\n")]);
    let zipped = upload(&alice, &base, &team, "bot.zip", &archive).await;

    // Assert: both listed
    assert!(
        single.contains("bot.py") && single.contains("v1"),
        "{single}"
    );
    assert!(
        zipped.contains("lib/util.py") && zipped.contains("v2"),
        "{zipped}"
    );
    let team_page = alice
        .get(format!("{base}{team_path}"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for needle in ["bot.py", "bot.zip", ">v1</a>", ">v2</a>"] {
        assert!(
            team_page.contains(needle),
            "the team page does not list {needle}:\n{team_page}"
        );
    }

    // Act + Assert: the administrator logs in with the printed password
    let admin = browser();
    log_in(&admin, &base, "admin", &admin_password).await;
    let admin_page = admin.get(format!("{base}/admin")).send().await.unwrap();
    assert_eq!(admin_page.status(), StatusCode::OK);
    let admin_page = admin_page.text().await.unwrap();
    assert!(
        admin_page.contains("<td>alice</td>") && admin_page.contains(">Owls</a></td>"),
        "{admin_page}"
    );

    // Act: SIGTERM, then a second start on the same data dir
    let status = first.stop().await;
    assert!(
        status.success(),
        "croupier up exited with {status} after SIGTERM"
    );
    let second = Running::up(&data, &log).await;

    // Assert: no new admin, and everything is still there
    assert_eq!(
        second.admin_password(),
        None,
        "a second admin password was printed:\n{}",
        second.diagnostics()
    );
    let base = second.url.clone();
    let again = browser();
    log_in(&again, &base, "alice", PASSWORD).await;
    let team_page = again
        .get(format!("{base}{team_path}"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for needle in ["bot.py", "bot.zip", ">v1</a>", ">v2</a>"] {
        assert!(
            team_page.contains(needle),
            "after the restart the team page does not list {needle}:\n{team_page}"
        );
    }
    log_in(&browser(), &base, "admin", &admin_password).await;
    let status = second.stop().await;
    assert!(
        status.success(),
        "croupier up exited with {status} after SIGTERM"
    );
}
