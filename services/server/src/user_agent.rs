//! A browser's `User-Agent` header, said briefly for the account page's list of sessions
//! (Firefox on Linux, Safari on iPhone, curl). Browsers copy each other's tokens (every
//! Chrome says "Safari", every Edge says "Chrome"), so the most specific token is checked first.

/// Browsers, most specific first: (token in the header, name shown).
const BROWSERS: &[(&str, &str)] = &[
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
    ("curl/", "curl"),
    ("python-requests/", "Python requests"),
];

/// Systems, most specific first.
const SYSTEMS: &[(&str, &str)] = &[
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Macintosh", "macOS"),
    ("Linux", "Linux"),
];

/// The browser and the system a `User-Agent` header names, each `None` when unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agent {
    pub browser: Option<&'static str>,
    pub system: Option<&'static str>,
}

pub fn describe(agent: &str) -> Agent {
    let find = |table: &[(&str, &'static str)]| {
        table
            .iter()
            .find(|(token, _)| agent.contains(token))
            .map(|&(_, name)| name)
    };
    Agent {
        browser: find(BROWSERS),
        system: find(SYSTEMS),
    }
}

#[cfg(test)]
mod tests {
    use super::{describe, Agent};

    #[test]
    fn common_browsers_are_named_by_their_most_specific_token() {
        let cases = [
            ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36", Some("Chrome"), Some("Linux")),
            ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0", Some("Edge"), Some("Windows")),
            ("Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", Some("Firefox"), Some("Linux")),
            ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1", Some("Safari"), Some("iPhone")),
            ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15", Some("Safari"), Some("macOS")),
            ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36", Some("Chrome"), Some("Android")),
            ("curl/8.5.0", Some("curl"), None),
        ];
        for (agent, browser, system) in cases {
            assert_eq!(describe(agent), Agent { browser, system }, "{agent}");
        }
    }

    #[test]
    fn an_unknown_agent_is_not_guessed() {
        let unknown = Agent {
            browser: None,
            system: None,
        };
        assert_eq!(describe("my-own-client/0.1"), unknown);
        assert_eq!(describe(""), unknown);
    }
}
