//! Opaque commands: what a command runs cannot be known without running
//! the shell (a program named by a variable or a substitution, inline code
//! of another language that reaches the shell or the file system, a file
//! downloaded and then run), and functions that call themselves.

use std::collections::{HashMap, HashSet};

use super::lines::{is_stdin_path, is_substitution, stdin_text};
use super::words::text_is_dynamic;
use super::{Command, basename};

/// Marks the commands of a line whose program or code cannot be known, and
/// the functions the line defines that call themselves in the background
/// or through a pipe (a fork bomb under any name).
pub(super) fn analyse(out: &mut [Command], functions: &[String]) {
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    for c in out.iter_mut() {
        let piped = !seen.insert((c.pipeline, c.depth)) || c.output_subst;
        if c.opaque.is_none() {
            c.opaque = reason(c, piped);
        }
    }
    downloads(out);
    if functions.is_empty() {
        return;
    }
    let defined: HashSet<&str> = functions.iter().map(String::as_str).collect();
    // How often each function is called in each pipeline, and whether it is
    // called in the background.
    let mut calls: HashMap<(usize, &str), usize> = HashMap::new();
    let mut bombs: HashSet<String> = HashSet::new();
    for c in out.iter() {
        if let Some(name) = c.name().filter(|n| defined.contains(n)) {
            let n = calls.entry((c.pipeline, name)).or_insert(0);
            *n += 1;
            if *n > 1 || c.background {
                bombs.insert(name.to_owned());
            }
        }
    }
    if bombs.is_empty() {
        return;
    }
    for c in out.iter_mut() {
        if c.name().is_some_and(|n| bombs.contains(n)) {
            c.fork_bomb = true;
        }
    }
}

/// Why a command is opaque, if it is.
fn reason(c: &Command, piped: bool) -> Option<String> {
    let unwrapped = c.unwrapped();
    let name_word = unwrapped.first()?;
    let dynamic = match c.words.len().checked_sub(unwrapped.len()) {
        Some(idx) if c.words.get(idx..) == Some(unwrapped.as_slice()) => {
            c.dynamic.get(idx).copied().unwrap_or(false)
        }
        _ => text_is_dynamic(name_word),
    };
    if dynamic {
        return Some(format!(
            "the program is named by an expansion or a substitution (`{}`)",
            shorten(name_word)
        ));
    }
    let name = basename(name_word);
    let args = unwrapped.get(1..).unwrap_or_default();
    if matches!(name, "source" | ".")
        && let Some(script) = args.first()
    {
        if is_substitution(script) {
            return Some(String::from(
                "a script whose text comes from a substitution is sourced",
            ));
        }
        if is_stdin_path(script) && piped {
            return Some(String::from("a script is sourced from a pipe"));
        }
    }
    let lang = language(name)?;
    match code_of(lang, args) {
        Code::Inline(code) => reaches(lang, &code).map(|what| {
            format!(
                "inline {} code reaches the shell or the file system (`{what}`)",
                lang.name()
            )
        }),
        Code::Stdin => match stdin_text(c) {
            Some(code) => reaches(lang, &code).map(|what| {
                format!(
                    "{} code read from a here-document reaches the shell or the file system (`{what}`)",
                    lang.name()
                )
            }),
            None if piped => Some(format!(
                "{} reads the code it runs from a pipe",
                lang.name()
            )),
            None => None,
        },
        Code::File => None,
    }
}

/// A word cut for a message.
fn shorten(word: &str) -> String {
    if word.chars().count() <= 60 {
        return word.to_owned();
    }
    let mut s: String = word.chars().take(57).collect();
    s.push('…');
    s
}

/// Languages whose interpreters run inline code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lang {
    Python,
    Perl,
    Ruby,
    Node,
    Php,
    Awk,
    Lua,
    R,
    PowerShell,
}

impl Lang {
    /// The language's name in messages.
    fn name(self) -> &'static str {
        match self {
            Self::Python => "Python",
            Self::Perl => "Perl",
            Self::Ruby => "Ruby",
            Self::Node => "JavaScript",
            Self::Php => "PHP",
            Self::Awk => "awk",
            Self::Lua => "Lua",
            Self::R => "R",
            Self::PowerShell => "PowerShell",
        }
    }

    /// Options that take inline code, and options that take another
    /// argument (skipped).
    fn options(self) -> (&'static [&'static str], &'static [&'static str]) {
        match self {
            Self::Python => (&["-c"], &["-W", "-X", "-m"]),
            Self::Perl => (&["-e", "-E"], &["-I", "-M", "-m", "-x", "-C"]),
            Self::Ruby => (&["-e"], &["-I", "-r", "-C", "-E", "-F"]),
            Self::Node => (
                &["-e", "--eval", "-p", "--print", "-pe"],
                &[
                    "-r",
                    "--require",
                    "--import",
                    "--loader",
                    "-C",
                    "--conditions",
                ],
            ),
            Self::Php => (&["-r", "-B", "-R", "-E"], &["-c", "-d", "-z", "-t"]),
            Self::Awk => (&[], &["-F", "-v", "--field-separator", "--assign"]),
            Self::Lua => (&["-e"], &["-l"]),
            Self::R => (&["-e"], &[]),
            Self::PowerShell => (
                &["-c", "-command", "-Command", "-EncodedCommand", "-e", "-ec"],
                &["-File", "-f", "-ExecutionPolicy", "-ep"],
            ),
        }
    }
}

/// The language of an interpreter, by its base name.
fn language(name: &str) -> Option<Lang> {
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    Some(match stem {
        "python" | "pypy" | "py" => Lang::Python,
        "perl" => Lang::Perl,
        "ruby" => Lang::Ruby,
        "node" | "nodejs" | "bun" | "deno" => Lang::Node,
        "php" => Lang::Php,
        "awk" | "gawk" | "mawk" | "nawk" => Lang::Awk,
        "lua" | "luajit" => Lang::Lua,
        "Rscript" => Lang::R,
        "pwsh" | "powershell" => Lang::PowerShell,
        _ => return None,
    })
}

/// Where an interpreter's code comes from.
enum Code {
    /// Given inline (all the pieces joined).
    Inline(String),
    /// Its standard input.
    Stdin,
    /// A file (or a module): not seen.
    File,
}

/// The code an interpreter runs, from its arguments.
fn code_of(lang: Lang, args: &[String]) -> Code {
    let (code_opts, arg_opts) = lang.options();
    let mut code = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if a == "--" {
            break;
        }
        if a == "-" {
            return Code::Stdin;
        }
        if !a.starts_with('-') || a.len() < 2 {
            if lang == Lang::Awk && code.is_empty() {
                return Code::Inline(a.clone());
            }
            if lang == Lang::Node && a == "eval" && i == 1 {
                // `deno eval CODE`.
                continue;
            }
            return if code.is_empty() {
                Code::File
            } else {
                Code::Inline(code.join("\n"))
            };
        }
        if lang == Lang::Awk && (a == "-f" || a.starts_with("--file")) {
            return Code::File;
        }
        if let Some((opt, value)) = a.split_once('=')
            && code_opts.contains(&opt)
        {
            code.push(value.to_owned());
            continue;
        }
        if code_opts.contains(&a.as_str()) {
            if let Some(v) = args.get(i) {
                code.push(v.clone());
                i += 1;
            }
            continue;
        }
        if arg_opts.contains(&a.as_str()) {
            i += 1;
            continue;
        }
        // Clustered short options ending in a code option: `perl -ne`,
        // `python3 -Ic`, `-cprint(1)`.
        if !a.starts_with("--") {
            let flags = a.get(1..).unwrap_or_default();
            let letters: Vec<char> = code_opts
                .iter()
                .filter_map(|o| o.strip_prefix('-'))
                .filter(|o| o.len() == 1)
                .filter_map(|o| o.chars().next())
                .collect();
            if let Some(k) = flags.find(|c| letters.contains(&c)) {
                let rest = flags.get(k + 1..).unwrap_or_default();
                if rest.is_empty() {
                    if let Some(v) = args.get(i) {
                        code.push(v.clone());
                        i += 1;
                    }
                } else {
                    code.push(rest.to_owned());
                }
                continue;
            }
            // `perl -MFile::Path`, `ruby -rfileutils`: loading a module is
            // reaching out.
            if matches!(lang, Lang::Perl | Lang::Ruby | Lang::Node)
                && (flags.starts_with('M') || flags.starts_with('r') || flags.starts_with('m'))
                && flags.len() > 1
            {
                code.push(format!("use {}", flags.get(1..).unwrap_or_default()));
            }
        }
    }
    if code.is_empty() {
        Code::Stdin
    } else {
        Code::Inline(code.join("\n"))
    }
}

/// Python modules whose import reaches neither the shell nor the file
/// system.
const PYTHON_SAFE_MODULES: &[&str] = &[
    "json",
    "math",
    "cmath",
    "re",
    "datetime",
    "time",
    "random",
    "string",
    "textwrap",
    "base64",
    "hashlib",
    "hmac",
    "uuid",
    "decimal",
    "fractions",
    "statistics",
    "itertools",
    "collections",
    "functools",
    "operator",
    "sys",
    "platform",
    "calendar",
    "pprint",
    "enum",
    "dataclasses",
    "typing",
    "binascii",
    "struct",
    "zlib",
    "unicodedata",
    "html",
    "difflib",
    "secrets",
    "heapq",
    "bisect",
    "copy",
    "numbers",
    "colorsys",
    "locale",
    "keyword",
    "ast",
    "this",
];

/// Names that reach the shell, the file system, the network or a way
/// around these lists, per language (matched as whole identifiers,
/// anywhere in the code, strings included).
fn denied(lang: Lang) -> &'static [&'static str] {
    match lang {
        Lang::Python => &[
            "open",
            "exec",
            "eval",
            "compile",
            "getattr",
            "setattr",
            "delattr",
            "globals",
            "locals",
            "vars",
            "breakpoint",
            "modules",
            "system",
            "popen",
            "spawn",
            "input",
            "memoryview",
            "loader",
            "builtins",
        ],
        Lang::Perl => &[
            "system", "exec", "qx", "fork", "open", "sysopen", "unlink", "rmdir", "mkdir",
            "rename", "chmod", "chown", "utime", "truncate", "link", "symlink", "kill", "eval",
            "do", "require", "use", "no", "glob", "opendir", "readpipe", "syscall", "pipe",
            "socket", "chdir", "chroot", "dump", "ENV", "CORE", "local", "sub",
        ],
        Lang::Ruby => &[
            "system",
            "exec",
            "spawn",
            "fork",
            "open",
            "File",
            "Dir",
            "FileUtils",
            "IO",
            "Kernel",
            "Process",
            "eval",
            "instance_eval",
            "class_eval",
            "module_eval",
            "send",
            "public_send",
            "require",
            "require_relative",
            "load",
            "const_get",
            "ObjectSpace",
            "Open3",
            "PTY",
            "Pathname",
            "syscall",
            "method",
            "define_method",
            "binding",
            "Object",
            "ENV",
            "STDIN",
            "gets",
            "readlines",
            "x",
        ],
        Lang::Node => &[
            "require",
            "import",
            "process",
            "child_process",
            "fs",
            "eval",
            "Function",
            "constructor",
            "globalThis",
            "global",
            "module",
            "exports",
            "Deno",
            "Bun",
            "spawn",
            "exec",
            "execSync",
            "prototype",
            "Reflect",
            "this",
            "fetch",
            "WebAssembly",
        ],
        Lang::Php => &[
            "system",
            "exec",
            "shell_exec",
            "passthru",
            "proc_open",
            "popen",
            "pcntl_exec",
            "eval",
            "assert",
            "file_put_contents",
            "file_get_contents",
            "fopen",
            "file",
            "unlink",
            "rmdir",
            "mkdir",
            "rename",
            "copy",
            "include",
            "include_once",
            "require",
            "require_once",
            "create_function",
            "call_user_func",
            "call_user_func_array",
            "preg_replace",
            "readfile",
            "symlink",
            "chmod",
            "chown",
            "mail",
            "putenv",
            "ReflectionFunction",
            "array_map",
            "usort",
            "glob",
            "scandir",
        ],
        Lang::Awk => &["system", "getline", "close", "fflush"],
        Lang::Lua => &[
            "os",
            "io",
            "require",
            "load",
            "loadstring",
            "loadfile",
            "dofile",
            "debug",
            "package",
            "_G",
            "_ENV",
            "rawget",
            "getfenv",
            "setfenv",
        ],
        Lang::R => &[
            "system",
            "system2",
            "shell",
            "file",
            "unlink",
            "file.remove",
            "writeLines",
            "readLines",
            "source",
            "eval",
            "parse",
            "library",
            "require",
            "do.call",
            "get",
            "download.file",
            "sink",
            "Sys.setenv",
            "pipe",
            "readRDS",
            "saveRDS",
            "write",
        ],
        Lang::PowerShell => &[],
    }
}

/// What in `code` reaches the shell or the file system, if anything.
fn reaches(lang: Lang, code: &str) -> Option<String> {
    if lang == Lang::PowerShell {
        return Some(String::from("PowerShell code is not read"));
    }
    if code.contains("__") {
        return Some(String::from("__"));
    }
    match lang {
        Lang::Perl | Lang::Ruby | Lang::Php if code.contains('`') => {
            return Some(String::from("`"));
        }
        Lang::Perl if code.contains("::") || code.contains("&{") || code.contains("*{") => {
            return Some(String::from("::"));
        }
        Lang::Perl if perl_eval_modifier(code) => {
            return Some(String::from("s///e"));
        }
        Lang::Ruby if code.contains("%x") => return Some(String::from("%x")),
        Lang::Node
            if code.contains("[\"")
                || code.contains("['")
                || code.contains("[`")
                || code.contains("][")
                || code.contains(")(") =>
        {
            return Some(String::from("computed member access"));
        }
        Lang::Php if php_dynamic_call(code) => {
            return Some(String::from("a call through a variable"));
        }
        Lang::Awk if code.contains('|') => return Some(String::from("|")),
        _ => {}
    }
    let words = identifiers(code);
    let deny = denied(lang);
    let process_read = lang == Lang::Node && node_process_reads_only(code);
    for (k, w) in words.iter().enumerate() {
        if deny.contains(w) && !(process_read && *w == "process") {
            return Some((*w).to_owned());
        }
        if lang == Lang::Python
            && matches!(*w, "import" | "from")
            && let Some(module) = words.get(k + 1)
            && !PYTHON_SAFE_MODULES.contains(module)
        {
            return Some(format!("{w} {module}"));
        }
    }
    if lang == Lang::Python {
        // `import json, os`: every name after `import` on its line.
        for line in code.split(['\n', ';']) {
            let line = line.trim();
            if let Some(rest) = line.strip_prefix("import ") {
                for m in rest.split(',') {
                    let m = m.split_whitespace().next().unwrap_or_default();
                    let top = m.split('.').next().unwrap_or_default();
                    if !PYTHON_SAFE_MODULES.contains(&top) {
                        return Some(format!("import {m}"));
                    }
                }
            }
            if let Some(rest) = line.strip_prefix("from ") {
                let m = rest.split_whitespace().next().unwrap_or_default();
                let top = m.split('.').next().unwrap_or_default();
                if !PYTHON_SAFE_MODULES.contains(&top) {
                    return Some(format!("from {m}"));
                }
            }
        }
    }
    None
}

/// Members of Node's `process` that only tell about the process or print.
const NODE_PROCESS_READS: &[&str] = &[
    "version",
    "versions",
    "platform",
    "arch",
    "argv",
    "pid",
    "ppid",
    "uptime",
    "hrtime",
    "memoryUsage",
    "cpuUsage",
    "release",
    "stdout",
    "stderr",
    "cwd",
    "title",
    "features",
    "config",
];

/// Whether every `process` in Node code is followed by a member of
/// [`NODE_PROCESS_READS`] (`process.version`, `process.stdout.write`), not
/// one that reaches the system (`process.binding`, `process.mainModule`,
/// `process.env`, `process["…"]`).
fn node_process_reads_only(code: &str) -> bool {
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let mut any = false;
    for (at, _) in code.match_indices("process") {
        let before = at.checked_sub(1).and_then(|i| b.get(i)).copied();
        let after = b.get(at + "process".len()).copied();
        if before.is_some_and(ident) || after.is_some_and(ident) {
            // Part of another name (`subprocess`, `processed`).
            continue;
        }
        if before == Some(b'.') {
            // A member of something else, which is judged on its own.
            continue;
        }
        any = true;
        let rest = code.get(at + "process".len()..).unwrap_or_default();
        let Some(member) = rest.strip_prefix('.') else {
            return false;
        };
        let name: String = member
            .bytes()
            .take_while(|&c| ident(c))
            .map(char::from)
            .collect();
        if !NODE_PROCESS_READS.contains(&name.as_str()) {
            return false;
        }
    }
    any
}

/// The identifiers of `code` (ASCII letters, digits, `_`; R's and
/// dotted names are split at dots as well as kept whole).
fn identifiers(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes.get(i).copied().unwrap_or(0);
        if b.is_ascii_alphabetic() || b == b'_' {
            let start = i;
            while bytes
                .get(i)
                .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
            {
                i += 1;
            }
            let whole = code.get(start..i).unwrap_or_default().trim_end_matches('.');
            out.push(whole);
            if whole.contains('.') {
                out.extend(whole.split('.').filter(|p| !p.is_empty()));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Whether Perl code uses a substitution with the `e` modifier, which
/// runs its replacement as code.
fn perl_eval_modifier(code: &str) -> bool {
    let b = code.as_bytes();
    b.iter().enumerate().any(|(k, &c)| {
        (c == b'/' || c == b'}' || c == b'|' || c == b'#' || c == b'!')
            && b.get(k + 1..)
                .unwrap_or_default()
                .iter()
                .take_while(|x| x.is_ascii_lowercase())
                .any(|&x| x == b'e')
            && b.get(k + 1).is_some_and(u8::is_ascii_lowercase)
            && s_before(b, k)
    })
}

/// Whether an `s` operator can be seen before position `k`.
#[expect(clippy::indexing_slicing, reason = "windows of two hold two bytes")]
fn s_before(b: &[u8], k: usize) -> bool {
    b.get(..k).is_some_and(|p| {
        p.windows(2)
            .any(|w| w[0] == b's' && !w[1].is_ascii_alphanumeric())
    })
}

/// Whether PHP code calls through a variable (`$f(`, `$x->$m(`) or a
/// string (`"sys"."tem"(`).
fn php_dynamic_call(code: &str) -> bool {
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b.get(i) == Some(&b'$') {
            let mut j = i + 1;
            while b
                .get(j)
                .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
            {
                j += 1;
            }
            while b.get(j).is_some_and(|c| c.is_ascii_whitespace()) {
                j += 1;
            }
            if b.get(j) == Some(&b'(') {
                return true;
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    code.contains("\")") && code.contains(")(") || code.contains("')(") || code.contains("\"(")
}

/// Download programs and the files they write.
fn downloaded(c: &Command) -> Vec<String> {
    let words = c.unwrapped();
    let Some(name) = words.first().map(|w| basename(w)) else {
        return Vec::new();
    };
    let args = words.get(1..).unwrap_or_default();
    let mut files = Vec::new();
    let mut urls = Vec::new();
    let mut remote_name = name == "wget";
    let mut i = 0;
    match name {
        "curl" | "wget" | "aria2c" | "fetch" | "http" | "xh" => {}
        _ => return files,
    }
    while let Some(a) = args.get(i) {
        i += 1;
        let takes = |short: &str, long: &str| a == short || a == long;
        if takes("-o", "--output") || takes("-O", "--output-document") && name == "wget" {
            if let Some(f) = args.get(i) {
                files.push(f.clone());
                i += 1;
            }
            remote_name = false;
            continue;
        }
        if let Some(f) = a
            .strip_prefix("--output=")
            .or_else(|| a.strip_prefix("--output-document="))
        {
            files.push(f.to_owned());
            remote_name = false;
            continue;
        }
        if name == "curl" && (a == "-O" || a == "--remote-name" || a == "--remote-name-all") {
            remote_name = true;
            continue;
        }
        if name == "curl" && a.starts_with('-') && !a.starts_with("--") && a.contains('O') {
            remote_name = true;
        }
        if a.contains("://") {
            urls.push(a.clone());
        }
    }
    for r in &c.redirects {
        if r.op.ends_with('>') || r.op.ends_with(">>") || r.op.ends_with(">|") {
            files.push(r.target.clone());
        }
    }
    if remote_name {
        for u in &urls {
            let path = u.split(['?', '#']).next().unwrap_or_default();
            if let Some(last) = path.rsplit('/').next().filter(|l| !l.is_empty()) {
                files.push(last.to_owned());
            }
        }
    }
    files
}

/// Marks commands that run a file downloaded earlier in the same line.
fn downloads(out: &mut [Command]) {
    let mut got: Vec<String> = Vec::new();
    for k in 0..out.len() {
        let Some(c) = out.get(k) else {
            continue;
        };
        let words = c.unwrapped();
        let mut runs: Vec<&str> = Vec::new();
        if let Some(first) = words.first() {
            runs.push(first);
            let name = basename(first);
            if (SCRIPT_RUNNERS.contains(&name) || language(name).is_some())
                && let Some(script) = words
                    .get(1..)
                    .unwrap_or_default()
                    .iter()
                    .find(|w| !w.starts_with('-'))
            {
                runs.push(script);
            }
        }
        let hit = runs
            .iter()
            .any(|r| got.iter().any(|g| basename(g) == basename(r)));
        let mine = downloaded(c);
        if let Some(c) = out.get_mut(k)
            && hit
            && c.opaque.is_none()
        {
            c.opaque = Some(String::from("runs a file downloaded earlier in the line"));
        }
        got.extend(mine);
    }
}

/// Programs that run their first operand as a script.
const SCRIPT_RUNNERS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "rbash", "source", ".",
];
