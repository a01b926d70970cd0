//! Uploads: any file name with any bytes (kind detection, single-file names, all three kinds).
//! Input: the name (lossy UTF-8) up to the first NUL byte, then the upload.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let cut = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let name = String::from_utf8_lossy(&data[..cut]);
    let bytes = data.get(cut + 1..).unwrap_or_default();
    croupier_fuzz::extract_checked(&name, bytes);
});
