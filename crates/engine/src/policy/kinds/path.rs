//! `path`: a file the request touches matches the path rules, for the
//! listed operations.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::files::{self, FileCheck, Rule};
use super::{Form, described_entries, unknown};
use crate::paths::PathRules;
use crate::policy::CheckKind;
use crate::policy::read::{Reader, child};

pub(super) const MESSAGE: &str = "this file is protected by policy";

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

pub(super) fn field(field: &str) -> (Value, bool) {
    match field {
        "paths" => (
            described_entries(
                "Path globs: a name (`.env`), `~/…`, `/…`, `**/…` or relative to `cwd`.",
            ),
            true,
        ),
        "except" => (
            described_entries("Path globs that are never matched (exact case)."),
            false,
        ),
        other => files::field(other).unwrap_or_else(unknown),
    }
}
