//! A blob as an HTTP download ([`bytes`]: bytes already in memory): its bytes streamed as they are read (never whole in memory),
//! with its `Content-Length` known up front. A blob that does not match its hash is refused:
//! one of up to 1 MiB (`blobs::read::DB_CHUNK`) is checked whole before the response starts
//! (a 500); a bigger one's body ends in an error before its last chunk (the connection is
//! cut, the client sees a short body).

use axum::body::Body;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use croupier_store::blobs::Blob;

/// `blob` as a response of type `content_type`, offered as a file named `filename` when given.
pub fn blob(blob: Blob, content_type: &str, filename: Option<&str>) -> Response {
    let length = blob.size().to_string();
    let body = Body::from_stream(blob.into_stream());
    let headers = [
        (header::CONTENT_TYPE, content_type.to_owned()),
        (header::CONTENT_LENGTH, length),
    ];
    offered((headers, body).into_response(), filename)
}

/// Bytes put together in memory (a replay document with its events derived) as [`blob`] gives
/// a stored blob.
pub fn bytes(bytes: Vec<u8>, content_type: &str, filename: Option<&str>) -> Response {
    let headers = [(header::CONTENT_TYPE, content_type.to_owned())];
    offered((headers, bytes).into_response(), filename)
}

/// `response` offered as a file named `filename`, when given.
fn offered(mut response: Response, filename: Option<&str>) -> Response {
    if let Some(name) = filename {
        let name = name.replace(['"', '\\', '\r', '\n'], "_");
        if let Ok(value) = format!("attachment; filename=\"{name}\"").parse() {
            response
                .headers_mut()
                .insert(header::CONTENT_DISPOSITION, value);
        }
    }
    response
}
