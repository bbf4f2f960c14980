//! `path`: a file the request touches matches the path rules, for the
//! listed operations.

use std::sync::Arc;

use palisade_protocol::Stage;
use serde_json::{Map, Value};

use super::files::{self, FileCheck, Rule};
use super::{Field, Form, Runs, Spec, described_entries};
use crate::paths::PathRules;
use crate::policy::read::{Reader, child};
use crate::policy::{CheckKind, OnFail};

/// The `path` check type.
pub(super) const SPEC: Spec = Spec {
    name: "path",
    fields: FIELDS,
    stages: &[Stage::Action, Stage::ToolUse],
    runs: Runs::Engine,
    entry_field: Some("paths"),
    can_redact: false,
    default_on_fail: OnFail::Block,
    message: "this file is protected by policy",
    read,
    default_entries: Vec::new,
};

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let paths = r.entries(obj, ptr, "paths");
    let except = r.optional_entries(obj, ptr, "except");
    let rules = match PathRules::read(&paths, &except, r.known) {
        Ok(rules) => Some(rules),
        Err(e) => {
            // Compiled once; only when that fails is each glob compiled on
            // its own, to report every bad one at its pointer.
            let before = r.errors.len();
            r.each_compiled(obj, ptr, "paths", &paths, |p| {
                PathRules::new(&[p.to_owned()], &[])
            });
            r.each_compiled(obj, ptr, "except", &except, |p| {
                PathRules::new(&[], &[p.to_owned()])
            });
            if r.errors.len() == before {
                r.err(child(ptr, "paths"), e);
            }
            None
        }
    };
    let fields = files::read_fields(r, obj, ptr);
    let (rules, fields) = (rules?, fields?);
    let (operations, tools, arguments) = fields.written.clone();
    let check = FileCheck::new(Rule::Paths(Box::new(rules)), fields, ptr, r)?;
    let kind = CheckKind::Path {
        paths,
        except,
        operations,
        tools,
        arguments,
    };
    Some((kind, Form::Whole(Arc::new(check))))
}

/// The type's own fields.
const FIELDS: &[Field] = &[
    Field {
        name: "paths",
        required: true,
        schema: || {
            described_entries(
                "Path globs: a name (`.env`), `~/…`, `/…`, `**/…` or relative to `cwd`.",
            )
        },
    },
    Field {
        name: "except",
        required: false,
        schema: || described_entries("Path globs that are never matched (exact case)."),
    },
    files::OPERATIONS,
    files::TOOLS,
    files::ARGUMENTS,
];
