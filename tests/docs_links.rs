//! Every documentation link in the repository resolves.
//!
//! Scanned: every `*.md` file of the checkout (not `target/`, `.git/` or the fuzzers' corpora
//! and artifacts) and every comment line (`//`, `//!`, `///`) of every `*.rs` file. Checked:
//!
//! * Markdown links `[text](path)` and `[text](path#anchor)` (images too), relative to the
//!   file that holds them, and `(#anchor)` within the same file;
//! * bare mentions of a Markdown file, with or without an anchor (`docs/rules.md#no-thanks`,
//!   `deploy/README.md`), relative to the repository root, the mentioning file's folder or its
//!   crate.
//!
//! The file (or folder) must exist, and an anchor must be the slug of one of the target's
//! headings, made the way GitHub makes them (lower case, punctuation dropped, spaces to `-`,
//! `-1`, `-2`, … for repeats), or an explicit `<a id="…">`. External `http(s)://` links are not
//! checked. The failure lists each broken link as `file:line`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

use croupier_tests::{ends_with_any, files, repo_root, write_fixture};

/// A link that does not resolve, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Broken {
    file: PathBuf,
    line: usize,
    link: String,
    why: String,
}

/// GitHub's anchor for a heading's text: inline Markdown reduced to its text, lower case,
/// everything but letters, digits, spaces, `-` and `_` dropped, each space turned into `-`.
fn slug(heading: &str) -> String {
    let text = strip_inline_markdown(heading);
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// `[text](url)` → `text`, `<tag>` dropped; backticks and emphasis marks are punctuation that
/// [`slug`] drops anyway.
fn strip_inline_markdown(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let link = after.find("](").and_then(|close| {
            let target = &after[close + 2..];
            target.find(')').map(|end| (close, close + 2 + end + 1))
        });
        if let Some((close, skip)) = link {
            out.push_str(&after[..close]);
            rest = &after[skip..];
        } else {
            out.push('[');
            rest = after;
        }
    }
    out.push_str(rest);
    let mut plain = String::new();
    let mut in_tag = false;
    for c in out.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => plain.push(c),
            _ => {}
        }
    }
    plain
}

/// The anchors of a Markdown text: its headings' slugs (repeats numbered as GitHub does) and
/// explicit `id="…"` / `name="…"` anchors. Fenced code blocks are skipped.
fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (_, line) in prose_lines(markdown) {
        let trimmed = line.trim_start();
        let hashes = trimmed.chars().take_while(|c| *c == '#').count();
        if (1..=6).contains(&hashes) && trimmed[hashes..].starts_with(' ') {
            let text = trimmed[hashes..].trim().trim_end_matches('#').trim_end();
            let base = slug(text);
            let count = seen.entry(base.clone()).or_insert(0);
            let anchor = if *count == 0 {
                base.clone()
            } else {
                format!("{base}-{count}")
            };
            *count += 1;
            out.insert(anchor);
        }
        for key in ["id=\"", "name=\""] {
            let mut rest = line;
            while let Some(at) = rest.find(key) {
                let value = &rest[at + key.len()..];
                if let Some(end) = value.find('"') {
                    out.insert(value[..end].to_owned());
                }
                rest = value;
            }
        }
    }
    out
}

/// The lines of a Markdown text outside fenced code blocks, numbered from 1.
fn prose_lines(markdown: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<&str> = None;
    let mut out = Vec::new();
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(open), Some(m)) if open == m => fence = None,
            (None, None) => out.push((i + 1, line)),
            _ => {}
        }
    }
    out
}

/// The destinations of the inline links `[text](dest)` on one line, outside code spans.
fn link_destinations(line: &str) -> Vec<String> {
    let prose = without_code_spans(line);
    let mut out = Vec::new();
    let mut rest = prose.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else {
            break;
        };
        let dest = after[..end].trim();
        // `[x](<path with spaces>)` and `[x](path "title")`.
        let dest = dest.trim_start_matches('<').trim_end_matches('>');
        let dest = dest.split_whitespace().next().unwrap_or("");
        if !dest.is_empty() {
            out.push(dest.to_owned());
        }
        rest = &after[end..];
    }
    out
}

/// `line` with the contents of its `code spans` blanked out (links inside them are text).
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(' ');
        } else if in_code {
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// Bare mentions of Markdown files in `text`: words that end in `.md` or `.md#anchor`, made of
/// path characters, not part of a URL.
fn bare_mentions(text: &str) -> Vec<String> {
    let is_path_char = |c: char| c.is_alphanumeric() || "._/-#".contains(c);
    let mut out = Vec::new();
    for word in text.split(|c: char| !is_path_char(c) && c != ':') {
        if word.contains("://") {
            continue;
        }
        for part in word.split(':') {
            let part = part.trim_start_matches("./").trim_end_matches(['.', '/']);
            let path = part.split('#').next().unwrap_or("");
            let name = path.rsplit('/').next().unwrap_or("");
            let markdown = Path::new(path).extension().is_some_and(|e| e == "md");
            if markdown && name.len() > ".md".len() {
                out.push(part.to_owned());
            }
        }
    }
    out
}

/// `path` made lexical: `.` dropped, `..` popping (never above the root).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The nearest folder above `file` holding a `Cargo.toml` (the crate), if any.
fn crate_dir(file: &Path) -> Option<PathBuf> {
    file.ancestors()
        .skip(1)
        .find(|dir| dir.join("Cargo.toml").is_file())
        .map(Path::to_path_buf)
}

/// The checker: holds the repository root and caches each Markdown file's anchors.
struct Checker {
    root: PathBuf,
    anchors: BTreeMap<PathBuf, BTreeSet<String>>,
}

impl Checker {
    fn new(root: &Path) -> Self {
        Checker {
            root: root.to_path_buf(),
            anchors: BTreeMap::new(),
        }
    }

    /// Whether `anchor` exists in the Markdown file `target`.
    fn has_anchor(&mut self, target: &Path, anchor: &str) -> bool {
        let anchors = self
            .anchors
            .entry(target.to_path_buf())
            .or_insert_with(|| anchors(&fs::read_to_string(target).unwrap_or_default()));
        anchors.contains(anchor)
    }

    /// Checks `link` (a path with an optional `#anchor`) tried against each of `bases` in turn;
    /// `None` when it resolves, else why not.
    fn resolve(&mut self, link: &str, bases: &[PathBuf], this_file: &Path) -> Option<String> {
        let (path, anchor) = match link.split_once('#') {
            Some((path, anchor)) => (path, Some(anchor)),
            None => (link, None),
        };
        let candidates: Vec<PathBuf> = if path.is_empty() {
            vec![this_file.to_path_buf()]
        } else if let Some(absolute) = path.strip_prefix('/') {
            vec![normalize(&self.root.join(absolute))]
        } else {
            bases.iter().map(|b| normalize(&b.join(path))).collect()
        };
        let Some(target) = candidates.into_iter().find(|c| c.exists()) else {
            return Some("no such file".to_owned());
        };
        let anchor = anchor.filter(|a| !a.is_empty())?;
        let is_markdown = target.extension().is_some_and(|e| e == "md");
        if !is_markdown || self.has_anchor(&target, anchor) {
            return None;
        }
        Some(format!(
            "no heading with anchor #{anchor} in {}",
            self.shown(&target)
        ))
    }

    fn shown(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .unwrap_or(path)
            .display()
            .to_string()
    }

    /// Every broken link of the Markdown file `file`.
    fn check_markdown(&mut self, file: &Path, broken: &mut Vec<Broken>) {
        let text = fs::read_to_string(file).unwrap_or_default();
        let here = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let bare_bases = [self.root.clone(), here.clone()];
        for (number, line) in prose_lines(&text) {
            let links = link_destinations(line);
            for link in &links {
                if link.contains("://") || link.starts_with("mailto:") {
                    continue;
                }
                if let Some(why) = self.resolve(link, std::slice::from_ref(&here), file) {
                    broken.push(Broken {
                        file: file.to_path_buf(),
                        line: number,
                        link: link.clone(),
                        why,
                    });
                }
            }
            let mut prose = line.to_owned();
            for link in &links {
                prose = prose.replacen(&format!("]({link}"), "](", 1);
            }
            for mention in bare_mentions(&prose) {
                if let Some(why) = self.resolve(&mention, &bare_bases, file) {
                    broken.push(Broken {
                        file: file.to_path_buf(),
                        line: number,
                        link: mention,
                        why,
                    });
                }
            }
        }
    }

    /// Every broken Markdown mention in the comments of the Rust file `file`.
    fn check_rust(&mut self, file: &Path, broken: &mut Vec<Broken>) {
        let text = fs::read_to_string(file).unwrap_or_default();
        let mut bases = vec![self.root.clone()];
        bases.extend(file.parent().map(Path::to_path_buf));
        bases.extend(crate_dir(file));
        for (i, line) in text.lines().enumerate() {
            let Some(comment) = line.trim_start().strip_prefix("//") else {
                continue;
            };
            let mut mentions = bare_mentions(comment);
            for link in link_destinations(comment) {
                if !link.contains("://") && link.contains(".md") && !mentions.contains(&link) {
                    mentions.push(link);
                }
            }
            for mention in mentions {
                if let Some(why) = self.resolve(&mention, &bases, file) {
                    broken.push(Broken {
                        file: file.to_path_buf(),
                        line: i + 1,
                        link: mention,
                        why,
                    });
                }
            }
        }
    }

    /// Every broken link under the root.
    fn check_all(&mut self) -> Vec<Broken> {
        let markdown = files(&self.root, &|p| ends_with_any(p, &[".md"]));
        let rust = files(&self.root, &|p| ends_with_any(p, &[".rs"]));
        let mut broken = Vec::new();
        for file in &markdown {
            self.check_markdown(file, &mut broken);
        }
        for file in &rust {
            self.check_rust(file, &mut broken);
        }
        broken
    }

    fn report(&self, broken: &[Broken]) -> String {
        broken
            .iter()
            .map(|b| format!("{}:{}: {} ({})", self.shown(&b.file), b.line, b.link, b.why))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[test]
fn every_doc_link_in_markdown_and_rust_comments_resolves() {
    let root = repo_root();
    let mut checker = Checker::new(&root);
    let markdown = files(&root, &|p| ends_with_any(p, &[".md"]));
    assert!(
        markdown.iter().any(|f| f.ends_with("docs/README.md")),
        "the scan must see the repository's docs/ (root {})",
        root.display()
    );
    let broken = checker.check_all();
    assert!(
        broken.is_empty(),
        "{} broken doc link(s):\n{}",
        broken.len(),
        checker.report(&broken)
    );
}

#[test]
fn slugs_follow_githubs_rules() {
    assert_eq!(slug("No Thanks"), "no-thanks");
    assert_eq!(slug("Guandan 掼蛋"), "guandan-掼蛋");
    assert_eq!(
        slug("Hanabi — websocket on `ws://127.0.0.1:9999`, or a Python class"),
        "hanabi--websocket-on-ws1270019999-or-a-python-class"
    );
    assert_eq!(
        slug("The rule: a seat ranks **last**"),
        "the-rule-a-seat-ranks-last"
    );
    assert_eq!(
        slug("[`deploy/`](deploy/) and snake_case"),
        "deploy-and-snake_case"
    );
    let numbered = anchors("# A\n## Settings\n```\n# not a heading\n```\n### Settings\n");
    let expected: BTreeSet<String> = ["a", "settings", "settings-1"].map(String::from).into();
    assert_eq!(numbered, expected);
}

#[test]
fn broken_links_and_anchors_are_reported_with_file_and_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let root = dir.path();
    let write = |path: &str, text: &str| write_fixture(root, path, text);
    write(
        "docs/rules.md",
        "# Rules\n\n## No Thanks\n\nSee [the top](#rules).\n",
    );
    write(
        "README.md",
        "Good: [rules](docs/rules.md#no-thanks), [web](https://example.com/x.md#y).\n\
         Bad: [gone](docs/gone.md), [anchor](docs/rules.md#splendor).\n\
         ```\n[in a fence](nowhere.md)\n```\n\
         Bare: `docs/rules.md#hanabi`, RULES.md, `[span](nowhere.md)`\n",
    );
    // Each fixture line is built from pieces so that no line of this file starts with `//`.
    let rust = [
        "//! Good: `docs/rules.md#no-thanks`.",
        "/// Bad: PROTOCOLS.md §1.",
        "// Bad too: docs/rules.md#guandan",
        "fn f() {} // a trailing comment is not scanned: GONE.md",
        "const S: &str = \"RULES.md in a string is code, not a comment\";",
    ];
    write("services/x/src/lib.rs", &rust.join("\n"));
    write("services/x/Cargo.toml", "");
    let mut checker = Checker::new(root);
    let broken = checker.check_all();
    let found: Vec<(String, usize, String)> = broken
        .iter()
        .map(|b| (checker.shown(&b.file), b.line, b.link.clone()))
        .collect();
    let want = |file: &str, line: usize, link: &str| (file.to_owned(), line, link.to_owned());
    assert_eq!(
        found,
        vec![
            want("README.md", 2, "docs/gone.md"),
            want("README.md", 2, "docs/rules.md#splendor"),
            want("README.md", 6, "docs/rules.md#hanabi"),
            want("README.md", 6, "RULES.md"),
            want("README.md", 6, "nowhere.md"),
            want("services/x/src/lib.rs", 2, "PROTOCOLS.md"),
            want("services/x/src/lib.rs", 3, "docs/rules.md#guandan"),
        ],
        "{}",
        checker.report(&broken)
    );
    assert!(checker
        .report(&broken)
        .contains("README.md:2: docs/gone.md (no such file)"));
}
