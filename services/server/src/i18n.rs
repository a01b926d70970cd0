//! The site's languages: English and Simplified Chinese (简体中文).
//!
//! Every word a page shows comes from the Fluent files under `services/server/locales/<lang>/`
//! (one file per area of the site, the same keys in both languages; a test fails when a key is
//! missing from either, or when a page names a key that neither has). Game terms use the
//! words of the original platforms' own documents (掼蛋's 接风, 进贡, 还贡 …).
//!
//! Which language a request gets: the `lang` cookie (set by the footer's language links, kept
//! a year), else the browser's `Accept-Language`, else English. The [`negotiate`] middleware
//! decides once per request and keeps the answer in a task-local, so anything that renders
//! text during the request — a page, a flash message, the error page — asks [`current`]
//! instead of threading the language through every call. A leaf: it uses nothing else of this
//! crate (`pages::language` serves the switch).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Display;

use axum::extract::Request;
use axum::http::header::{ACCEPT_LANGUAGE, CONTENT_LANGUAGE, COOKIE, VARY};
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use fluent_templates::fluent_bundle::FluentValue;
use fluent_templates::{LanguageIdentifier, Loader};

fluent_templates::static_loader! {
    static LOCALES = {
        locales: "./locales",
        fallback_language: "en",
        // Bidi isolation marks around arguments would show up in tests and copy-paste; both
        // languages are left-to-right.
        customise: |bundle| bundle.set_use_isolating(false),
    };
}

/// The cookie that remembers a visitor's choice.
pub const COOKIE_NAME: &str = "lang";

/// A language the site speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The BCP 47 tag: the locale folder's name, `<html lang>` and the cookie's value.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// The language's name in itself, for the switch in the footer.
    pub fn endonym(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "简体中文",
        }
    }

    /// A tag as a cookie or an address holds it (`en`, `zh-CN`, and the loose `zh`).
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }

    /// The best of ours for an `Accept-Language` header: the highest-weighted range we speak
    /// (`*` and unknown ranges skipped), English when none.
    pub fn from_accept_language(header: &str) -> Lang {
        let mut best: Option<(f32, usize, Lang)> = None;
        for (i, item) in header.split(',').enumerate() {
            let mut parts = item.split(';');
            let Some(lang) = parts.next().and_then(Lang::from_tag) else {
                continue;
            };
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if q <= 0.0 {
                continue;
            }
            // Higher weight wins; on a tie the earlier range does.
            if best.is_none_or(|(bq, bi, _)| q > bq || (q == bq && i < bi)) {
                best = Some((q, i, lang));
            }
        }
        best.map(|(_, _, lang)| lang).unwrap_or_default()
    }

    /// The language a request asked for: its cookie, else its `Accept-Language`.
    pub fn of_request(headers: &HeaderMap) -> Lang {
        let from_cookie = headers
            .get_all(COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|c| c.trim().split_once('='))
            .find(|(name, _)| *name == COOKIE_NAME)
            .and_then(|(_, value)| Lang::from_tag(value));
        from_cookie.unwrap_or_else(|| {
            headers
                .get(ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .map(Lang::from_accept_language)
                .unwrap_or_default()
        })
    }

    fn id(self) -> &'static LanguageIdentifier {
        static EN: LanguageIdentifier = fluent_templates::langid!("en");
        static ZH: LanguageIdentifier = fluent_templates::langid!("zh-CN");
        match self {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }

    /// The text for `key`.
    pub fn t(self, key: &str) -> String {
        LOCALES.lookup(self.id(), key)
    }

    /// The text for `key` with its arguments filled in. An argument that reads as a number
    /// is passed as one, so plural forms (`{ $n -> [one] … *[other] … }`) choose right.
    pub fn t_with(self, key: &str, args: &[(&str, &dyn Display)]) -> String {
        let args: HashMap<Cow<'static, str>, FluentValue> = args
            .iter()
            .map(|(name, value)| {
                let text = value.to_string();
                // Only what prints back the same is a number: a username "007" or "1e3" stays
                // as typed.
                let value = match text.parse::<f64>() {
                    Ok(n) if n.is_finite() && n.to_string() == text => FluentValue::from(n),
                    _ => FluentValue::from(text),
                };
                (Cow::Owned((*name).to_owned()), value)
            })
            .collect();
        LOCALES.lookup_with_args(self.id(), key, &args)
    }

    /// Whether `key` exists in this language (without falling back to English).
    pub fn has(self, key: &str) -> bool {
        LOCALES
            .lookup_no_default_fallback::<&str>(self.id(), key, None)
            .is_some()
    }
}

tokio::task_local! {
    static CURRENT: Lang;
}

/// The language of the request being handled (English outside a request).
pub fn current() -> Lang {
    CURRENT.try_with(|l| *l).unwrap_or_default()
}

/// `t` in the current request's language.
pub fn t(key: &str) -> String {
    current().t(key)
}

/// `t_with` in the current request's language.
pub fn t_with(key: &str, args: &[(&str, &dyn Display)]) -> String {
    current().t_with(key, args)
}

/// Middleware: decides the request's language and runs the rest of the request with it.
/// Shared code (an upload's checks, say) may call [`t`]: under `/api/` it answers in English.
pub async fn negotiate(request: Request, next: Next) -> Response {
    // The JSON API speaks English whatever the browser prefers: programs read it, and its
    // messages are documented in English.
    let lang = if request.uri().path().starts_with("/api/") {
        Lang::En
    } else {
        Lang::of_request(request.headers())
    };
    let mut response = CURRENT.scope(lang, next.run(request)).await;
    let headers = response.headers_mut();
    headers.insert(CONTENT_LANGUAGE, HeaderValue::from_static(lang.tag()));
    headers.append(VARY, HeaderValue::from_static("cookie, accept-language"));
    response
}

/// The words a page's script shows, as the `<script type="application/json"
/// class="croupier-words">` element the page includes (a page may have several; its scripts
/// read them all): `keys` (each with its argument names) in `lang`, a JSON object from key to
/// text, each argument left as `{name}` for the script to fill in. A key with an argument `n`
/// also gets `<key>#one`, its text for `n` = 1 (`{n}` filled in), for the plural forms. The
/// JSON has no `<`, `>` or `&`, so nothing in it can end the element.
pub fn script_words(lang: Lang, keys: &[(&str, &[&str])]) -> String {
    let mut words = serde_json::Map::new();
    for (key, args) in keys {
        let holders: Vec<String> = args.iter().map(|a| format!("{{{a}}}")).collect();
        let text = |one: bool| {
            let values: Vec<(&str, &dyn Display)> = args
                .iter()
                .zip(&holders)
                .map(|(name, holder)| {
                    let value: &dyn Display = if one && *name == "n" { &1 } else { holder };
                    (*name, value)
                })
                .collect();
            lang.t_with(key, &values)
        };
        words.insert((*key).to_owned(), text(false).into());
        if args.contains(&"n") {
            words.insert(format!("{key}#one"), text(true).into());
        }
    }
    let json = serde_json::Value::Object(words)
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    format!(r#"<script type="application/json" class="croupier-words">{json}</script>"#)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_language_picks_the_highest_weight_we_speak() {
        assert_eq!(
            Lang::from_accept_language("zh-CN,zh;q=0.9,en;q=0.8"),
            Lang::Zh
        );
        assert_eq!(
            Lang::from_accept_language("en-GB,en;q=0.9,zh;q=0.8"),
            Lang::En
        );
        assert_eq!(
            Lang::from_accept_language("fr-FR,fr;q=0.9,zh-TW;q=0.5"),
            Lang::Zh
        );
        assert_eq!(Lang::from_accept_language("ja;q=0.9, en;q=0.1"), Lang::En);
        assert_eq!(Lang::from_accept_language("en;q=0.2, zh;q=0.7"), Lang::Zh);
        assert_eq!(Lang::from_accept_language("zh;q=0, en;q=0.1"), Lang::En);
        assert_eq!(Lang::from_accept_language("*"), Lang::En);
        assert_eq!(Lang::from_accept_language(""), Lang::En);
        assert_eq!(Lang::from_accept_language("garbage;;q=x,,"), Lang::En);
    }

    #[test]
    fn the_cookie_wins_over_the_browser() {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("en-US"));
        headers.insert(COOKIE, HeaderValue::from_static("id=abc; lang=zh-CN"));
        assert_eq!(Lang::of_request(&headers), Lang::Zh);
        headers.insert(COOKIE, HeaderValue::from_static("lang=klingon"));
        assert_eq!(Lang::of_request(&headers), Lang::En);
    }

    #[test]
    fn arguments_and_plurals_fill_in() {
        assert_eq!(
            Lang::En.t_with("lang-unknown", &[("tag", &"xx")]),
            "No language “xx” here."
        );
        assert!(Lang::Zh
            .t_with("lang-unknown", &[("tag", &"xx")])
            .contains("xx"));
    }
}
