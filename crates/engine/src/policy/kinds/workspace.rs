//! `workspace`: a file the request touches resolves outside the workspace
//! root.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::files::{self, FileCheck, Rule};
use super::{Form, unknown};
use crate::policy::CheckKind;
use crate::policy::read::Reader;

pub(super) const MESSAGE: &str = "this file is outside the workspace";

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let fields = files::read_fields(r, obj, ptr)?;
    let (operations, tools, arguments) = fields.written.clone();
    let check = FileCheck::new(Rule::Workspace, fields, ptr, r)?;
    let kind = CheckKind::Workspace {
        operations,
        tools,
        arguments,
    };
    Some((kind, Form::Whole(Arc::new(check))))
}

pub(super) fn field(field: &str) -> (Value, bool) {
    files::field(field).unwrap_or_else(unknown)
}
