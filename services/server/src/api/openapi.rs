//! The OpenAPI 3.1 document for `/api/v1`, served at `/api/v1/openapi.json`.
//!
//! Written by hand (a few dozen lines) rather than derived: the API is small, and deriving
//! would put schema annotations on every store type. A test checks that the routes documented
//! here are exactly the API's route table (`super::routes`), so the two cannot drift apart
//! silently, and that every malformed request a route can get is answered with one of the
//! error statuses documented for it here.
//!
//! Every error is the `Error` schema. Besides `default`, each operation lists the 4xx answers
//! its shape allows (added by [`document`] from the operation itself): 401 when it needs a
//! token, 400 and 404 when it has path parameters, 400/413/415/422 for a JSON body and
//! 400/413/415 for an upload.

use croupier_league::{FINAL_TOP, SEAT_CPU_MILLICORES, SEAT_DISK_MIB, SEAT_MEMORY_MIB};
use serde_json::{json, Value};

fn op(summary: &str, auth: bool, ok: u16, extra: Value) -> Value {
    let mut o = json!({
        "summary": summary,
        "responses": {
            ok.to_string(): { "description": "success", "content": { "application/json": {} } },
            "default": { "description": "error", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
        }
    });
    if !auth {
        o["security"] = json!([]);
    }
    if let (Some(o), Some(extra)) = (o.as_object_mut(), extra.as_object()) {
        o.extend(extra.clone());
    }
    o
}

/// An operation anyone may call, and whose answer a bearer token widens: with one, also the
/// private matches (a challenge's) of the caller's teams, or every one for an admin
/// (`crate::privacy`); a token that is sent must be valid.
fn op_token_widens(summary: &str, extra: Value) -> Value {
    let mut o = op(summary, true, 200, extra);
    o["security"] = json!([{}, { "bearer": [] }]);
    o
}

/// The ids of every registered game (`croupier_games::registry`).
fn game_ids() -> Vec<&'static str> {
    croupier_games::GameId::all()
        .iter()
        .map(|g| g.as_str())
        .collect()
}

fn json_body(schema: Value) -> Value {
    json!({ "requestBody": { "required": true, "content": { "application/json": { "schema": schema } } } })
}

/// A JSON body and one path parameter.
fn body_at(param: &str, schema: Value) -> Value {
    let mut extra = json_body(schema);
    extra["parameters"] = json!([path_param(param)]);
    extra
}

fn path_param(name: &str) -> Value {
    json!({ "name": name, "in": "path", "required": true, "schema": { "type": "string", "format": "uuid" } })
}

/// Leaving a team and the owner's changes to it (merged into the paths: one `json!` for the
/// whole document would pass the macro's recursion limit).
fn team_management() -> Value {
    json!({
        "/teams/{team_id}/leave": { "post": op("Leave a team (409 for its owner: make another member the owner first)", true, 200,
            json!({ "parameters": [path_param("team_id")] })) },
        "/teams/{team_id}/owner": { "post": op("Make another member the owner; the caller, its owner, becomes a member", true, 200,
            body_at("team_id", json!({ "type": "object", "required": ["user_id"],
                "properties": { "user_id": { "type": "string", "format": "uuid" } } }))) },
        "/teams/{team_id}/members/{user_id}": { "delete": op("Remove a member (the owner only; the owner cannot be removed: 409)", true, 200,
            json!({ "parameters": [path_param("team_id"), path_param("user_id")] })) }
    })
}

/// Changing one's password and one's browser sessions, merged into the paths like
/// [`team_management`].
fn my_account() -> Value {
    json!({
            "/me/password": { "post": op("Change my password with the current one: every browser session ends, and every other API token is revoked unless keep_tokens (this token keeps working)", true, 200, json_body(json!({
                "type": "object", "required": ["current", "new"],
                "properties": { "current": { "type": "string" }, "new": { "type": "string", "minLength": 8 },
                                "keep_tokens": { "type": "boolean", "default": false } } }))) },
            "/me/sessions": {
                "get": op("My signed-in browsers: when each signed in and was last seen, browser and address", true, 200, json!({})),
                "delete": op("Sign every browser of mine out (API tokens keep working)", true, 200, json!({}))
            }
    })
}

/// An organiser's controls on a competition (admins only), merged into the paths like
/// [`team_management`].
fn organiser() -> Value {
    let at = || json!({ "parameters": [path_param("competition_id")] });
    json!({
        "/admin/competitions/{competition_id}/pause": { "post": op(
            "Pause a round-robin: its queued matches wait, running ones finish (admins only; 409 for a ladder or a cancelled one); answers how many were held", true, 200, at()) },
        "/admin/competitions/{competition_id}/resume": { "post": op(
            "Resume a paused round-robin (admins only; 409 when not paused); answers how many matches were queued again", true, 200, at()) },
        "/admin/competitions/{competition_id}/cancel": { "post": op(
            "Cancel the queued matches (admins only); running ones finish and count; answers how many", true, 200, at()) },
        "/admin/competitions/{competition_id}/rename": { "post": op(
            "Rename a competition (admins only)", true, 200,
            body_at("competition_id", json!({ "type": "object", "required": ["name"],
                "properties": { "name": { "type": "string", "minLength": 1, "maxLength": 80 } } }))) },
        "/admin/competitions/{competition_id}/settings": { "post": op(
            "Change the time per move, games per match and seat limits (absent or null: the default; admins only; 409 once a match has started) and a ladder's pace (any time)", true, 200,
            body_at("competition_id", json!({ "type": "object", "required": ["settings"],
                "properties": { "settings": { "type": "object", "additionalProperties": false,
                "description": "the whole set: each absent or null is the default",
                "properties": {
                    "move_time_ms": { "type": ["integer", "null"], "minimum": 1 },
                    "games_per_match": { "type": ["integer", "null"], "minimum": 1 },
                    "seat_memory_mib": { "type": ["integer", "null"], "minimum": 1 },
                    "seat_disk_mib": { "type": ["integer", "null"], "minimum": 1 },
                    "seat_cpu_millicores": { "type": ["integer", "null"], "minimum": 1 },
                    "matches_per_hour": { "type": ["integer", "null"], "minimum": 1 },
                    "max_pending": { "type": ["integer", "null"], "minimum": 1 } } } } }))) },
        "/admin/competitions/{competition_id}/archive": { "post": op(
            "Archive a competition (out of the public list; its pages and API answers stay) or bring it back (admins only)", true, 200,
            body_at("competition_id", json!({ "type": "object", "required": ["archived"],
                "properties": { "archived": { "type": "boolean" } } }))) },
        "/admin/competitions/{competition_id}": { "delete": op(
            "Delete a competition nothing was played in, with its schedule (admins only; 409 once a match has run)", true, 200, at()) }
    })
}

/// The document.
pub fn document() -> Value {
    let mut doc = operations();
    doc["paths"]["/teams/{team_id}"]["delete"] = op(
        "Delete a team that never uploaded a bot (its owner only; 409 when it has submissions)",
        true,
        200,
        json!({ "parameters": [path_param("team_id")] }),
    );
    for more in [my_account(), team_management(), organiser()] {
        if let (Some(paths), Some(more)) = (doc["paths"].as_object_mut(), more.as_object()) {
            paths.extend(more.clone());
        }
    }
    if let Some(paths) = doc["paths"].as_object_mut() {
        for op in paths
            .values_mut()
            .filter_map(Value::as_object_mut)
            .flat_map(|item| item.values_mut())
        {
            let codes = error_responses(op);
            if let Some(responses) = op["responses"].as_object_mut() {
                for (status, description) in codes {
                    responses.insert(status.to_string(), error_response(description));
                }
            }
        }
    }
    doc
}

fn error_response(description: &str) -> Value {
    json!({ "description": description,
            "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } })
}

/// The 4xx answers an operation can give because of its shape.
fn error_responses(op: &Value) -> Vec<(u16, &'static str)> {
    let mut codes = Vec::new();
    let security = op["security"].as_array();
    // `[]`: no token; `[{}, …]`: a token is optional (`op_token_widens`).
    let public = security.is_some_and(Vec::is_empty);
    let optional = security.is_some_and(|s| s.iter().any(|r| r == &json!({})));
    if optional {
        codes.push((401, "a bearer token was sent and it is not valid"));
    } else if !public {
        codes.push((
            401,
            "no valid bearer token (`Authorization: Bearer <token>`)",
        ));
    }
    let has_path_params = op["parameters"]
        .as_array()
        .is_some_and(|ps| ps.iter().any(|p| p["in"] == "path"));
    if has_path_params {
        codes.push((400, "a path parameter is not a valid id"));
        codes.push((404, "no such resource, or not one this token may see"));
    }
    let body = &op["requestBody"]["content"];
    if body.get("application/json").is_some() {
        codes.push((400, "the body is not valid JSON, or a value is refused"));
        codes.push((413, "the body is over the size limit"));
        codes.push((415, "the body is not sent as `application/json`"));
        codes.push((
            422,
            "the JSON does not fit the schema (a missing field, a wrong type)",
        ));
    }
    if body.get("multipart/form-data").is_some() {
        codes.push((400, "the upload is refused, with the reason"));
        codes.push((413, "the upload is over the size cap"));
        codes.push((415, "the body is not `multipart/form-data`"));
    }
    codes.sort_by_key(|&(status, _)| status);
    codes.dedup_by_key(|(status, _)| *status);
    codes
}

/// The operations, before the error answers their shapes imply are added.
fn operations() -> Value {
    let none = json!({});
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Croupier API",
            "version": "1",
            "description": "Teams, bot uploads, submissions, competitions and their matches (lists, records, replays, seat logs). Authenticate with `Authorization: Bearer <token>`; make a token on your team's page or with POST /api/v1/tokens. Every error, a malformed request, an unknown address (404) or method (405) included, is the JSON `Error` object."
        },
        "servers": [{ "url": "/api/v1" }],
        "security": [{ "bearer": [] }],
        "components": {
            "securitySchemes": { "bearer": { "type": "http", "scheme": "bearer" } },
            "schemas": {
                "Error": { "type": "object", "required": ["error", "status"],
                           "properties": { "error": { "type": "string", "description": "what was wrong, for people" },
                                           "status": { "type": "integer", "description": "the response's HTTP status" } } }
            }
        },
        "paths": {
            "/openapi.json": { "get": op("This document", false, 200, none.clone()) },
            "/games": { "get": op("The hosted games and accepted languages", false, 200, none.clone()) },
            "/users": { "post": op("Sign up", false, 201, json_body(json!({
                "type": "object", "required": ["username", "password"],
                "properties": { "username": { "type": "string" }, "password": { "type": "string", "minLength": 8 }, "email": { "type": "string" } } }))) },
            "/tokens": { "post": op("Exchange a username and password for an API token (rate limited)", false, 201, json_body(json!({
                "type": "object", "required": ["username", "password"],
                "properties": { "username": { "type": "string" }, "password": { "type": "string" }, "name": { "type": "string" },
                                "team_id": { "type": "string", "format": "uuid" } } }))) },
            "/me": { "get": op("The token's user, its teams and the token's team", true, 200, none.clone()) },
            "/teams": {
                "get": op("My teams", true, 200, none.clone()),
                "post": op("Create a team (you become its owner)", true, 201, json_body(json!({
                    "type": "object", "required": ["name"], "properties": { "name": { "type": "string" } } })))
            },
            "/teams/join": { "post": op("Join a team with its invite code", true, 200, json_body(json!({
                "type": "object", "required": ["invite_code"], "properties": { "invite_code": { "type": "string" } } }))) },
            "/teams/{team_id}": { "get": op("A team and its members (members only; 404 otherwise)", true, 200,
                json!({ "parameters": [path_param("team_id")] })) },
            "/teams/{team_id}/submissions": {
                "get": op("The team's submissions, newest first", true, 200, json!({ "parameters": [path_param("team_id")] })),
                "post": op("Upload a bot: a single file, a .zip or a .tar.gz", true, 201, json!({
                    "parameters": [path_param("team_id")],
                    "requestBody": { "required": true, "content": { "multipart/form-data": { "schema": {
                        "type": "object", "required": ["game", "language", "file"],
                        "properties": {
                            "game": { "type": "string", "enum": game_ids() },
                            "language": { "type": "string", "enum": croupier_bundle::Language::ALL },
                            "label": { "type": "string", "maxLength": 80 },
                            "entry": { "type": "string", "maxLength": 512, "description": ENTRY_DOC, "example": "player.py:cautious(0.3)" },
                            "rules": { "type": "string", "description": RULES_DOC, "example": "rainbow" },
                            "players": { "type": "integer", "description": PLAYERS_DOC, "example": 3 },
                            "file": { "type": "string", "format": "binary" } } } } } }
                }))
            },
            "/submissions/{submission_id}": { "get": op("A submission and its files (its team and admins only; 404 otherwise)", true, 200,
                json!({ "parameters": [path_param("submission_id")] })) },
            "/submissions/{submission_id}/source": { "get": op("The uploaded bytes", true, 200,
                json!({ "parameters": [path_param("submission_id")] })) },
            "/admin/users": { "get": op("Every user (admins only)", true, 200, none.clone()) },
            "/admin/users/{user_id}/admin": { "post": op("Grant or remove the admin role (admins only)", true, 200, json!({
                "parameters": [path_param("user_id")],
                "requestBody": { "required": true, "content": { "application/json": { "schema": {
                    "type": "object", "required": ["admin"], "properties": { "admin": { "type": "boolean" } } } } } } })) },
            "/admin/teams": { "get": op("Every team (admins only)", true, 200, none.clone()) },
            "/admin/workers": { "get": op("The worker fleet: every worker heard of in the last day, its last heartbeat and running job (admins only)", true, 200, none.clone()) },
            "/competitions": { "get": op("Every competition, newest first, with its status and match counts; `settings` leaves `base_seed` out until every match drawn from it has ended (a ladder: once finished)", false, 200, none) },
            "/competitions/{competition_id}": { "get": op(
                "One competition as the list shows it; a Swiss or adaptive one with `round_progress` (rounds planned, the last round's matches and byes, and progress toward a decided ranking), and `stage_of` / `next_stage` linking stages",
                false, 200, json!({ "parameters": [path_param("competition_id")] })) },
            "/competitions/{competition_id}/leaderboard": { "get": op(
                "A competition's leaderboard: standings by the game's scheme with 95% confidence intervals, ratings, and `fitted`, the ranking fitted over all its finished matches with a 95% interval per bot and whether each is significantly ahead of the next",
                false, 200, json!({ "parameters": [path_param("competition_id")] })) },
            "/competitions/{competition_id}/history": { "get": op(
                "Each entry's rating history, in leaderboard order: its rating (or, unrated Hanabi, its mean score) after each of its matches",
                false, 200, json!({ "parameters": [path_param("competition_id")], "description": HISTORY_DOC })) },
            "/matches": { "get": op_token_widens(
                "Matches, newest first and paged: a competition's, a submission's (optionally only its wins, losses or faults) or a team's; at least one of competition, submission, team (400 otherwise). A challenge's matches are listed (and counted) only for its team's members and admins; each match as GET /matches/{match_id} shows it",
                json!({ "parameters": list_params() })) },
            "/matches/{match_id}": { "get": op_token_widens(
                "One match: game, rules, seed, settings, competition, challenge, status, seats with outcome (rank, score, end state), the number of faults and, while it runs, `progress`: the game being played (from 1) and the moves recorded in it, as the worker publishes them every 2 s (null otherwise). `seed` is null until nothing more will be played on seeds drawn from the same base seed (every match of its competition or challenge has ended, a ladder is finished), for everyone, admins included. A challenge's match (a challenge, an A/B test, a table with a person) is a 404 to anyone but its team's members and admins",
                json!({ "parameters": [path_param("match_id")],
                        "responses": { "200": { "description": "the match",
                                                "content": { "application/json": { "example": match_example() } } },
                                       "default": error_response("error") } })) },
            "/matches/{match_id}/replay": { "get": op_token_widens(
                "The match's replay document (format 1, docs/replays.md) as a download, once the match has finished and no match dealt the same cards (its round, its duplicate set) is still to play (409 before); each game's seed is null while the match's is. A challenge's: its team and admins only (404)",
                json!({ "parameters": [path_param("match_id")],
                                    "responses": { "200": { "description": "the replay document",
                                                            "content": { "application/json": {} } },
                                                   "409": error_response("the match, or another dealt the same cards, has not finished"),
                                                   "default": error_response("error") } })) },
            "/matches/{match_id}/seats/{seat}/log": { "get": op(
                "A seat's stderr tail, fault detail, move timings and move records (`move_log`: each move's replay entry, time, memory peak and stderr; see docs/replays.md#move-by-move) — members of the seat's team and admins only; 404 otherwise; 409 before the match has finished",
                true, 200, json!({ "parameters": [path_param("match_id"),
                    { "name": "seat", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 0 } }] })) },
            "/admin/competitions": { "post": op(
                "Create a competition (admins only): a round-robin with all its matches queued in one transaction, or a ladder (kind: ladder) that the workers keep playing", true, 201, json_body(competition_request())) },
            "/admin/competitions/{competition_id}/ladder": { "post": op(
                "Change a ladder (admins only): pause, resume, close_entries, open_entries or finish; 409 for a finished or cancelled one",
                true, 200, body_at("competition_id", ladder_request())) },
            "/competitions/{competition_id}/challenges": { "post": op(
                "Start a challenge (unrated; a team member): seats — one {submission_id} (the competition's entries or the team's own ready bots) or {builtin} per seat, in seat order — and games (duplicate groups, 1 to 200: the seating and its rotations on one seed each). 429 over a team's budget (20 an hour, 400 matches waiting)",
                true, 201, body_at("competition_id", challenge_request())) },
            "/competitions/{competition_id}/ab_tests": { "post": op(
                "Start an A/B test of two of the team's ready versions a and b (unrated): duplicate groups until a sequential test decides (95%, anytime-valid) or max_games groups are played",
                true, 201, body_at("competition_id", ab_request())) },
            "/challenges/{challenge_id}": { "get": op(
                "A challenge or A/B test and its report: match counts, per participant games, mean score with its 95% CI, wins and faults; an A/B test's mean difference, CI, anytime-valid interval and verdict (team members and admins; 404 otherwise). `challenge.base_seed` is null until every match of it has ended (an A/B test: once stopped)",
                true, 200, json!({ "parameters": [path_param("challenge_id")] })) },
            "/teams/{team_id}/challenges": { "get": op(
                "The team's challenges and A/B tests, newest first (members)",
                true, 200, json!({ "parameters": [path_param("team_id")] })) },
            "/admin/competitions/{competition_id}/rerun": { "post": op(
                "Queue the competition's failed (voided) matches again (admins only); answers how many",
                true, 200, json!({ "parameters": [path_param("competition_id")] })) }
        }
    })
}

/// A running match as `GET /matches/{match_id}` answers: its seed hidden.
fn match_example() -> Value {
    json!({ "match": {
        "match_id": "0b5c5f0e-7f43-4c3e-9a39-3f6c2c8d1e21",
        "competition_id": "6a1d2f4b-1c9e-4b7a-8d3f-2e5b7c9a0d14",
        "challenge_id": null,
        "game": "hanabi", "rules": "standard", "seed": null, "settings": {},
        "ordinal": 4, "status": "running", "failure_reason": null,
        "started_at": "2026-11-26T10:00:00Z", "finished_at": null,
        "seats": [
            { "seat": 0, "submission_id": "9e0c7d1a-4b2f-4e8a-b6c5-1d3f5a7b9c2e", "builtin": null, "person": null,
              "team_id": "3f2e1d0c-9b8a-4765-8432-10fedcba9876", "team_name": "Owls", "version": 3,
              "rank": null, "score": null, "end_state": null, "end_detail": null },
            { "seat": 1, "submission_id": null, "builtin": "random", "person": null, "team_id": null,
              "team_name": null, "version": null, "rank": null, "score": null, "end_state": null, "end_detail": null }
        ],
        "link": "/matches/0b5c5f0e-7f43-4c3e-9a39-3f6c2c8d1e21",
        "replay": "/api/v1/matches/0b5c5f0e-7f43-4c3e-9a39-3f6c2c8d1e21/replay",
        "replay_expired_at": null,
        "competition": { "competition_id": "6a1d2f4b-1c9e-4b7a-8d3f-2e5b7c9a0d14", "name": "Spring cup" },
        "faults": 0
    } })
}

fn ladder_request() -> Value {
    json!({ "type": "object", "required": ["action"], "properties": { "action": { "type": "string",
            "enum": ["pause", "resume", "close_entries", "open_entries", "finish"] } } })
}

fn challenge_request() -> Value {
    json!({ "type": "object", "required": ["team_id", "seats"], "properties": {
            "team_id": { "type": "string", "format": "uuid" },
            "seats": { "type": "array", "items": { "type": "object" },
                       "description": "per seat {\"submission_id\": …}, {\"builtin\": …} or, once, {\"human\": true}: the caller plays that seat in the browser at /matches/{id}/play (then one match, games 1, no rotations)" },
            "games": { "type": "integer", "minimum": 1, "maximum": 200, "default": 1 },
            "human_move_secs": { "type": "integer", "minimum": 5, "maximum": 3600, "default": 90,
                                 "description": "the person's time per move" } } })
}

fn ab_request() -> Value {
    json!({ "type": "object", "required": ["team_id", "a", "b"], "properties": {
            "team_id": { "type": "string", "format": "uuid" },
            "a": { "type": "string", "format": "uuid" }, "b": { "type": "string", "format": "uuid" },
            "max_games": { "type": "integer", "minimum": 1, "maximum": 200, "default": 100 } } })
}

/// What `GET /competitions/{id}/history` answers.
const RULES_DOC: &str = "the rule set the bot is for (its validation game plays it): one of the game's \
rule sets (GET /api/v1/games); default: the rule set of the game's newest open competition, else the game's first";
const PLAYERS_DOC: &str = "the number of players the bot is for, only for a rule set that lets it be \
chosen (Hanabi 2–5, No Thanks 3–7); default: the newest open competition's, else the rule set's own. \
The submission object says what was chosen (`rules`, `players`), its validation game's `validation_seed` \
(from the uploaded bytes and that table: the same upload gets the same game) and, once `ready`, \
`validation_warning`: null, or the faults the bot made and played on after, \
`{faults, kinds: [{kind, count}], reasons}`";
const HISTORY_DOC: &str = "`{competition_id, game, kind, entries: [{submission_id, team_id, team_name, version, label, \
points}]}`. `kind` is `rating` or `score`. Each point is the entry's standing right after one of its matches, in match \
order: `ordinal` (the match's place in the schedule; Bridge: the duplicate set's second table) and, for `rating`, \
`mu`, `sigma` and `display` (μ − 3σ, the leaderboard's rating; the last point is the leaderboard's), or, for `score`, \
`score` (that match), `mean` (so far) and `half_width` (of the mean's 95% confidence interval, null under two matches).";
/// The query parameters of `GET /matches`.
fn list_params() -> Value {
    let uuid = |name: &str, description: &str| {
        json!({ "name": name, "in": "query", "required": false, "description": description,
                "schema": { "type": "string", "format": "uuid" } })
    };
    json!([
        uuid("competition", "the competition's matches"),
        uuid("submission", "the matches this submission sat in"),
        uuid("team", "the matches any submission of this team sat in"),
        { "name": "result", "in": "query", "required": false,
          "description": "with submission: only its wins (rank 1), losses (a lower rank) or faults (not played to the end)",
          "schema": { "type": "string", "enum": ["wins", "losses", "faults"] } },
        { "name": "page", "in": "query", "required": false, "schema": { "type": "integer", "minimum": 1, "default": 1 } },
        { "name": "per_page", "in": "query", "required": false,
          "schema": { "type": "integer", "minimum": 1, "maximum": 100, "default": 20 } }
    ])
}

/// What the upload's `entry` field means (the same text as the upload form's hint).
const ENTRY_DOC: &str = "Optional entry point: the file that starts the bot, as a path inside the upload \
(`client0.py`, `gd/client2.py`; a bare name finds the only file of that name in a folder). For python3 the \
.py file run, for binary the program, for C/C++ the one source compiled. A Hanabi class bot may add its class \
and constructor arguments, Python literals only: `player.py:cautious(0.3)`. Empty: bot.py, main.py, player.py, \
__main__.py or the only source file; for Hanabi the class named player, else the only basePlayer subclass. \
An ambiguous upload without an entry fails its build with the list of candidates.";

/// The body of `POST /admin/competitions` (its own function: one `json!` this deep would
/// exceed the macro recursion limit).
fn competition_request() -> Value {
    json!({
        "type": "object", "required": ["name", "game"],
        "properties": {
            "name": { "type": "string", "maxLength": 80 },
            "game": { "type": "string", "enum": game_ids() },
            "kind": { "type": "string", "enum": ["round_robin", "ladder", "swiss", "adaptive"], "default": "round_robin",
                      "description": "ladder: no schedule; the workers enter every team's newest ready bot and make matches continuously. swiss: rounds of groups of similar standing, each planned when the one before has ended. adaptive: rounds of the least certain groups until decide_top (or the whole order) is apart at 95% or the budget is spent" },
            "swiss_rounds": { "type": "integer", "minimum": 1, "maximum": 1000,
                              "description": "swiss: the number of rounds; default: chosen from the field size (40 for 200 bots in triples)" },
            "budget": { "type": "integer", "minimum": 1, "description": "adaptive (required): the most matches it may play" },
            "decide_top": { "type": "integer", "minimum": 1, "description": "adaptive: the top k to decide; default: the whole order" },
            "final_top": { "type": "integer", "minimum": FINAL_TOP.start(), "maximum": FINAL_TOP.end(),
                           "description": "swiss, adaptive and ladder: when the plan is done (a ladder: when its organiser finishes it), a final round-robin of the fitted ranking's top n, as the competition's next stage" },
            "ladder": { "type": "object", "description": "a ladder's pace: matches_per_hour (default 600), max_pending (matches queued or running at once, default 6), pick: {placement, pending_cap, spread}" },
            "rules": { "type": "string", "description": "a rule set of the game (GET /games); default: the first" },
            "submissions": { "type": "array", "items": { "type": "string", "format": "uuid" },
                             "description": "ready submissions of the game; default: each team's latest ready one" },
            "rounds": { "type": "integer", "minimum": 1, "maximum": 1000, "default": 1 },
            "base_seed": { "type": "integer", "minimum": 0, "description": "default: random" },
            "move_time_ms": { "type": "integer", "minimum": 1, "maximum": 600000,
                              "description": "default: the original platform's (Splendor 2000, Bridge 5000, others 10000)" },
            "format": { "type": "string", "enum": ["triples", "team_pairs", "self_play", "cross_play"],
                        "description": "one of the game's formats (Hanabi: self_play or cross_play); default: the game's first" },
            "settings": { "type": "object", "description": "rule-set overrides copied into every match, e.g. {\"players\": 5}" },
            "games_per_match": { "type": "integer", "minimum": 1, "maximum": 100,
                                 "description": "Guandan games (level 2 to A) or Bridge boards per table; default: Bridge 4, others 1" },
            "seat_memory_mib": { "type": "integer", "minimum": SEAT_MEMORY_MIB.start(), "maximum": SEAT_MEMORY_MIB.end(),
                                 "description": "memory of each bot seat in MiB; default: the workers' (512)" },
            "seat_disk_mib": { "type": "integer", "minimum": SEAT_DISK_MIB.start(), "maximum": SEAT_DISK_MIB.end(),
                               "description": "disk of each bot seat (its /bot, /tmp and /dev/shm) in MiB; default: the workers'" },
            "seat_cpu_millicores": { "type": "integer", "minimum": SEAT_CPU_MILLICORES.start(), "maximum": SEAT_CPU_MILLICORES.end(),
                                     "description": "CPU of each bot seat in thousandths of a core; default: the workers' (1000)" } },
        "additionalProperties": false })
}
