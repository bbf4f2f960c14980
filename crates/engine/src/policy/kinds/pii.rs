//! `pii`: a built-in personal-data detector fires.

use std::sync::LazyLock;

use palisade_protocol::Stage;
use serde_json::{Map, Value};

use super::{Detectors, Field, Form, Runs, Spec, detectors, names};
use crate::detect::{Kind, PII};
use crate::policy::read::Reader;
use crate::policy::{CheckKind, OnFail};

/// The `pii` check type.
pub(super) const SPEC: Spec = Spec {
    name: "pii",
    fields: FIELDS,
    stages: Stage::ALL,
    runs: Runs::Engine,
    entry_field: Some("entities"),
    can_redact: true,
    default_on_fail: OnFail::Block,
    message: "contains personal data",
    read,
    default_entries: || entities().into_iter().map(str::to_owned).collect(),
};

/// The detectors' patterns, parsed once per process.
static PARSED: Detectors = LazyLock::new(|| crate::scan::parse_detectors(PII));

/// The entities (several detectors may find one entity).
pub(crate) fn entities() -> Vec<&'static str> {
    let mut ids: Vec<&str> = PII.iter().map(|d| d.id).collect();
    ids.dedup();
    ids
}

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let wanted = r.optional_entries(obj, ptr, "entities");
    r.known_names(obj, ptr, "entities", &wanted, &entities(), "entity");
    let texts = detectors(Kind::Pii, PII, &PARSED, &wanted);
    Some((CheckKind::Pii { entities: wanted }, Form::Text(texts)))
}

/// The type's own fields.
const FIELDS: &[Field] = &[Field {
    name: "entities",
    required: false,
    schema: || {
        names(
            &entities(),
            "The kinds of personal data to find (default: all).",
        )
    },
}];
