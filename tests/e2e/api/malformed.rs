//! Malformed requests get the app's own errors: under `/api/v1` the JSON `Error` object with a
//! status the OpenAPI document lists for the operation, everywhere else the HTML error page.
//! Which malformed requests apply to an operation is read from the served OpenAPI document
//! itself (its security, path parameters and request body).

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::{json, Value};
use sqlx::PgPool;
use uuid::Uuid;

use crate::helpers::{Page, TestApp};

/// One malformed request to an API operation and what it must be answered with.
struct Probe {
    what: String,
    request: Request<Body>,
    status: StatusCode,
    /// Words the error message must contain, each.
    says: Vec<String>,
}

fn request(
    method: &Method,
    path: &str,
    token: Option<&str>,
    content_type: Option<&str>,
    body: impl Into<Body>,
) -> Request<Body> {
    let mut builder = Request::builder().method(method.clone()).uri(path);
    if let Some(token) = token {
        builder = builder.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    if let Some(content_type) = content_type {
        builder = builder.header(header::CONTENT_TYPE, content_type);
    }
    builder.body(body.into()).expect("request")
}

/// `path` with every `{param}` replaced by `value` (or by a fresh uuid where `value` is None),
/// except `bad` (if any), which gets `not-a-uuid`.
fn concrete(path: &str, bad: Option<&str>) -> String {
    path.split('/')
        .map(|segment| match segment.strip_prefix('{') {
            Some(name) if bad == name.strip_suffix('}') => "not-a-uuid".to_owned(),
            Some(_) => Uuid::new_v4().to_string(),
            None => segment.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Every malformed request that applies to the operation `method path` documented as `op`.
fn probes(method: &Method, path: &str, op: &Value, token: &str) -> Vec<Probe> {
    let url = format!("/api/v1{}", concrete(path, None));
    let mut probes = Vec::new();
    let name = |what: &str| format!("{method} {path}: {what}");
    // `[]`: public; `[{}, …]`: a token is optional (it widens what the answer holds).
    let security = op["security"].as_array();
    let optional = security.is_some_and(|s| s.iter().any(|r| r == &json!({})));
    if !security.is_some_and(Vec::is_empty) && !optional {
        probes.push(Probe {
            what: name("no token"),
            request: request(method, &url, None, None, Body::empty()),
            status: StatusCode::UNAUTHORIZED,
            says: vec!["a valid API token is required".into()],
        });
    }
    if optional {
        probes.push(Probe {
            what: name("a token that is not valid"),
            request: request(method, &url, Some("cr_not-a-token"), None, Body::empty()),
            status: StatusCode::UNAUTHORIZED,
            says: vec!["a valid API token is required".into()],
        });
    }
    for param in op["parameters"].as_array().into_iter().flatten() {
        if param["in"] != "path" {
            continue;
        }
        let param = param["name"].as_str().expect("a parameter name");
        let url = format!("/api/v1{}", concrete(path, Some(param)));
        probes.push(Probe {
            what: name(&format!("{param} is not a uuid")),
            request: request(method, &url, Some(token), None, Body::empty()),
            status: StatusCode::BAD_REQUEST,
            says: vec!["`not-a-uuid` is not a valid".into()],
        });
    }
    let content = &op["requestBody"]["content"];
    if let Some(schema) = content.get("application/json").map(|c| &c["schema"]) {
        let json = Some("application/json");
        probes.push(Probe {
            what: name("a body that is not JSON"),
            request: request(method, &url, Some(token), json, r#"{"name": "#),
            status: StatusCode::BAD_REQUEST,
            says: vec![
                "the body is not valid JSON".into(),
                "EOF while parsing a value at line 1 column 9".into(),
            ],
        });
        probes.push(Probe {
            what: name("JSON sent as text/plain"),
            request: request(method, &url, Some(token), Some("text/plain"), "{}"),
            status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
            says: vec!["Content-Type: application/json".into()],
        });
        probes.push(Probe {
            what: name("JSON without a content type"),
            request: request(method, &url, Some(token), None, "{}"),
            status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
            says: vec!["Content-Type: application/json".into()],
        });
        let required: Vec<&str> = schema["required"]
            .as_array()
            .expect("a JSON body lists its required fields")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        probes.push(Probe {
            what: name("no fields"),
            request: request(method, &url, Some(token), json, "{}"),
            status: StatusCode::UNPROCESSABLE_ENTITY,
            says: vec!["missing field `".into()],
        });
        let first = required[0];
        probes.push(Probe {
            what: name(&format!("{first} of the wrong type")),
            request: request(
                method,
                &url,
                Some(token),
                json,
                json!({ first: [] }).to_string(),
            ),
            status: StatusCode::UNPROCESSABLE_ENTITY,
            says: vec![format!("{first}: invalid type: sequence")],
        });
    }
    if content.get("multipart/form-data").is_some() {
        probes.push(Probe {
            what: name("an upload sent as JSON"),
            request: request(method, &url, Some(token), Some("application/json"), "{}"),
            status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
            says: vec!["multipart/form-data".into()],
        });
    }
    probes
}

/// Panics unless `page` is the JSON `Error` object with `status`, saying `says`.
#[track_caller]
fn assert_json_error(page: &Page, status: StatusCode, says: &[String], what: &str) {
    assert_eq!(page.status, status, "{what}: {}", page.body);
    let content_type = page
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    assert_eq!(content_type, "application/json", "{what}: {}", page.body);
    let json: Value = serde_json::from_str(&page.body)
        .unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {}", page.body));
    let error = json["error"].as_str().unwrap_or_default();
    for words in says {
        assert!(
            error.contains(words),
            "{what}: {error:?} does not say {words:?}"
        );
    }
    assert_eq!(json["status"], status.as_u16(), "{what}: {json}");
    assert_eq!(
        json.as_object().map(serde_json::Map::len),
        Some(2),
        "{what}: {json}"
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn every_malformed_request_to_a_documented_route_is_a_documented_json_error(pool: PgPool) {
    // Arrange
    let mut app = TestApp::new(pool);
    let token = app.api_user("prober").await;
    let doc = app
        .api(Method::GET, "/api/v1/openapi.json", None, None)
        .await
        .json;
    let mut tried = 0;

    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("a path item") {
            let method: Method = method.to_uppercase().parse().expect("a method");
            for probe in probes(&method, path, op, &token) {
                // Act
                let page = app.send(probe.request).await;

                // Assert: the shared shape, the status axum means, and documented for the route
                assert_json_error(&page, probe.status, &probe.says, &probe.what);
                let status = probe.status.as_str();
                assert!(
                    op["responses"][status]["content"]["application/json"]["schema"]["$ref"]
                        == "#/components/schemas/Error",
                    "{}: {status} is not documented for the route",
                    probe.what
                );
                tried += 1;
            }
        }
    }

    // Assert: every kind of probe ran somewhere (a document without bodies would test nothing)
    assert!(tried >= 40, "only {tried} malformed requests were tried");
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_json_body_over_the_limit_is_a_json_413(pool: PgPool) {
    // Arrange: a body past axum's 2 MiB default, valid JSON all along
    let mut app = TestApp::new(pool);
    let name = "x".repeat(3 * 1024 * 1024);
    let body = json!({ "username": name, "password": "whatever" }).to_string();

    // Act
    let page = app
        .send(request(
            &Method::POST,
            "/api/v1/users",
            None,
            Some("application/json"),
            body,
        ))
        .await;

    // Assert
    assert_json_error(
        &page,
        StatusCode::PAYLOAD_TOO_LARGE,
        &["the request body is larger than this address accepts".to_owned()],
        "a 3 MiB sign-up",
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn a_missing_field_is_named_in_the_json_error(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool);
    let token = app.api_user("alice").await;

    // Act
    let reply = app
        .api(
            Method::POST,
            "/api/v1/teams/join",
            Some(&token),
            Some(json!({ "code": "X" })),
        )
        .await;

    // Assert
    reply.assert_error(
        StatusCode::UNPROCESSABLE_ENTITY,
        "the JSON body does not fit: missing field `invite_code`",
    );
}

/// Panics unless `page` is the site's HTML error page with `status`, telling the user `says`.
#[track_caller]
fn assert_error_page(page: &Page, status: StatusCode, says: &str) {
    page.assert_status(status);
    let content_type = page
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    assert!(
        content_type.starts_with("text/html"),
        "{content_type}: {}",
        page.body
    );
    let reason = status.canonical_reason().unwrap_or_default();
    page.assert_shows(&format!("{} · {reason}", status.as_u16()));
    page.assert_shows(says);
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn malformed_web_addresses_get_the_html_error_page(pool: PgPool) {
    // Arrange
    let mut app = TestApp::new(pool);
    app.sign_up("alice").await;
    let team_id = app.create_team("Owls").await;
    let competition = Uuid::new_v4();

    // Act
    let bad_team = app.get("/teams/not-a-uuid").await;
    let bad_token = app
        .send(
            Request::post(format!("/teams/{team_id}/tokens/not-a-uuid/revoke"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    let bad_competition = app.get("/competitions/not-a-uuid").await;
    let bad_query = app
        .get(&format!("/competitions/{competition}?page=first"))
        .await;
    let unknown = app.get("/no-such-page").await;
    let unknown_static = app.get("/static/no-such-file.css").await;
    let stylesheet = app.get("/static/croupier.css").await;
    let wrong_method = app
        .send(Request::delete("/teams").body(Body::empty()).unwrap())
        .await;
    let upload_as_text = app
        .send(
            Request::post(format!("/teams/{team_id}/upload"))
                .header(header::CONTENT_TYPE, "text/plain")
                .body(Body::from("hello"))
                .unwrap(),
        )
        .await;

    // Assert
    let not_a_uuid = "the address is not valid: `not-a-uuid` is not a valid";
    assert_error_page(&bad_team, StatusCode::BAD_REQUEST, not_a_uuid);
    assert_error_page(&bad_token, StatusCode::BAD_REQUEST, not_a_uuid);
    assert_error_page(&bad_competition, StatusCode::BAD_REQUEST, not_a_uuid);
    assert_error_page(
        &bad_query,
        StatusCode::BAD_REQUEST,
        "the query string is not valid: page: invalid digit",
    );
    assert_error_page(&unknown, StatusCode::NOT_FOUND, "not found");
    assert_error_page(&unknown_static, StatusCode::NOT_FOUND, "not found");
    stylesheet.assert_status(StatusCode::OK);
    assert!(
        stylesheet.body.contains('{'),
        "the stylesheet is served as it is"
    );
    assert_error_page(
        &wrong_method,
        StatusCode::METHOD_NOT_ALLOWED,
        "DELETE is not allowed on /teams",
    );
    assert_error_page(
        &upload_as_text,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "the body must be `multipart/form-data`",
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn every_page_with_a_bad_id_or_query_answers_the_html_error_page(pool: PgPool) {
    // Arrange: an admin with a team and a submission, so that every page would open
    let mut app = TestApp::new(pool.clone());
    app.sign_up("root").await;
    crate::helpers::make_admin(&pool, "root").await;
    let team_id = app.create_team("Owls").await;
    let submission =
        crate::competitions::ready_submission(&pool, team_id, "root", "nothanks").await;
    let some = Uuid::new_v4();
    let bad_ids = [
        "/teams/not-a-uuid/upload".to_owned(),
        "/submissions/not-a-uuid".to_owned(),
        "/submissions/not-a-uuid/download".to_owned(),
        "/competitions/not-a-uuid/leaderboard".to_owned(),
        "/matches/not-a-uuid".to_owned(),
        "/matches/not-a-uuid/replay.json".to_owned(),
        format!("/matches/{some}/seats/north/log.txt"),
    ];
    let bad_queries = [
        (
            format!("/submissions/{submission}?page=first"),
            "the query string is not valid",
        ),
        (
            format!("/submissions/{submission}?result=draws"),
            "is not a result to filter by",
        ),
        (
            "/admin/competitions/new?game=chess".to_owned(),
            "unknown game",
        ),
    ];

    // Act + Assert
    for path in &bad_ids {
        let page = app.get(path).await;
        assert_error_page(&page, StatusCode::BAD_REQUEST, "the address is not valid");
    }
    for (path, says) in &bad_queries {
        let page = app.get(path).await;
        assert_error_page(&page, StatusCode::BAD_REQUEST, says);
    }
    let cancel = app
        .submit_form("/teams", "/admin/competitions/not-a-uuid/cancel", &[])
        .await;
    assert_error_page(&cancel, StatusCode::BAD_REQUEST, "the address is not valid");
}
