//! `pii`: a built-in personal-data detector fires.

use std::sync::LazyLock;

use serde_json::{Map, Value};

use super::{Detectors, Form, detectors, names, unknown};
use crate::detect::{Kind, PII};
use crate::policy::CheckKind;
use crate::policy::read::Reader;

pub(super) const MESSAGE: &str = "contains personal data";

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

pub(super) fn field(field: &str) -> (Value, bool) {
    match field {
        "entities" => (
            names(
                &entities(),
                "The kinds of personal data to find (default: all).",
            ),
            false,
        ),
        _ => unknown(),
    }
}
