//! `/api/v1/openapi.json` documents exactly the routes the API serves.

use std::collections::BTreeSet;

use axum::http::{Method, StatusCode};
use sqlx::PgPool;

use crate::helpers::TestApp;

/// Every route of the API router, mirrored by hand from `services/server/src/api/*.rs`
/// (method, path relative to `/api/v1`).
const API_ROUTES: [(&str, &str); 19] = [
    ("get", "/openapi.json"),
    ("get", "/games"),
    ("post", "/users"),
    ("post", "/tokens"),
    ("get", "/me"),
    ("get", "/teams"),
    ("post", "/teams"),
    ("post", "/teams/join"),
    ("get", "/teams/{team_id}"),
    ("get", "/teams/{team_id}/submissions"),
    ("post", "/teams/{team_id}/submissions"),
    ("get", "/submissions/{submission_id}"),
    ("get", "/submissions/{submission_id}/source"),
    ("get", "/admin/users"),
    ("post", "/admin/users/{user_id}/admin"),
    ("get", "/admin/teams"),
    ("get", "/competitions"),
    ("get", "/competitions/{competition_id}/leaderboard"),
    ("post", "/admin/competitions"),
];

const HTTP_METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn the_openapi_document_is_openapi_3_and_documents_every_route_the_api_serves(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool);

    // Act
    let reply = app
        .api(Method::GET, "/api/v1/openapi.json", None, None)
        .await;

    // Assert: a valid OpenAPI 3.x document
    reply.assert_status(StatusCode::OK);
    let doc = &reply.json;
    let version = doc["openapi"].as_str().expect("an openapi field");
    assert!(version.starts_with("3."), "openapi {version}");
    assert!(doc["info"]["title"].is_string() && doc["info"]["version"].is_string());
    assert_eq!(doc["servers"][0]["url"], "/api/v1");

    // Assert: documented == served
    let mut documented = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            assert!(
                HTTP_METHODS.contains(&method.as_str()),
                "{method} {path} is not an HTTP method"
            );
            assert!(
                op["responses"].is_object(),
                "{method} {path} has no responses"
            );
            for param in path
                .split('/')
                .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
            {
                let declared = op["parameters"]
                    .as_array()
                    .is_some_and(|ps| ps.iter().any(|p| p["name"] == param && p["in"] == "path"));
                assert!(
                    declared,
                    "{method} {path} does not declare its path parameter {param}"
                );
            }
            documented.insert((method.clone(), path.clone()));
        }
    }
    let served: BTreeSet<(String, String)> = API_ROUTES
        .iter()
        .map(|(m, p)| ((*m).to_owned(), (*p).to_owned()))
        .collect();
    let undocumented: Vec<_> = served.difference(&documented).collect();
    let not_served: Vec<_> = documented.difference(&served).collect();
    assert!(
        undocumented.is_empty(),
        "routes missing from openapi.json: {undocumented:?}"
    );
    assert!(
        not_served.is_empty(),
        "documented routes the API does not serve: {not_served:?}"
    );
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn every_route_in_the_mirrored_list_is_really_served(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool);
    let id = uuid::Uuid::new_v4().to_string();

    for (method, path) in API_ROUTES {
        // Public routes answer 404 for an unknown id, like the fallback; an id that is no
        // uuid is refused by a served route (400) and only by the fallback 404.
        let concrete = ["{team_id}", "{submission_id}", "{user_id}"]
            .iter()
            .fold(path.to_owned(), |p, param| p.replace(param, &id))
            .replace("{competition_id}", "not-a-uuid");
        let method: Method = method.to_uppercase().parse().unwrap();

        // Act: no token, no body; a served route answers 200, 401 or a body error, not 404/405.
        let reply = app
            .api(method.clone(), &format!("/api/v1{concrete}"), None, None)
            .await;

        // Assert
        assert!(
            ![StatusCode::NOT_FOUND, StatusCode::METHOD_NOT_ALLOWED].contains(&reply.status),
            "{method} {path} is not served: {} {}",
            reply.status,
            reply.raw
        );
    }
    let missing = app
        .api(Method::GET, "/api/v1/nothing-here", None, None)
        .await;
    missing.assert_error(StatusCode::NOT_FOUND, "not found");
}
