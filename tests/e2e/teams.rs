//! Teams: creating, joining with an invite code, the team page, privacy and invite rotation.

use axum::http::StatusCode;
use sqlx::PgPool;
use uuid::Uuid;

use crate::helpers::{count, invite_code, user_id, Stored, TestApp, Upload, BOT_PY};

/// A user's role in a team, `None` when not a member.
pub(crate) async fn role(pool: &PgPool, team_id: Uuid, username: &str) -> Option<String> {
    sqlx::query_scalar("select role from team_member where team_id = $1 and user_id = $2")
        .bind(team_id)
        .bind(user_id(pool, username).await)
        .fetch_optional(pool)
        .await
        .unwrap()
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn creating_a_team_makes_its_creator_the_owner_and_its_page_shows_members_and_invite_code(
    pool: PgPool,
) {
    // Arrange
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;

    // Act
    let team_id = alice.create_team("  Night Owls ").await;
    let page = alice.get(&format!("/teams/{team_id}")).await;

    // Assert
    page.assert_status(StatusCode::OK);
    page.assert_shows("Team Night Owls created.");
    page.assert_shows("<h1>Night Owls</h1>");
    page.assert_shows("alice <span class=\"muted\">owner</span>");
    let code = invite_code(&pool, team_id).await;
    assert_eq!(code.len(), 12);
    page.assert_shows(&code);
    assert_eq!(
        role(&pool, team_id, "alice").await.as_deref(),
        Some("owner")
    );
    alice.get("/teams").await.assert_shows("Night Owls");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_team_name_taken_in_any_case_is_refused_with_409_and_only_one_team_exists(pool: PgPool) {
    // Arrange
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;
    alice.create_team("Owls").await;
    let mut bob = alice.new_visitor();
    bob.sign_up("bob").await;

    // Act
    let page = bob
        .submit_form("/teams", "/teams", &[("name", "oWLS")])
        .await;

    // Assert
    page.assert_status(StatusCode::CONFLICT);
    page.assert_shows(r#"the team name "oWLS" is already taken"#);
    assert_eq!(count(&pool, "team").await, 1);
    assert_eq!(count(&pool, "team_member").await, 1);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_teammate_joins_with_the_invite_code_typed_in_lower_case(pool: PgPool) {
    // Arrange
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;
    let team_id = alice.create_team("Owls").await;
    let code = invite_code(&pool, team_id).await;
    let mut bob = alice.new_visitor();
    bob.sign_up("bob").await;

    // Act
    let page = bob.join_team(&format!("  {}  ", code.to_lowercase())).await;

    // Assert
    page.assert_redirect(&format!("/teams/{team_id}"));
    assert_eq!(role(&pool, team_id, "bob").await.as_deref(), Some("member"));
    let team_page = bob.get(&format!("/teams/{team_id}")).await;
    team_page.assert_status(StatusCode::OK);
    team_page.assert_shows("You joined Owls.");
    team_page.assert_shows("alice <span class=\"muted\">owner</span>");
    team_page.assert_shows("bob <span class=\"muted\">member</span>");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_unknown_invite_code_is_refused_with_400(pool: PgPool) {
    // Arrange
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;
    alice.create_team("Owls").await;
    let mut bob = alice.new_visitor();
    bob.sign_up("bob").await;

    // Act
    let page = bob.join_team("NOSUCHCODE42").await;

    // Assert
    page.assert_status(StatusCode::BAD_REQUEST);
    page.assert_shows("no team has this invite code");
    assert_eq!(count(&pool, "team_member").await, 1);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn joining_a_team_twice_is_refused_with_409(pool: PgPool) {
    // Arrange
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;
    let team_id = alice.create_team("Owls").await;
    let code = invite_code(&pool, team_id).await;
    let mut bob = alice.new_visitor();
    bob.sign_up("bob").await;
    bob.join_team(&code)
        .await
        .assert_status(StatusCode::SEE_OTHER);

    // Act
    let again = bob.join_team(&code).await;
    let owner = alice.join_team(&code).await;

    // Assert
    for page in [&again, &owner] {
        page.assert_status(StatusCode::CONFLICT);
        page.assert_shows("you are already a member of Owls");
    }
    assert_eq!(count(&pool, "team_member").await, 2);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_non_member_gets_404_for_another_teams_page_upload_form_and_submissions(pool: PgPool) {
    // Arrange
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;
    let team_id = alice.create_team("Owls").await;
    let uploaded = alice
        .upload(team_id, &Upload::python("bot.py", BOT_PY))
        .await;
    let submission = uploaded.location().expect("location").to_owned();
    let mut eve = alice.new_visitor();
    eve.sign_up("eve").await;
    let before = Stored::now(&pool).await;

    // Act
    let pages = [
        eve.get(&format!("/teams/{team_id}")).await,
        eve.get(&format!("/teams/{team_id}/upload")).await,
        eve.upload_without_form(team_id, &Upload::python("evil.py", BOT_PY))
            .await,
        eve.get(&submission).await,
        eve.get(&format!("{submission}/download")).await,
    ];

    // Assert
    for page in &pages {
        page.assert_status(StatusCode::NOT_FOUND);
        assert!(
            !page.body.contains("Owls"),
            "the 404 page leaks the team's name:\n{}",
            page.body
        );
    }
    assert_eq!(Stored::now(&pool).await, before);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_owner_can_make_a_new_invite_code_and_the_old_one_stops_working(pool: PgPool) {
    // Arrange
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;
    let team_id = alice.create_team("Owls").await;
    let old = invite_code(&pool, team_id).await;
    let team_page = format!("/teams/{team_id}");

    // Act
    let page = alice
        .submit_form(&team_page, &format!("{team_page}/invite"), &[])
        .await;

    // Assert
    page.assert_redirect(&team_page);
    let new = invite_code(&pool, team_id).await;
    assert_ne!(new, old);
    let shown = alice.get(&team_page).await;
    shown.assert_shows("the old one no longer works");
    shown.assert_shows(&new);
    let mut bob = alice.new_visitor();
    bob.sign_up("bob").await;
    bob.join_team(&old)
        .await
        .assert_status(StatusCode::BAD_REQUEST);
    bob.join_team(&new).await.assert_redirect(&team_page);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_member_who_is_not_the_owner_cannot_make_a_new_invite_code(pool: PgPool) {
    // Arrange
    let mut alice = TestApp::new(pool.clone());
    alice.sign_up("alice").await;
    let team_id = alice.create_team("Owls").await;
    let code = invite_code(&pool, team_id).await;
    let mut bob = alice.new_visitor();
    bob.sign_up("bob").await;
    bob.join_team(&code)
        .await
        .assert_status(StatusCode::SEE_OTHER);
    let team_page = format!("/teams/{team_id}");
    assert!(!bob.get(&team_page).await.body.contains("Make a new code"));

    // Act
    let page = bob
        .submit_form(&team_page, &format!("{team_page}/invite"), &[])
        .await;

    // Assert
    page.assert_status(StatusCode::FORBIDDEN);
    page.assert_shows("only the team's owner can change the invite code");
    assert_eq!(invite_code(&pool, team_id).await, code);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_team_upload_and_submission_pages_speak_chinese_once_chosen(pool: PgPool) {
    // Arrange: alice in 简体中文 (the footer's link), with a team
    let mut alice = TestApp::new(pool.clone());
    alice.choose_chinese().await;
    alice.sign_up("alice").await;
    let team_id = alice.create_team("Owls").await;

    // Act
    let created = alice.get(&format!("/teams/{team_id}")).await;
    let form = alice.get(&format!("/teams/{team_id}/upload")).await;
    let empty = alice.upload(team_id, &Upload::python("bot.py", b"")).await;
    let uploaded = alice
        .upload(team_id, &Upload::python("bot.py", BOT_PY))
        .await;
    let submission = alice.get(uploaded.location().expect("a redirect")).await;
    let team = alice.get(&format!("/teams/{team_id}")).await;

    // Assert
    created.assert_status(StatusCode::OK);
    assert!(created.body.contains(r#"<html lang="zh-CN">"#));
    created.assert_shows("队伍 Owls 已创建。");
    created.assert_shows("alice <span class=\"muted\">队长</span>");
    created.assert_shows("<h3>邀请码</h3>");
    created.assert_lacks("Invite code");
    form.assert_status(StatusCode::OK);
    form.assert_shows("<h1>为 Owls 上传机器人</h1>");
    form.assert_shows("最多 200 个文件");
    empty.assert_status(StatusCode::BAD_REQUEST);
    empty.assert_shows(r#"文件 "bot.py" 是空的"#);
    empty.assert_shows("浏览器不会保留已选的文件");
    submission.assert_status(StatusCode::OK);
    submission.assert_shows("已上传你的 不，谢谢！（No Thanks!） 机器人第 1 版");
    submission.assert_shows("等待中</span>");
    submission.assert_shows("<h2>构建日志</h2>");
    submission.assert_shows("由 alice 上传");
    team.assert_shows("<h2>提交</h2>");
    team.assert_shows("等待中</span>");
}
