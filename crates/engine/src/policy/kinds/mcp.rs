//! `mcp`: an external MCP guardrail tool says the request should be
//! blocked. Async: the runtime that holds the MCP client answers it.

use palisade_protocol::Stage;
use serde_json::{Map, Value, json};

use super::{Field, Form, Runs, Spec};
use crate::limits::MAX_ID_BYTES;
use crate::policy::read::Reader;
use crate::policy::{CheckKind, OnFail};

/// The `mcp` check type.
pub(super) const SPEC: Spec = Spec {
    name: "mcp",
    fields: FIELDS,
    stages: &[
        Stage::Input,
        Stage::ToolUse,
        Stage::ToolOutput,
        Stage::Action,
    ],
    runs: Runs::Async,
    entry_field: None,
    can_redact: false,
    default_on_fail: OnFail::Block,
    message: "the external guardrail says this breaks the policy",
    read,
    default_entries: Vec::new,
};

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let server = r.required_text(
        obj,
        ptr,
        "server",
        MAX_ID_BYTES,
        "the name of a server in the service config's `mcp_servers`",
    );
    let tool = r.required_text(obj, ptr, "tool", MAX_ID_BYTES, "the server's tool to call");
    let (server, tool) = (server?, tool?);
    Some((CheckKind::Mcp { server, tool }, Form::Async))
}

/// The type's own fields.
const FIELDS: &[Field] = &[
    Field {
        name: "server",
        required: true,
        schema: || json!({ "description": "A server named in the service config's `mcp_servers`.", "type": "string", "minLength": 1 }),
    },
    Field {
        name: "tool",
        required: true,
        schema: || json!({ "description": "The server's tool to call.", "type": "string", "minLength": 1 }),
    },
];
