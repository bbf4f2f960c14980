//! `schema`: the arguments of the named tools must satisfy a JSON Schema.

use std::sync::Arc;

use palisade_protocol::Stage;
use serde_json::{Map, Value, json};

use super::{Context, Field, Form, Found, Runs, Spec, Whole, described_entries};
use crate::input::tool_schema::ArgSchema;
use crate::limits::MAX_SCHEMA_BYTES;
use crate::policy::read::{Reader, child};
use crate::policy::{CheckKind, OnFail};
use crate::tools::{ToolMatcher, ToolMatcherBuilder};

/// The `schema` check type.
pub(super) const SPEC: Spec = Spec {
    name: "schema",
    fields: FIELDS,
    stages: &[Stage::ToolUse],
    runs: Runs::Engine,
    entry_field: None,
    can_redact: false,
    default_on_fail: OnFail::Block,
    message: "the tool's arguments do not match its schema",
    read,
    default_entries: Vec::new,
};

/// A compiled `schema` check.
#[derive(Debug)]
struct Schema {
    tools: ToolMatcher,
    schema: ArgSchema,
}

impl Whole for Schema {
    fn first_hit(&self, cx: &mut Context<'_>) -> Option<Found> {
        let tool = cx.request.tool.as_ref()?;
        if !cx.names(&self.tools) {
            return None;
        }
        let null = Value::Null;
        let args = tool.arguments.as_ref().unwrap_or(&null);
        let (at, why) = self.schema.first_error(args)?;
        Some(Found {
            pointer: format!("/tool/arguments{at}"),
            detail: Some(why),
            source: None,
            own_message: false,
        })
    }

    fn build(&self) -> Result<(), String> {
        self.tools.build()
    }
}

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let tools = r.entries(obj, ptr, "tools");
    let globs = r.globs(obj, ptr, "tools", &tools);
    let Some(schema) = obj.get("schema") else {
        r.err(
            ptr,
            "missing field `schema` (a JSON Schema for the tool's arguments)",
        );
        return None;
    };
    let size = schema.to_string().len();
    if size > MAX_SCHEMA_BYTES {
        r.err(
            child(ptr, "schema"),
            format!("the schema is {size} bytes of JSON; the limit is {MAX_SCHEMA_BYTES}"),
        );
        return None;
    }
    let compiled = match crate::input::tool_schema::compile(schema) {
        Ok(compiled) => compiled,
        Err(e) => {
            r.err(child(ptr, "schema"), e);
            return None;
        }
    };
    let mut matcher = ToolMatcherBuilder::default();
    for glob in globs? {
        matcher.add_glob(0, glob);
    }
    let matcher = matcher.finish()?;
    let form = Form::Whole(Arc::new(Schema {
        tools: matcher,
        schema: compiled,
    }));
    let kind = CheckKind::Schema {
        tools,
        schema: schema.clone(),
    };
    Some((kind, form))
}

/// The type's own fields.
const FIELDS: &[Field] = &[
    Field {
        name: "tools",
        required: true,
        schema: || described_entries("Tool-name globs (`*`, `?`, `[…]`)."),
    },
    Field {
        name: "schema",
        required: true,
        schema: || json!({ "description": "A JSON Schema the tool's arguments must satisfy.", "type": ["object", "boolean"] }),
    },
];
