//! A small WebDriver client for Debian's `chromedriver` driving the system Chromium headless,
//! over the HTTP+JSON protocol with the `reqwest` client the other tests use (no extra crate,
//! no browser download).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use base64::Engine;
use serde_json::{json, Value};
use tokio::process::{Child, Command};

/// Where Debian's `chromium` and `chromium-driver` packages put the browser and its driver.
const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The key under which WebDriver returns an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Whether the browser and its driver are installed; `Err` says what is missing.
pub fn available() -> Result<(), String> {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER]
        .into_iter()
        .filter(|p| !Path::new(p).is_file())
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} missing: install Debian's `chromium` and `chromium-driver` (scripts/test does, as root)",
            missing.join(" and ")
        ))
    }
}

/// A page width the pages are checked at, as a phone or a desktop shows them.
#[derive(Debug, Clone, Copy)]
pub struct Viewport {
    pub width: u32,
    pub height: u32,
    pub mobile: bool,
}

pub const DESKTOP: Viewport = Viewport {
    width: 1280,
    height: 900,
    mobile: false,
};
pub const PHONE: Viewport = Viewport {
    width: 390,
    height: 844,
    mobile: true,
};

/// A running `chromedriver` with one headless Chromium session; both end when dropped.
pub struct Browser {
    driver: Child,
    client: reqwest::Client,
    session: String,
}

impl Browser {
    /// Starts `chromedriver` on a free port and opens a headless Chromium session that keeps
    /// the browser's console log.
    pub async fn start() -> Browser {
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("free port");
            l.local_addr().expect("addr").port()
        };
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("start chromedriver");
        let client = reqwest::Client::new();
        let base = format!("http://127.0.0.1:{port}");
        let mut ready = false;
        for _ in 0..100 {
            if let Ok(r) = client.get(format!("{base}/status")).send().await {
                if r.status().is_success() {
                    ready = true;
                    break;
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(
            ready,
            "chromedriver did not answer on port {port} within 10 s"
        );
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                // --no-sandbox: the tests run as root, where Chromium's own sandbox refuses.
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,900"],
            },
            "goog:loggingPrefs": { "browser": "ALL" },
        }}});
        let resp = client
            .post(format!("{base}/session"))
            .json(&caps)
            .send()
            .await
            .expect("new session");
        let body: Value = resp.json().await.expect("session json");
        let id = body["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("chromedriver opened no session: {body:#}"));
        Browser {
            session: format!("{base}/session/{id}"),
            driver,
            client,
        }
    }

    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.session));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let resp = request.send().await.expect("webdriver request");
        let status = resp.status();
        let body: Value = resp.json().await.expect("webdriver json");
        assert!(
            status.is_success(),
            "webdriver {path}: {status} {:#}",
            body["value"]
        );
        body["value"].clone()
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        self.call(reqwest::Method::POST, path, Some(body)).await
    }

    /// Sets the layout viewport (Chrome DevTools' device emulation, as its phone preview).
    pub async fn viewport(&self, v: Viewport) {
        self.post(
            "/goog/cdp/execute",
            json!({ "cmd": "Emulation.setDeviceMetricsOverride", "params": {
                "width": v.width, "height": v.height, "deviceScaleFactor": 1, "mobile": v.mobile } }),
        )
        .await;
    }

    /// Opens `url` and waits for it to load.
    pub async fn open(&self, url: &str) {
        self.post("/url", json!({ "url": url })).await;
    }

    /// Runs `script` (a function body; `arguments` are `args`) and returns its value.
    pub async fn run(&self, script: &str, args: Value) -> Value {
        self.post("/execute/sync", json!({ "script": script, "args": args }))
            .await
    }

    /// The HTTP status of the page on screen (Navigation Timing's `responseStatus`).
    pub async fn status(&self) -> u64 {
        let v = self
            .run(
                "return performance.getEntriesByType('navigation')[0].responseStatus;",
                json!([]),
            )
            .await;
        v.as_u64()
            .unwrap_or_else(|| panic!("no navigation status: {v}"))
    }

    /// The console's errors (and uncaught exceptions, which Chromium logs as errors) since the
    /// last call.
    pub async fn console_errors(&self) -> Vec<String> {
        let entries = self.post("/se/log", json!({ "type": "browser" })).await;
        entries
            .as_array()
            .expect("log entries")
            .iter()
            .filter(|e| e["level"] == "SEVERE")
            .map(|e| e["message"].as_str().unwrap_or_default().to_owned())
            .collect()
    }

    /// The reference of the first element matching `css`.
    pub async fn find(&self, css: &str) -> String {
        let v = self
            .post("/element", json!({ "using": "css selector", "value": css }))
            .await;
        v[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css:?}: {v}"))
            .to_owned()
    }

    /// Clicks the first element matching `css`, as a user does.
    pub async fn click(&self, css: &str) {
        let id = self.find(css).await;
        self.post(&format!("/element/{id}/click"), json!({})).await;
    }

    /// Types `text` into the first element matching `css`.
    pub async fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css).await;
        self.post(&format!("/element/{id}/value"), json!({ "text": text }))
            .await;
    }

    /// Presses the Tab key, as a keyboard user moving to the next control does.
    pub async fn press_tab(&self) {
        self.press_key("\u{E004}").await;
    }

    /// Presses Enter, as a keyboard user activating the focused control does.
    pub async fn press_enter(&self) {
        self.press_key("\u{E007}").await;
    }

    /// Presses and releases `key` (a WebDriver key code) on the focused element.
    async fn press_key(&self, key: &str) {
        let action = |kind: &str| json!({ "type": kind, "value": key });
        self.post(
            "/actions",
            json!({ "actions": [{ "type": "key", "id": "keyboard",
                                  "actions": [action("keyDown"), action("keyUp")] }] }),
        )
        .await;
    }

    /// Saves a PNG of the viewport to `path`.
    pub async fn screenshot(&self, path: &Path) {
        let v = self.call(reqwest::Method::GET, "/screenshot", None).await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(v.as_str().expect("base64 png"))
            .expect("base64");
        std::fs::write(path, png).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }

    /// Polls `script` (which returns true or false) every 100 ms for at most `limit`.
    pub async fn wait_for(&self, script: &str, limit: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        while tokio::time::Instant::now() < deadline {
            if self.run(script, json!([])).await == Value::Bool(true) {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        false
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Ends the session (and so Chromium) before chromedriver is killed on drop.
        let url = self.session.clone();
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build();
            if let Ok(rt) = rt {
                rt.block_on(async {
                    let _ = tokio::time::timeout(
                        Duration::from_secs(10),
                        reqwest::Client::new().delete(url).send(),
                    )
                    .await;
                });
            }
        })
        .join();
        let _ = self.driver.start_kill();
    }
}

/// `<target dir>/browser-screenshots`, created empty: the folder CI keeps as an artifact.
pub fn screenshot_dir() -> PathBuf {
    let dir = screenshots();
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// The same folder, kept as it is (created if missing), for a test that adds its own.
pub fn screenshots() -> PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    let target = exe
        .ancestors()
        .nth(3)
        .expect("target/<profile>/deps/<test>");
    let dir = target.join("browser-screenshots");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}
