//! `condition`: a CEL expression over the request is true.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::{Context, Form, Found, Whole, unknown};
use crate::condition::Condition;
use crate::limits::MAX_EXPR_BYTES;
use crate::policy::CheckKind;
use crate::policy::read::{Reader, child};

pub(super) const MESSAGE: &str = "the request meets a blocked condition";

/// A compiled `condition` check.
#[derive(Debug)]
struct Expr(Arc<dyn Condition>);

impl Whole for Expr {
    fn first_hit(&self, cx: &mut Context<'_>) -> Option<Found> {
        self.0.holds(cx.bindings()).then(Found::request)
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
        CheckKind::Condition { expr },
        Form::Whole(Arc::new(Expr(compiled))),
    ))
}

pub(super) fn field(field: &str) -> (Value, bool) {
    match field {
        "expr" => (
            json!({
                "description": "A CEL expression over `request`; true is a hit.",
                "type": "string",
                "minLength": 1,
                "maxLength": MAX_EXPR_BYTES,
            }),
            true,
        ),
        _ => unknown(),
    }
}
