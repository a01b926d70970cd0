//! The JSON API under `/api/v1`: accounts and tokens, teams, uploads, admin, OpenAPI.

mod accounts;
mod admin;
mod openapi;
mod submissions;
