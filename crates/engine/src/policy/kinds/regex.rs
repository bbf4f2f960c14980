//! `regex`: any of the patterns matches a scanned string.

use std::sync::Arc;

use palisade_protocol::Stage;
use serde_json::{Map, Value};

use super::{Field, Form, Runs, Spec, Text, described_entries};
use crate::policy::read::Reader;
use crate::policy::{CheckKind, OnFail};

/// The `regex` check type.
pub(super) const SPEC: Spec = Spec {
    name: "regex",
    fields: FIELDS,
    stages: Stage::ALL,
    runs: Runs::Engine,
    entry_field: Some("patterns"),
    can_redact: true,
    default_on_fail: OnFail::Block,
    message: "matched a blocked pattern",
    read,
    default_entries: Vec::new,
};

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

/// The type's own fields.
const FIELDS: &[Field] = &[Field {
    name: "patterns",
    required: true,
    schema: || described_entries("Regular expressions (Rust `regex` syntax)."),
}];
