//! Both languages say everything: every Fluent file parses, English and 简体中文 have the same
//! files, the same keys and the same `$arguments` per key, and every key a page or a handler
//! names exists in both (and every key in the files is named somewhere).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};

/// Keys built at run time (`format!("status-{code}")` …): their prefix stands in for them.
const DYNAMIC_PREFIXES: &[&str] = &["status-", "game-name-", "game-protocol-", "play-new-seats"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Key → its argument names, for one language (all of its files).
fn messages(lang: &str) -> BTreeMap<String, (String, BTreeSet<String>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("locales")
        .join(lang);
    let mut all = BTreeMap::new();
    for file in fs::read_dir(&dir).unwrap() {
        let path = file.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.ends_with(".ftl"),
            "{} is not a Fluent file",
            path.display()
        );
        let source = fs::read_to_string(&path).unwrap();
        let resource = match fluent_syntax::parser::parse(source.as_str()) {
            Ok(r) => r,
            Err((_, errors)) => panic!("{}: {errors:?}", path.display()),
        };
        for entry in resource.body {
            match entry {
                Entry::Message(m) => {
                    let mut args = BTreeSet::new();
                    if let Some(p) = &m.value {
                        pattern_args(p, &mut args);
                    }
                    for a in &m.attributes {
                        pattern_args(&a.value, &mut args);
                    }
                    let id = m.id.name.to_owned();
                    let previous = all.insert(id.clone(), (name.clone(), args));
                    assert!(previous.is_none(), "{lang}: {id} is defined twice");
                }
                Entry::Junk { content } => panic!("{}: cannot parse {content:?}", path.display()),
                _ => {}
            }
        }
    }
    all
}

fn pattern_args(p: &Pattern<&str>, out: &mut BTreeSet<String>) {
    for e in &p.elements {
        if let PatternElement::Placeable { expression } = e {
            expression_args(expression, out);
        }
    }
}

fn expression_args(e: &Expression<&str>, out: &mut BTreeSet<String>) {
    match e {
        Expression::Inline(i) => inline_args(i, out),
        Expression::Select { selector, variants } => {
            inline_args(selector, out);
            for v in variants {
                pattern_args(&v.value, out);
            }
        }
    }
}

fn inline_args(i: &InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match i {
        InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_owned());
        }
        InlineExpression::Placeable { expression } => expression_args(expression, out),
        InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                inline_args(a, out);
            }
        }
        _ => {}
    }
}

/// Every key named in the templates and the server's code: the first string argument of
/// `t(`, `t1(`, `t2(`, `t_with(`, `tk(` calls.
fn used_keys() -> BTreeSet<String> {
    let mut files = Vec::new();
    collect(&root().join("web/templates"), &mut files);
    collect(&root().join("services/server/src"), &mut files);
    let mut keys = BTreeSet::new();
    for path in files {
        let raw = fs::read_to_string(&path).unwrap();
        // A call rustfmt broke after its `(` names its key on the next line.
        let mut text = String::with_capacity(raw.len());
        let mut rest = raw.as_str();
        while let Some(at) = rest.find('(') {
            text.push_str(&rest[..=at]);
            rest = rest[at + 1..].trim_start_matches([' ', '\n']);
        }
        text.push_str(rest);
        for call in ["t(\"", "t1(\"", "t2(\"", "t_with(\"", "tk(\""] {
            let mut rest = text.as_str();
            while let Some(at) = rest.find(call) {
                let before = rest[..at].chars().last();
                rest = &rest[at + call.len()..];
                // `t("` but not `format!("` or `print("`: the call's name must start there.
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') && call == "t(\"" {
                    continue;
                }
                let end = rest.find('"').unwrap();
                let key = &rest[..end];
                if !key.is_empty()
                    && key
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                {
                    keys.insert(key.to_owned());
                }
            }
        }
    }
    keys
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "rs" || e == "html" || e == "js")
        {
            out.push(path);
        }
    }
}

#[test]
fn english_and_chinese_have_the_same_keys_files_and_arguments() {
    let en = messages("en");
    let zh = messages("zh-CN");
    assert!(
        en.len() > 50,
        "the English files look empty ({} keys)",
        en.len()
    );
    let mut problems = Vec::new();
    for (key, (file, args)) in &en {
        match zh.get(key) {
            None => problems.push(format!("zh-CN lacks {key} (en: {file})")),
            Some((zfile, zargs)) => {
                if zfile != file {
                    problems.push(format!("{key} is in en/{file} but zh-CN/{zfile}"));
                }
                if zargs != args {
                    problems.push(format!("{key}: en uses {args:?}, zh-CN {zargs:?}"));
                }
            }
        }
    }
    for (key, (file, _)) in &zh {
        if !en.contains_key(key) {
            problems.push(format!("en lacks {key} (zh-CN: {file})"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_key_named_in_the_code_exists_and_every_key_is_named() {
    let en = messages("en");
    let used = used_keys();
    let missing: Vec<_> = used.iter().filter(|k| !en.contains_key(*k)).collect();
    assert!(
        missing.is_empty(),
        "keys named but not defined: {missing:?}"
    );
    let unused: Vec<_> = en
        .keys()
        .filter(|k| !used.contains(*k) && !DYNAMIC_PREFIXES.iter().any(|p| k.starts_with(p)))
        .collect();
    assert!(
        unused.is_empty(),
        "keys defined but never named: {unused:?}"
    );
}
