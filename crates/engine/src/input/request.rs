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
    // Structs also deserialize from arrays (by position); a request must be an object.
    match text.trim_start().as_bytes().first() {
        Some(b'{') => {}
        None => {
            return Err(RequestError::Malformed {
                pointer: String::new(),
                message: "invalid JSON: empty input; a request is a JSON object".into(),
            });
        }
        Some(_) if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() => {
            return Err(RequestError::Malformed {
                pointer: String::new(),
                message: "a request must be a JSON object".into(),
            });
        }
        Some(_) => {}
    }
    // The fast path; the slower path-tracking parse only runs to explain an
    // error. Members the protocol does not define are noted on the way.
    let mut unknown = Vec::new();
    let mut de = serde_json::Deserializer::from_str(text);
    let mut request: CheckRequest = serde_ignored::deserialize(&mut de, |path| {
        if unknown.len() < MAX_UNKNOWN_FIELDS {
            unknown.push(ignored_pointer(&path));
        }
    })
    .and_then(|r| de.end().map(|()| r))
    .map_err(|_| explain(text))?;
    refuse_repeated_keys(text)?;
    request.unknown_fields = unknown;
    Ok(request)
}

/// Reads a v1 request from JSON already parsed — a JSON-RPC call's
/// `params`, an MCP tool's arguments — without writing it out and parsing
/// it again. Repeated keys cannot be seen in a `Value`: the caller refuses
/// them when it parses its message ([`parse_json`]). Errors are as
/// [`parse_request`]'s.
///
/// ```
/// let value = serde_json::json!({"tool": {"name": 5}});
/// let err = palisade_engine::parse_request_value(&value).unwrap_err();
/// assert_eq!(err.pointer(), "/tool/name");
/// ```
pub fn parse_request_value(value: &serde_json::Value) -> Result<CheckRequest, RequestError> {
    if !value.is_object() {
        return Err(RequestError::Malformed {
            pointer: String::new(),
            message: "a request must be a JSON object".into(),
        });
    }
    let mut unknown = Vec::new();
    let mut request: CheckRequest = serde_ignored::deserialize(value, |path| {
        if unknown.len() < MAX_UNKNOWN_FIELDS {
            unknown.push(ignored_pointer(&path));
        }
    })
    .map_err(
        |_| match serde_path_to_error::deserialize::<_, CheckRequest>(value) {
            Ok(_) => RequestError::Malformed {
                pointer: String::new(),
                message: "malformed request".to_owned(),
            },
            Err(e) => RequestError::Malformed {
                pointer: path_pointer(e.path()),
                message: without_type_names(&e.into_inner().to_string()),
            },
        },
    )?;
    request.unknown_fields = unknown;
    Ok(request)
}

/// The JSON pointer of a path serde followed.
fn path_pointer(path: &serde_path_to_error::Path) -> String {
    let mut ptr = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => pointer::push_index(&mut ptr, *index),
            Segment::Map { key } => pointer::push(&mut ptr, key),
            Segment::Enum { variant } => pointer::push(&mut ptr, variant),
            Segment::Unknown => {}
        }
    }
    ptr
}

/// How many unknown members one request reports (the first ones read).
pub(crate) const MAX_UNKNOWN_FIELDS: usize = 32;

/// The JSON pointer of a member serde skipped.
fn ignored_pointer(path: &serde_ignored::Path<'_>) -> String {
    use serde_ignored::Path;
    match path {
        Path::Root => String::new(),
        Path::Seq { parent, index } => {
            let mut p = ignored_pointer(parent);
            pointer::push_index(&mut p, *index);
            p
        }
        Path::Map { parent, key } => {
            let mut p = ignored_pointer(parent);
            pointer::push(&mut p, key);
            p
        }
        Path::Some { parent }
        | Path::NewtypeStruct { parent }
        | Path::NewtypeVariant { parent } => ignored_pointer(parent),
    }
}

/// Parses free-form JSON (such as tool arguments given on a command line),
/// refusing repeated keys as [`parse_request`] does.
///
/// ```
/// let err = palisade_engine::parse_json(r#"{"q": "DROP TABLE t", "q": "select 1"}"#).unwrap_err();
/// assert!(err.to_string().contains("`q` appears more than once"));
/// ```
pub fn parse_json(text: &str) -> Result<serde_json::Value, RequestError> {
    let value = serde_json::from_str(text).map_err(|e| RequestError::Malformed {
        pointer: String::new(),
        message: format!("invalid JSON: {e}"),
    })?;
    refuse_repeated_keys(text)?;
    Ok(value)
}

/// Parsers disagree on which value of a repeated key counts: a request that
/// could be judged on one value and run with the other is refused.
fn refuse_repeated_keys(text: &str) -> Result<(), RequestError> {
    match crate::input::dupkeys::find_repeated(text) {
        None => Ok(()),
        Some(r) => Err(RequestError::Malformed {
            message: format!(
                "key `{}` appears more than once in this object; a key may appear only once",
                r.key
            ),
            pointer: r.pointer,
        }),
    }
}

fn explain(text: &str) -> RequestError {
    let mut de = serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize::<_, CheckRequest>(&mut de) {
        Ok(_) => {
            let message = match de.end() {
                Err(e) => format!("invalid JSON: {e}"),
                Ok(()) => "malformed request".to_owned(),
            };
            RequestError::Malformed {
                pointer: String::new(),
                message,
            }
        }
        Err(e) => {
            let ptr = path_pointer(e.path());
            let inner = e.into_inner();
            let message = if inner.is_syntax() || inner.is_eof() {
                format!("invalid JSON: {inner}")
            } else {
                without_type_names(&inner.to_string())
            };
            RequestError::Malformed {
                pointer: ptr,
                message,
            }
        }
    }
}

/// Serde names the Rust type it expected (`expected struct Tool`); users
/// know JSON, not our types.
fn without_type_names(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find("struct ") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "struct ".len()..];
        let name_len = after
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(after.len());
        if name_len == 0 {
            out.push_str("struct ");
        } else {
            out.push_str("a JSON object");
        }
        rest = &after[name_len..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request read from a parsed value is the one read from its text,
    /// unknown members and errors included.
    #[test]
    fn a_parsed_value_reads_as_its_text() {
        for text in [
            r#"{"stage": "tool_use", "tool": {"name": "bash", "arguments": {"command": "ls"}}, "extra": {"x": 1}}"#,
            r#"{"content": "hi", "sessionId": "s", "context": {"cwd": "/w"}}"#,
        ] {
            let from_text = parse_request(text).unwrap();
            let from_value = parse_request_value(&serde_json::from_str(text).unwrap()).unwrap();
            assert_eq!(from_value, from_text, "{text}");
            assert_eq!(
                from_value.unknown_fields, from_text.unknown_fields,
                "{text}"
            );
        }
        for text in [
            r#"{"tool": "bash"}"#,
            r#"{"action": {"targets": [{"uri": 7}]}}"#,
            "[1]",
        ] {
            let a = parse_request(text).unwrap_err();
            let b = parse_request_value(&serde_json::from_str(text).unwrap()).unwrap_err();
            assert_eq!(a.pointer(), b.pointer(), "{text}");
        }
    }

    #[test]
    fn errors_name_the_field_and_no_rust_types() {
        let e = parse_request(r#"{"tool": "bash"}"#).unwrap_err();
        assert_eq!(e.pointer(), "/tool");
        assert!(e.to_string().contains("expected a JSON object"), "{e}");
        assert!(!e.to_string().contains("struct"), "{e}");
        let e = parse_request(r#"{"action": {"targets": [{"uri": 7}]}}"#).unwrap_err();
        assert_eq!(e.pointer(), "/action/targets/0/uri");
    }

    #[test]
    fn nested_structs_are_objects_not_arrays_by_position() {
        for (text, pointer) in [
            (r#"{"tool": ["bash", {"command": "rm -rf /"}]}"#, "/tool"),
            (r#"{"agent": ["a1"]}"#, "/agent"),
            (r#"{"caller": []}"#, "/caller"),
            (r#"{"options": [true]}"#, "/options"),
            (r#"{"action": ["write"]}"#, "/action"),
            (
                r#"{"action": {"resource": ["file", "x", "/etc"]}}"#,
                "/action/resource",
            ),
            (
                r#"{"action": {"targets": [["/etc/passwd"]]}}"#,
                "/action/targets/0",
            ),
            (
                r#"{"action": {"targets": [{"uri": "/a"}, ["/b"]]}}"#,
                "/action/targets/1",
            ),
        ] {
            let e = parse_request(text).unwrap_err();
            assert_eq!(e.pointer(), pointer, "{text}");
            assert!(
                e.to_string()
                    .contains("invalid type: sequence, expected a JSON object"),
                "{text}: {e}"
            );
        }
        let e = parse_request(r#"{"action": {"targets": {"uri": "/a"}}}"#).unwrap_err();
        assert_eq!(e.pointer(), "/action/targets");
        assert!(
            e.to_string().contains("expected an array of JSON objects"),
            "{e}"
        );
        // `null` is absent; objects still work, unknown members still ignored.
        let r = parse_request(
            r#"{"tool": null, "agent": null, "action": {"targets": null, "resource": null}}"#,
        )
        .unwrap();
        assert!(r.tool.is_none() && r.agent.is_none());
        assert!(
            r.action
                .as_ref()
                .is_some_and(|a| a.targets.is_none() && a.resource.is_none())
        );
        let r = parse_request(
            r#"{"tool": {"name": "bash", "x": 1}, "action": {"targets": [{"uri": "/a"}], "resource": {"kind": "file"}}}"#,
        )
        .unwrap();
        assert_eq!(r.tool.unwrap().name, "bash");
        assert_eq!(r.action.unwrap().targets.unwrap()[0].uri, "/a");
    }

    #[test]
    fn repeated_keys_are_rejected_anywhere() {
        let e = parse_request(
            r#"{"tool":{"name":"sql","arguments":{"query":"DROP TABLE users","query":"select 1"}}}"#,
        )
        .unwrap_err();
        assert_eq!(e.pointer(), "/tool/arguments");
        assert!(
            e.to_string().contains("`query` appears more than once"),
            "{e}"
        );
        assert!(parse_request(r#"{"content":"a","content":"b"}"#).is_err());
    }

    #[test]
    fn arrays_and_trailing_text_are_rejected() {
        for text in ["[]", r#"["1", "id"]"#, "5", "\"x\""] {
            let e = parse_request(text).unwrap_err();
            assert!(
                e.to_string().contains("must be a JSON object"),
                "{text}: {e}"
            );
        }
        let e = parse_request(r#"{"requestId": "x"} and more"#).unwrap_err();
        assert!(e.to_string().contains("trailing"), "{e}");
        assert!(
            parse_request("   ")
                .unwrap_err()
                .to_string()
                .contains("empty")
        );
    }
}
