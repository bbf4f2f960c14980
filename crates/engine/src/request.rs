//! Reading requests from JSON with errors that name the offending field.

use palisade_protocol::{CheckRequest, pointer};
use serde_path_to_error::Segment;

use crate::error::RequestError;

/// Parses a v1 request from JSON text.
///
/// A syntax error or a field of the wrong type is reported with the JSON
/// pointer of the field; values are not checked here
/// ([`CheckRequest::validate`] and [`Engine::evaluate`](crate::Engine::evaluate) do that).
///
/// ```
/// let err = palisade_engine::parse_request(r#"{"tool": {"name": 5}}"#).unwrap_err();
/// assert_eq!(err.pointer(), "/tool/name");
/// ```
pub fn parse_request(text: &str) -> Result<CheckRequest, RequestError> {
    // The fast path; the slower path-tracking parse only runs to explain an error.
    match serde_json::from_str(text) {
        Ok(request) => Ok(request),
        Err(_) => Err(explain(text)),
    }
}

fn explain(text: &str) -> RequestError {
    let mut de = serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize::<_, CheckRequest>(&mut de) {
        Ok(_) => RequestError::Malformed {
            pointer: String::new(),
            message: "malformed request".into(),
        },
        Err(e) => {
            let mut ptr = String::new();
            for seg in e.path().iter() {
                match seg {
                    Segment::Seq { index } => pointer::push_index(&mut ptr, *index),
                    Segment::Map { key } => pointer::push(&mut ptr, key),
                    Segment::Enum { variant } => pointer::push(&mut ptr, variant),
                    Segment::Unknown => {}
                }
            }
            let inner = e.into_inner();
            let message = if inner.is_syntax() || inner.is_eof() {
                format!("invalid JSON: {inner}")
            } else {
                inner.to_string()
            };
            RequestError::Malformed {
                pointer: ptr,
                message,
            }
        }
    }
}
