//! The games' own pages. `/games` lists them; `/games/{id}` is one game for a bot author: its
//! rules with this platform's settings, the protocol as Croupier speaks it (with example
//! messages), the time and memory limits, how the leaderboard ranks, a quick start, and the
//! starter kits as zips (`/games/{id}/kits/{language}.zip`, built from `kits/`). The rules and
//! the protocol are the repository's own docs (`docs/rules.md`, `docs/protocols.md`), the
//! game's section of each, rendered from Markdown: one text for the repo and the site.

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
use crate::templates::{games, render, Ctx, GameView};
use crate::AppState;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/kits.rs"));
}

const RULES: &str = include_str!("../../../../docs/rules.md");
const PROTOCOLS: &str = include_str!("../../../../docs/protocols.md");

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
    games: Vec<GameView>,
}

#[derive(Template)]
#[template(path = "game.html")]
struct GamePage {
    ctx: Ctx,
    game: GameView,
    facts: Vec<(&'static str, String)>,
    /// The kits' languages, with their file count.
    kits: Vec<(&'static str, usize)>,
    /// An example command for `croupier play` with the first kit.
    play: Option<String>,
    rules: String,
    protocol: String,
}

async fn index(ctx: Ctx) -> Result<Response> {
    Ok(render(&IndexPage {
        ctx,
        games: games(),
    }))
}

fn game_of(id: &str) -> Result<GameId> {
    id.parse::<GameId>().map_err(|_| Error::NotFound)
}

async fn show(ctx: Ctx, PagePath(id): PagePath<String>) -> Result<Response> {
    let game = game_of(&id)?;
    let view = games()
        .into_iter()
        .find(|g| g.id == game.as_str())
        .ok_or(Error::NotFound)?;
    let kits = kits_of(game.as_str());
    // The line runs the Python kit where there is one (it needs no compiler).
    let play = kits
        .iter()
        .find(|(lang, _)| *lang == "python")
        .or(kits.first())
        .and_then(|(lang, _)| play_command(game, lang));
    Ok(render(&GamePage {
        ctx,
        facts: facts(game),
        kits,
        play,
        rules: markdown(section(RULES, game.display_name()).unwrap_or("")),
        protocol: markdown(section(PROTOCOLS, game.display_name()).unwrap_or("")),
        game: view,
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
fn kits_of(game: &str) -> Vec<(&'static str, usize)> {
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
fn facts(game: GameId) -> Vec<(&'static str, String)> {
    let def = game.def();
    let games = match (def.games_per_match, def.max_games_per_match) {
        (n, Some(max)) => format!("{n} by default (a competition may set up to {max})"),
        (n, None) => format!("{n} by default"),
    };
    vec![
        ("Seats", def.default_seats.to_string()),
        ("Rule sets", def.rule_sets.join(", ")),
        ("How bots connect", def.protocol_summary.to_owned()),
        (
            "Time per move",
            format!(
                "{} s wall clock, start-up included (a competition may change it)",
                def.move_time.as_secs_f64()
            ),
        ),
        ("Games per match", games),
        (
            "Memory, CPU, disk per seat",
            "512 MiB for the whole process tree, one core, 64 MiB of disk beyond the bot's files \
             (the defaults; a competition may change them)"
                .to_owned(),
        ),
        ("Built-in bots", def.bot_names().join(", ")),
    ]
}

/// The section of `doc` under the level-2 heading naming the game (`## No Thanks` for
/// "No Thanks!", `## Guandan` for "Guandan 掼蛋"), without its heading.
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
            if first.eq_ignore_ascii_case(&wanted) {
                start = Some(offset + line.len());
            }
        }
        offset += line.len();
    }
    start.map(|from| &doc[from..])
}

/// Markdown to HTML for the page: headings moved down one level (the page's `h1` is the game's
/// name), links into the repository shown as text (they point at files beside the docs), code
/// blocks and tables focusable boxes that scroll on a phone, every table header a column header.
fn markdown(text: &str) -> String {
    let mut in_repo_link = Vec::new();
    let events = Parser::new_ext(text, Options::ENABLE_TABLES).filter_map(|event| match event {
        Event::Start(Tag::Heading {
            level,
            id,
            classes,
            attrs,
        }) => {
            let level = match level {
                pulldown_cmark::HeadingLevel::H1 | pulldown_cmark::HeadingLevel::H2 => {
                    pulldown_cmark::HeadingLevel::H3
                }
                pulldown_cmark::HeadingLevel::H3 => pulldown_cmark::HeadingLevel::H4,
                _ => pulldown_cmark::HeadingLevel::H5,
            };
            Some(Event::Start(Tag::Heading {
                level,
                id,
                classes,
                attrs,
            }))
        }
        Event::End(TagEnd::Heading(level)) => Some(Event::End(TagEnd::Heading(match level {
            pulldown_cmark::HeadingLevel::H1 | pulldown_cmark::HeadingLevel::H2 => {
                pulldown_cmark::HeadingLevel::H3
            }
            pulldown_cmark::HeadingLevel::H3 => pulldown_cmark::HeadingLevel::H4,
            _ => pulldown_cmark::HeadingLevel::H5,
        }))),
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
        Event::Html(raw) | Event::InlineHtml(raw) => {
            Some(Event::Text(CowStr::from(raw.to_string())))
        }
        other => Some(other),
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    out.replace("<pre>", "<pre tabindex=\"0\">")
        .replace("<th>", "<th scope=\"col\">")
        .replace("<th style", "<th scope=\"col\" style")
        .replace(
            "<table>",
            "<div class=\"table-scroll\" tabindex=\"0\" role=\"region\" aria-label=\"Table\"><table>",
        )
        .replace("</table>", "</table></div>")
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
        }
    }

    #[test]
    fn a_section_ends_at_the_next_game_and_links_into_the_repo_become_text() {
        let doc = "## No Thanks\nTake [a card](rules.md#x) or [pay](https://example.org).\n\n## Splendor\nGems.\n";
        let nothanks = section(doc, "No Thanks!").unwrap();
        assert!(!nothanks.contains("Gems"));
        let html = markdown(nothanks);
        assert!(
            html.contains("Take a card or <a href=\"https://example.org\">pay</a>"),
            "{html}"
        );
        assert_eq!(section(doc, "Splendor"), Some("Gems.\n"));
        assert!(markdown("| a |\n|---|\n| 1 |\n").contains("<th scope=\"col\">a</th>"));
    }
}
