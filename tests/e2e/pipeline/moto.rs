//! A real S3-compatible server for the blob-store tests: moto's server (PyPI `moto[server]`),
//! which `scripts/test` installs into a virtualenv (`ensure_moto` in scripts/lib/common.sh)
//! and names in `CROUPIER_MOTO_VENV`. Started on a free port with one bucket; stopped when
//! dropped. Where it is not installed, [`Moto::start`] says so and the test skips.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The bucket the tests use.
pub const BUCKET: &str = "croupier";

pub struct Moto {
    child: Child,
    /// `http://127.0.0.1:<port>`
    pub endpoint: String,
    http: reqwest::Client,
}

/// The version `ensure_moto` installs (its `MOTO_VERSION=` line), for the default place.
fn version() -> &'static str {
    include_str!("../../../scripts/lib/common.sh")
        .lines()
        .find_map(|l| l.strip_prefix("MOTO_VERSION="))
        .expect("MOTO_VERSION in scripts/lib/common.sh")
}

/// Where `scripts/test` put moto (`CROUPIER_MOTO_VENV`), else where `ensure_moto` puts it.
fn venv() -> PathBuf {
    std::env::var_os("CROUPIER_MOTO_VENV").map_or_else(
        || {
            let cache = std::env::var_os("XDG_CACHE_HOME").map_or_else(
                || PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache"),
                PathBuf::from,
            );
            cache.join(format!("croupier/moto-{}", version()))
        },
        PathBuf::from,
    )
}

impl Moto {
    /// moto's server on a free port, with the bucket [`BUCKET`]; `None` (after saying why on
    /// stderr) when moto is not installed.
    pub async fn start(log: &std::path::Path) -> Option<Moto> {
        let program = venv().join("bin/moto_server");
        if !program.is_file() {
            eprintln!(
                "SKIPPED: no S3-compatible server: moto is not installed at {} \
                 (scripts/test installs it; or set CROUPIER_MOTO_VENV to a virtualenv with \
                 moto[server])",
                program.display()
            );
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let log = std::fs::File::create(log).expect("moto log");
        let child = Command::new(&program)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log"))
            .stderr(log)
            .spawn()
            .expect("start moto_server");
        let moto = Moto {
            child,
            endpoint: format!("http://127.0.0.1:{port}"),
            http: reqwest::Client::new(),
        };
        super::procs::eventually(Duration::from_secs(60), "moto to answer", || async {
            let resp = moto.http.get(&moto.endpoint).send().await.ok()?;
            resp.status().is_success().then_some(())
        })
        .await;
        let made = moto
            .http
            .put(format!("{}/{BUCKET}", moto.endpoint))
            .send()
            .await
            .expect("create the bucket");
        assert!(made.status().is_success(), "bucket: {}", made.status());
        Some(moto)
    }

    /// What the platform's processes need to reach it (`s3://` settings read these).
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ENDPOINT", self.endpoint.clone()),
            ("AWS_ALLOW_HTTP", "true".to_owned()),
            ("AWS_REGION", "us-east-1".to_owned()),
            ("AWS_ACCESS_KEY_ID", "croupier-test".to_owned()),
            ("AWS_SECRET_ACCESS_KEY", "croupier-test-secret".to_owned()),
        ]
    }

    /// How many objects the bucket holds under `prefix`.
    pub async fn count(&self, prefix: &str) -> usize {
        let listing = self
            .http
            .get(format!(
                "{}/{BUCKET}?list-type=2&max-keys=1000&prefix={prefix}",
                self.endpoint
            ))
            .send()
            .await
            .expect("list")
            .text()
            .await
            .expect("listing");
        assert!(
            listing.contains("<IsTruncated>false</IsTruncated>"),
            "{listing}"
        );
        listing.matches("<Key>").count()
    }

    /// Replaces the object `key` with `bytes`, as someone with the bucket's keys could: a
    /// signed PUT (boto3, which moto's virtualenv holds; moto refuses an anonymous one).
    pub async fn overwrite(&self, key: &str, bytes: Vec<u8>) {
        let script = "import sys, boto3\n\
            boto3.client('s3', endpoint_url=sys.argv[1], region_name='us-east-1', \
            aws_access_key_id='croupier-test', aws_secret_access_key='croupier-test-secret')\
            .put_object(Bucket=sys.argv[2], Key=sys.argv[3], Body=sys.stdin.buffer.read())\n";
        let mut child = tokio::process::Command::new(venv().join("bin/python"))
            .args(["-c", script, &self.endpoint, BUCKET, key])
            .stdin(Stdio::piped())
            .spawn()
            .expect("python");
        let mut stdin = child.stdin.take().expect("stdin");
        tokio::io::AsyncWriteExt::write_all(&mut stdin, &bytes)
            .await
            .expect("bytes");
        drop(stdin);
        assert!(
            child.wait().await.expect("wait").success(),
            "overwrite {key}"
        );
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
