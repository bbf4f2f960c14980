//! `palisade mcp-proxy` (the MCP gateway over stdio) and `palisade mcp
//! pins` (the tool pins it keeps).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::{Args, Subcommand};
use palisade_transport::gateway::{GatewayOptions, PinStore, Pins, Upstream};

use crate::ServiceArgs;

/// Arguments of `palisade mcp-proxy`.
#[derive(Args, Debug)]
pub(crate) struct McpProxyArgs {
    #[command(flatten)]
    pub(crate) service: ServiceArgs,
    /// The upstream server's name in decisions (`context.mcpServer`),
    /// audit records, logs and pins (default: the command's base name).
    #[arg(long, value_name = "NAME")]
    pub(crate) name: Option<String>,
    /// The pins file (default: the Redis of the config's `state.redis`,
    /// else `$XDG_STATE_HOME/palisade/pins.json`, else
    /// `~/.local/state/palisade/pins.json`).
    #[arg(long, value_name = "FILE")]
    pub(crate) pins: Option<PathBuf>,
    /// Keep no pins (tool definitions are still judged for poisoning and
    /// shadowing).
    #[arg(long, conflicts_with = "pins")]
    pub(crate) no_pins: bool,
    /// How long a request waits for the server's answer before the client
    /// gets an error (seconds).
    #[arg(long, value_name = "SECS", default_value_t = 600)]
    pub(crate) timeout_secs: u64,
    /// The largest message read from the client or the server (bytes); a
    /// larger one is answered with an error, never forwarded.
    #[arg(long, value_name = "BYTES", default_value_t = 16 * 1024 * 1024)]
    pub(crate) max_message_bytes: usize,
    /// Proxy a streamable-HTTP MCP server at URL instead of a command.
    #[arg(long, value_name = "URL", conflicts_with = "command")]
    pub(crate) upstream: Option<String>,
    /// With --upstream: send header NAME with the value of environment
    /// variable ENV_VAR (secrets stay out of the command line), or with a
    /// text where each `${ENV_VAR}` is that variable's value
    /// (`Authorization=Bearer ${TOKEN}`). Repeatable.
    #[arg(long = "header", value_name = "NAME=ENV_VAR", requires = "upstream")]
    pub(crate) headers: Vec<String>,
    /// The MCP server's command and its arguments, after `--`.
    #[arg(
        last = true,
        required_unless_present = "upstream",
        value_name = "COMMAND"
    )]
    pub(crate) command: Vec<String>,
}

/// `palisade mcp pins` subcommands.
#[derive(Subcommand, Debug)]
pub(crate) enum PinsCommand {
    /// Print the pinned tools of each server, and the changed definitions waiting for approval.
    List(PinsArgs),
    /// Approve changed tool definitions (all of the server's when no tool is named).
    Approve {
        #[command(flatten)]
        pins: PinsArgs,
        /// The tools to approve.
        #[arg(value_name = "TOOL")]
        tools: Vec<String>,
    },
    /// Forget the pins of a server (of every server without --name).
    Reset(PinsArgs),
}

/// Which pins `palisade mcp pins` works on.
#[derive(Args, Debug)]
pub(crate) struct PinsArgs {
    /// The upstream server's name (as `mcp-proxy --name` gave it).
    #[arg(long, value_name = "NAME")]
    pub(crate) name: Option<String>,
    /// The pins file (default as for `mcp-proxy`).
    #[arg(long, value_name = "FILE", conflicts_with = "config")]
    pub(crate) pins: Option<PathBuf>,
    /// The service config whose pins to work on: those in Redis with
    /// `state.redis`, else its `gateway.pins` file.
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
}

fn pins_at(path: Option<&Path>) -> anyhow::Result<Pins> {
    match path {
        Some(p) => Ok(Pins::at(p)),
        None => Pins::default_path()
            .map(Pins::at)
            .context("no pins file: neither XDG_STATE_HOME nor HOME is set; give one with --pins"),
    }
}

/// The pins of a run: `--pins FILE`, else the config's shared state
/// (`state.redis`), else its `gateway.pins`, else the default file.
fn store(
    path: Option<&Path>,
    config: &palisade_transport::ServiceConfig,
) -> anyhow::Result<PinStore> {
    if path.is_none()
        && let Some(state) = &config.state
    {
        return PinStore::redis(&state.redis).map_err(|e| anyhow::anyhow!("{e}"));
    }
    Ok(PinStore::File(pins_at(
        path.or(config.gateway.pins.as_deref()),
    )?))
}

/// The default name of an upstream: its command's base name, or its
/// URL's host.
fn default_name(args: &McpProxyArgs) -> String {
    if let Some(url) = &args.upstream {
        let rest = url.split_once("://").map_or(url.as_str(), |(_, r)| r);
        let host = rest.split(['/', '?', '#']).next().unwrap_or(rest);
        let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
        return host.to_owned();
    }
    let command = args.command.first().map_or("", String::as_str);
    Path::new(command)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(command)
        .to_owned()
}

/// `NAME=ENV_VAR` (or `NAME=TEXT` with `${ENV_VAR}` in it) pairs as
/// header names and their values read from the environment.
fn headers(specs: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    specs
        .iter()
        .map(|spec| {
            let (name, var) = spec.split_once('=').with_context(|| {
                format!("--header `{spec}`: write NAME=ENV_VAR, the header's value is read from the environment variable")
            })?;
            if var.contains("${") {
                return Ok((name.to_owned(), expand(name, var)?));
            }
            let value = std::env::var(var).with_context(|| {
                format!("--header {name}: the environment variable `{var}` is not set")
            })?;
            Ok((name.to_owned(), value))
        })
        .collect()
}

/// `text` with each `${VAR}` replaced by that environment variable.
fn expand(header: &str, text: &str) -> anyhow::Result<String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after
            .find('}')
            .with_context(|| format!("--header {header}: `${{` without its `}}` in `{text}`"))?;
        let var = &after[..end];
        if var.is_empty() || !var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            anyhow::bail!("--header {header}: `${{{var}}}` is not an environment variable's name");
        }
        let value = std::env::var(var).with_context(|| {
            format!("--header {header}: the environment variable `{var}` is not set")
        })?;
        out.push_str(&value);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

pub(crate) fn run(args: &McpProxyArgs) -> anyhow::Result<u8> {
    let config = crate::serve::load_config(args.service.config.as_deref())?;
    let telemetry = crate::telemetry::init(config.telemetry.as_ref())?;
    let name = args.name.clone().unwrap_or_else(|| default_name(args));
    let upstream = match &args.upstream {
        Some(url) => Upstream::Http {
            url: url.clone(),
            headers: headers(&args.headers)?,
        },
        None => Upstream::Command {
            command: args.command.clone(),
            env: BTreeMap::new(),
        },
    };
    let runtime = crate::serve::runtime()?;
    // Redis's connection is made inside the runtime.
    let pins = if args.no_pins {
        None
    } else {
        let _inside = runtime.enter();
        Some(Arc::new(store(args.pins.as_deref(), &config)?))
    };
    let options = GatewayOptions::new(name, pins)
        .timeout(Duration::from_secs(args.timeout_secs))
        .max_message_bytes(args.max_message_bytes)
        .poisoned_tools(config.gateway.poisoned_tools.unwrap_or_default());
    let served = runtime.block_on(async {
        let service = crate::serve::start_local(&args.service, config).await?;
        // SIGTERM or SIGINT ends the session as the client's closing
        // would: the server is stopped, not left running.
        let result = palisade_transport::gateway::proxy_until(
            service.clone(),
            options,
            &upstream,
            tokio::io::stdin(),
            tokio::io::stdout(),
            crate::serve::shutdown_signal(),
        )
        .await;
        service
            .shutdown()
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        result.map_err(|e| anyhow::anyhow!("{e}"))
    });
    telemetry.shutdown();
    crate::serve::stop_runtime(runtime);
    served?;
    Ok(0)
}

pub(crate) fn pins(command: &PinsCommand) -> anyhow::Result<u8> {
    let args = match command {
        PinsCommand::List(a) | PinsCommand::Reset(a) | PinsCommand::Approve { pins: a, .. } => a,
    };
    let config = crate::serve::load_config(args.config.as_deref())?;
    // Redis's connection is made inside the runtime.
    crate::serve::runtime()?.block_on(async {
        let pins = store(args.pins.as_deref(), &config)?;
        pins_command(command, args, &pins).await
    })
}

async fn pins_command(
    command: &PinsCommand,
    args: &PinsArgs,
    pins: &PinStore,
) -> anyhow::Result<u8> {
    match command {
        PinsCommand::List(_) => {
            let file = pins.read().await?;
            let mut any = false;
            for (server, p) in &file.servers {
                if args.name.as_ref().is_some_and(|n| n != server) {
                    continue;
                }
                any = true;
                say!("{server}");
                for (tool, pin) in &p.tools {
                    let waiting = if p.pending.contains_key(tool) {
                        "  changed, waiting for approval"
                    } else {
                        ""
                    };
                    say!(
                        "  {tool}  {}{waiting}",
                        pin.fingerprint.get(..16).unwrap_or("")
                    );
                }
                for tool in p.pending.keys().filter(|t| !p.tools.contains_key(*t)) {
                    say!("  {tool}  waiting for approval");
                }
            }
            if !any {
                say!("no pins in {}", pins.describe());
            }
            Ok(0)
        }
        PinsCommand::Approve { tools, .. } => {
            let name = args
                .name
                .as_deref()
                .context("name the server with --name")?;
            let approved = pins.approve(name, tools).await?;
            if approved.is_empty() {
                say!("nothing waits for approval for server `{name}`");
                return Ok(if tools.is_empty() { 0 } else { 1 });
            }
            for tool in approved {
                say!("approved {name}/{tool}");
            }
            Ok(0)
        }
        PinsCommand::Reset(_) => {
            if pins.reset(args.name.as_deref()).await? {
                say!("pins reset");
            } else {
                say!("no pins to reset");
            }
            Ok(0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_s_text_takes_its_variables_from_the_environment() {
        let path = std::env::var("PATH").unwrap_or_default();
        assert_eq!(
            headers(&["A=PATH".to_owned(), "B=x ${PATH} y".to_owned()]).unwrap(),
            [
                ("A".to_owned(), path.clone()),
                ("B".to_owned(), format!("x {path} y"))
            ]
        );
        for (spec, why) in [
            ("B=Bearer ${PATH", "`${` without its `}`"),
            (
                "B=Bearer ${A-B}",
                "`${A-B}` is not an environment variable's name",
            ),
            (
                "B=Bearer ${}",
                "`${}` is not an environment variable's name",
            ),
            (
                "B=Bearer ${PALISADE_NO_SUCH_VARIABLE_9}",
                "the environment variable `PALISADE_NO_SUCH_VARIABLE_9` is not set",
            ),
            ("Bearer", "write NAME=ENV_VAR"),
        ] {
            let e = headers(&[spec.to_owned()]).unwrap_err().to_string();
            assert!(e.contains(why), "{spec}: {e}");
        }
    }
}
