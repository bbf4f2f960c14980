//! `condition`: a CEL expression over the request is true.

use std::sync::Arc;

use palisade_protocol::Stage;
use serde_json::{Map, Value, json};

use super::{Context, Field, Form, Found, Runs, Spec, Whole};
use crate::condition::Condition;
use crate::limits::MAX_EXPR_BYTES;
use crate::policy::read::{Reader, child};
use crate::policy::{CheckKind, OnFail};

/// The `condition` check type.
pub(super) const SPEC: Spec = Spec {
    name: "condition",
    fields: FIELDS,
    stages: Stage::ALL,
    runs: Runs::Engine,
    entry_field: None,
    can_redact: false,
    default_on_fail: OnFail::Block,
    message: "the request meets a blocked condition",
    read,
    default_entries: Vec::new,
};

/// A compiled `condition` check.
#[derive(Debug)]
struct Expr(Arc<dyn Condition>, String);

impl Whole for Expr {
    fn first_hit(&self, cx: &mut Context<'_>) -> Option<Found> {
        match self.0.check(cx.bindings()) {
            Ok(holds) => holds.then(Found::request),
            // Not a hit, and not silent: the decision says so.
            Err(e) => {
                cx.condition_errors.push((self.1.clone(), e));
                None
            }
        }
    }
}

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let Some(v) = obj.get("expr") else {
        r.err(
            ptr,
            "missing field `expr` (a CEL expression over `request`)",
        );
        return None;
    };
    let (expr, compiled) = r.cel(&child(ptr, "expr"), "expr", v)?;
    Some((
        CheckKind::Condition { expr: expr.clone() },
        Form::Whole(Arc::new(Expr(compiled, expr))),
    ))
}

/// The type's own fields.
const FIELDS: &[Field] = &[Field {
    name: "expr",
    required: true,
    schema: || {
        json!({
            "description": "A CEL expression over `request`; true is a hit.",
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_EXPR_BYTES,
        })
    },
}];
