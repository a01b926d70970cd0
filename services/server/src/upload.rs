//! Bot uploads, shared by the upload form and the JSON API: read the multipart body within
//! the size cap, validate the game, the language and the bundle (via `croupier-bundle`),
//! and store it as a new submission version with a queued compile job. Anything invalid is
//! refused with a clear message before a single row is written.

use axum::extract::multipart::{Field, MultipartError};
use axum::extract::Multipart;
use axum::http::StatusCode;
use croupier_games::GameId;
use croupier_store::submissions::{self, NewFile, NewSubmission, Submission};
use uuid::Uuid;

use crate::error::Error;
use crate::AppState;

/// The languages a bot may be written in, with their labels.
pub const LANGUAGES: &[(&str, &str)] = &[
    ("python3", "Python 3"),
    ("c", "C (gcc -O2)"),
    ("cpp", "C++17 (g++ -O2)"),
    ("binary", "Linux x86-64 binary"),
];

/// Multipart bodies may be this much larger than the file they carry (field headers, other fields).
pub const MULTIPART_OVERHEAD: u64 = 64 * 1024;

/// The fields of an upload.
#[derive(Debug, Default)]
pub struct UploadForm {
    pub game: String,
    pub language: String,
    pub label: String,
    pub csrf: String,
    pub filename: String,
    pub bytes: Vec<u8>,
}

fn multipart_error(e: MultipartError, cap: u64) -> Error {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        Error::TooLarge(cap)
    } else {
        Error::BadRequest(format!("the upload could not be read: {}", e.body_text()))
    }
}

async fn read_text(field: Field<'_>, cap: u64) -> Result<String, Error> {
    let text = field.text().await.map_err(|e| multipart_error(e, cap))?;
    if text.len() > 1024 {
        return Err(Error::BadRequest("a form field is too long".into()));
    }
    Ok(text.trim().to_owned())
}

/// Reads the form fields (`game`, `language`, `label`, `csrf`, `file`), stopping as soon as
/// the file passes `cap` bytes.
pub async fn read(mut multipart: Multipart, cap: u64) -> Result<UploadForm, Error> {
    let mut form = UploadForm::default();
    let mut saw_file = false;
    while let Some(mut field) = multipart
        .next_field()
        .await
        .map_err(|e| multipart_error(e, cap))?
    {
        match field.name().unwrap_or_default() {
            "game" => form.game = read_text(field, cap).await?,
            "language" => form.language = read_text(field, cap).await?,
            "label" => form.label = read_text(field, cap).await?,
            "csrf" => form.csrf = read_text(field, cap).await?,
            "file" => {
                saw_file = true;
                form.filename = field.file_name().unwrap_or_default().to_owned();
                while let Some(chunk) = field.chunk().await.map_err(|e| multipart_error(e, cap))? {
                    if (form.bytes.len() + chunk.len()) as u64 > cap {
                        return Err(Error::TooLarge(cap));
                    }
                    form.bytes.extend_from_slice(&chunk);
                }
            }
            _ => {}
        }
    }
    if !saw_file || form.filename.is_empty() {
        return Err(Error::BadRequest("choose a file to upload".into()));
    }
    if form.bytes.is_empty() {
        return Err(Error::BadRequest(format!(
            "the file {:?} is empty",
            form.filename
        )));
    }
    Ok(form)
}

fn has_source(files: &[NewFile], extensions: &[&str]) -> bool {
    files.iter().any(|f| {
        extensions
            .iter()
            .any(|ext| f.path.to_ascii_lowercase().ends_with(ext))
    })
}

/// Checks the language against the files, so an obvious mistake is caught at upload time.
fn check_language(language: &str, files: &[NewFile]) -> Result<(), Error> {
    let ok = match language {
        "python3" => has_source(files, &[".py"]),
        "c" => has_source(files, &[".c"]),
        "cpp" => has_source(files, &[".cpp", ".cc", ".cxx", ".c++"]),
        "binary" => true,
        other => {
            return Err(Error::BadRequest(format!(
                "unknown language {other:?}: expected one of python3, c, cpp, binary"
            )))
        }
    };
    if !ok {
        let want = match language {
            "python3" => "a .py file",
            "c" => "a .c file",
            _ => "a .cpp, .cc or .cxx file",
        };
        return Err(Error::BadRequest(format!(
            "a {language} bot needs {want}, and the upload has none"
        )));
    }
    Ok(())
}

/// Validates `form` and stores it as the next version of the team's bot for that game.
pub async fn store(
    state: &AppState,
    user_id: Uuid,
    team_id: Uuid,
    form: &UploadForm,
) -> Result<Submission, Error> {
    let game: GameId = form
        .game
        .parse()
        .map_err(|e: croupier_games::UnknownGame| Error::BadRequest(e.to_string()))?;
    if !LANGUAGES.iter().any(|(id, _)| *id == form.language) {
        return Err(Error::BadRequest(format!(
            "unknown language {:?}: expected one of python3, c, cpp, binary",
            form.language
        )));
    }
    if form.label.chars().count() > 80 {
        return Err(Error::BadRequest(
            "the label may have at most 80 characters".into(),
        ));
    }
    let cap = state.config.max_upload_bytes;
    if form.bytes.len() as u64 > cap {
        return Err(Error::TooLarge(cap));
    }
    let manifest =
        croupier_bundle::inspect(&form.filename, &form.bytes, &state.config.bundle_limits)
            .map_err(|e| match e {
                croupier_bundle::BundleError::TooLarge { .. } => Error::TooLarge(cap),
                other => Error::BadRequest(other.to_string()),
            })?;
    let files: Vec<NewFile> = manifest
        .entries
        .iter()
        .map(|e| NewFile {
            path: e.path.clone(),
            size: e.size,
            executable: e.executable,
        })
        .collect();
    check_language(&form.language, &files)?;
    let new = NewSubmission {
        team_id,
        game: game.as_str(),
        language: &form.language,
        label: &form.label,
        filename: &form.filename,
        bundle_kind: manifest.kind.as_str(),
        bytes: &form.bytes,
        unpacked_size: manifest.total_bytes,
        files,
        submitted_by: user_id,
    };
    let created = submissions::create(&state.pool, &new).await?;
    metrics::counter!("submissions_total", "game" => game.as_str()).increment(1);
    tracing::info!(submission_id = %created.submission_id, team_id = %team_id, game = %game, version = created.version, "submission stored");
    Ok(created)
}
