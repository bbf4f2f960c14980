//! The console examples of README.md and docs/ that are marked to run: each
//! `$ command` of a ` ```console ` block after `<!-- run -->` (in a fresh
//! directory holding the files the doc showed so far — a YAML block whose
//! first line is `# NAME.yaml`, or any block after `<!-- file: NAME -->` —
//! and links to the repository's `examples` and `crates`) or `<!-- run: serve [OPTIONS] -->` (against a fresh
//! `palisade serve --listen 127.0.0.1:0 [OPTIONS]`, which the block's
//! `localhost:8700` and `$(pidof palisade)` then mean; `NAME=value` words before the options are
//! its environment) is run with `sh`, and its output must be the
//! one shown. `<!-- run: continued -->` goes on in the directory and with the
//! server of the block run before it (files shown in between are added).
//! A command that signals the server (`kill -HUP $(pidof palisade)`) prints
//! what the server logs on stderr after it; after `-TERM` or `-INT` the
//! server must also exit.
//!
//! Flags after the directive: `, any order` compares the lines in any order
//! (answers that come as they are decided); `, tty` runs the commands on a
//! terminal (`script`), as a user at a prompt sees them; `, stops` is for
//! commands that run until stopped (`palisade serve`): each runs until it
//! has printed what is shown (10 s at most), then gets SIGTERM, and a
//! `palisade serve` without `--listen` is given `--listen 127.0.0.1:0`.
//!
//! A console block that cannot run here says why on the line before it:
//! `<!-- not run: REASON -->`; every other console block must be marked.
//!
//! What differs on every run is compared as its kind: UUIDs, RFC 3339
//! times, SHA-256 hex digests, `durationUs`, `evaluation_ms`, a histogram's
//! `_sum`, `palisade test`'s `finished in` and ports. An `…` in a shown line
//! stands for any text in that line; a line that is only `…` for any lines.
//! A command that needs a program the machine lacks (`curl`, `jq`) fails when
//! `PALISADE_DOCS_RUN_ALL` is set (as in CI), else it is skipped with a note.

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use regex::Regex;

use super::{Block, blocks, root};
use crate::util::BIN;

/// One `$ command` and the output shown after it.
struct Example {
    line: usize,
    command: String,
    shown: String,
}

/// The commands of a console block, each with its shown output. A command
/// goes on while a line ends with `\` or a single quote is open.
fn examples(block: &Block) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut lines = block.text.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        let Some(first) = line.strip_prefix("$ ") else {
            if let Some(last) = out.last_mut() {
                last.shown.push_str(line);
                last.shown.push('\n');
            }
            continue;
        };
        let mut command = first.to_owned();
        while command.ends_with('\\') || command.matches('\'').count() % 2 == 1 {
            let Some((_, next)) = lines.next() else { break };
            command.push('\n');
            command.push_str(next);
        }
        out.push(Example {
            line: block.line + 1 + i,
            command,
            shown: String::new(),
        });
    }
    for e in &mut out {
        let kept = e.shown.trim_end_matches('\n').len();
        e.shown.truncate(kept);
    }
    out
}

/// What differs on every run, replaced by its kind.
fn normalize(text: &str) -> String {
    let rules: &[(&str, &str)] = &[
        (
            r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
            "<uuid>",
        ),
        (
            r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)",
            "<time>",
        ),
        (r"\b[0-9a-f]{64}\b", "<sha256>"),
        (r#""durationUs": ?\d+"#, r#""durationUs":<n>"#),
        (r"_seconds_sum [0-9.e-]+", "_seconds_sum <n>"),
        (r#""evaluation_ms":[0-9.e-]+"#, r#""evaluation_ms":<n>"#),
        (r"(127\.0\.0\.1|localhost):\d+", "$1:<port>"),
        (r"finished in [0-9.]+s", "finished in <seconds>"),
    ];
    let mut text = text.replace("\r\n", "\n").trim_end().to_owned();
    for (pattern, with) in rules {
        let re = Regex::new(pattern).expect("a valid pattern");
        text = re.replace_all(&text, *with).into_owned();
    }
    text
}

/// Whether `actual` is what `shown` shows (both normalized).
fn matches(shown: &str, actual: &str) -> bool {
    if shown.is_empty() {
        return actual.is_empty();
    }
    let mut pattern = String::from("^");
    for line in shown.lines() {
        if line.trim() == "…" {
            pattern.push_str(r"(?:[^\n]*\n)*?");
            continue;
        }
        let parts: Vec<String> = line.split('…').map(regex::escape).collect();
        pattern.push_str(&parts.join(r"[^\n]*?"));
        pattern.push('\n');
    }
    pattern.push('$');
    let re = Regex::new(&pattern).expect("an escaped pattern");
    re.is_match(&format!("{actual}\n"))
}

/// Whether each line of `actual` is one of `shown`'s lines, in any order
/// (every shown line used once).
fn matches_any_order(shown: &str, actual: &str) -> bool {
    let mut left: Vec<&str> = shown.lines().collect();
    let lines: Vec<&str> = actual.lines().collect();
    if left.len() != lines.len() {
        return false;
    }
    for line in lines {
        match left.iter().position(|s| matches(s, line)) {
            Some(i) => {
                left.remove(i);
            }
            None => return false,
        }
    }
    true
}

/// Text a child writes on a pipe, collected by a thread as it comes.
#[derive(Clone, Default)]
struct Collected(Arc<Mutex<String>>);

impl Collected {
    fn from(pipe: impl Read + Send + 'static) -> Self {
        let collected = Collected::default();
        let into = collected.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(pipe);
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) {
                into.0.lock().expect("not poisoned").push_str(&line);
                line.clear();
            }
        });
        collected
    }

    fn text(&self) -> String {
        self.0.lock().expect("not poisoned").clone()
    }
}

/// Polls `output` until it matches `shown` or `limit` passes; what it
/// holds then.
fn wait_for(shown: &str, limit: Duration, output: impl Fn() -> String) -> String {
    let start = Instant::now();
    loop {
        let text = output();
        if matches(&normalize(shown), &normalize(&text)) || start.elapsed() > limit {
            return text;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A `palisade serve` child for one block (or several, `continued`).
struct Serve {
    child: Child,
    address: String,
    stderr: Collected,
}

impl Serve {
    /// `options` may start with `NAME=value` words: the server's
    /// environment (the key variables of a config).
    fn start(options: &str, dir: &Path) -> Self {
        let words: Vec<&str> = options.split_whitespace().collect();
        let env_words = words
            .iter()
            .take_while(|w| !w.starts_with('-') && w.contains('='))
            .count();
        let env = words[..env_words].iter().filter_map(|w| w.split_once('='));
        let mut child = Command::new(BIN)
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(&words[env_words..])
            .envs(env)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{BIN}: {e}"));
        let stderr = Collected::from(child.stderr.take().expect("piped"));
        let mut first = String::new();
        let stdout = child.stdout.take().expect("piped");
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("palisade serve prints where it listens");
        let address = first
            .trim()
            .strip_prefix("palisade listening on http://")
            .unwrap_or_else(|| {
                panic!(
                    "palisade serve {options} printed {first:?}, {:?}",
                    stderr.text()
                )
            })
            .to_owned();
        Serve {
            child,
            address,
            stderr,
        }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `command` (a server) in its own process group until it has printed
/// `shown` (10 s at most), then stops the group; what it printed, stdout
/// first.
fn run_until_shown(command: &str, shown: &str, cwd: &Path, path: &str) -> String {
    let mut child = Command::new("sh")
        .args(["-c", command])
        .current_dir(cwd)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap_or_else(|e| panic!("sh: {e}"));
    let stdout = Collected::from(child.stdout.take().expect("piped"));
    let stderr = Collected::from(child.stderr.take().expect("piped"));
    let both = || stdout.text() + &stderr.text();
    let printed = wait_for(shown, Duration::from_secs(10), both);
    let group = format!("-{}", child.id());
    let _ = Command::new("kill").args(["-TERM", "--", &group]).status();
    let start = Instant::now();
    while child.try_wait().ok().flatten().is_none() {
        if start.elapsed() > Duration::from_secs(5) {
            let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
            let _ = child.wait();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    printed
}

/// The file a block shows: the name of its `<!-- file: NAME -->` marker, or
/// `NAME` when it is YAML whose first line is `# NAME` and NAME is a
/// relative path (no `..`, not under the linked `examples/` or `crates/`)
/// ending in `.yaml` or `.yml`.
fn file_name(block: &Block) -> Option<String> {
    if let Some(name) = &block.named {
        return Some(name.clone());
    }
    if !matches!(block.lang.as_str(), "yaml" | "yml") {
        return None;
    }
    let name = block.text.lines().next()?.strip_prefix("# ")?.trim();
    let plain = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/'))
        && !name.starts_with('/')
        && !name.split('/').any(|part| part.is_empty() || part == "..")
        && !name.starts_with("examples/")
        && !name.starts_with("crates/");
    (plain && (name.ends_with(".yaml") || name.ends_with(".yml"))).then(|| name.to_owned())
}

fn has(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A block's directory and server, kept for a `continued` block.
struct Session {
    dir: crate::util::TempDir,
    serve: Option<Serve>,
    /// How many of the doc's shown files the directory holds.
    files: usize,
}

#[test]
fn every_marked_console_example_prints_what_it_shows() {
    let bin_dir = Path::new(BIN).parent().expect("the binary's directory");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let must_run_all = std::env::var_os("PALISADE_DOCS_RUN_ALL").is_some();
    let mut problems = Vec::new();
    let mut ran = 0;
    // The files shown so far in the current doc, by name, in order.
    let mut shown_files: Vec<(String, String)> = Vec::new();
    let mut doc = std::path::PathBuf::new();
    let mut session: Option<Session> = None;
    for block in blocks() {
        if block.file != doc {
            doc = block.file.clone();
            shown_files.clear();
            session = None;
        }
        if let Some(name) = file_name(&block) {
            shown_files.push((name, block.text.clone()));
        }
        let Some(directive) = &block.run else {
            continue;
        };
        let at_block = format!("{}:{}", block.file.display(), block.line);
        assert_eq!(
            block.lang, "console",
            "{at_block}: `<!-- run -->` marks console blocks only"
        );
        // `[serve …|continued][, any order][, tty][, stops]`
        let mut parts = directive.split(',').map(str::trim);
        let directive = parts.next().unwrap_or("").trim_start_matches(':').trim();
        let (mut any_order, mut tty, mut stops) = (false, false, false);
        for flag in parts {
            match flag {
                "any order" => any_order = true,
                "tty" => tty = true,
                "stops" => stops = true,
                other => panic!("{at_block}: unknown flag `{other}` (`any order`, `tty`, `stops`)"),
            }
        }
        if directive == "continued" {
            assert!(
                session.is_some(),
                "{at_block}: `run: continued` without a block run before it in this doc"
            );
        } else {
            let dir = crate::util::TempDir::new(&format!("docs-run-{}", block.line));
            for linked in ["examples", "crates"] {
                std::os::unix::fs::symlink(root().join(linked), dir.path().join(linked))
                    .expect("a link in a temporary directory");
            }
            session = Some(Session {
                dir,
                serve: None,
                files: 0,
            });
        }
        let current = session.as_mut().expect("set above");
        for (name, text) in &shown_files[current.files..] {
            let path = current.dir.path().join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).expect("a temporary directory");
            }
            std::fs::write(path, text).expect("a temporary file");
        }
        current.files = shown_files.len();
        match directive.strip_prefix("serve") {
            Some(options) => current.serve = Some(Serve::start(options, current.dir.path())),
            None if directive.is_empty() || directive == "continued" => {}
            None => panic!(
                "{at_block}: unknown directive `{directive}` (`run`, `run: serve [OPTIONS]` or `run: continued`)"
            ),
        }
        let cwd = current.dir.path().to_path_buf();
        let examples = examples(&block);
        assert!(
            !examples.is_empty(),
            "{at_block}: a marked block without `$ ` commands"
        );
        for example in examples {
            let at = format!("{}:{}", block.file.display(), example.line);
            let missing = ["curl", "jq", "python3"]
                .into_iter()
                .find(|p| example.command.contains(&format!("{p} ")) && !has(p))
                .or_else(|| (tty && !has("script")).then_some("script"));
            if let Some(program) = missing {
                assert!(
                    !must_run_all,
                    "{at}: needs {program}, which is not installed"
                );
                eprintln!("{at}: skipped: needs {program}, which is not installed");
                continue;
            }
            let mut command = example.command.clone();
            let mut signal = None;
            if let Some(s) = &current.serve {
                let pid = s.child.id().to_string();
                command = command
                    .replace("localhost:8700", &s.address)
                    .replace("127.0.0.1:8700", &s.address)
                    .replace("$(pidof palisade)", &pid);
                if example.command.starts_with("kill ")
                    && example.command.contains("$(pidof palisade)")
                {
                    signal = Some((
                        s.stderr.text().len(),
                        ["-TERM", "-INT"]
                            .iter()
                            .any(|s| example.command.contains(s)),
                    ));
                }
            }
            let actual = if stops {
                if command.contains("palisade serve") && !command.contains("--listen") {
                    command =
                        command.replace("palisade serve", "palisade serve --listen 127.0.0.1:0");
                }
                run_until_shown(&command, &example.shown, &cwd, &path)
            } else {
                // On a terminal: `script` gives the command one (what a user
                // at a prompt sees, such as `check`'s pretty JSON).
                let argv: Vec<String> = if tty {
                    ["script", "-qec", &command, "/dev/null"]
                        .map(String::from)
                        .to_vec()
                } else {
                    ["sh", "-c", &command].map(String::from).to_vec()
                };
                let output = Command::new(&argv[0])
                    .args(&argv[1..])
                    .current_dir(&cwd)
                    .env("PATH", &path)
                    .stdin(Stdio::null())
                    .output()
                    .unwrap_or_else(|e| panic!("{at}: sh: {e}"));
                let mut actual = String::from_utf8_lossy(&output.stdout).into_owned();
                actual.push_str(&String::from_utf8_lossy(&output.stderr));
                actual
            };
            let actual = match (signal, current.serve.as_mut()) {
                // What the server logs after the signal.
                (Some((from, stopping)), Some(serve)) => {
                    let logged = wait_for(&example.shown, Duration::from_secs(5), || {
                        actual.clone() + &serve.stderr.text()[from..]
                    });
                    if stopping {
                        let start = Instant::now();
                        while serve.child.try_wait().ok().flatten().is_none() {
                            assert!(
                                start.elapsed() < Duration::from_secs(40),
                                "{at}: the server did not exit"
                            );
                            std::thread::sleep(Duration::from_millis(20));
                        }
                    }
                    logged
                }
                _ => actual,
            };
            ran += 1;
            let (shown, actual) = (normalize(&example.shown), normalize(&actual));
            let same = if any_order {
                matches_any_order(&shown, &actual)
            } else {
                matches(&shown, &actual)
            };
            if !same {
                problems.push(format!(
                    "{at}: `{}`\n  shown:\n{}\n  printed:\n{}",
                    example.command,
                    indent(&shown),
                    indent(&actual)
                ));
            }
        }
    }
    assert!(ran >= 20, "only {ran} examples ran: the markers are gone?");
    assert!(
        problems.is_empty(),
        "{} of {ran} examples print something else than shown:\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

#[test]
fn every_console_block_runs_or_says_why_not() {
    let unmarked: Vec<String> = blocks()
        .into_iter()
        .filter(|b| b.lang == "console" && b.run.is_none() && b.not_run.is_none())
        .map(|b| format!("{}:{}", b.file.display(), b.line))
        .collect();
    assert!(
        unmarked.is_empty(),
        "console blocks neither `<!-- run … -->` nor `<!-- not run: REASON -->`:\n{}",
        unmarked.join("\n")
    );
    for b in blocks() {
        if let Some(reason) = &b.not_run {
            assert!(
                !reason.is_empty(),
                "{}:{}: `not run` needs a reason",
                b.file.display(),
                b.line
            );
        }
    }
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_matcher_takes_ellipses_and_run_to_run_values() {
    assert!(matches("a…c", "abbbc"));
    assert!(!matches("a…c", "abbbd"));
    assert!(matches("first\n…\nlast", "first\nx\ny\nlast"));
    assert!(matches("first\n…\nlast", "first\nlast"));
    assert!(!matches("first\nlast", "first\nx\nlast"));
    assert!(!matches("a", "a\nb"), "output beyond what is shown");
    assert!(matches("", ""));
    assert!(!matches("", "printed"), "a command shown without output");
    assert!(matches_any_order("b…\na", "a\nbcd"));
    assert!(!matches_any_order("a\na", "a\nb"));
    assert_eq!(
        normalize(
            r#"{"receiptId":"01a20495-e3f1-76c2-8f7a-1bc5fd4e44d8","evaluatedAt":"2026-11-22T18:47:41.809Z","durationUs":382} http://127.0.0.1:34401"#
        ),
        r#"{"receiptId":"<uuid>","evaluatedAt":"<time>","durationUs":<n>} http://127.0.0.1:<port>"#
    );
}
