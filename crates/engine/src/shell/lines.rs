//! Strings that commands run as shell lines (`-c`, `eval`, `watch`, `trap`,
//! `su -c`, `find -exec`, here-documents fed to a shell), read again.

use super::parse::parse_text;
use super::wrappers::{Seq, Step, unwrap_step};
use super::{Command, Ctx, MAX_DEPTH, SHELLS, basename};

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
/// here-documents fed to a shell, `find -exec`, …).
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
    // The last here-document or here-string: what a shell would read.
    let stdin = command
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
        });
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
            "find" => {
                find_exec(args, depth, ctx);
                return;
            }
            _ => match shell_input(args) {
                Some(Some(body)) => Some(body.to_owned()),
                Some(None) => stdin.clone(),
                None => None,
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
pub(super) const ACTIONS: &[&str] = &["eval", "watch", "trap", "su", "runuser", "find"];

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

/// What a shell invocation runs: `Some(Some(line))` for `-c line`,
/// `Some(None)` when it reads its standard input, `None` for a script file
/// (or a `-c` without its argument).
pub(super) fn shell_input(args: &[String]) -> Option<Option<&str>> {
    let mut has_c = false;
    let mut stdin = false;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a == "--" || a == "-" {
            i += 1;
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            if let Some(cmd) = long.strip_prefix("command=") {
                return Some(Some(cmd));
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
        Some(line) if has_c => Some(Some(line.as_str())),
        _ if has_c => None,
        Some(_) if !stdin => None,
        _ => Some(None),
    }
}

/// Lists the body of each `-exec`, `-execdir`, `-ok` and `-okdir` of a
/// `find` as a command of its own, and reads what those run.
pub(super) fn find_exec(args: &[String], depth: usize, ctx: &mut Ctx) {
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
        ctx.out
            .push(Command::plain(body.to_vec(), pipeline, depth + 1));
        expand(ctx.out.len() - 1, ctx);
    }
}
