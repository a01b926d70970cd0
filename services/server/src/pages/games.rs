//! The games' own pages. `/games` lists them; `/games/{id}` is one game for a bot author: its
//! rules with this platform's settings, the protocol as Croupier speaks it (with example
//! messages), the time and memory limits, how the leaderboard ranks, a quick start, and the
//! starter kits as zips (`/games/{id}/kits/{language}.zip`, built from `kits/`). The rules and
//! the protocol are the repository's own docs (`docs/rules.md`, `docs/protocols.md`), the
//! game's section of each, rendered from Markdown: one text for the repo and the site.

use std::fmt::Display;
use std::io::Write as _;

use askama::Template;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use croupier_games::GameId;
use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};

use crate::error::{Error, Result};
use crate::extract::PagePath;
use crate::i18n::Lang;
use crate::templates::{render, Ctx};
use crate::AppState;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/kits.rs"));
}

const RULES: &str = include_str!("../../../../docs/rules.md");
const PROTOCOLS: &str = include_str!("../../../../docs/protocols.md");
/// The Chinese translations; a section they lack is shown from the English.
const RULES_ZH: &str = include_str!("../../../../docs/zh-CN/rules.md");
const PROTOCOLS_ZH: &str = include_str!("../../../../docs/zh-CN/protocols.md");

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/games", get(index))
        .route("/games/{game}", get(show))
        .route("/games/{game}/kits/{file}", get(kit))
}

#[derive(Template)]
#[template(path = "games.html")]
struct IndexPage {
    ctx: Ctx,
    games: Vec<GameCard>,
}

/// A game as its pages name it, in the page's language.
struct GameCard {
    id: &'static str,
    name: String,
    /// `2 seats · <how bots connect>`.
    summary: String,
}

impl GameCard {
    fn of(game: GameId, lang: Lang) -> GameCard {
        let protocol = protocol_summary(game, lang);
        let seats = game.default_seats();
        let args: [(&str, &dyn Display); 2] = [("n", &seats), ("protocol", &protocol)];
        let summary = lang.t_with("games-seats-protocol", &args);
        GameCard {
            id: game.as_str(),
            name: game_name(game, lang),
            summary,
        }
    }
}

/// The game's name in `lang` (`game-name-<id>`; a game without one keeps its registry name).
pub fn game_name(game: GameId, lang: Lang) -> String {
    crate::templates::game_name_in(game, lang)
}

/// The registry's one line on how the game's bots connect, in `lang`.
pub fn protocol_summary(game: GameId, lang: Lang) -> String {
    crate::templates::protocol_in(game, lang)
}

#[derive(Template)]
#[template(path = "game.html")]
struct GamePage {
    ctx: Ctx,
    game: GameCard,
    facts: Vec<(String, String)>,
    /// The kits' languages, with their file count.
    kits: Vec<(&'static str, usize)>,
    /// An example command for `croupier play` with the first kit.
    play: Option<String>,
    rules: String,
    protocol: String,
}

async fn index(ctx: Ctx) -> Result<Response> {
    let games = GameId::all()
        .into_iter()
        .map(|g| GameCard::of(g, ctx.lang))
        .collect();
    Ok(render(&IndexPage { ctx, games }))
}

fn game_of(id: &str) -> Result<GameId> {
    id.parse::<GameId>().map_err(|_| Error::NotFound)
}

async fn show(ctx: Ctx, PagePath(id): PagePath<String>) -> Result<Response> {
    let game = game_of(&id)?;
    let lang = ctx.lang;
    let kits = kits_of(game.as_str());
    // The line runs the Python kit where there is one (it needs no compiler).
    let play = kits
        .iter()
        .find(|(lang, _)| *lang == "python")
        .or(kits.first())
        .and_then(|(lang, _)| play_command(game, lang));
    Ok(render(&GamePage {
        ctx,
        facts: facts(game, lang),
        kits,
        play,
        rules: markdown(doc_section(RULES, RULES_ZH, game, lang), lang),
        protocol: markdown(doc_section(PROTOCOLS, PROTOCOLS_ZH, game, lang), lang),
        game: GameCard::of(game, lang),
    }))
}

/// `<language>.zip`: the kit's files in a zip under a `<game>-<language>/` folder.
async fn kit(PagePath((id, file)): PagePath<(String, String)>) -> Result<Response> {
    let game = game_of(&id)?;
    let language = file.strip_suffix(".zip").ok_or(Error::NotFound)?;
    let files: Vec<_> = embedded::KIT_FILES
        .iter()
        .filter(|(g, l, _, _)| *g == game.as_str() && *l == language)
        .collect();
    if files.is_empty() {
        return Err(Error::NotFound);
    }
    let folder = format!("{}-{language}", game.as_str());
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .unix_permissions(0o644);
    for (_, _, path, bytes) in files {
        zip.start_file(format!("{folder}/{path}"), options)
            .and_then(|()| zip.write_all(bytes).map_err(Into::into))
            .map_err(|e| Error::internal(format!("building the kit's zip: {e}")))?;
    }
    let bytes = zip
        .finish()
        .map_err(|e| Error::internal(format!("building the kit's zip: {e}")))?
        .into_inner();
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{folder}.zip\""),
            ),
        ],
        bytes,
    )
        .into_response())
}

/// The game's kits: each language and how many files it has.
pub(super) fn kits_of(game: &str) -> Vec<(&'static str, usize)> {
    let mut kits: Vec<(&'static str, usize)> = Vec::new();
    for (g, lang, _, _) in embedded::KIT_FILES {
        if *g != game {
            continue;
        }
        match kits.iter_mut().find(|(l, _)| l == lang) {
            Some((_, n)) => *n += 1,
            None => kits.push((lang, 1)),
        }
    }
    kits
}

/// A `croupier play` line that runs the kit locally against built-in bots.
fn play_command(game: GameId, language: &str) -> Option<String> {
    let entry = embedded::KIT_FILES
        .iter()
        .filter(|(g, l, _, _)| *g == game.as_str() && *l == language)
        .map(|(_, _, path, _)| *path)
        .find(|p| ["bot.py", "player.py", "client.py"].contains(p))?;
    let folder = format!("{}-{language}", game.as_str());
    let bot = format!("\"python3 {folder}/{entry}\"");
    let others = game.default_seats().saturating_sub(1).max(1);
    let builtin = game.def().bot_names().first().copied().unwrap_or("random");
    let mut line = format!("croupier play {} --bot {bot}", game.as_str());
    for _ in 0..others {
        line.push_str(&format!(" --bot builtin:{builtin}"));
    }
    Some(line)
}

/// What this platform plays the game with.
fn facts(game: GameId, lang: Lang) -> Vec<(String, String)> {
    let def = game.def();
    let n = def.games_per_match;
    let secs = def.move_time.as_secs_f64();
    let time = lang.t_with("game-fact-move-time-value", &[("secs", &secs)]);
    let games = match def.max_games_per_match {
        Some(max) => lang.t_with("game-fact-games-value-max", &[("n", &n), ("max", &max)]),
        None => lang.t_with("game-fact-games-value", &[("n", &n)]),
    };
    vec![
        (lang.t("game-fact-seats"), def.default_seats.to_string()),
        (lang.t("game-fact-rule-sets"), def.rule_sets.join(", ")),
        (lang.t("game-fact-connect"), protocol_summary(game, lang)),
        (lang.t("game-fact-move-time"), time),
        (lang.t("game-fact-games"), games),
        (lang.t("game-fact-limits"), lang.t("game-fact-limits-value")),
        (lang.t("game-fact-bots"), def.bot_names().join(", ")),
    ]
}

/// The game's section of a doc in `lang`: the Chinese one's where it has it, else the English.
fn doc_section(en: &'static str, zh: &'static str, game: GameId, lang: Lang) -> &'static str {
    let name = game.display_name();
    let translated = match lang {
        Lang::Zh => section(zh, name),
        Lang::En => None,
    };
    translated.or_else(|| section(en, name)).unwrap_or("")
}

/// The section of `doc` under the level-2 heading naming the game (`## No Thanks` for
/// "No Thanks!", `## Guandan` for "Guandan 掼蛋"), without its heading. A translated heading
/// names it by its English anchor instead (`## 花火（Hanabi）<a id="hanabi"></a>`, and
/// `<a id="no-thanks">` for "No Thanks!").
fn section<'a>(doc: &'a str, name: &str) -> Option<&'a str> {
    let wanted: String = name
        .split_whitespace()
        .next()
        .unwrap_or(name)
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect();
    let mut start = None;
    let mut offset = 0;
    for line in doc.split_inclusive('\n') {
        if let Some(title) = line.strip_prefix("## ") {
            if let Some(from) = start {
                return Some(&doc[from..offset]);
            }
            let first: String = title
                .split_whitespace()
                .next()
                .unwrap_or("")
                .chars()
                .filter(|c| c.is_alphanumeric())
                .collect();
            let anchor = title
                .split("<a id=\"")
                .nth(1)
                .and_then(|rest| rest.split(['-', '"']).next())
                .unwrap_or("");
            if first.eq_ignore_ascii_case(&wanted) || anchor.eq_ignore_ascii_case(&wanted) {
                start = Some(offset + line.len());
            }
        }
        offset += line.len();
    }
    start.map(|from| &doc[from..])
}

/// Markdown to HTML for the page: headings moved below the section's `h2` (the page's `h1` is
/// the game's name), never more than one level deeper than the heading before, links into the
/// repository shown as text (they point at files beside the docs), code blocks and tables
/// focusable boxes that scroll on a phone (each table's box named by its number, so no two
/// regions share a name), every table header a column header.
fn markdown(text: &str, lang: Lang) -> String {
    use pulldown_cmark::HeadingLevel;
    let mut in_repo_link = Vec::new();
    // The level of the heading shown last (the section's own `h2` at first), and of the open one.
    let mut last = HeadingLevel::H2;
    let mut open = HeadingLevel::H3;
    let events = Parser::new_ext(text, Options::ENABLE_TABLES).filter_map(|event| match event {
        Event::Start(Tag::Heading {
            level,
            id,
            classes,
            attrs,
        }) => {
            let wanted = match level {
                HeadingLevel::H1 | HeadingLevel::H2 => HeadingLevel::H3,
                HeadingLevel::H3 => HeadingLevel::H4,
                _ => HeadingLevel::H5,
            };
            let deepest = match last {
                HeadingLevel::H1 | HeadingLevel::H2 => HeadingLevel::H3,
                HeadingLevel::H3 => HeadingLevel::H4,
                HeadingLevel::H4 => HeadingLevel::H5,
                _ => HeadingLevel::H6,
            };
            let level = wanted.min(deepest);
            last = level;
            open = level;
            Some(Event::Start(Tag::Heading {
                level,
                id,
                classes,
                attrs,
            }))
        }
        Event::End(TagEnd::Heading(_)) => Some(Event::End(TagEnd::Heading(open))),
        Event::Start(Tag::Link { dest_url, .. })
            if !(dest_url.starts_with("http://") || dest_url.starts_with("https://")) =>
        {
            in_repo_link.push(true);
            None
        }
        Event::Start(tag @ Tag::Link { .. }) => {
            in_repo_link.push(false);
            Some(Event::Start(tag))
        }
        Event::End(TagEnd::Link) => match in_repo_link.pop() {
            Some(true) => None,
            _ => Some(Event::End(TagEnd::Link)),
        },
        // A translation's anchors (`<a id="hanabi-settings"></a>`) keep the English links working
        // in the repository; the page needs none.
        Event::InlineHtml(raw) if raw.starts_with("<a id=") || raw.as_ref() == "</a>" => None,
        Event::Html(raw) | Event::InlineHtml(raw) => {
            Some(Event::Text(CowStr::from(raw.to_string())))
        }
        other => Some(other),
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    let out = out
        .replace("<pre>", "<pre tabindex=\"0\">")
        .replace("<th>", "<th scope=\"col\">")
        .replace("<th style", "<th scope=\"col\" style")
        .replace("</table>", "</table></div>");
    let mut tables = out.split("<table>");
    let mut numbered = tables.next().unwrap_or_default().to_owned();
    for (i, rest) in tables.enumerate() {
        let n = i + 1;
        let name = lang.t_with("game-doc-table", &[("n", &n)]);
        numbered.push_str(&format!(
            "<div class=\"table-scroll\" tabindex=\"0\" role=\"region\" aria-label=\"{name}\"><table>"
        ));
        numbered.push_str(rest);
    }
    numbered
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_rules_protocol_and_a_kit() {
        for game in GameId::all() {
            let name = game.display_name();
            assert!(
                section(RULES, name).is_some_and(|s| s.len() > 200),
                "rules of {name}"
            );
            assert!(
                section(PROTOCOLS, name).is_some_and(|s| s.len() > 200),
                "protocol of {name}"
            );
            assert!(!kits_of(game.as_str()).is_empty(), "a kit for {name}");
            for (en, zh) in [(RULES, RULES_ZH), (PROTOCOLS, PROTOCOLS_ZH)] {
                let chinese = doc_section(en, zh, game, Lang::Zh);
                assert!(chinese.len() > 200, "the Chinese text of {name}");
                assert_eq!(
                    doc_section(en, zh, game, Lang::En),
                    section(en, name).unwrap()
                );
            }
        }
    }

    #[test]
    fn in_english_names_and_protocol_lines_are_the_registrys() {
        for game in GameId::all() {
            assert_eq!(game_name(game, Lang::En), game.display_name());
            assert_eq!(protocol_summary(game, Lang::En), game.protocol_summary());
            assert_ne!(
                game_name(game, Lang::Zh),
                game.display_name().replace("掼蛋", "")
            );
            assert_ne!(protocol_summary(game, Lang::Zh), game.protocol_summary());
        }
    }

    #[test]
    fn a_section_ends_at_the_next_game_and_links_into_the_repo_become_text() {
        let doc = "## No Thanks\nTake [a card](rules.md#x) or [pay](https://example.org).\n\n## Splendor\nGems.\n";
        let nothanks = section(doc, "No Thanks!").unwrap();
        assert!(!nothanks.contains("Gems"));
        let html = markdown(nothanks, Lang::En);
        assert!(
            html.contains("Take a card or <a href=\"https://example.org\">pay</a>"),
            "{html}"
        );
        assert_eq!(section(doc, "Splendor"), Some("Gems.\n"));
        let zh = "## 不，谢谢！<a id=\"no-thanks\"></a>\n拿牌。\n## 桥牌 <a id=\"contract-bridge\"></a>\n叫牌。\n";
        assert_eq!(section(zh, "No Thanks!"), Some("拿牌。\n"));
        assert_eq!(section(zh, "Contract Bridge"), Some("叫牌。\n"));
        assert_eq!(section(zh, "Splendor"), None);
        let heading = markdown("### 花火的设置<a id=\"hanabi-settings\"></a>\n", Lang::Zh);
        assert_eq!(heading.trim(), "<h3>花火的设置</h3>");
        assert!(markdown("| a |\n|---|\n| 1 |\n", Lang::En).contains("<th scope=\"col\">a</th>"));
    }
}
