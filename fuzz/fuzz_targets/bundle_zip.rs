//! Uploads: a `.zip` inspected and extracted into a fresh directory.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| croupier_fuzz::extract_checked("bot.zip", data));
