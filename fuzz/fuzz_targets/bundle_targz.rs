//! Uploads: a `.tar.gz` inspected and extracted into a fresh directory (the bytes are the
//! gzip file; see `bundle_tar` for the tar layer).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| croupier_fuzz::extract_checked("bot.tar.gz", data));
