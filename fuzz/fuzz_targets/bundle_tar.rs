//! Uploads: the tar layer of a `.tar.gz`. The bytes are the tar stream; they are gzipped here
//! (mutated gzip rarely decompresses) and the upload inspected and extracted.
#![no_main]

use std::io::Write;

use flate2::write::GzEncoder;
use flate2::Compression;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
    gz.write_all(data).expect("gzip in memory");
    let upload = gz.finish().expect("gzip in memory");
    croupier_fuzz::extract_checked("bot.tar.gz", &upload);
});
