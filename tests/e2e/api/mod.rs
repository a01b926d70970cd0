//! The JSON API under `/api/v1`: accounts and tokens, teams, uploads, admin, OpenAPI, and
//! malformed requests (answered as JSON there, and with the HTML error page on web pages).

mod accounts;
mod admin;
mod malformed;
mod openapi;
mod submissions;
