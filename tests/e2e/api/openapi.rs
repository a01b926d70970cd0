//! `/api/v1/openapi.json` documents exactly the routes the API serves: the route table the
//! router is built from (`croupier_server::api::routes`) equals the document's operations, and
//! the router answers every one of them.

use std::collections::BTreeSet;

use axum::http::{Method, StatusCode};
use sqlx::PgPool;

use croupier_server::ServerConfig;

use crate::helpers::TestApp;

/// The API's route table, which the router is built from: (method, path under `/api/v1`).
fn route_table() -> BTreeSet<(String, String)> {
    croupier_server::api::routes(&ServerConfig::default())
        .iter()
        .map(|r| (r.method.as_str().to_ascii_lowercase(), r.path.to_owned()))
        .collect()
}

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
    let served = route_table();
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
async fn the_router_answers_every_route_of_the_table_and_no_other_method_on_its_paths(
    pool: PgPool,
) {
    // Arrange
    let app = TestApp::new(pool);
    let token = app.api_user("prober").await;
    let id = uuid::Uuid::new_v4().to_string();
    let table = route_table();
    let paths: BTreeSet<&String> = table.iter().map(|(_, path)| path).collect();

    for path in paths {
        let concrete = path
            .split('/')
            .map(|s| if s.starts_with('{') { id.as_str() } else { s })
            .collect::<Vec<_>>()
            .join("/");
        for method in ["get", "post", "put", "patch", "delete"] {
            let served = table.contains(&(method.to_owned(), path.clone()));
            let http: Method = method.to_uppercase().parse().unwrap();

            // Act: a valid token, no body
            let reply = app
                .api(
                    http.clone(),
                    &format!("/api/v1{concrete}"),
                    Some(&token),
                    None,
                )
                .await;

            // Assert: a route of the table is answered by its handler (an unknown id is that
            // handler's 404, never the fallback's); any other method is a JSON 405.
            let message = reply.json["error"].as_str().unwrap_or_default();
            if served {
                assert!(
                    reply.status != StatusCode::METHOD_NOT_ALLOWED
                        && !message.contains("nothing is served"),
                    "{method} {path} is in the table but not served: {} {}",
                    reply.status,
                    reply.raw
                );
            } else {
                reply.assert_error(
                    StatusCode::METHOD_NOT_ALLOWED,
                    &format!("{} is not allowed on /api/v1{concrete}", http.as_str()),
                );
            }
        }
    }
}

#[sqlx::test(migrator = "croupier_store::MIGRATOR")]
async fn an_address_no_api_route_serves_is_a_json_404_naming_it(pool: PgPool) {
    // Arrange
    let app = TestApp::new(pool);

    for path in [
        "/api/v1",
        "/api/v1/",
        "/api/v1/nothing-here",
        "/api/v1/teams/a/b/c",
    ] {
        // Act
        let missing = app.api(Method::GET, path, None, None).await;

        // Assert
        missing.assert_error(
            StatusCode::NOT_FOUND,
            &format!("not found: nothing is served at {path}"),
        );
    }
}
