//! `palisade check`: one request, or a batch with `--jsonl`.

use std::io::{IsTerminal, Read, Write};

use anyhow::{Context, bail};
use palisade_engine::{Engine, parse_request};
use palisade_protocol::{CheckRequest, DecisionKind, Stage, Tool};

use crate::CheckArgs;

/// The engine `check` decides with: for a batch, compiled whole before the
/// first request; for one request with the embedded default policy, built
/// as that request needs it (the default policy is known to compile).
/// One request keeps no session state: it would be lost with the process.
pub(crate) fn load_engine(args: &CheckArgs) -> anyhow::Result<Engine> {
    if args.policy.is_none() && !args.jsonl {
        let policy = palisade_engine::Policy::default_policy()
            .map_err(|e| anyhow::anyhow!("the embedded default policy: {e}"))?;
        return Ok(Engine::lazy(policy).forget_sessions());
    }
    let engine = load_policy(args.policy.as_deref())?;
    if args.jsonl {
        engine.warm();
        return Ok(engine);
    }
    Ok(engine.forget_sessions())
}

/// The policy at `path`, else the embedded default policy.
pub(crate) fn load_policy(path: Option<&std::path::Path>) -> anyhow::Result<Engine> {
    let Some(path) = path else {
        return Engine::default_policy()
            .map_err(|e| anyhow::anyhow!("the embedded default policy: {e}"));
    };
    Engine::from_path(path).map_err(|errors| policy_error(path, &errors))
}

/// A policy that could not be loaded: one line when it could not be read,
/// every problem with its pointer otherwise.
pub(crate) fn policy_error(
    path: &std::path::Path,
    errors: &palisade_engine::PolicyErrors,
) -> anyhow::Error {
    if let Some(shown) = crate::diagnostic::syntax_error(path) {
        return anyhow::anyhow!("{shown}");
    }
    match errors.errors.as_slice() {
        [only] if only.pointer.is_empty() && !errors.is_placed() => {
            anyhow::anyhow!("{}", only.message)
        }
        // Each problem names its file.
        _ if errors.is_placed() => anyhow::anyhow!("{errors}"),
        _ => anyhow::anyhow!("{}: {errors}", path.display()),
    }
}

/// What `check` says instead of waiting when it would read a request from
/// a terminal.
const NO_INPUT: &str =
    "`palisade check` reads its request from stdin, and stdin is a terminal; give it a request:
  palisade check --stage tool_use --tool Bash --args '{\"command\":\"rm -rf /\"}'
  echo '{\"stage\":\"output\",\"content\":\"hello\"}' | palisade check
  palisade check --request request.json
  palisade check --jsonl < requests.jsonl
(`palisade check --help` tells more)";

/// Standard input, unless it is a terminal: then nobody is about to type a
/// JSON request, and the user gets the ways to give one instead of a wait.
fn stdin() -> anyhow::Result<Box<dyn Read + Send>> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        bail!("{NO_INPUT}");
    }
    Ok(Box::new(stdin))
}

pub(crate) fn open_input(args: &CheckArgs) -> anyhow::Result<Box<dyn Read + Send>> {
    Ok(match args.request.as_deref() {
        None => stdin()?,
        Some(p) if p.as_os_str() == "-" => stdin()?,
        Some(p) => Box::new(
            std::fs::File::open(p)
                .with_context(|| format!("cannot open request file `{}`", p.display()))?,
        ),
    })
}

pub(crate) fn flag_request(args: &CheckArgs) -> anyhow::Result<Option<CheckRequest>> {
    if args.stage.is_none() && args.tool.is_none() && args.content.is_none() && args.args.is_none()
    {
        return Ok(None);
    }
    let mut request = CheckRequest::new();
    if let Some(stage) = &args.stage {
        let Some(s) = Stage::from_wire(stage) else {
            let all: Vec<&str> = Stage::ALL.iter().map(|s| s.as_str()).collect();
            bail!(
                "--stage: unknown stage `{stage}`; expected one of {}",
                all.join(", ")
            );
        };
        request.stage = Some(s);
    }
    if let Some(name) = &args.tool {
        let mut tool = Tool::new(name);
        if let Some(a) = &args.args {
            tool.arguments =
                Some(palisade_engine::parse_json(a).map_err(|e| anyhow::anyhow!("--args: {e}"))?);
        }
        request.tool = Some(tool);
    } else if args.args.is_some() {
        bail!("--args needs --tool");
    }
    request.content = args.content.clone();
    Ok(Some(request))
}

/// The one request of a `check` without `--jsonl`: from flags, or read.
pub(crate) fn read_request(args: &CheckArgs) -> anyhow::Result<CheckRequest> {
    Ok(match flag_request(args)? {
        Some(r) => {
            if args.request.is_some() {
                bail!("give the request either with --request or with flags, not both");
            }
            r
        }
        None => {
            let mut text = String::new();
            open_input(args)?
                .read_to_string(&mut text)
                .context("cannot read the request")?;
            parse_request(&text).map_err(|e| anyhow::anyhow!("invalid request: {e}"))?
        }
    })
}

/// Prints a decision and gives the exit code it means.
pub(crate) fn print_decision(decision: &palisade_protocol::Decision) -> anyhow::Result<u8> {
    let stdout = std::io::stdout();
    let text = if stdout.is_terminal() {
        serde_json::to_string_pretty(decision)?
    } else {
        serde_json::to_string(decision)?
    };
    let mut out = stdout.lock();
    writeln!(out, "{text}").context("cannot write the decision")?;
    out.flush().context("cannot write the decision")?;
    Ok(match decision.decision {
        DecisionKind::Allow | DecisionKind::Modify => 0,
        DecisionKind::Block | DecisionKind::Ask => 1,
        DecisionKind::Error => 2,
    })
}

/// The `error` decision of a line that is not a valid request (its
/// `requestId` kept when one can be read).
pub(crate) fn error_decision(
    line: &str,
    err: &palisade_engine::RequestError,
) -> palisade_protocol::Decision {
    let id = serde_json::from_str::<serde_json::Value>(line)
        .ok()
        .and_then(|v| v.get("requestId")?.as_str().map(str::to_owned))
        .unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
    let code = match err {
        palisade_engine::RequestError::Malformed { .. } => "request.malformed",
        palisade_engine::RequestError::Invalid(_) => "request.invalid",
    };
    palisade_protocol::Decision::error(id, code, err.to_string())
}
