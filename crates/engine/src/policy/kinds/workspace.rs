//! `workspace`: a file the request touches resolves outside the workspace
//! root.

use std::sync::Arc;

use palisade_protocol::Stage;
use serde_json::{Map, Value};

use super::files::{self, FileCheck, Rule};
use super::{Field, Form, Runs, Spec};
use crate::policy::read::Reader;
use crate::policy::{CheckKind, OnFail};

/// The `workspace` check type.
pub(super) const SPEC: Spec = Spec {
    name: "workspace",
    fields: FIELDS,
    stages: &[Stage::Action, Stage::ToolUse],
    runs: Runs::Engine,
    entry_field: None,
    can_redact: false,
    default_on_fail: OnFail::Block,
    message: "this file is outside the workspace",
    read,
    default_entries: Vec::new,
};

/// The type's own fields.
const FIELDS: &[Field] = &[files::OPERATIONS, files::TOOLS, files::ARGUMENTS];

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
