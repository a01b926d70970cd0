//! The accessibility check: axe-core (from the npm registry, pinned to [`AXE_VERSION`];
//! `ensure_axe` in scripts/lib/common.sh installs it in a per-version cache directory) injected
//! into the page on screen and run there; every violation of impact "serious" or "critical" is a
//! problem, reported with its rule, impact and the offending elements' selectors.
//!
//! Without axe-core the checks fail when `CI=true` and are skipped with a message otherwise, as
//! for Chromium (see [`super::run_or_skip`]).

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Value};

use super::driver::Browser;

/// The axe-core release the tests run; `AXE_VERSION` in scripts/lib/common.sh is the same.
pub const AXE_VERSION: &str = "4.10.3";

/// The impacts that fail a page (axe's others are "moderate" and "minor").
const FAILING: [&str; 2] = ["serious", "critical"];

/// `$CROUPIER_AXE_JS`, or where `ensure_axe` installs `axe.min.js`:
/// `${XDG_CACHE_HOME:-$HOME/.cache}/croupier/axe-core-<version>/node_modules/axe-core/`.
pub fn script_path() -> PathBuf {
    if let Some(path) = std::env::var_os("CROUPIER_AXE_JS") {
        return PathBuf::from(path);
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"));
    cache
        .join("croupier")
        .join(format!("axe-core-{AXE_VERSION}"))
        .join("node_modules/axe-core/axe.min.js")
}

/// axe-core's source, ready to inject.
pub struct Axe {
    source: String,
}

impl Axe {
    /// Reads `axe.min.js` from [`script_path`]; `Err` says where it was looked for.
    pub fn load() -> Result<Axe, String> {
        let path = script_path();
        std::fs::read_to_string(&path)
            .map(|source| Axe { source })
            .map_err(|e| {
                format!(
                    "axe-core {AXE_VERSION} not found at {} ({e}): scripts/test installs it \
                     (`ensure_axe` in scripts/lib/common.sh), or set CROUPIER_AXE_JS",
                    path.display()
                )
            })
    }

    /// Runs axe on the page on screen; one line per serious or critical violation, naming
    /// `page`, the rule, its impact and the offending elements (empty when none).
    pub async fn check(&self, browser: &Browser, page: &str) -> Vec<String> {
        // Injected through WebDriver (not a <script> element), so the page's own content
        // security policy does not apply.
        browser
            .run(
                &format!(
                    "if (typeof window.axe === 'undefined') {{ {} }}\n\
                     window.__axe = undefined;\n\
                     window.axe.run(document, {{ resultTypes: ['violations'] }}).then(\n\
                       r => {{ window.__axe = r.violations.map(v => ({{ id: v.id, impact: v.impact,\n\
                         help: v.help, targets: v.nodes.map(n => n.target.join(' ')) }})); }},\n\
                       e => {{ window.__axe = String(e); }});",
                    self.source
                ),
                json!([]),
            )
            .await;
        let done = browser
            .wait_for(
                "return window.__axe !== undefined;",
                Duration::from_secs(60),
            )
            .await;
        if !done {
            return vec![format!("{page}: axe.run() did not finish within 60 s")];
        }
        let result = browser.run("return window.__axe;", json!([])).await;
        failing(page, &result)
    }
}

/// The problems in axe's violations `result` (`[{id, impact, help, targets}]`, or the error
/// `axe.run()` rejected with, as a string).
fn failing(page: &str, result: &Value) -> Vec<String> {
    let Some(violations) = result.as_array() else {
        return vec![format!("{page}: axe.run() failed: {result}")];
    };
    violations
        .iter()
        .filter(|v| FAILING.contains(&v["impact"].as_str().unwrap_or_default()))
        .map(|v| {
            let targets: Vec<&str> = v["targets"]
                .as_array()
                .map(|t| t.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            format!(
                "{page}: accessibility: {} ({}): {} — {}",
                v["id"].as_str().unwrap_or("?"),
                v["impact"].as_str().unwrap_or("?"),
                v["help"].as_str().unwrap_or(""),
                targets.join(", ")
            )
        })
        .collect()
}

/// axe-core when it is there; `None` (skip, with the reason printed) when it is missing outside
/// CI; panics when it is missing in CI.
pub fn axe_or_skip(test: &str) -> Option<Axe> {
    let in_ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let loaded = Axe::load();
    let available = loaded.as_ref().map(|_| ()).map_err(Clone::clone);
    match super::run_or_skip(
        available,
        in_ci,
        &format!("{test} (accessibility)"),
        "axe-core",
    ) {
        Ok(true) => loaded.ok(),
        Ok(false) => None,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn the_axe_version_is_the_one_the_scripts_install() {
    let script = std::fs::read_to_string(croupier_tests::repo_root().join("scripts/lib/common.sh"))
        .expect("scripts/lib/common.sh");
    assert!(
        script.contains(&format!("\nAXE_VERSION={AXE_VERSION}\n")),
        "scripts/lib/common.sh installs another axe-core than {AXE_VERSION}"
    );
}

#[test]
fn only_serious_and_critical_violations_are_problems() {
    let result = json!([
        { "id": "label", "impact": "critical", "help": "Form elements must have labels",
          "targets": ["#name", "form > input"] },
        { "id": "color-contrast", "impact": "serious", "help": "contrast", "targets": [".muted"] },
        { "id": "region", "impact": "moderate", "help": "landmarks", "targets": ["div"] },
    ]);
    let problems = failing("home", &result);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].contains("label (critical)") && problems[0].contains("#name, form > input")
    );
    assert!(problems[1].contains("color-contrast (serious)"));
    assert_eq!(
        failing("home", &json!("TypeError: boom")),
        ["home: axe.run() failed: \"TypeError: boom\""]
    );
}
