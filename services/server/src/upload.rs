//! Bot uploads, shared by the upload form and the JSON API: read the multipart body within
//! the size cap, validate the game, the language and the bundle (via `croupier-bundle`),
//! and store it as a new submission version with a queued compile job. Anything invalid is
//! refused with a clear message before a single row is written. A refusal names the field it
//! is about ([`FieldError`]), so the form can show it there.
//!
//! An upload may also name the table its bot is for (`rules`, `players`): its validation game
//! is played there ([`table`]).

use std::fmt::Display;

use axum::extract::multipart::{Field, MultipartError};
use axum::extract::Multipart;
use axum::http::StatusCode;
use croupier_bundle::Language;
use croupier_games::GameId;
use croupier_store::submissions::{self, NewFile, NewSubmission, Submission};
use uuid::Uuid;

use crate::error::Error;
use crate::{i18n, AppState};

/// Multipart bodies may be this much larger than the file they carry (field headers, other fields).
pub const MULTIPART_OVERHEAD: u64 = 64 * 1024;

/// The fields of an upload.
#[derive(Debug, Default)]
pub struct UploadForm {
    pub game: String,
    pub language: String,
    pub label: String,
    /// The entry point (`bot/client0.py`, `player.py:cautious(0.3)`); empty: the build chooses.
    pub entry: String,
    /// The rule set the bot is for (`rainbow`); empty: [`table`] chooses.
    pub rules: String,
    /// The number of players the bot is for, where the rule set lets it be chosen; empty:
    /// [`table`] chooses.
    pub players: String,
    pub csrf: String,
    pub filename: String,
    pub bytes: Vec<u8>,
}

/// The field of the upload form a refusal is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UploadField {
    Game,
    Language,
    Label,
    File,
    Entry,
    Rules,
    Players,
    /// The form as a whole (its token, a body that cannot be read).
    Form,
}

impl UploadField {
    /// The form field's name (`file`), or `form`.
    pub fn as_str(self) -> &'static str {
        match self {
            UploadField::Game => "game",
            UploadField::Language => "language",
            UploadField::Label => "label",
            UploadField::File => "file",
            UploadField::Entry => "entry",
            UploadField::Rules => "rules",
            UploadField::Players => "players",
            UploadField::Form => "form",
        }
    }
}

/// A refused upload and the field it is about.
#[derive(Debug)]
pub struct FieldError {
    pub field: UploadField,
    pub error: Error,
}

impl From<FieldError> for Error {
    fn from(e: FieldError) -> Error {
        e.error
    }
}

/// Tags an error with the field it is about.
fn at(field: UploadField) -> impl FnOnce(Error) -> FieldError {
    move |error| FieldError { field, error }
}

fn multipart_error(e: MultipartError, cap: u64) -> Error {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        Error::TooLarge(cap)
    } else {
        let why = e.body_text();
        Error::BadRequest(i18n::t_with("upload-unreadable", &[("why", &why)]))
    }
}

async fn read_text(field: Field<'_>, cap: u64) -> Result<String, Error> {
    let text = field.text().await.map_err(|e| multipart_error(e, cap))?;
    if text.len() > 1024 {
        return Err(Error::BadRequest(i18n::t("upload-field-too-long")));
    }
    Ok(text.trim().to_owned())
}

/// Reads the form fields (`game`, `language`, `label`, `entry`, `rules`, `players`, `csrf`,
/// `file`), stopping as soon as the file passes `cap` bytes.
pub async fn read(multipart: Multipart, cap: u64) -> Result<UploadForm, Error> {
    let mut form = UploadForm::default();
    read_into(multipart, cap, &mut form).await?;
    Ok(form)
}

/// [`read`] into `form`, which keeps the fields read before a refusal (to show the form again
/// with them).
pub async fn read_into(
    mut multipart: Multipart,
    cap: u64,
    form: &mut UploadForm,
) -> Result<(), FieldError> {
    let mut saw_file = false;
    let file = UploadField::File;
    while let Some(mut field) = multipart
        .next_field()
        .await
        .map_err(|e| multipart_error(e, cap))
        .map_err(at(UploadField::Form))?
    {
        match field.name().unwrap_or_default() {
            "game" => form.game = read_text(field, cap).await.map_err(at(UploadField::Game))?,
            "language" => {
                form.language = read_text(field, cap)
                    .await
                    .map_err(at(UploadField::Language))?;
            }
            "label" => {
                form.label = read_text(field, cap)
                    .await
                    .map_err(at(UploadField::Label))?;
            }
            "entry" => {
                form.entry = read_text(field, cap)
                    .await
                    .map_err(at(UploadField::Entry))?;
            }
            "rules" => {
                form.rules = read_text(field, cap)
                    .await
                    .map_err(at(UploadField::Rules))?;
            }
            "players" => {
                form.players = read_text(field, cap)
                    .await
                    .map_err(at(UploadField::Players))?;
            }
            "csrf" => form.csrf = read_text(field, cap).await.map_err(at(UploadField::Form))?,
            "file" => {
                saw_file = true;
                form.filename = field.file_name().unwrap_or_default().to_owned();
                while let Some(chunk) = field
                    .chunk()
                    .await
                    .map_err(|e| multipart_error(e, cap))
                    .map_err(at(file))?
                {
                    if (form.bytes.len() + chunk.len()) as u64 > cap {
                        return Err(at(file)(Error::TooLarge(cap)));
                    }
                    form.bytes.extend_from_slice(&chunk);
                }
            }
            _ => {}
        }
    }
    if !saw_file || form.filename.is_empty() {
        return Err(at(file)(Error::BadRequest(i18n::t("upload-choose-file"))));
    }
    if form.bytes.is_empty() {
        let name = format!("{:?}", form.filename);
        let empty = i18n::t_with("upload-empty-file", &[("file", &name)]);
        return Err(at(file)(Error::BadRequest(empty)));
    }
    Ok(())
}

/// Checks the language against the files, so an obvious mistake is caught at upload time: a
/// source language needs a source file of its own (by the same endings the compiler uses).
fn check_language(language: Language, files: &[NewFile]) -> Result<(), Error> {
    let has_source = files.iter().any(|f| language.is_source(&f.path));
    let ok = match language {
        Language::Python3 | Language::C | Language::Cpp => has_source,
        Language::Binary => true,
    };
    if !ok {
        let endings = language.source_endings().join(", ");
        let args: [(&str, &dyn Display); 2] = [("language", &language), ("endings", &endings)];
        let message = i18n::t_with("upload-needs-source", &args);
        return Err(Error::BadRequest(message));
    }
    Ok(())
}

/// Checks the chosen entry point against the upload: a file of it (no `..`), of the language,
/// and a class only for a Python Hanabi class bot. Returns the entry with its file's full path.
/// Without one, a Python upload must have a clear start file (the build's rule), else it is
/// refused with the candidates.
fn check_entry(
    form: &UploadForm,
    game: GameId,
    language: Language,
    files: &[NewFile],
) -> Result<String, Error> {
    let paths: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
    if form.entry.is_empty() {
        if language == Language::Python3 {
            let py: Vec<String> = paths
                .into_iter()
                .filter(|p| language.is_source(p))
                .collect();
            croupier_bundle::python_entry(&py).map_err(Error::BadRequest)?;
        }
        return Ok(String::new());
    }
    let entry = croupier_bundle::EntryPoint::parse(&form.entry)
        .and_then(|e| e.locate(&paths))
        .map_err(Error::BadRequest)?;
    if let Some(class) = &entry.class {
        if !game.def().class_bots || language != Language::Python3 {
            let args: [(&str, &dyn Display); 2] =
                [("class", class), ("game", &game.display_name())];
            return Err(Error::BadRequest(i18n::t_with("upload-class-entry", &args)));
        }
    }
    let wanted = language.source_endings();
    if !wanted.is_empty() && !language.is_source(&entry.file) {
        let endings = wanted.join(", ");
        let args: [(&str, &dyn Display); 3] = [
            ("file", &entry.file),
            ("language", &language),
            ("endings", &endings),
        ];
        let message = i18n::t_with("upload-entry-not-language", &args);
        return Err(Error::BadRequest(message));
    }
    Ok(entry.to_string())
}

/// The table a bot is validated at: `(rule set, players)`, `players` only where the rule set
/// lets it be chosen ([`GameId::player_choices`]). What the form leaves empty comes from the
/// game's newest open competition (the table a new bot most likely meets next), else from
/// the registry: the game's default rule set and that rule set's own number of players.
async fn table(
    state: &AppState,
    game: GameId,
    form: &UploadForm,
) -> Result<(String, Option<i32>), FieldError> {
    let open = submissions::open_table(&state.pool, game.as_str())
        .await
        .map_err(|e| at(UploadField::Form)(e.into()))?
        .filter(|(rules, _)| game.rule_sets().contains(&rules.as_str()));
    let rules = match form.rules.as_str() {
        "" => open
            .as_ref()
            .map_or_else(|| game.default_rules().to_owned(), |(r, _)| r.clone()),
        given if game.rule_sets().contains(&given) => given.to_owned(),
        given => {
            let known = game.rule_sets().join(", ");
            let args: [(&str, &dyn Display); 3] = [
                ("rules", &given),
                ("game", &game.display_name()),
                ("known", &known),
            ];
            let message = i18n::t_with("upload-rules-unknown", &args);
            return Err(at(UploadField::Rules)(Error::BadRequest(message)));
        }
    };
    let choices = game.player_choices(&rules);
    let seats = game.seats_for(&rules, None).unwrap_or_default();
    let (least, most) = (choices.first(), choices.last());
    let (least, most) = (least.unwrap_or(&seats), most.unwrap_or(&seats));
    let args: [(&str, &dyn Display); 5] = [
        ("game", &game.display_name()),
        ("rules", &rules),
        ("seats", &seats),
        ("least", least),
        ("most", most),
    ];
    let refuse = |message| at(UploadField::Players)(Error::BadRequest(message));
    let players = match (form.players.as_str(), choices.is_empty()) {
        ("", true) => None,
        ("", false) => {
            let usual = (open.as_ref())
                .filter(|(r, _)| *r == rules)
                .and_then(|(_, p)| usize::try_from((*p)?).ok())
                .filter(|p| choices.contains(p));
            usual.or_else(|| game.seats_for(&rules, None))
        }
        (_, true) => return Err(refuse(i18n::t_with("upload-players-fixed", &args))),
        (given, false) => match given.parse::<usize>() {
            Ok(n) if choices.contains(&n) => Some(n),
            _ => return Err(refuse(i18n::t_with("upload-players-range", &args))),
        },
    };
    Ok((rules, players.and_then(|n| i32::try_from(n).ok())))
}

/// Validates `form` and stores it as the next version of the team's bot for that game.
pub async fn store(
    state: &AppState,
    user_id: Uuid,
    team_id: Uuid,
    form: &UploadForm,
) -> Result<Submission, Error> {
    Ok(store_checked(state, user_id, team_id, form).await?)
}

/// [`store`], saying which field a refusal is about.
pub async fn store_checked(
    state: &AppState,
    user_id: Uuid,
    team_id: Uuid,
    form: &UploadForm,
) -> Result<Submission, FieldError> {
    let file = UploadField::File;
    let game: GameId = form
        .game
        .parse()
        .map_err(|e: croupier_games::UnknownGame| Error::BadRequest(e.to_string()))
        .map_err(at(UploadField::Game))?;
    let language: Language = form
        .language
        .parse()
        .map_err(|e: croupier_bundle::UnknownLanguage| Error::BadRequest(e.to_string()))
        .map_err(at(UploadField::Language))?;
    if form.label.chars().count() > 80 {
        let long = i18n::t("upload-label-too-long");
        return Err(at(UploadField::Label)(Error::BadRequest(long)));
    }
    let cap = state.config.max_upload_bytes;
    if form.bytes.len() as u64 > cap {
        return Err(at(file)(Error::TooLarge(cap)));
    }
    let manifest =
        croupier_bundle::inspect(&form.filename, &form.bytes, &state.config.bundle_limits)
            .map_err(|e| match e {
                croupier_bundle::BundleError::TooLarge { .. } => Error::TooLarge(cap),
                other => Error::BadRequest(other.to_string()),
            })
            .map_err(at(file))?;
    let files: Vec<NewFile> = manifest
        .entries
        .iter()
        .map(|e| NewFile {
            path: e.path.clone(),
            size: e.size,
            executable: e.executable,
        })
        .collect();
    check_language(language, &files).map_err(at(UploadField::Language))?;
    let entry = check_entry(form, game, language, &files).map_err(at(UploadField::Entry))?;
    let (rules, players) = table(state, game, form).await?;
    let new = NewSubmission {
        team_id,
        game: game.as_str(),
        language,
        label: &form.label,
        filename: &form.filename,
        entry: &entry,
        bundle_kind: manifest.kind,
        bytes: &form.bytes,
        unpacked_size: manifest.total_bytes,
        files,
        submitted_by: user_id,
        rules: &rules,
        players,
    };
    let created = submissions::create(&state.pool, &new)
        .await
        .map_err(|e| at(UploadField::Form)(e.into()))?;
    metrics::counter!("submissions_total", "game" => game.as_str()).increment(1);
    tracing::info!(submission_id = %created.submission_id, team_id = %team_id, game = %game, version = created.version, "submission stored");
    Ok(created)
}
