//! Helpers shared by the checks integration tests: a mock OpenAI-compatible
//! service ([`llm`]) and the `mcp_guard` example, a real MCP guardrail server
//! run as a child process over stdio or streamable HTTP.

// Each test target compiles this module on its own and uses part of it; its
// helpers panic on purpose, as tests do.
#![allow(
    dead_code,
    unused_imports,
    unreachable_pub,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers shared by several test targets"
)]

pub mod llm;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

pub use llm::{Behavior, LlmServer, refused_addr};

/// How long `mcp_guard --http` may take to print its `listening` line.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);

/// Installs the process-wide rustls crypto provider. reqwest is built with
/// `rustls-no-provider`, and building any `reqwest::Client` (including the one
/// inside rmcp's streamable-HTTP client transport) panics without a provider,
/// even for plain `http://` URLs. Idempotent.
pub fn install_crypto_provider() {
    // Err means a provider is already installed, which is all we need.
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// A reqwest client for talking to the mock services directly.
pub fn http_client() -> reqwest::Client {
    install_crypto_provider();
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .expect("reqwest client")
}

/// The built `mcp_guard` example: the test binary lives in
/// `target/<profile>/deps/`, examples in `target/<profile>/examples/`.
///
/// `cargo test -p palisade-checks` builds examples, but a filtered run
/// (`--test <name>`) does not; so when the binary is missing or older than its
/// source it is built here once per test process, with the same cargo, target
/// directory and profile. Panics when that fails.
pub fn mcp_guard_exe() -> PathBuf {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(locate_or_build_mcp_guard).clone()
}

fn locate_or_build_mcp_guard() -> PathBuf {
    let test_exe = std::env::current_exe().expect("current test executable");
    let profile_dir = test_exe
        .parent()
        .and_then(Path::parent)
        .expect("test executable under target/<profile>/deps");
    let exe = profile_dir
        .join("examples")
        .join(format!("mcp_guard{}", std::env::consts::EXE_SUFFIX));
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/mcp_guard.rs");
    if !is_newer_than(&exe, &source) {
        build_mcp_guard(profile_dir);
    }
    assert!(
        exe.is_file(),
        "{} is missing: build examples first: run via cargo test \
         (`cargo test -p palisade-checks`, or `cargo build -p palisade-checks --examples`)",
        exe.display()
    );
    exe
}

fn is_newer_than(built: &Path, source: &Path) -> bool {
    let modified = |path: &Path| std::fs::metadata(path).and_then(|m| m.modified());
    match (modified(built), modified(source)) {
        (Ok(built), Ok(source)) => built >= source,
        (Ok(_), Err(_)) => true,
        (Err(_), _) => false,
    }
}

/// `cargo build -p palisade-checks --example mcp_guard` into the target
/// directory and profile of the running test.
fn build_mcp_guard(profile_dir: &Path) {
    let target_dir = profile_dir.parent().expect("target directory");
    let profile = profile_dir
        .file_name()
        .and_then(|name| name.to_str())
        .expect("profile directory name");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = std::process::Command::new(cargo);
    command
        .args(["build", "-p", "palisade-checks", "--example", "mcp_guard"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CARGO_TARGET_DIR", target_dir);
    // The `dev` and `test` profiles build into `debug/`.
    if profile != "debug" {
        command.args(["--profile", profile]);
    }
    let status = command
        .status()
        .unwrap_or_else(|e| panic!("build examples first: run via cargo test ({e})"));
    assert!(
        status.success(),
        "building the mcp_guard example failed ({status}): build examples first: run via cargo test"
    );
}

/// `mcp_guard --stdio --mode <mode> [--count-file <path>]`, ready for rmcp's
/// `TokioChildProcess` (stdin/stdout are piped by the transport; stderr is
/// inherited so server logs show up in test output).
pub fn mcp_guard_stdio(mode: &str, count_file: Option<&Path>) -> Command {
    let mut command = Command::new(mcp_guard_exe());
    command.arg("--stdio").arg("--mode").arg(mode);
    if let Some(path) = count_file {
        command.arg("--count-file").arg(path);
    }
    command.kill_on_drop(true);
    command
}

/// Spawns `mcp_guard --http 127.0.0.1:0 --mode <mode> [--count-file <path>]`
/// and waits for its `listening <url>` line. Returns the child (killed when
/// dropped) and the MCP endpoint URL, `http://127.0.0.1:<port>/mcp`.
pub async fn start_mcp_http(mode: &str, count_file: Option<&Path>) -> (Child, String) {
    let mut command = Command::new(mcp_guard_exe());
    command
        .args(["--http", "127.0.0.1:0", "--mode", mode])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true);
    if let Some(path) = count_file {
        command.arg("--count-file").arg(path);
    }
    let mut child = command.spawn().expect("spawn mcp_guard --http");
    let stdout = child.stdout.take().expect("mcp_guard stdout is piped");
    let mut lines = BufReader::new(stdout).lines();
    let line = tokio::time::timeout(STARTUP_TIMEOUT, lines.next_line())
        .await
        .expect("mcp_guard --http did not print its listening line in time")
        .expect("read mcp_guard stdout")
        .expect("mcp_guard --http exited before listening");
    let url = line
        .strip_prefix("listening ")
        .unwrap_or_else(|| panic!("unexpected first line from mcp_guard: {line:?}"))
        .to_owned();
    (child, url)
}

/// The lines of a `--count-file` (none when the file does not exist yet).
pub fn count_lines(path: &Path) -> Vec<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => text.lines().map(str::to_owned).collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => panic!("read {}: {e}", path.display()),
    }
}
