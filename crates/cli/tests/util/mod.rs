//! Helpers shared by the CLI integration tests: running the real `palisade`
//! binary as a child process, fixtures, and per-test temporary directories.

#![allow(
    dead_code,
    unreachable_pub,
    reason = "shared test helpers; each test file uses part of them"
)]

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_palisade");

/// How long one run may take before it is killed and the test fails: a hang
/// (a lost block, a deadlock between reader and writer) must fail, not stall CI.
const TIMEOUT: Duration = Duration::from_secs(120);

/// `tests/data/<name>`.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// `tests/data/<name>` as text.
pub fn data_text(name: &str) -> String {
    let path = data(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `tests/data/<name>` as JSON.
pub fn data_json(name: &str) -> Value {
    serde_json::from_str(&data_text(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The path of a fixture as a command-line argument.
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("test paths are UTF-8")
}

/// A directory of its own for one test, removed when dropped.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// `<temp>/palisade-cli-<pid>-<test>`, empty.
    pub fn new(test: &str) -> Self {
        let path = std::env::temp_dir().join(format!("palisade-cli-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Self { path }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `name` in the directory and returns its path.
    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path.join(name);
        std::fs::write(&path, contents).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// A `palisade` invocation being prepared.
pub struct Cmd {
    args: Vec<String>,
    stdin: Option<Vec<u8>>,
    stdout: Option<File>,
    env: Vec<(String, String)>,
}

/// `palisade ARGS...`, with no stdin unless [`Cmd::stdin`] gives one.
pub fn palisade<S: AsRef<str>>(args: &[S]) -> Cmd {
    Cmd {
        args: args.iter().map(|a| a.as_ref().to_owned()).collect(),
        stdin: None,
        stdout: None,
        env: Vec::new(),
    }
}

impl Cmd {
    /// Feeds these bytes on stdin (then closes it).
    pub fn stdin(mut self, bytes: impl Into<Vec<u8>>) -> Self {
        self.stdin = Some(bytes.into());
        self
    }

    /// Sets an environment variable of the run.
    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.to_owned(), value.to_owned()));
        self
    }

    /// Sends stdout to this file instead of a pipe.
    pub fn stdout_to(mut self, file: File) -> Self {
        self.stdout = Some(file);
        self
    }

    /// Runs the binary to completion and checks what must hold for every run:
    /// it exited (no signal, no hang) and printed no panic or backtrace.
    pub fn run(self) -> Run {
        let mut command = Command::new(BIN);
        command
            .args(&self.args)
            .env_remove("RUST_BACKTRACE")
            .env_remove("RUST_LIB_BACKTRACE")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("GEMINI_PROJECT_DIR")
            .env_remove("CURSOR_PROJECT_DIR")
            .env_remove("PALISADE_API_KEY")
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(match self.stdout {
                Some(f) => Stdio::from(f),
                None => Stdio::piped(),
            })
            .stderr(Stdio::piped());
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));

        // Stdin, stdout and stderr are served by their own threads so that a
        // large batch cannot fill one pipe while the test waits on another.
        let writer = match (child.stdin.take(), self.stdin) {
            (Some(mut pipe), Some(bytes)) => Some(std::thread::spawn(move || {
                // The child may stop reading early (an error exit): that is
                // judged by its exit code, not here.
                let _ = pipe.write_all(&bytes);
            })),
            _ => None,
        };
        let stdout = child.stdout.take().map(|mut pipe| {
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                pipe.read_to_end(&mut buf).expect("read stdout");
                buf
            })
        });
        let mut stderr_pipe = child.stderr.take().expect("stderr is piped");
        let stderr = std::thread::spawn(move || {
            let mut buf = Vec::new();
            stderr_pipe.read_to_end(&mut buf).expect("read stderr");
            buf
        });

        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait for palisade") {
                break status;
            }
            if started.elapsed() > TIMEOUT {
                let _ = child.kill();
                let _ = child.wait();
                panic!("palisade {:?} did not finish in {TIMEOUT:?}", self.args);
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        if let Some(w) = writer {
            w.join().expect("stdin writer");
        }
        let stdout = stdout
            .map(|t| t.join().expect("stdout reader"))
            .unwrap_or_default();
        let stderr = String::from_utf8_lossy(&stderr.join().expect("stderr reader")).into_owned();

        let code = status
            .code()
            .unwrap_or_else(|| panic!("palisade {:?} was killed: {status}", self.args));
        for bad in ["panicked", "RUST_BACKTRACE", "stack backtrace"] {
            assert!(
                !stderr.contains(bad),
                "palisade {:?} printed {bad:?} on stderr:\n{stderr}",
                self.args
            );
        }
        Run {
            args: self.args,
            code,
            stdout,
            stderr,
        }
    }
}

/// What one run of the binary did.
pub struct Run {
    pub args: Vec<String>,
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    /// Asserts the exit code, showing the run's output when it differs.
    #[track_caller]
    pub fn code(&self, expected: i32) -> &Self {
        assert_eq!(
            self.code,
            expected,
            "palisade {:?}: exit code\n--- stdout\n{}\n--- stderr\n{}",
            self.args,
            self.stdout_text(),
            self.stderr
        );
        self
    }

    /// Stdout as text.
    pub fn stdout_text(&self) -> &str {
        std::str::from_utf8(&self.stdout).expect("stdout is UTF-8")
    }

    /// Stdout's lines (without their `\n`).
    pub fn stdout_lines(&self) -> Vec<&str> {
        self.stdout_text().lines().collect()
    }

    /// Stdout as exactly one compact JSON line: the single decision of `check`.
    #[track_caller]
    pub fn decision(&self) -> Value {
        let text = self.stdout_text();
        assert!(
            text.ends_with('\n'),
            "the decision ends with a newline: {text:?}"
        );
        let lines = self.stdout_lines();
        assert_eq!(
            lines.len(),
            1,
            "one compact decision line when stdout is not a terminal:\n{text}"
        );
        let value: Value = serde_json::from_str(lines[0])
            .unwrap_or_else(|e| panic!("the decision is JSON ({e}): {text}"));
        assert_compact(lines[0], &value);
        value
    }

    /// Stdout as one JSON decision per line.
    #[track_caller]
    pub fn decisions(&self) -> Vec<Value> {
        self.stdout_lines()
            .iter()
            .enumerate()
            .map(|(i, line)| {
                serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("output line {i} is not JSON ({e}): {line}"))
            })
            .collect()
    }

    /// Asserts that stderr is exactly one line starting `error:` and holding
    /// every one of `needles`; returns that line.
    #[track_caller]
    pub fn one_line_error(&self, needles: &[&str]) -> &str {
        let err = self.stderr.trim_end_matches('\n');
        assert!(
            !err.is_empty() && !err.contains('\n'),
            "palisade {:?}: the error is one line, got:\n{}",
            self.args,
            self.stderr
        );
        assert!(err.starts_with("error: "), "error line: {err}");
        for n in needles {
            assert!(err.contains(n), "the error names {n:?}: {err}");
        }
        err
    }
}

/// Asserts that `line` is `value` without insignificant whitespace. Key order
/// may differ from serde_json's, but the compact length does not.
#[track_caller]
pub fn assert_compact(line: &str, value: &Value) {
    let compact = serde_json::to_string(value).expect("serialize");
    assert_eq!(
        line.len(),
        compact.len(),
        "the decision is written compactly: {line}"
    );
}

/// `palisade serve ARGS --listen 127.0.0.1:0` (in `dir`, with `env`), and
/// the address it printed (`127.0.0.1:PORT`).
pub fn serve(
    args: &[&str],
    dir: Option<&Path>,
    env: &[(&str, &str)],
) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut command = Command::new(BIN);
    command
        .arg("serve")
        .args(args)
        .args(["--listen", "127.0.0.1:0"])
        .env("RUST_LOG", "warn")
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let mut child = command.spawn().expect("start palisade serve");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout is piped"))
        .read_line(&mut line)
        .expect("read where it listens");
    let addr = line
        .trim()
        .strip_prefix("palisade listening on http://")
        .unwrap_or_else(|| panic!("where it listens: {line:?}"))
        .to_owned();
    (child, addr)
}
