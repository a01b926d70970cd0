//! Every state-changing HTML form refuses a missing, empty, foreign, tampered or stale CSRF
//! token with 403, and changes nothing.

use axum::http::StatusCode;
use sqlx::PgPool;
use uuid::Uuid;

use crate::helpers::{
    invite_code, make_admin, user_id, Page, Part, Snapshot, TestApp, Upload, BOT_PY, PASSWORD,
};

const CSRF_MESSAGE: &str = "this form has expired or was not sent from this site";

#[derive(Debug, Clone, Copy)]
enum Form {
    SignUp,
    LogIn,
    LogOut,
    CreateTeam,
    JoinTeam,
    RotateInvite,
    CreateToken,
    RevokeToken,
    Upload,
    MakeAdmin,
}

const EVERY_FORM: [Form; 10] = [
    Form::SignUp,
    Form::LogIn,
    Form::LogOut,
    Form::CreateTeam,
    Form::JoinTeam,
    Form::RotateInvite,
    Form::CreateToken,
    Form::RevokeToken,
    Form::Upload,
    Form::MakeAdmin,
];

/// alice: admin, owner of Owls, with one API token; bob: a logged-in user in no team;
/// a visitor: logged out, on the sign-up page.
struct World {
    pool: PgPool,
    alice: TestApp,
    bob: TestApp,
    visitor: TestApp,
    team_id: Uuid,
    bob_id: Uuid,
    token_id: Uuid,
}

impl World {
    async fn new(pool: PgPool) -> Self {
        let mut alice = TestApp::new(pool.clone());
        alice.sign_up("alice").await;
        make_admin(&pool, "alice").await;
        let team_id = alice.create_team("Owls").await;
        let team_page = format!("/teams/{team_id}");
        alice
            .submit_form(
                &team_page,
                &format!("{team_page}/tokens"),
                &[("name", "laptop")],
            )
            .await
            .assert_status(StatusCode::SEE_OTHER);
        let token_id = sqlx::query_scalar("select api_token_id from api_token")
            .fetch_one(&pool)
            .await
            .unwrap();
        let mut bob = alice.new_visitor();
        bob.sign_up("bob").await;
        let bob_id = user_id(&pool, "bob").await;
        let mut visitor = alice.new_visitor();
        visitor.get("/signup").await.assert_status(StatusCode::OK);
        World {
            pool,
            alice,
            bob,
            visitor,
            team_id,
            bob_id,
            token_id,
        }
    }

    /// The browser that sends `form`, and its username when logged in.
    fn actor(&mut self, form: Form) -> (&mut TestApp, Option<&'static str>) {
        match form {
            Form::SignUp | Form::LogIn => (&mut self.visitor, None),
            Form::JoinTeam => (&mut self.bob, Some("bob")),
            _ => (&mut self.alice, Some("alice")),
        }
    }

    /// Sends `form` with `csrf` as its token (no `csrf` field at all when `None`).
    async fn post(&mut self, form: Form, csrf: Option<&str>) -> Page {
        let team = self.team_id;
        let code = invite_code(&self.pool, team).await;
        let (bob_id, token_id) = (self.bob_id, self.token_id);
        let (path, fields): (String, Vec<(&str, String)>) = match form {
            Form::SignUp => (
                "/signup".into(),
                vec![
                    ("username", "mallory".into()),
                    ("password", PASSWORD.into()),
                    ("password_again", PASSWORD.into()),
                ],
            ),
            Form::LogIn => (
                "/login".into(),
                vec![("username", "alice".into()), ("password", PASSWORD.into())],
            ),
            Form::LogOut => ("/logout".into(), vec![]),
            Form::CreateTeam => ("/teams".into(), vec![("name", "Ravens".into())]),
            Form::JoinTeam => ("/teams/join".into(), vec![("invite_code", code)]),
            Form::RotateInvite => (format!("/teams/{team}/invite"), vec![]),
            Form::CreateToken => (
                format!("/teams/{team}/tokens"),
                vec![("name", "stolen".into())],
            ),
            Form::RevokeToken => (format!("/teams/{team}/tokens/{token_id}/revoke"), vec![]),
            Form::MakeAdmin => (
                format!("/admin/users/{bob_id}/admin"),
                vec![("admin", "true".into())],
            ),
            Form::Upload => {
                let upload = Upload::python("bot.py", BOT_PY);
                let mut parts = upload.api_parts();
                if let Some(csrf) = csrf {
                    parts.insert(0, Part::Text("csrf", csrf));
                }
                return self
                    .alice
                    .post_multipart(&format!("/teams/{team}/upload"), &parts)
                    .await;
            }
        };
        let mut all: Vec<(&str, &str)> = csrf.map(|c| ("csrf", c)).into_iter().collect();
        all.extend(fields.iter().map(|(k, v)| (*k, v.as_str())));
        let (browser, _) = self.actor(form);
        browser.post_form(&path, &all).await
    }

    /// The token the actor's own session holds right now (from the teams page when logged
    /// in, else from the login page).
    async fn own_token(&mut self, form: Form) -> String {
        let (browser, _) = self.actor(form);
        let teams = browser.get("/teams").await;
        if teams.status == StatusCode::OK {
            teams.csrf()
        } else {
            browser.csrf("/login").await
        }
    }

    /// A token from the actor's previous session: it logged out and in again (or, when
    /// logged out, its cookies were cleared) since.
    async fn stale_token(&mut self, form: Form) -> String {
        let token = self.own_token(form).await;
        let (browser, who) = self.actor(form);
        match who {
            Some(name) => {
                browser
                    .submit_form("/teams", "/logout", &[])
                    .await
                    .assert_redirect("/");
                browser
                    .log_in(name, PASSWORD)
                    .await
                    .assert_redirect("/teams");
            }
            None => {
                browser.clear_cookies();
                browser.get("/signup").await.assert_status(StatusCode::OK);
            }
        }
        assert_ne!(self.own_token(form).await, token);
        token
    }

    /// Sends `form` with `csrf` and checks it was refused with 403 and changed nothing.
    async fn assert_refused(&mut self, form: Form, csrf: Option<&str>, what: &str) {
        let page = self.assert_unchanged_by(form, csrf, what).await;
        assert_eq!(
            page.status,
            StatusCode::FORBIDDEN,
            "{form:?} with {what} token was not refused:\n{}",
            page.body
        );
        page.assert_shows(CSRF_MESSAGE);
    }

    /// Sends `form` with `csrf` and checks it was refused (4xx) and changed nothing; returns
    /// the answer.
    async fn assert_unchanged_by(&mut self, form: Form, csrf: Option<&str>, what: &str) -> Page {
        let before = Snapshot::now(&self.pool).await;
        let page = self.post(form, csrf).await;
        assert!(
            page.status.is_client_error(),
            "{form:?} with {what} token was not refused:\n{}",
            page.body
        );
        assert_eq!(
            Snapshot::now(&self.pool).await,
            before,
            "{form:?} with {what} token changed the database"
        );
        self.alice.get("/teams").await.assert_status(StatusCode::OK);
        self.bob.get("/teams").await.assert_status(StatusCode::OK);
        self.visitor.get("/teams").await.assert_redirect("/login");
        page
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_empty_foreign_or_tampered_csrf_token_is_refused_on_every_form_and_nothing_changes(
    pool: PgPool,
) {
    // Arrange
    let mut world = World::new(pool).await;
    let foreign = world.visitor.new_visitor().csrf("/login").await;

    for form in EVERY_FORM {
        let own = world.own_token(form).await;
        let tampered = format!(
            "{}{}",
            &own[..own.len() - 1],
            if own.ends_with('A') { 'B' } else { 'A' }
        );

        // Act + Assert
        world.assert_refused(form, Some(""), "an empty").await;
        world
            .assert_refused(form, Some(&foreign), "a foreign")
            .await;
        world
            .assert_refused(form, Some(&tampered), "a tampered")
            .await;
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_stale_csrf_token_from_an_ended_session_is_refused_on_every_form_and_nothing_changes(
    pool: PgPool,
) {
    // Arrange
    let mut world = World::new(pool).await;

    for form in EVERY_FORM {
        let stale = world.stale_token(form).await;

        // Act + Assert
        world.assert_refused(form, Some(&stale), "a stale").await;
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_form_without_its_csrf_field_is_refused_with_403_and_nothing_changes(pool: PgPool) {
    // Arrange
    let mut world = World::new(pool).await;

    for form in EVERY_FORM {
        // Act + Assert
        world.assert_refused(form, None, "no").await;
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_same_forms_succeed_with_the_sessions_own_token(pool: PgPool) {
    // Arrange
    let mut world = World::new(pool.clone()).await;
    let before = Snapshot::now(&pool).await;

    // Act: the forms in an order where each still makes sense (log out last).
    let order = [
        Form::SignUp,
        Form::JoinTeam,
        Form::CreateTeam,
        Form::RotateInvite,
        Form::CreateToken,
        Form::RevokeToken,
        Form::Upload,
        Form::MakeAdmin,
        Form::LogIn,
        Form::LogOut,
    ];
    for form in order {
        let own = world.own_token(form).await;
        let page = world.post(form, Some(&own)).await;

        // Assert
        assert_eq!(
            page.status,
            StatusCode::SEE_OTHER,
            "{form:?} failed with its own token:\n{}",
            page.body
        );
    }
    let after = Snapshot::now(&pool).await;
    assert_eq!(after.users, before.users + 1);
    assert_eq!(after.admins, before.admins + 1);
    assert_eq!(after.teams, before.teams + 1);
    assert_eq!(after.members, before.members + 2);
    assert_ne!(after.invite_codes, before.invite_codes);
    assert_eq!(after.tokens, before.tokens + 1);
    assert_eq!(after.live_tokens, before.live_tokens);
    assert_eq!(after.stored.submissions, 1);
    world.alice.get("/teams").await.assert_redirect("/login");
}
