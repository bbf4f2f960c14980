//! Strings that commands run as shell lines (`-c`, `eval`, `watch`, `trap`,
//! `su -c`, `find -exec`, here-documents fed to a shell), read again.

use super::configured;
use super::parse::parse_only;
use super::wrappers::{Seq, Step, unwrap_step};
use super::{Command, Ctx, MAX_DEPTH, PLACEHOLDER, SHELLS, basename};

/// Reads `text` as a shell line, then reads the strings its commands run.
pub(super) fn parse_text(text: &[u8], depth: usize, ctx: &mut Ctx) {
    let start = ctx.out.len();
    parse_only(text, depth, ctx);
    settle(start, ctx);
}

/// Gives the commands listed from `start` on their here-document bodies,
/// then reads the strings they run.
pub(super) fn settle(start: usize, ctx: &mut Ctx) {
    let end = ctx.out.len();
    let Ctx { out, bodies, .. } = ctx;
    for command in out.get_mut(start..end).unwrap_or_default() {
        for r in &mut command.redirects {
            if let Some(slot) = r.slot.take()
                && let Some((body, script)) = bodies.get_mut(slot).and_then(Option::take)
            {
                r.body = Some(body);
                r.body_script = Some(script);
            }
        }
    }
    for i in start..end {
        expand(i, ctx);
    }
}

/// Reads the strings that command `i` runs as shell lines (`-c`, `eval`,
/// here-documents fed to a shell, `find -exec`, …), and marks it opaque
/// when what it runs cannot be read.
pub(super) fn expand(i: usize, ctx: &mut Ctx) {
    let Some(command) = ctx.out.get_mut(i) else {
        return;
    };
    if command.expanded {
        return;
    }
    command.expanded = true;
    let depth = command.depth;
    if depth >= MAX_DEPTH {
        return;
    }
    let stdin = stdin_text(command);
    let from_file = command
        .redirects
        .iter()
        .any(|r| r.op == "<" || r.op == "0<" || r.op == "<>");
    // Substitutions in the words were read where they stand: reading them
    // again would only repeat them (and, nested, double the work per level).
    let words = command.script_words();
    let mut seq = Seq::new(&words);
    loop {
        let Some(first) = seq.get(0) else {
            return;
        };
        let name = basename(first);
        if !ACTIONS.contains(&name) && !SHELLS.contains(&name) {
            match unwrap_step(&seq) {
                Some(step) => {
                    seq.apply(step);
                    continue;
                }
                None => return,
            }
        }
        let stage = seq.to_vec();
        let args = stage.get(1..).unwrap_or_default();
        let text = match name {
            "eval" => Some(join_args(args)),
            "watch" => watch_line(args),
            "trap" => trap_action(args).map(str::to_owned),
            "su" | "runuser" => su_command(args).map(str::to_owned),
            "sg" => sg_command(args),
            "flock" | "script" => dash_c(args).map(str::to_owned),
            "ssh" => match ssh_command(args) {
                Some(line) => Some(line),
                None => {
                    piped_input(i, ctx, stdin.as_deref(), "a remote shell reads commands");
                    return;
                }
            },
            "parallel" => match parallel_command(args) {
                Some(line) => Some(line),
                None => {
                    set_opaque(
                        i,
                        ctx,
                        "`parallel` reads the commands it runs from its input",
                    );
                    return;
                }
            },
            "alias" => {
                for a in args {
                    if let Some((_, value)) = a.split_once('=') {
                        parse_text(value.as_bytes(), depth + 1, ctx);
                    }
                }
                return;
            }
            "find" => {
                find_exec(args, depth, ctx);
                return;
            }
            "git" => {
                let (lines, unknown) = configured::git_lines(args);
                if let Some(why) = unknown {
                    set_opaque(i, ctx, &why);
                }
                for line in lines {
                    parse_text(line.as_bytes(), depth + 1, ctx);
                }
                return;
            }
            _ => match shell_input(args) {
                Input::Line { line, params } => Some(positional(line, params)),
                Input::Stdin if !from_file => {
                    piped_input(i, ctx, stdin.as_deref(), "a shell reads commands");
                    return;
                }
                Input::Script(script) if is_substitution(script) => {
                    set_opaque(
                        i,
                        ctx,
                        "a shell runs a script whose text comes from a substitution",
                    );
                    return;
                }
                Input::Script(script) if is_stdin_path(script) && !from_file => {
                    piped_input(i, ctx, stdin.as_deref(), "a shell reads commands");
                    return;
                }
                _ => None,
            },
        };
        if let Some(text) = text {
            parse_text(text.as_bytes(), depth + 1, ctx);
            return;
        }
        match unwrap_step(&seq) {
            Some(step) => seq.apply(step),
            None => return,
        }
    }
}

/// Commands (besides [`SHELLS`]) that run a string as a shell line or
/// another command: see [`expand`].
pub(super) const ACTIONS: &[&str] = &[
    "eval", "watch", "trap", "su", "runuser", "find", "sg", "flock", "script", "ssh", "parallel",
    "alias", "git",
];

/// What a command reads on its standard input from its own redirections:
/// the last here-document or here-string.
pub(super) fn stdin_text(command: &Command) -> Option<String> {
    command
        .redirects
        .iter()
        .rev()
        .find(|r| r.is_heredoc() || r.op.ends_with("<<<"))
        .map(|r| {
            if r.op.ends_with("<<<") {
                r.script.clone().unwrap_or_else(|| r.target.clone())
            } else {
                r.body_script.clone().unwrap_or_default()
            }
        })
}

/// Reads what a shell (or `ssh`) at command `i` takes on its standard
/// input: its here-document, or the text of a literal `echo`, `printf` or
/// `cat <<EOF` piped into it. Anything else cannot be known: the command is
/// opaque.
fn piped_input(i: usize, ctx: &mut Ctx, stdin: Option<&str>, what: &str) {
    let depth = ctx.out.get(i).map_or(0, |c| c.depth);
    if let Some(text) = stdin {
        parse_text(text.as_bytes(), depth + 1, ctx);
        return;
    }
    match feeder(i, ctx) {
        Feed::Text(text) => parse_text(text.as_bytes(), depth + 1, ctx),
        Feed::Unknown(from) => set_opaque(i, ctx, &format!("{what} from `{from}` through a pipe")),
        Feed::Terminal => set_opaque(i, ctx, &format!("{what} from its standard input")),
    }
}

/// What feeds a command's standard input through a pipe.
enum Feed {
    /// Known text.
    Text(String),
    /// The output of this program.
    Unknown(String),
    /// Nothing in the line: whatever the caller's input is.
    Terminal,
}

/// The command before `i` in its pipeline, and the text it writes when
/// that is known without running anything.
fn feeder(i: usize, ctx: &Ctx) -> Feed {
    let Some(me) = ctx.out.get(i) else {
        return Feed::Terminal;
    };
    let Some(prev) = ctx
        .out
        .get(..i)
        .unwrap_or_default()
        .iter()
        .rev()
        .find(|c| c.pipeline == me.pipeline && c.depth == me.depth)
    else {
        // Inside `>( … )` the input is the outer command's output.
        return if me.output_subst {
            Feed::Unknown(String::from(">( … )"))
        } else {
            Feed::Terminal
        };
    };
    let unwrapped = prev.unwrapped();
    let name = unwrapped.first().map_or("", |w| basename(w));
    let args = unwrapped.get(1..).unwrap_or_default();
    let literal = !prev.dynamic.contains(&true) && args.iter().all(|a| !a.contains(['$', '`']));
    match name {
        "echo" if literal => {
            let args: Vec<&str> = args
                .iter()
                .map(String::as_str)
                .skip_while(|a| matches!(*a, "-n" | "-e" | "-E" | "-ne" | "-en"))
                .collect();
            Feed::Text(args.join(" ").replace("\\n", "\n"))
        }
        "printf" if literal && args.iter().all(|a| !a.contains('%')) => {
            let args: Vec<&str> = args
                .iter()
                .map(String::as_str)
                .filter(|a| *a != "--")
                .collect();
            Feed::Text(args.join("").replace("\\n", "\n"))
        }
        "cat" if args.is_empty() => match stdin_text(prev) {
            Some(text) => Feed::Text(text),
            None => Feed::Unknown(String::from("cat")),
        },
        _ => Feed::Unknown(name.to_owned()),
    }
}

/// Marks command `i` opaque, keeping the first reason given.
pub(super) fn set_opaque(i: usize, ctx: &mut Ctx, why: &str) {
    if let Some(c) = ctx.out.get_mut(i)
        && c.opaque.is_none()
    {
        c.opaque = Some(why.to_owned());
    }
}

/// Whether a word is (or holds) a command or process substitution: its
/// content is the output of something run.
pub(super) fn is_substitution(word: &str) -> bool {
    word.contains("<(") || word.contains("$(") || word.contains('`') || word.contains(PLACEHOLDER)
}

/// Whether a script path is the standard input.
pub(super) fn is_stdin_path(path: &str) -> bool {
    matches!(
        path,
        "-" | "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0" | "/proc/thread-self/fd/0"
    )
}

/// `-c line` (or `--command line`, `--command=line`) among the arguments.
fn dash_c(args: &[String]) -> Option<&str> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--" {
            return None;
        }
        if let Some(v) = a.strip_prefix("--command=") {
            return Some(v);
        }
        if a == "--command" {
            return it.next().map(String::as_str);
        }
        // `-c`, clustered as in `-qc` or with the line attached.
        if let Some(short) = a.strip_prefix('-')
            && !short.starts_with('-')
            && let Some(k) = short.find('c')
        {
            let rest = short.get(k + 1..).unwrap_or_default();
            return if rest.is_empty() {
                it.next().map(String::as_str)
            } else {
                Some(rest)
            };
        }
    }
    None
}

/// The line `sg group [-c] command` runs.
fn sg_command(args: &[String]) -> Option<String> {
    let rest = args.get(1..)?;
    let rest = match rest.first() {
        Some(c) if c == "-c" => rest.get(1..).unwrap_or_default(),
        _ => rest,
    };
    (!rest.is_empty()).then(|| rest.join(" "))
}

/// The remote command of `ssh [options] destination command…`, joined as
/// the remote shell reads it; `None` when there is none (the remote shell
/// reads its input).
fn ssh_command(args: &[String]) -> Option<String> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a == "--" {
            i += 1;
            break;
        }
        let Some(opts) = a.strip_prefix('-').filter(|o| !o.is_empty()) else {
            break;
        };
        i += 1;
        for (k, c) in opts.char_indices() {
            if "BbcDEeFIiJLlmOoPpQRSWw".contains(c) {
                if opts.len() == k + c.len_utf8() {
                    i += 1;
                }
                break;
            }
        }
    }
    let rest = args.get(i + 1..).unwrap_or_default();
    (!rest.is_empty()).then(|| rest.join(" "))
}

/// The command template of GNU `parallel [options] command ::: args`;
/// `None` when the commands come from its input.
fn parallel_command(args: &[String]) -> Option<String> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a == "--" {
            i += 1;
            break;
        }
        if !a.starts_with('-') {
            break;
        }
        i += 1;
        if matches!(
            a.as_str(),
            "-j" | "-S" | "-a" | "-d" | "-E" | "-I" | "-n" | "-N" | "-P" | "--jobs" | "--sshlogin"
        ) {
            i += 1;
        }
    }
    let rest = args.get(i..).unwrap_or_default();
    let words: Vec<&str> = rest
        .iter()
        .map(String::as_str)
        .take_while(|w| !w.starts_with(":::"))
        .collect();
    if words.is_empty() {
        return None;
    }
    let template = words.join(" ");
    // Each command gets an argument: in place of `{}`, else at the end.
    let arg = rest.get(words.len() + 1).map_or("", String::as_str);
    Some(if template.contains("{}") {
        template.replace("{}", arg)
    } else {
        format!("{template} {arg}")
    })
}

/// `sh -c 'line' name args…`: the positional parameters of the line
/// (`$0`, `$1`, `${1}`, `$@`, `$*`) replaced by the words given for them,
/// as the shell reading the line sees them.
fn positional(line: &str, params: &[String]) -> String {
    if params.is_empty() || !line.contains('$') {
        return line.to_owned();
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(k) = rest.find('$') {
        out.push_str(rest.get(..k).unwrap_or_default());
        let after = rest.get(k + 1..).unwrap_or_default();
        let (key, len) = if let Some(inner) = after.strip_prefix('{') {
            match inner.find('}') {
                Some(e) => (inner.get(..e).unwrap_or_default(), e + 2),
                None => ("", 0),
            }
        } else {
            match after.chars().next() {
                Some('0'..='9' | '@' | '*') => (after.get(..1).unwrap_or_default(), 1),
                _ => ("", 0),
            }
        };
        let value = match key {
            "@" | "*" => Some(params.get(1..).unwrap_or_default().join(" ")),
            // A parameter not given stays as written: `xargs` may add it.
            k if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) => {
                k.parse::<usize>().ok().and_then(|n| params.get(n)).cloned()
            }
            _ => None,
        };
        match value {
            Some(v) => {
                out.push_str(&v);
                rest = after.get(len..).unwrap_or_default();
            }
            None => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `eval`'s arguments joined, as `eval` does.
pub(super) fn join_args(args: &[String]) -> String {
    let args = match args.first() {
        Some(w) if w == "--" => args.get(1..).unwrap_or_default(),
        _ => args,
    };
    args.join(" ")
}

/// The line `watch` runs (its arguments after the options, joined), unless
/// `-x` asks it to run them as a command directly.
pub(super) fn watch_line(args: &[String]) -> Option<String> {
    let mut all = vec![String::from("watch")];
    all.extend_from_slice(args);
    let Some(Step::Skip(n)) = unwrap_step(&Seq::new(&all)) else {
        return None;
    };
    let options = all.get(1..n).unwrap_or_default();
    let exec = options
        .iter()
        .any(|a| a == "--exec" || (a.starts_with('-') && !a.starts_with("--") && a.contains('x')));
    (!exec).then(|| all.get(n..).unwrap_or_default().join(" "))
}

/// The action of `trap ACTION SIGNAL…`, when it is a command line.
pub(super) fn trap_action(args: &[String]) -> Option<&str> {
    let mut args = args.iter().map(String::as_str);
    let first = args.next()?;
    let action = if first == "--" { args.next()? } else { first };
    (!action.is_empty() && action != "-" && !action.starts_with('-') && args.next().is_some())
        .then_some(action)
}

/// The `-c` argument of `su` or `runuser`.
pub(super) fn su_command(args: &[String]) -> Option<&str> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--" {
            return None;
        }
        if let Some(v) = a
            .strip_prefix("--command=")
            .or_else(|| a.strip_prefix("--session-command="))
        {
            return Some(v);
        }
        if a == "--command" || a == "--session-command" {
            return it.next().map(String::as_str);
        }
        if let Some(short) = a.strip_prefix('-')
            && !short.starts_with('-')
            && let Some(k) = short.find('c')
        {
            let rest = short.get(k + 1..).unwrap_or_default();
            return if rest.is_empty() {
                it.next().map(String::as_str)
            } else {
                Some(rest)
            };
        }
    }
    None
}

/// What a shell invocation runs.
pub(super) enum Input<'a> {
    /// `-c line`, with the words after it (`$0`, `$1`, …).
    Line {
        /// The line.
        line: &'a str,
        /// Its positional parameters, from `$0`.
        params: &'a [String],
    },
    /// Its standard input (no `-c`, no script, or `-s`).
    Stdin,
    /// A script file.
    Script(&'a str),
    /// A `-c` without its argument.
    Nothing,
}

/// What a shell invocation runs, from its arguments.
pub(super) fn shell_input(args: &[String]) -> Input<'_> {
    let mut has_c = false;
    let mut stdin = false;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a == "-" && !has_c {
            return Input::Stdin;
        }
        if a == "--" || a == "-" {
            i += 1;
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            if let Some(cmd) = long.strip_prefix("command=") {
                return Input::Line {
                    line: cmd,
                    params: args.get(i + 1..).unwrap_or_default(),
                };
            }
            match long {
                "command" => has_c = true,
                "rcfile" | "init-file" => i += 1,
                _ => {}
            }
            i += 1;
            continue;
        }
        let Some(flags) = a.strip_prefix('-').or_else(|| a.strip_prefix('+')) else {
            break;
        };
        if flags == "o" || flags == "O" {
            i += 2;
            continue;
        }
        if a.starts_with('-') {
            has_c |= flags.contains('c');
            stdin |= flags.contains('s');
        }
        i += 1;
    }
    match args.get(i) {
        Some(line) if has_c => Input::Line {
            line: line.as_str(),
            params: args.get(i + 1..).unwrap_or_default(),
        },
        _ if has_c => Input::Nothing,
        Some(script) if !stdin => Input::Script(script.as_str()),
        _ => Input::Stdin,
    }
}

/// Lists the body of each `-exec`, `-execdir`, `-ok` and `-okdir` of a
/// `find` as a command of its own, and reads what those run. Each such
/// command (and what it runs in turn) knows the files `{}` stands for.
pub(super) fn find_exec(args: &[String], depth: usize, ctx: &mut Ctx) {
    let found = find_items(args);
    let mut k = 0;
    while let Some(a) = args.get(k) {
        k += 1;
        if !matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            continue;
        }
        let start = k;
        while let Some(w) = args.get(k) {
            let plus = w == "+" && k > start && args.get(k - 1).is_some_and(|p| p == "{}");
            if w == ";" || plus {
                break;
            }
            k += 1;
        }
        let body = args.get(start..k).unwrap_or_default();
        k += 1;
        if body.is_empty() {
            continue;
        }
        let pipeline = ctx.pipeline();
        let first = ctx.out.len();
        ctx.out
            .push(Command::plain(body.to_vec(), pipeline, depth + 1));
        expand(first, ctx);
        for c in ctx.out.get_mut(first..).unwrap_or_default() {
            if c.found.is_empty() {
                c.found.clone_from(&found);
            }
        }
    }
}

/// Gives each command that `xargs` runs the names `xargs` reads, when the
/// line tells them, as operands `xargs` appends: the files a `find` finds
/// through a pipe (`find ~/.ssh -type f | xargs cat`), the words an `echo`
/// or `printf` of written words prints through a pipe (`echo .env | xargs
/// cat`), or those of a here-string or here-document of written text
/// (`xargs cat <<< .env`).
pub(super) fn xargs_fed(out: &mut [Command]) {
    for i in 0..out.len() {
        let Some(me) = out.get(i) else { continue };
        let by_xargs = me.found.is_empty()
            && me.words.iter().any(|w| basename(w) == "xargs")
            && me.unwrapped().len() < me.words.len();
        if !by_xargs {
            continue;
        }
        let here = me
            .redirects
            .iter()
            .rev()
            .find(|r| r.op.ends_with("<<<") || r.is_heredoc())
            .and_then(|r| {
                let text = if r.op.ends_with("<<<") {
                    Some(r.target.as_str())
                } else {
                    r.body.as_deref()
                }?;
                (!text.contains(['$', '`'])).then(|| split_names(text))
            });
        let (pipeline, depth) = (me.pipeline, me.depth);
        let feeder = out
            .get(..i)
            .unwrap_or_default()
            .iter()
            .rev()
            .find(|c| c.pipeline == pipeline && c.depth == depth);
        let found = match (here, feeder) {
            (Some(names), _) => names,
            (None, Some(feeder)) => {
                let words = feeder.unwrapped();
                match words.first().map(|w| basename(w)) {
                    Some("find") => find_items(words.get(1..).unwrap_or_default()),
                    Some("echo" | "printf") if feeder.redirects.is_empty() => {
                        match printed_names(&words) {
                            Some(names) => names,
                            None => continue,
                        }
                    }
                    _ => continue,
                }
            }
            (None, None) => continue,
        };
        if found.is_empty() {
            continue;
        }
        if let Some(me) = out.get_mut(i) {
            me.found = found;
            me.found_appended = true;
        }
    }
}

/// The names `xargs` reads from `text`: its words, split at blanks, line
/// feeds and NULs; each also without the quotes and backslashes `xargs`
/// removes (`'.env'` names `.env`), since with `-0` or `-d` it keeps them.
fn split_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text
        .split(|c: char| c.is_whitespace() || c == '\0')
        .filter(|w| !w.is_empty())
    {
        let unquoted: String = word
            .chars()
            .filter(|c| !matches!(c, '\'' | '"' | '\\'))
            .collect();
        out.push(word.to_owned());
        if unquoted != word && !unquoted.is_empty() {
            out.push(unquoted);
        }
    }
    out
}

/// The names an `echo` or `printf` of written words (`words`, its own
/// name first) prints for `xargs`: `echo`'s arguments after its options;
/// `printf`'s arguments when its format only places them (`%s`, blanks,
/// `\n`, `\0`), or its format's words when it has no arguments and no
/// `%`. `None` when what it prints cannot be told from the words.
fn printed_names(words: &[String]) -> Option<Vec<String>> {
    if words.iter().any(|w| w.contains(['$', '`'])) {
        return None;
    }
    let (name, args) = words.split_first()?;
    let text = match basename(name) {
        "echo" => args
            .iter()
            .map(String::as_str)
            .skip_while(|a| matches!(*a, "-n" | "-e" | "-E" | "-ne" | "-en"))
            .collect::<Vec<_>>()
            .join(" "),
        "printf" => match args.split_first() {
            Some((format, rest)) if rest.is_empty() && !format.contains('%') => {
                format.replace("\\n", "\n").replace("\\0", "\n")
            }
            Some((format, rest))
                if !rest.is_empty()
                    && format
                        .replace("%s", "")
                        .replace("\\n", "")
                        .replace("\\0", "")
                        .chars()
                        .all(char::is_whitespace) =>
            {
                rest.join(" ")
            }
            _ => return None,
        },
        _ => return None,
    };
    Some(split_names(&text))
}

/// What a `find`'s `{}` stands for: each starting point (`.` when none is
/// given), under it each file the `-name`, `-iname`, `-path` or `-wholename`
/// tests pick at any depth, or, without a name test, the starting point
/// itself (a directory read as a whole).
fn find_items(args: &[String]) -> Vec<String> {
    let mut starts: Vec<&str> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    let mut in_expr = false;
    let mut k = 0;
    while let Some(a) = args.get(k) {
        k += 1;
        if !in_expr && matches!(a.as_str(), "-H" | "-L" | "-P") {
            continue;
        }
        if a.starts_with('-') || a == "(" || a == "!" {
            in_expr = true;
        }
        if !in_expr {
            starts.push(a);
            continue;
        }
        match a.as_str() {
            "-name" | "-iname" | "-path" | "-ipath" | "-wholename" | "-iwholename" => {
                if let Some(n) = args.get(k) {
                    names.push(n);
                    k += 1;
                }
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => break,
            _ => {}
        }
    }
    if starts.is_empty() {
        starts.push(".");
    }
    let mut out = Vec::new();
    for start in &starts {
        if names.is_empty() {
            let trimmed = start.trim_end_matches('/');
            out.push(if trimmed.is_empty() { "/" } else { trimmed }.to_owned());
        }
        for name in &names {
            let name = name.trim_start_matches("*/").trim_start_matches("**/");
            let name = name.rsplit('/').next().unwrap_or(name);
            // Directly in the starting point, and deeper.
            let start = start.trim_end_matches('/');
            out.push(format!("{start}/{name}"));
            out.push(format!("{start}/**/{name}"));
        }
        if out.len() >= 16 {
            break;
        }
    }
    out.truncate(16);
    out
}
