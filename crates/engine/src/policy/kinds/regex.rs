//! `regex`: any of the patterns matches a scanned string.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{Form, Text, described_entries, unknown};
use crate::policy::CheckKind;
use crate::policy::read::Reader;

pub(super) const MESSAGE: &str = "matched a blocked pattern";

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let patterns = r.entries(obj, ptr, "patterns");
    let hirs = r.each_compiled(obj, ptr, "patterns", &patterns, crate::pattern::compile)?;
    let texts: Arc<[Text]> = hirs.into_iter().map(Text::Pattern).collect();
    Some((CheckKind::Regex { patterns }, Form::Text(texts)))
}

pub(super) fn field(field: &str) -> (Value, bool) {
    match field {
        "patterns" => (
            described_entries("Regular expressions (Rust `regex` syntax)."),
            true,
        ),
        _ => unknown(),
    }
}
