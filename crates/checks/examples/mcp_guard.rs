//! A real MCP guardrail server for tests of MCP-delegated checks (SPEC §5).
//!
//! It exposes the tool `screen` with arguments
//! `{"stage": string, "tool"?: string, "content": string}` and answers
//! `{"verdict":"block","reason":"found BLOCKME"}` when `content` contains
//! `BLOCKME`, else `{"verdict":"allow"}`. A second tool, `echo_args`, returns
//! the arguments it received as structured content, so tests can assert what
//! a client sends.
//!
//! ```text
//! mcp_guard [--stdio | --http ADDR] [--mode MODE] [--count-file PATH]
//!
//!   --stdio            serve over stdin/stdout (default)
//!   --http ADDR        serve MCP streamable HTTP on ADDR at path /mcp and print
//!                      `listening http://<addr>/mcp` on stdout once bound
//!   --mode MODE        how `screen` answers:
//!                        structured  structured content plus a text copy (default)
//!                        text        one text item holding the verdict JSON
//!                        error       a tool error (isError: true)
//!                        garbage     one text item that is not JSON
//!                        exit        the process exits with code 3, no answer
//!                        slow:<ms>   sleep <ms> milliseconds, then as structured
//!                        wrapped     the verdict JSON as a string under `result`
//!                                    (structured) and as the text, the way a
//!                                    server returning a string from its tool does
//!                        synonyms    `deny` and `safe` for block and allow
//!                        noverdict   `{"result": "ok"}`, no verdict at all
//!                        unknown     `{"verdict": "maybe"}`
//!   --count-file PATH  append one line per `screen` call (the content received,
//!                      with `\` and line breaks escaped) before answering
//! ```
//!
//! Logs go to stderr only: in stdio mode stdout carries nothing but MCP
//! messages, in HTTP mode nothing but the `listening` line.

use std::error::Error;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, JsonObject, ServerCapabilities, ServerConfig,
};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService, stdio};
use rmcp::{ErrorData, ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};

/// Exit code of `--mode exit`, distinct from argument errors (2).
const EXIT_MODE_CODE: i32 = 3;

const USAGE: &str = "usage: mcp_guard [--stdio | --http ADDR] [--mode structured|text|error|garbage|exit|slow:<ms>|wrapped|synonyms|noverdict|unknown] [--count-file PATH]";

/// How `screen` answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Structured,
    Text,
    Error,
    Garbage,
    Exit,
    Slow(Duration),
    Wrapped,
    Synonyms,
    NoVerdict,
    Unknown,
}

impl Mode {
    fn parse(s: &str) -> Result<Mode, String> {
        match s {
            "structured" => Ok(Mode::Structured),
            "text" => Ok(Mode::Text),
            "error" => Ok(Mode::Error),
            "garbage" => Ok(Mode::Garbage),
            "exit" => Ok(Mode::Exit),
            "wrapped" => Ok(Mode::Wrapped),
            "synonyms" => Ok(Mode::Synonyms),
            "noverdict" => Ok(Mode::NoVerdict),
            "unknown" => Ok(Mode::Unknown),
            _ => match s.strip_prefix("slow:").map(str::parse::<u64>) {
                Some(Ok(ms)) => Ok(Mode::Slow(Duration::from_millis(ms))),
                _ => Err(format!("unknown mode `{s}`")),
            },
        }
    }
}

enum Transport {
    Stdio,
    Http(String),
}

struct Options {
    transport: Transport,
    mode: Mode,
    count_file: Option<PathBuf>,
}

impl Options {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
        let mut options = Options {
            transport: Transport::Stdio,
            mode: Mode::Structured,
            count_file: None,
        };
        while let Some(arg) = args.next() {
            let mut value = |name: &str| args.next().ok_or(format!("`{name}` needs a value"));
            match arg.as_str() {
                "--stdio" => options.transport = Transport::Stdio,
                "--http" => options.transport = Transport::Http(value("--http")?),
                "--mode" => options.mode = Mode::parse(&value("--mode")?)?,
                "--count-file" => options.count_file = Some(value("--count-file")?.into()),
                _ => return Err(format!("unknown argument `{arg}`")),
            }
        }
        Ok(options)
    }
}

/// Arguments of `screen`, as a Palisade MCP check sends them.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct ScreenArgs {
    /// The stage being checked (`input`, `tool_use`, `output`, …).
    #[expect(
        dead_code,
        reason = "part of the wire contract; the verdict ignores it"
    )]
    stage: String,
    /// The tool name, for `tool_use` checks.
    #[serde(default)]
    #[expect(
        dead_code,
        reason = "part of the wire contract; the verdict ignores it"
    )]
    tool: Option<String>,
    /// The text to screen.
    content: String,
}

/// State shared by every session of one process.
struct Shared {
    mode: Mode,
    /// Serializes appends so that concurrent calls never interleave lines.
    count_file: Option<Mutex<PathBuf>>,
}

#[derive(Clone)]
struct Guard {
    shared: Arc<Shared>,
    tool_router: ToolRouter<Guard>,
}

#[tool_router]
impl Guard {
    fn new(shared: Arc<Shared>) -> Guard {
        Guard {
            shared,
            tool_router: Self::tool_router(),
        }
    }

    /// Screens content: block when it contains `BLOCKME`.
    #[tool(
        description = "Screen content for a guardrail check: {\"verdict\":\"block\",\"reason\":…} when it contains BLOCKME, else {\"verdict\":\"allow\"}"
    )]
    async fn screen(
        &self,
        Parameters(args): Parameters<ScreenArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        self.count(&args.content)?;
        let verdict = if args.content.contains("BLOCKME") {
            json!({"verdict": "block", "reason": "found BLOCKME"})
        } else {
            json!({"verdict": "allow"})
        };
        Ok(match self.shared.mode {
            Mode::Structured => CallToolResult::structured(verdict),
            Mode::Text => CallToolResult::success(vec![ContentBlock::text(verdict.to_string())]),
            Mode::Error => {
                CallToolResult::error(vec![ContentBlock::text("screening backend unavailable")])
            }
            Mode::Garbage => {
                CallToolResult::success(vec![ContentBlock::text("looks fine to me, probably")])
            }
            Mode::Exit => {
                eprintln!("mcp_guard: --mode exit: exiting with code {EXIT_MODE_CODE}");
                std::process::exit(EXIT_MODE_CODE)
            }
            Mode::Slow(delay) => {
                tokio::time::sleep(delay).await;
                CallToolResult::structured(verdict)
            }
            Mode::Wrapped => {
                let text = verdict.to_string();
                let mut result = CallToolResult::structured(json!({"result": text}));
                result.content = vec![ContentBlock::text(text)];
                result
            }
            Mode::Synonyms => {
                let word = if args.content.contains("BLOCKME") {
                    "deny"
                } else {
                    "safe"
                };
                CallToolResult::structured(json!({"verdict": word}))
            }
            Mode::NoVerdict => CallToolResult::structured(json!({"result": "ok"})),
            Mode::Unknown => CallToolResult::structured(json!({"verdict": "maybe"})),
        })
    }

    /// Returns the received arguments as structured content.
    #[tool(description = "Return the received arguments as structured content")]
    async fn echo_args(&self, Parameters(args): Parameters<JsonObject>) -> CallToolResult {
        CallToolResult::structured(Value::Object(args))
    }
}

impl Guard {
    /// Appends one line per `screen` call, flushed before the answer, so tests
    /// can count calls made to another process.
    fn count(&self, content: &str) -> Result<(), ErrorData> {
        let Some(path) = &self.shared.count_file else {
            return Ok(());
        };
        let path = path
            .lock()
            .map_err(|_| ErrorData::internal_error("count file lock poisoned", None))?;
        let line = format!(
            "{}\n",
            content
                .replace('\\', "\\\\")
                .replace('\n', "\\n")
                .replace('\r', "\\r")
        );
        let written = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&*path)
            .and_then(|mut file| {
                file.write_all(line.as_bytes())?;
                file.flush()
            });
        written.map_err(|e| {
            ErrorData::internal_error(format!("cannot append to count file: {e}"), None)
        })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Guard {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("mcp_guard", env!("CARGO_PKG_VERSION")))
    }
}

async fn serve_stdio(shared: Arc<Shared>) -> Result<(), Box<dyn Error>> {
    let service = Guard::new(shared).serve(stdio()).await?;
    service.waiting().await?;
    Ok(())
}

async fn serve_http(shared: Arc<Shared>, addr: &str) -> Result<(), Box<dyn Error>> {
    let service: StreamableHttpService<Guard, LocalSessionManager> = StreamableHttpService::new(
        move || Ok(Guard::new(shared.clone())),
        Default::default(),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    {
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "listening http://{bound}/mcp")?;
        stdout.flush()?;
    }
    eprintln!("mcp_guard: serving MCP streamable HTTP on http://{bound}/mcp");
    axum::serve(listener, router).await?;
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("mcp_guard: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let shared = Arc::new(Shared {
        mode: options.mode,
        count_file: options.count_file.map(Mutex::new),
    });
    let served = match &options.transport {
        Transport::Stdio => serve_stdio(shared).await,
        Transport::Http(addr) => serve_http(shared, addr).await,
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp_guard: {e}");
            ExitCode::FAILURE
        }
    }
}
