//! End-to-end tests of Croupier: the web app in-process against a real PostgreSQL (one fresh
//! database per test, from `#[sqlx::test]`), and the real `croupier` binary.
//!
//! Run with `DATABASE_URL=postgres://…` pointing at a server where the tests may create
//! databases; build the binary first (`cargo build -p croupier-cli`) for the `binary` tests.

mod accounts;
mod api;
mod binary;
mod browser;
mod competitions;
mod csrf;
mod download;
mod games;
mod helpers;
mod languages;
mod logins;
mod ops;
mod pipeline;
mod sessions;
mod tables;
mod team_manage;
mod teams;
mod uploads;
