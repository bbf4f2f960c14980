//! `mcp`: an external MCP guardrail tool says the request should be
//! blocked. Async: the runtime that holds the MCP client answers it.

use serde_json::{Map, Value, json};

use super::{Form, unknown};
use crate::limits::MAX_ID_BYTES;
use crate::policy::CheckKind;
use crate::policy::read::Reader;

pub(super) const MESSAGE: &str = "the external guardrail says this breaks the policy";

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

pub(super) fn field(field: &str) -> (Value, bool) {
    match field {
        "server" => (
            json!({ "description": "A server named in the service config's `mcp_servers`.", "type": "string", "minLength": 1 }),
            true,
        ),
        "tool" => (
            json!({ "description": "The server's tool to call.", "type": "string", "minLength": 1 }),
            true,
        ),
        _ => unknown(),
    }
}
