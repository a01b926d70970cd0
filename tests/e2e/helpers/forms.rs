//! Form bodies: multipart written by hand, url-encoding, the upload form's fields, and
//! reading text back out of HTML.

use uuid::Uuid;

/// One field of a multipart body.
pub enum Part<'a> {
    Text(&'a str, &'a str),
    File {
        name: &'a str,
        filename: &'a str,
        bytes: &'a [u8],
    },
}

const BOUNDARY: &str = "croupier-e2e-7d3f0b1c9a2e";

/// A `multipart/form-data` body, written by hand, and its content type.
pub fn multipart(parts: &[Part<'_>]) -> (String, Vec<u8>) {
    let mut body = Vec::new();
    for part in parts {
        body.extend_from_slice(format!("--{BOUNDARY}\r\n").as_bytes());
        match part {
            Part::Text(name, value) => {
                body.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes(),
                );
                body.extend_from_slice(value.as_bytes());
            }
            Part::File {
                name,
                filename,
                bytes,
            } => {
                body.extend_from_slice(
                    format!(
                        "Content-Disposition: form-data; name=\"{name}\"; filename=\"{filename}\"\r\n\
                         Content-Type: application/octet-stream\r\n\r\n"
                    )
                    .as_bytes(),
                );
                body.extend_from_slice(bytes);
            }
        }
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={BOUNDARY}"), body)
}

/// What the upload form sends.
#[derive(Debug, Clone)]
pub struct Upload {
    pub game: String,
    pub language: String,
    pub label: String,
    /// The entry point field (empty: none chosen).
    pub entry: String,
    /// The table fields (empty: the usual table).
    pub rules: String,
    pub players: String,
    pub filename: String,
    pub bytes: Vec<u8>,
}

impl Upload {
    /// A No Thanks! bot in Python: the file `filename` holding `bytes`.
    pub fn python(filename: &str, bytes: &[u8]) -> Self {
        Upload {
            game: "nothanks".into(),
            language: "python3".into(),
            label: String::new(),
            entry: String::new(),
            rules: String::new(),
            players: String::new(),
            filename: filename.into(),
            bytes: bytes.to_vec(),
        }
    }

    pub fn game(mut self, game: &str) -> Self {
        self.game = game.into();
        self
    }

    pub fn language(mut self, language: &str) -> Self {
        self.language = language.into();
        self
    }

    pub fn entry(mut self, entry: &str) -> Self {
        self.entry = entry.into();
        self
    }

    /// The table the bot is for: a rule set and a number of players (empty: the usual).
    pub fn table(mut self, rules: &str, players: &str) -> Self {
        self.rules = rules.into();
        self.players = players.into();
        self
    }

    /// The form's fields, with `csrf` first as the page has it.
    pub fn parts<'a>(&'a self, csrf: &'a str) -> Vec<Part<'a>> {
        let mut parts = vec![Part::Text("csrf", csrf)];
        parts.extend(self.api_parts());
        parts
    }

    /// The fields without a CSRF token (the API has none).
    pub fn api_parts(&self) -> Vec<Part<'_>> {
        vec![
            Part::Text("game", &self.game),
            Part::Text("language", &self.language),
            Part::Text("label", &self.label),
            Part::Text("entry", &self.entry),
            Part::Text("rules", &self.rules),
            Part::Text("players", &self.players),
            Part::File {
                name: "file",
                filename: &self.filename,
                bytes: &self.bytes,
            },
        ]
    }
}

/// A small, valid Python bot.
pub const BOT_PY: &[u8] = b"import sys\nfor line in sys.stdin:\n    print('pass')\n";

/// The id in `text` right after the first `prefix`, e.g. `uuid_after(page, "/submissions/")`.
pub fn uuid_after(text: &str, prefix: &str) -> Uuid {
    let start = text
        .find(prefix)
        .unwrap_or_else(|| panic!("{prefix:?} not found in:\n{text}"))
        + prefix.len();
    text.get(start..start + 36)
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("no uuid after {prefix:?}"))
}

pub fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Undoes the HTML escapes askama writes.
pub fn unescape(html: &str) -> String {
    html.replace("&#34;", "\"")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The value of the first `csrf` hidden input of an HTML page.
pub fn csrf_in(html: &str) -> String {
    const MARK: &str = r#"name="csrf" value=""#;
    let start = html
        .find(MARK)
        .unwrap_or_else(|| panic!("no csrf input on the page:\n{html}"))
        + MARK.len();
    let len = html[start..].find('"').expect("closing quote");
    html[start..start + len].to_owned()
}
