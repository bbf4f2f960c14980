//! `secrets`: a built-in credential detector fires.

use std::sync::LazyLock;

use serde_json::{Map, Value};

use super::{Detectors, Form, detectors, names, unknown};
use crate::detect::{Kind, SECRETS};
use crate::policy::CheckKind;
use crate::policy::read::Reader;

pub(super) const MESSAGE: &str = "contains a credential";

/// The detectors' patterns, parsed once per process.
static PARSED: Detectors = LazyLock::new(|| crate::scan::parse_detectors(SECRETS));

pub(crate) fn ids() -> Vec<&'static str> {
    SECRETS.iter().map(|d| d.id).collect()
}

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let wanted = r.optional_entries(obj, ptr, "detectors");
    r.known_names(obj, ptr, "detectors", &wanted, &ids(), "detector");
    let texts = detectors(Kind::Secret, SECRETS, &PARSED, &wanted);
    Some((CheckKind::Secrets { detectors: wanted }, Form::Text(texts)))
}

pub(super) fn field(field: &str) -> (Value, bool) {
    match field {
        "detectors" => (
            names(&ids(), "The secret detectors to run (default: all)."),
            false,
        ),
        _ => unknown(),
    }
}
