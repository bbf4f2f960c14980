//! `secrets`: a built-in credential detector fires.

use std::sync::LazyLock;

use palisade_protocol::Stage;
use serde_json::{Map, Value};

use super::{Detectors, Field, Form, Runs, Spec, detectors, names};
use crate::detect::{Kind, SECRETS};
use crate::policy::read::Reader;
use crate::policy::{CheckKind, OnFail};

/// The `secrets` check type.
pub(super) const SPEC: Spec = Spec {
    name: "secrets",
    fields: FIELDS,
    stages: Stage::ALL,
    runs: Runs::Engine,
    entry_field: Some("detectors"),
    can_redact: true,
    default_on_fail: OnFail::Block,
    message: "contains a credential",
    read,
    default_entries: || ids().into_iter().map(str::to_owned).collect(),
};

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

/// The type's own fields.
const FIELDS: &[Field] = &[Field {
    name: "detectors",
    required: false,
    schema: || names(&ids(), "The secret detectors to run (default: all)."),
}];
