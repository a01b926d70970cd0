//! Shared helpers for the end-to-end tests live in `e2e/`.
