//! `gateway`: the MCP servers `palisade serve` puts behind Palisade, each
//! served as streamable HTTP at `/gateway/{name}/mcp` (SPEC §14).
//!
//! ```yaml
//! gateway:
//!   pins: state/pins.json            # default: $XDG_STATE_HOME/palisade/pins.json
//!   timeout_secs: 600
//!   idle_timeout_secs: 1800          # a session of `palisade serve` unused this long is closed
//!   poisoned_tools: hide             # or warn: listed and logged, not hidden
//!   servers:
//!     fs:     { command: [npx, -y, "@modelcontextprotocol/server-filesystem", /srv/docs] }
//!     search: { url: "https://search.example.com/mcp", headers: { Authorization: "${SEARCH_TOKEN}" } }
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;

/// The `gateway` section.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct GatewayConfig {
    /// The upstream MCP servers by name.
    #[serde(default)]
    pub servers: BTreeMap<String, GatewayServer>,
    /// The pins file (default: `$XDG_STATE_HOME/palisade/pins.json`, else
    /// `~/.local/state/palisade/pins.json`).
    pub pins: Option<PathBuf>,
    /// How long a request waits for an upstream's answer (default 600).
    pub timeout_secs: Option<u64>,
    /// How long a session of `palisade serve`'s gateway may go unused
    /// (no request, no request in flight, no open stream) before it is
    /// closed and its upstream stopped (default 1800).
    pub idle_timeout_secs: Option<u64>,
    /// What becomes of a tool whose definition is judged poisoned
    /// (default `hide`).
    pub poisoned_tools: Option<PoisonedTools>,
}

/// What the gateway does with a tool whose definition is judged poisoned
/// (`mcp.tool_poisoning`).
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum PoisonedTools {
    /// Left out of the list; calls to it refused.
    #[default]
    Hide,
    /// Listed as the server lists it; logged, audited and counted as a
    /// warning, its calls decided by the policy as any. Shadowing and
    /// changed definitions are still hidden.
    Warn,
}

/// One upstream MCP server.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(untagged, deny_unknown_fields)]
#[non_exhaustive]
pub enum GatewayServer {
    /// A command run over stdio, one process per MCP session.
    Command {
        /// The program and its arguments.
        command: Vec<String>,
        /// Variables added to its environment; a value `${NAME}` is the
        /// service's environment variable `NAME`.
        #[serde(default)]
        env: BTreeMap<String, String>,
    },
    /// A streamable-HTTP server.
    Url {
        /// Its MCP endpoint.
        url: String,
        /// Headers sent with every request; a value `${NAME}` is the
        /// service's environment variable `NAME` (keep secrets there).
        #[serde(default)]
        headers: BTreeMap<String, String>,
    },
}

/// A config value with `${NAME}` read from the environment: `Err` names
/// the variable that is not set.
pub fn expand(value: &str) -> Result<String, String> {
    match value.strip_prefix("${").and_then(|v| v.strip_suffix('}')) {
        Some(name) => {
            std::env::var(name).map_err(|_| format!("the environment variable `{name}` is not set"))
        }
        None => Ok(value.to_owned()),
    }
}
