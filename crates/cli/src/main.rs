//! The `palisade` command.

/// `println!` that does not panic when stdout is closed (`palisade test |
/// head`): what cannot be written is dropped, the command goes on.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `print!` that does not panic when stdout is closed.
macro_rules! say_raw {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

mod approvals;
mod audit;
mod check;
mod diagnostic;
mod doctor;
mod guarded;
mod hook;
mod hosts;
mod init;
mod install;
mod jsonl;
mod mcp_proxy;
mod policytest;
mod serve;
mod suggest;
mod telemetry;
mod validate;
mod wrap;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

/// The process's allocator. A hook is a new process per tool call, and
/// reading a policy allocates many small objects (parsed regexes, literal
/// sets): with glibc's allocator, allocation was about two fifths of a
/// post-tool hook's instructions (docs/PERFORMANCE.md, "A coding agent's
/// hook").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Palisade: one guardrails decision point for AI agents.
#[derive(Parser, Debug)]
#[command(name = "palisade", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

const SERVE_HELP: &str = concat!(
    "Endpoints: POST /v1/check, POST /v1/check/stream, POST /v1/hooks/{host}, GET /v1/policy, POST /v1/admin/reload, GET /v1/audit, GET /v1/approvals, GET and POST /v1/approvals/{id}, POST /v1/autogen/evaluate, POST /v1/guardrails/check (hosted guardrails APIs), POST /rpc and /cstp (JSON-RPC), /mcp (MCP, streamable HTTP), GET /openapi.json, GET /health and /healthz, GET /metrics; the playground page at / (a browser). docs/PROTOCOL.md and docs/OPERATIONS.md.\n",
    "Exit codes: 0 after a clean shutdown (SIGTERM, SIGINT); 2 when the policy, the config or the address is bad.\n",
    "Example: palisade serve --listen 127.0.0.1:8700"
);

const EVENTS_HELP: &str = concat!(
    "Stdin: one JSON message per line (a request, or pi's event envelope); stdout: one answer per line, in order.\n",
    "Exit codes: 0 at the end of stdin; 2 when the policy or the config is bad."
);

const MCP_HELP: &str = concat!(
    "Stdin and stdout: the MCP protocol (JSON-RPC, one message per line).\n",
    "Exit codes: 0 when the client closes stdin; 2 when the policy or the config is bad."
);

const MCP_PROXY_HELP: &str = concat!(
    "Stdin and stdout: MCP (JSON-RPC, one message per line) with the client; the server runs as a child process over stdio.\n",
    "Every tools/call is decided (tool_use) before it is forwarded, every result (tool_output) before the client sees it; tool definitions are judged and pinned; docs/GATEWAY.md.\n",
    "Exit codes: 0 when the client closes stdin; 2 when the policy, the config or the command is bad.\n",
    "Example: palisade mcp-proxy --name fs -- npx -y @modelcontextprotocol/server-filesystem /repo"
);

const WRAP_HELP: &str = concat!(
    "Hosts: claude-code (~/.claude.json; --scope project: .mcp.json), cursor (~/.cursor/mcp.json; .cursor/mcp.json), gemini-cli (~/.gemini/settings.json; .gemini/settings.json), codex (~/.codex/config.toml; .codex/config.toml).\n",
    "Only the server entries change; the rest of the file stays byte for byte. Wrapping twice changes nothing; unwrap gives back the entries as they were. docs/GATEWAY.md.\n",
    "Exit codes: 0 when done (or nothing to do); 2 when the host is unknown or the file cannot be read (nothing is written then).\n",
    "Example: palisade mcp wrap claude-code --scope project --dry-run"
);

const CHECK_HELP: &str = concat!(
    "Input: the request from --request FILE, else from stdin, else built from --stage/--tool/--args/--content. With --jsonl, one request per line.\n",
    "Output: the Decision as JSON on stdout (pretty on a terminal); with --jsonl, one compact Decision per line, in input order.\n",
    "Stages: input (the user's prompt), output (the model's answer), tool_use (a tool call about to run), tool_output (what a tool returned), action (a file, process or network action).\n",
    "Exit codes: 0 allow or modify; 1 block or ask; 2 a bad request, policy or config. With --jsonl the same over the batch: 2 when any line was not a valid request, else 1 when any request was blocked or asked, else 0.\n",
    "Examples:\n",
    "  palisade check --stage tool_use --tool Bash --args '{\"command\":\"rm -rf /\"}'\n",
    "  echo '{\"stage\":\"output\",\"content\":\"key AKIAIOSFODNN7EXAMPLF\"}' | palisade check\n",
    "  palisade check --jsonl --stats < requests.jsonl > decisions.jsonl"
);

const HOOK_HELP: &str = concat!(
    "Stdin: the host's hook payload (JSON); stdout: the answer in the host's format; docs/HOOKS.md.\n",
    "Exit codes: the host's: 0 with the answer on stdout; 2 blocks (the reason on stderr) when the payload cannot be read or no decision is made."
);

const VALIDATE_HELP: &str = "Exit codes: 0 when every file is a valid policy; 2 when any is not (each problem printed with its JSON pointer).";

const INIT_HELP: &str = concat!(
    "Writes palisade.yaml (the embedded default policy, with its comments) and palisade_test.yaml (cases for it); refuses to overwrite either without --force.\n",
    "Exit codes: 0 when both were written; 2 when a file exists or cannot be written.\n",
    "Next: palisade test palisade_test.yaml, then palisade serve --policy palisade.yaml"
);

const TEST_HELP: &str = concat!(
    "Test files: YAML or JSON, each naming a policy (`policy:`, relative to the file; absent: the embedded default) and its cases (docs/POLICY.md, section 12); a directory is searched for *_test.yaml, *_test.yml and *_test.json.\n",
    "Exit codes: 0 when every case passed; 1 when a case failed; 2 when a test file or its policy is bad.\n",
    "Example: palisade test examples/tests --coverage"
);

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the guardrails service over HTTP (default 127.0.0.1:8700).
    #[command(after_help = SERVE_HELP)]
    Serve(ServeArgs),
    /// Answer JSON-lines requests on stdin with decisions on stdout (pi's event protocol).
    #[command(after_help = EVENTS_HELP)]
    Events(ServiceArgs),
    /// Serve the MCP tools `check` and `check_action` over stdio; `mcp pins` works with the gateway's tool pins.
    #[command(after_help = MCP_HELP, args_conflicts_with_subcommands = true)]
    Mcp {
        #[command(flatten)]
        args: ServiceArgs,
        #[command(subcommand)]
        command: Option<McpCommand>,
    },
    /// The MCP gateway: run an MCP server behind Palisade (`-- COMMAND ARGS...`), over stdio.
    #[command(name = "mcp-proxy", after_help = MCP_PROXY_HELP)]
    McpProxy(mcp_proxy::McpProxyArgs),
    /// Evaluate one request, or a JSON-lines batch, against a policy.
    #[command(after_help = CHECK_HELP)]
    Check(CheckArgs),
    /// Answer one coding agent's hook call: the host's payload on stdin, its answer on stdout.
    #[command(after_help = HOOK_HELP)]
    Hook(HookArgs),
    /// Install or remove Palisade's hooks in a coding agent's configuration.
    Hooks {
        #[command(subcommand)]
        command: HooksCommand,
    },
    /// Tell, per coding agent, whether Palisade's hooks (pi: its extension) are configured, trusted and answering.
    #[command(
        after_help = "Exit codes: 0 when every host found is protected; 1 when any is not (a host found without hooks, an event not hooked, a hook not answering, Codex's trust unknown, pi without the extension or without a palisade to start), or when no host has Palisade's hooks. An MCP server not run through `palisade mcp-proxy` (palisade mcp wrap HOST) is a warning only: the hooks still decide its tool calls."
    )]
    Doctor,
    /// Validate policy files; print every error with its JSON pointer.
    #[command(after_help = VALIDATE_HELP)]
    Validate {
        /// Policy files (`.json`, `.yaml`, `.yml`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Run policy test files: each case a request and the decision expected.
    #[command(after_help = TEST_HELP)]
    Test(TestArgs),
    /// Write a starter policy (the default, commented) and a test file for it.
    #[command(after_help = INIT_HELP)]
    Init(InitArgs),
    /// Work with policies.
    Policy {
        #[command(subcommand)]
        command: PolicyCommand,
    },
    /// Work with audit logs.
    Audit {
        #[command(subcommand)]
        command: AuditCommand,
    },
    /// List, approve or deny the approvals of asks, on a running service.
    #[command(after_help = APPROVALS_HELP)]
    Approvals {
        #[command(subcommand)]
        command: approvals::ApprovalsCommand,
    },
}

const APPROVALS_HELP: &str = concat!(
    "The key: an API key with the `guardrails:approve` scope, in PALISADE_API_KEY (or the variable --key-env names); a key never approves a call it sent.\n",
    "Exit codes: 0 when the service did it; 1 when it refused (no such approval, no longer pending, a key that may not); 2 when it could not be asked.\n",
    "Examples:\n",
    "  palisade approvals list --server http://127.0.0.1:8700\n",
    "  palisade approvals approve 0193c3a2-… --note 'checked the diff' --server http://127.0.0.1:8700"
);

#[derive(Subcommand, Debug)]
enum McpCommand {
    /// List, approve or reset the MCP gateway's tool pins.
    Pins {
        #[command(subcommand)]
        command: mcp_proxy::PinsCommand,
    },
    /// Route a host's MCP servers through `palisade mcp-proxy` (each keeps its command after `--`).
    #[command(after_help = WRAP_HELP)]
    Wrap(wrap::WrapArgs),
    /// Give a host's wrapped MCP servers back their own entries, byte for byte.
    #[command(after_help = WRAP_HELP)]
    Unwrap(wrap::WrapArgs),
}

#[derive(Subcommand, Debug)]
enum AuditCommand {
    /// Check an audit log's hash chain; report the first bad line.
    Verify {
        /// The JSON-lines audit log.
        file: PathBuf,
    },
}

#[derive(Subcommand, Debug)]
enum HooksCommand {
    /// Add Palisade's hooks to the host's configuration (merging; printing what changed).
    Install(HooksArgs),
    /// Remove Palisade's hooks from the host's configuration, leaving the rest.
    Uninstall(HooksArgs),
}

/// Arguments of `palisade hooks install|uninstall`.
#[derive(Args, Debug)]
pub(crate) struct HooksArgs {
    /// The host: claude-code, codex, gemini-cli, cursor or copilot-cli.
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub(crate) host: Option<String>,
    /// Every host found on this machine (its command on the PATH, or its
    /// configuration folder in your home).
    #[arg(long)]
    pub(crate) all: bool,
    /// `user` (the host's configuration in your home) or `project` (this directory's).
    #[arg(long, value_name = "SCOPE", default_value = "user")]
    pub(crate) scope: String,
    /// Have the hooks ask a running service (`palisade serve`) at URL.
    #[arg(long, value_name = "URL", conflicts_with_all = ["policy", "config"])]
    pub(crate) server: Option<String>,
    /// The policy the hooks use (else the embedded default policy).
    #[arg(long, value_name = "FILE")]
    pub(crate) policy: Option<PathBuf>,
    /// The service config the hooks use (async checks, audit log).
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum PolicyCommand {
    /// Print the embedded default policy (YAML).
    Default,
    /// Print a policy file's effective policy (YAML): its `extends`
    /// resolved, checks replaced by id, added and disabled.
    #[command(
        after_help = "Exit codes: 0 when the policy is valid (printed); 2 when it is not (each problem printed)."
    )]
    Show {
        /// The policy file (`.json`, `.yaml`, `.yml`).
        file: PathBuf,
    },
    /// Print, for review, the flow rule's effect categories of a tool list
    /// (an MCP `tools/list` result, OpenAI function-calling tools, or names
    /// one per line) as a policy fragment that extends the default.
    #[command(
        after_help = "Exit codes: 0 when the fragment is printed; 2 when the file cannot be read as a tool list (what is wrong printed)."
    )]
    Suggest {
        /// The tool list.
        #[arg(required_unless_present = "tools", conflicts_with = "tools")]
        file: Option<PathBuf>,
        /// The tool list (the same as FILE).
        #[arg(long, value_name = "FILE")]
        tools: Option<PathBuf>,
    },
}

/// The policy and service config of a long-running command.
#[derive(Args, Debug)]
pub(crate) struct ServiceArgs {
    /// The policy file; else the config's `policy`, else the embedded default policy.
    #[arg(long, value_name = "FILE")]
    pub(crate) policy: Option<PathBuf>,
    /// The service config (`.json`, `.yaml`, `.yml`).
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
}

/// Arguments of `palisade serve`.
#[derive(Args, Debug)]
pub(crate) struct ServeArgs {
    #[command(flatten)]
    pub(crate) service: ServiceArgs,
    /// Address to listen on; else the config's `listen`, else 127.0.0.1:8700.
    #[arg(long, value_name = "ADDR")]
    pub(crate) listen: Option<String>,
    /// Allow listening on a non-loopback address without API keys.
    #[arg(long)]
    pub(crate) insecure_no_auth: bool,
    /// Not an option: the address is given whole with `--listen`.
    #[arg(long, hide = true, value_name = "PORT")]
    pub(crate) port: Option<String>,
}

/// Arguments of `palisade hook`.
#[derive(Args, Debug)]
pub(crate) struct HookArgs {
    /// The host: claude-code, codex, gemini-cli, cursor or copilot-cli.
    pub(crate) host: String,
    /// The policy file; else the config's `policy`, else the embedded default policy.
    #[arg(long, value_name = "FILE")]
    pub(crate) policy: Option<PathBuf>,
    /// The service config: async checks' services and the audit log.
    #[arg(long, value_name = "FILE", conflicts_with = "server")]
    pub(crate) config: Option<PathBuf>,
    /// Ask a running Palisade service (`POST URL/v1/check`) instead of deciding here.
    #[arg(long, value_name = "URL", conflicts_with = "policy")]
    pub(crate) server: Option<String>,
    /// The environment variable holding the service's API key.
    #[arg(long, value_name = "NAME", default_value = crate::hook::KEY_ENV)]
    pub(crate) key_env: String,
    /// Deny when no decision is made within this many milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 20_000)]
    pub(crate) timeout_ms: u64,
}

/// Arguments of `palisade test`.
#[derive(Args, Debug)]
pub(crate) struct TestArgs {
    /// Test files, or directories searched for `*_test.yaml`, `*_test.yml`
    /// and `*_test.json` (default: the current directory).
    #[arg(value_name = "FILE|DIR")]
    pub(crate) paths: Vec<PathBuf>,
    /// List every check, and every pattern, word, tool glob, path, command
    /// pattern, detector and entity in it, that no case made fire.
    #[arg(long)]
    pub(crate) coverage: bool,
    /// Also write the results as JUnit XML to FILE (for CI systems).
    #[arg(long, value_name = "FILE")]
    pub(crate) junit: Option<PathBuf>,
}

/// Arguments of `palisade init`.
#[derive(Args, Debug)]
pub(crate) struct InitArgs {
    /// The directory to write `palisade.yaml` and `palisade_test.yaml` in.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub(crate) dir: PathBuf,
    /// Overwrite the files when they exist.
    #[arg(long)]
    pub(crate) force: bool,
}

/// Arguments of `palisade check`.
#[derive(Args, Debug)]
pub(crate) struct CheckArgs {
    /// The policy file (`.json`, `.yaml`, `.yml`); the embedded default policy when absent.
    #[arg(long, value_name = "FILE")]
    pub(crate) policy: Option<PathBuf>,
    /// The service config (`.json`, `.yaml`, `.yml`): LLM service, MCP servers,
    /// budgets and audit log, so that async checks run and decisions are audited.
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// Read the request (or, with --jsonl, the requests) from FILE; `-` is stdin.
    #[arg(long, value_name = "FILE|-")]
    pub(crate) request: Option<PathBuf>,
    /// Read one request per line and write one compact decision per line, in order.
    #[arg(long)]
    pub(crate) jsonl: bool,
    /// Print counts and the time spent parsing, evaluating and writing to stderr.
    #[arg(long)]
    pub(crate) stats: bool,
    /// Worker threads for --jsonl (default: the number of CPUs); with --config,
    /// the async runtime's threads (default 2).
    #[arg(long, value_name = "N")]
    pub(crate) threads: Option<usize>,
    /// Build the request from flags: its stage (input, output, tool_use, tool_output, action).
    #[arg(long, value_name = "STAGE")]
    pub(crate) stage: Option<String>,
    /// Build the request from flags: the tool's name.
    #[arg(long, value_name = "NAME")]
    pub(crate) tool: Option<String>,
    /// Build the request from flags: the tool's arguments (JSON).
    #[arg(long, value_name = "JSON")]
    pub(crate) args: Option<String>,
    /// Build the request from flags: the text to evaluate.
    #[arg(long, value_name = "TEXT")]
    pub(crate) content: Option<String>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    // A scan path the CPU cannot run, or a misspelt one, is refused before
    // any work rather than silently replaced.
    if let Err(e) = palisade_engine::scan_setting() {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Command::Serve(args) => serve::serve(&args),
        Command::Events(args) => serve::events(&args),
        Command::Mcp {
            command: Some(McpCommand::Pins { command }),
            ..
        } => mcp_proxy::pins(&command),
        Command::Mcp {
            command: Some(McpCommand::Wrap(args)),
            ..
        } => wrap::run(&args, true),
        Command::Mcp {
            command: Some(McpCommand::Unwrap(args)),
            ..
        } => wrap::run(&args, false),
        Command::Mcp {
            args,
            command: None,
        } => serve::mcp(&args),
        Command::McpProxy(args) => mcp_proxy::run(&args),
        Command::Check(args) => run_check(&args),
        Command::Hook(args) => Ok(hook::run(&args)),
        Command::Hooks {
            command: HooksCommand::Install(args),
        } => install::install(&args),
        Command::Hooks {
            command: HooksCommand::Uninstall(args),
        } => install::uninstall(&args),
        Command::Doctor => doctor::run(),
        Command::Test(args) => policytest::run(&args),
        Command::Init(args) => init::run(&args),
        Command::Validate { files } => validate::run(&files),
        Command::Policy {
            command: PolicyCommand::Default,
        } => {
            say_raw!("{}", palisade_engine::DEFAULT_POLICY);
            Ok(0)
        }
        Command::Policy {
            command: PolicyCommand::Show { file },
        } => validate::show(&file),
        Command::Policy {
            command: PolicyCommand::Suggest { file, tools },
        } => match file.or(tools) {
            Some(file) => suggest::run(&file),
            None => anyhow::Result::Err(anyhow::anyhow!(
                "give the tool list: palisade policy suggest FILE"
            )),
        },
        Command::Audit {
            command: AuditCommand::Verify { file },
        } => audit::verify(&file),
        Command::Approvals { command } => approvals::run(&command),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// `palisade check`: with a service config through a guard, `--jsonl`
/// line by line, else one request.
fn run_check(args: &CheckArgs) -> anyhow::Result<u8> {
    if let Some(config) = &args.config {
        return crate::guarded::run(args, config);
    }
    let engine = check::load_engine(args)?;
    if args.jsonl {
        if check::flag_request(args)?.is_some() {
            anyhow::bail!(
                "--jsonl reads requests from input; it cannot be combined with --stage/--tool/--args/--content"
            );
        }
        return crate::jsonl::run(&engine, args);
    }
    let request = check::read_request(args)?;
    let decision = engine
        .evaluate(&request)
        .map_err(|e| anyhow::anyhow!("invalid request: {e}"))?;
    // The process ends with this request, and its memory with it: freeing
    // the engine's many small pieces one by one would only take time.
    std::mem::forget(engine);
    check::print_decision(&decision)
}
