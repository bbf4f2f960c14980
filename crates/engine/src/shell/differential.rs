//! The parser against a real shell: every simple command bash runs for a
//! line must be among the commands [`commands`] lists, word for word.
//!
//! bash runs each line with a `PATH` that holds nothing and a `command_not_found_handle`
//! that appends the argument vector it was given to a file, so no program
//! runs and every external command is recorded exactly as bash split it
//! (after quote removal, escapes, `$'…'`, here-documents, pipelines,
//! subshells, groups, substitutions and control structures). The parser may
//! list more than bash ran (both branches of an `if`, a `-c` string read
//! again, a loop body that never ran): a guardrail must see every command
//! that can run, so only the inclusion is checked.
//!
//! Lines come from a small grammar with a fixed seed (set
//! `PALISADE_DIFF_SEED` and `PALISADE_DIFF_LINES` to explore further), plus
//! hand-written ones. The test is skipped, saying so, when no `bash` is on
//! the machine.

use std::io::Write as _;
use std::process::{Command as Process, Stdio};

use super::commands;

/// Program names that are neither builtins nor keywords, so bash looks them
/// up (and, finding nothing, calls the handler).
const NAMES: &[&str] = &[
    "rm", "cat", "curl", "grep", "git", "tar", "cp", "sudo", "ssh", "python3", "nc", "chmod", "sh",
    "xargs", "find",
];

/// Characters that need no quoting.
const PLAIN: &[u8] = b"abcxyzABZ0129._-=:+,@%/";

/// Characters that are special to the shell unquoted.
const SPECIAL: &[u8] = b" ;|&<>()\"'\\$`*?#~{},!\t";

/// What joins the commands of a list.
const SEPARATORS: &[&str] = &[" ; ", " && ", " || ", " | ", "\n", " |\n ", " |& "];

/// A deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// One word: pieces written next to each other, each plain, single-quoted,
/// double-quoted, ANSI-C quoted or a backslash escape.
fn word(rng: &mut Rng, first: bool) -> String {
    let mut out = String::new();
    let pieces = 1 + rng.below(3);
    for k in 0..pieces {
        let mut text = String::new();
        for _ in 0..1 + rng.below(5) {
            let c = if rng.below(3) == 0 {
                *rng.pick(SPECIAL)
            } else {
                *rng.pick(PLAIN)
            };
            text.push(char::from(c));
        }
        match rng.below(7) {
            6 => {
                // Brace expansion: `{a,b}` between plain text.
                let alts: Vec<String> = (0..2 + rng.below(2))
                    .map(|_| char::from(*rng.pick(b"abcxyz019")).to_string())
                    .collect();
                out.push_str(&format!("{{{}}}", alts.join(",")));
            }
            0 | 1 => {
                // Plain: only characters that need no quoting.
                let plain: String = text
                    .chars()
                    .filter(|c| PLAIN.contains(&(*c as u8)))
                    .collect();
                let plain = if plain.is_empty() {
                    "p".to_owned()
                } else {
                    plain
                };
                // A leading `=` after a name would make an assignment.
                if first && k == 0 && plain.contains('=') {
                    out.push_str(&plain.replace('=', "q"));
                } else {
                    out.push_str(&plain);
                }
            }
            2 => out.push_str(&format!("'{}'", text.replace('\'', "'\\''"))),
            3 => {
                let mut q = String::from("\"");
                for c in text.chars() {
                    if matches!(c, '"' | '\\' | '$' | '`') {
                        q.push('\\');
                    }
                    q.push(c);
                }
                q.push('"');
                out.push_str(&q);
            }
            4 => {
                let mut q = String::from("$'");
                for c in text.chars() {
                    match c {
                        '\'' => q.push_str("\\'"),
                        '\\' => q.push_str("\\\\"),
                        '\t' => q.push_str("\\t"),
                        ' ' => q.push_str("\\x20"),
                        c => q.push(c),
                    }
                }
                q.push('\'');
                out.push_str(&q);
            }
            _ => {
                for c in text.chars() {
                    if !PLAIN.contains(&(c as u8)) {
                        out.push('\\');
                    }
                    out.push(c);
                }
            }
        }
    }
    out
}

/// A simple command: a name, words, sometimes an assignment before it and a
/// redirection to a file in the working directory.
fn simple(rng: &mut Rng, depth: usize) -> String {
    let mut parts = Vec::new();
    if rng.below(6) == 0 {
        parts.push(format!("V{}={}", rng.below(9), word(rng, false)));
    }
    parts.push((*rng.pick(NAMES)).to_owned());
    for _ in 0..rng.below(4) {
        if depth < 2 && rng.below(8) == 0 {
            parts.push(format!("\"$({})\"", list(rng, depth + 1)));
        } else if depth < 2 && rng.below(16) == 0 {
            // Backticks hold a command with plain words.
            parts.push(format!("`{} {}`", rng.pick(NAMES), rng.below(99)));
        } else {
            parts.push(word(rng, false));
        }
    }
    match rng.below(8) {
        0 => parts.push("> out.txt".to_owned()),
        1 => parts.push("2>&1".to_owned()),
        2 => parts.push("<<< here".to_owned()),
        _ => {}
    }
    parts.join(" ")
}

/// A command list with pipelines, `&&`, `||`, subshells, groups and control
/// structures.
fn list(rng: &mut Rng, depth: usize) -> String {
    let mut out = String::new();
    for k in 0..1 + rng.below(3) {
        if k > 0 {
            let sep = *rng.pick(SEPARATORS);
            out.push_str(sep);
        }
        let item = match (depth < 2, rng.below(9)) {
            (true, 0) => format!("( {} )", list(rng, depth + 1)),
            (true, 1) => format!("{{ {}; }}", list(rng, depth + 1)),
            (true, 2) => format!(
                "if {}; then {}; else {}; fi",
                simple(rng, depth),
                list(rng, depth + 1),
                simple(rng, depth)
            ),
            (true, 3) => format!("for v in a b; do {}; done", list(rng, depth + 1)),
            (true, 4) => format!("sh -c {}", shell_quote(&list(rng, depth + 1))),
            // A here-document's body is data, unless a shell reads it. Not
            // inside `$( … )`: bash 5.2 joins the commands after a
            // here-document there (`$(a <<E … E↵ b x ; c y)` runs `b x c y`).
            (true, 5) if depth == 0 => format!(
                "{} <<{}\nrm -rf body `{} x`\nEOF\n{}",
                simple(rng, depth),
                rng.pick(&["EOF", "'EOF'"][..]),
                rng.pick(NAMES),
                simple(rng, depth)
            ),
            _ => simple(rng, depth),
        };
        out.push_str(&item);
    }
    out
}

/// A string single-quoted for the shell.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The argument vectors bash runs for each line (`None` when bash
/// reports a syntax error for it), or `None` when there is no bash.
fn bash_runs(lines: &[String]) -> Option<Vec<Option<Vec<Vec<String>>>>> {
    // The child's `PATH` holds nothing, so bash is found with ours.
    let bash = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|d| d.join("bash"))
            .find(|p| p.is_file())
    })?;
    let dir = std::env::temp_dir().join(format!("palisade-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let mut out = Vec::new();
    for line in lines {
        // Each process appends to its own file: commands of a pipeline
        // run at the same time.
        let record = dir.join("argv");
        clear_records(&dir);
        let script = format!(
            "command_not_found_handle() {{ local IFS=$'\\x1f'; printf '%s\\x1e' \"$*\" >> \"$PALISADE_ARGV.$BASHPID\"; return 0; }}\n{line}\n"
        );
        let mut child = match Process::new(&bash)
            .args(["--norc", "--noprofile", "-s"])
            .env_clear()
            .env("PATH", "/nonexistent-palisade-path")
            .env("PALISADE_ARGV", &record)
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
        {
            Ok(c) => c,
            Err(_) => return None,
        };
        child
            .stdin
            .take()
            .expect("stdin is piped")
            .write_all(script.as_bytes())
            .expect("bash reads its script");
        let result = child.wait_with_output().expect("bash runs");
        let stderr = String::from_utf8_lossy(&result.stderr);
        if stderr.contains("syntax error") || stderr.contains("unexpected EOF") {
            out.push(None);
            continue;
        }
        let mut text = String::new();
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            if entry.file_name().to_string_lossy().starts_with("argv.") {
                let bytes = std::fs::read(entry.path()).unwrap_or_default();
                text.push_str(&String::from_utf8_lossy(&bytes));
            }
        }
        out.push(Some(
            text.split('\x1e')
                .filter(|r| !r.is_empty())
                .map(|r| r.split('\x1f').map(str::to_owned).collect())
                .collect(),
        ));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Some(out)
}

/// Removes the argument records of the previous line.
fn clear_records(dir: &std::path::Path) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry.file_name().to_string_lossy().starts_with("argv.") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether the parser's words stand for bash's: equal, except that a word
/// holding a substitution stands for whatever it printed — any number of
/// words, none when unquoted and empty.
fn same_words(parsed: &[String], ran: &[String]) -> bool {
    match parsed.split_first() {
        None => ran.is_empty(),
        Some((p, rest)) if p.contains("$(") || p.contains('`') => {
            (0..=ran.len()).any(|n| same_words(rest, &ran[n..]))
        }
        Some((p, rest)) => ran
            .split_first()
            .is_some_and(|(r, ran_rest)| p == r && same_words(rest, ran_rest)),
    }
}

#[test]
fn every_command_bash_runs_is_listed() {
    let seed = std::env::var("PALISADE_DIFF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED_2026_u64);
    let count = std::env::var("PALISADE_DIFF_LINES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400usize);
    let mut rng = Rng(seed | 1);
    let mut lines: Vec<String> = [
        "rm -rf /tmp/x",
        "r''m -r\"f\" x",
        "rm $'-\\x72f' x",
        "cat\\ x y",
        "sudo rm -rf x; curl -s x | sh",
        "git commit -m 'a; rm -rf /' && git push",
        "A=1 B='2 3' cp a b",
        "cat <<EOF | sh\nrm -rf x\nEOF",
        "cat <<'EOF'\n$(rm x)\nEOF",
        "tar czf - . | ssh host 'cat > b.tgz'",
        "{ curl x; } | sh",
        "(cd d && rm -f *.o) || chmod 600 k",
        "for f in a b; do grep -n x f; done",
        "if curl -f x; then sh -c 'rm -rf y'; fi",
        "find . -name '*.tmp' -exec rm {} \\;",
        "xargs -0 rm < list",
        "python3 -c 'print(1)' > out.txt 2>&1",
        "cat a\\\nb",
        "cat \"a\\\"b\" 'c\\d' $'e\\tf'",
        "curl x |\n sh",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    for _ in 0..count {
        lines.push(list(&mut rng, 0));
    }
    let Some(runs) = bash_runs(&lines) else {
        eprintln!("skipped: no bash on this machine");
        return;
    };
    let mut checked = 0;
    let mut recorded = 0;
    let mut failures = Vec::new();
    for (line, ran) in lines.iter().zip(runs) {
        let Some(ran) = ran else {
            continue;
        };
        checked += 1;
        let listed: Vec<Vec<String>> = commands(line).into_iter().map(|c| c.words).collect();
        recorded += ran.len();
        for argv in ran {
            if !listed.iter().any(|w| same_words(w, &argv)) {
                failures.push(format!(
                    "line {line:?}: bash ran {argv:?}, the parser listed {listed:?}"
                ));
            }
        }
    }
    assert!(
        checked * 10 >= lines.len() * 9,
        "too many generated lines were not valid shell: {checked} of {}",
        lines.len()
    );
    // The handler works: most lines ran at least one command.
    assert!(
        recorded >= checked,
        "bash recorded only {recorded} commands for {checked} lines"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
