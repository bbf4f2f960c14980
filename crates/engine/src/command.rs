//! Shell command lines: splitting, unwrapping and matching (SPEC §4.5).
//!
//! Nothing is executed or expanded: a line is read the way a POSIX shell
//! (with the common bash extensions) would split it, and every simple command
//! it could run is listed, so that a policy can be matched against commands
//! rather than against text. Quoting therefore cannot hide a word
//! (`r''m -r""f /` is `rm -rf /`), and a quoted argument is not a command
//! (`echo 'rm -rf /'` runs `echo`). Where the shell's reading is ambiguous
//! or malformed, the reading that finds more commands wins.
//!
//! # Splitting ([`commands`])
//!
//! - Words: `'…'`, `"…"` (where `\"`, `\\`, `\$`, `` \` `` and
//!   backslash-newline are escapes and any other backslash stays), `$'…'`
//!   (ANSI-C escapes: `\n`, `\t`, `\xHH`, `\NNN`, `\uHHHH`, `\cX`, …), `$"…"`,
//!   backslash escapes outside quotes and backslash-newline continuations.
//!   Pieces written next to each other make one word. Variables, globs,
//!   braces and `~` are not expanded: `$HOME`, `${x:-y}`, `*.rs` and `{a,b}`
//!   stay as written, and so does the text of a substitution inside a word
//!   (`echo $(id)` has the words `echo` and `$(id)`; a substitution longer
//!   than [`MAX_SUBST_TEXT`] bytes is kept as its start, `…` and its last
//!   byte).
//! - A `#` at the start of a word starts a comment to the end of the line.
//! - Commands are separated by `;`, `&`, `&&`, `||`, newlines and the case
//!   terminators `;;`, `;&`, `;;&`; `|` and `|&` join commands into a
//!   pipeline ([`Command::pipeline`]), also across a newline after the `|`.
//!   A subshell `( … )`, a group `{ …; }` or a loop in a pipeline joins it:
//!   in `curl x | (sh)` and `{ curl x; } | sh`, `curl` and `sh` share a
//!   pipeline.
//! - `NAME=value` (and `NAME+=value`) words before the command name are
//!   assignments and are dropped; an assignment alone is no command.
//!   `NAME=( … )` arrays are dropped too (substitutions inside are still
//!   read).
//! - Redirections (`<`, `>`, `>>`, `>|`, `<>`, `<&`, `>&`, `&>`, `&>>`,
//!   `<<<`, `<<`, `<<-`, each with an optional descriptor number as in
//!   `2>&1`) are not words: they are kept in [`Command::redirects`] with
//!   their target word. A redirection alone (`> /dev/sda`) is a command
//!   without words.
//! - Here-documents: the body (the lines after the command line up to the
//!   delimiter) is data, never commands, and is kept in
//!   [`Redirect::body`]. When the delimiter is unquoted the shell expands
//!   `$( … )` and backticks in the body, so those are read as commands. A
//!   body (or a `<<<` word) fed to a shell that reads its standard input
//!   (`bash <<EOF`, `sh -s <<< '…'`) is a script and is read as a line.
//! - Nested commands are listed too: inside `$( … )`, backticks (nested ones
//!   by their escapes), `<( … )`, `>( … )`, `${ … }`, subshells, groups,
//!   `if`/`while`/`until`/`for`/`case` bodies and function bodies (a
//!   function body runs when the function is called, so it counts).
//!   Reserved words are recognised where a command starts and are not
//!   commands; the header of `for`/`select` and the patterns of `case` are
//!   not commands.
//! - `((…))` and `$((…))` are arithmetic when the parenthesis opened second
//!   is closed by `))` (bash's rule): their words are operands, not
//!   commands, and `<`/`>` are operators (`$((1 << 2))` starts no
//!   here-document); substitutions inside are commands. Otherwise they are
//!   nested subshells: `((rm -rf /) )` runs `rm`.
//! - Strings that a command runs as a shell line are read as lines too: the
//!   argument of `-c` for `sh`, `bash`, `zsh`, `dash`, `ksh`, `mksh`, `ash`,
//!   `yash`, `rbash`, `fish` (options may come first and `-c` may be
//!   clustered, as in `bash -ec`); the argument of `su -c`/`runuser -c`;
//!   the joined arguments of `eval` and `watch` (not `watch -x`); the
//!   action of `trap`; and the body of each `find … -exec`, `-execdir`,
//!   `-ok`, `-okdir` up to `;` or `{} +`, which becomes a command of its
//!   own (with substitutions in it shown as [`PLACEHOLDER`]). This applies after wrappers are removed, so `sudo sh -c '…'`,
//!   `env bash -c …` and `xargs sh -c …` are read as well. In such a string,
//!   a substitution that was already read where it stands (`bash -c
//!   "$(curl x)"`) is replaced by [`PLACEHOLDER`], as its output is unknown.
//! - Malformed input never fails: an unclosed quote or substitution takes
//!   the rest of the line, a stray `)` separates commands.
//!
//! Not seen: text piped into a shell (`echo 'rm -rf /' | sh`; a
//! `curl … | sh` pattern catches the download form), commands run on
//! another host (`ssh host 'rm -rf /'`), code in other languages
//! (`python3 -c 'os.system(…)'`), script files (`bash x.sh`, `source x`),
//! aliases, and commands held in variables (`$CMD`).
//!
//! Limits: substitutions, subshells, groups and quotes nest without limit
//! (the parser keeps its own stack, in time linear in the line). Reading a
//! string again as a line (backticks, `-c`, `eval`, here-documents, `find
//! -exec`) nests at most [`MAX_DEPTH`] levels; deeper strings are not read
//! again (a backtick that deep needs 2^32 backslashes; `eval eval … rm` is
//! still seen through as a wrapper). A string read again is text the level
//! above held as data, so the whole costs at most about `MAX_DEPTH` times
//! the line.
//!
//! # Wrappers
//!
//! A wrapper runs the command that follows its options. These are removed,
//! one after the other (`sudo env X=1 nice rm -rf /` → `env X=1 nice rm -rf
//! /` → `nice rm -rf /` → `rm -rf /`): `sudo` (not `-e`, `-l`, `-K`, `-V`,
//! `-v`), `doas`, `pkexec`, `runuser` (not `-c`), `env` (`-S` splits its
//! string into words), `nice`, `timeout` (and its duration), `xargs`,
//! `command` (not `-v`/`-V`, which only look a name up), `nohup`, `time`,
//! `exec`, `stdbuf`, `ionice` (not `-p`), `setsid`, `taskset` (and its mask;
//! not `-p`), `chroot` (and its directory), `busybox`, `eval` and `watch`.
//! Each knows which of its options take an argument (attached or as the
//! next word), `--` ends the options, and `NAME=value` words are skipped
//! after `sudo` and `env`.
//!
//! # Matching ([`CommandPatterns`])
//!
//! Each command is matched through several views, and a pattern matches
//! when it matches any view of any command (or pipeline) of the line
//! ([`Command::views`]):
//!
//! - the command as written, then after each wrapper removed (the first
//!   [`MAX_STAGE_VIEWS`] steps and the fully unwrapped command), each as its
//!   words joined by single spaces with the command name (the first word)
//!   replaced by its basename: `/usr/bin/rm -rf /` is seen as `rm -rf /`.
//!   Every path is cut this way (`./rm` is `rm`: a script called `rm` is
//!   treated as `rm`). When the name has a `/`, the view with the full path
//!   is added as well;
//! - each of those with the redirections appended (`echo x > /dev/sda`;
//!   descriptor duplications are written without a space, `2>&1`);
//! - the normalised form ([`normalise`]) of the fully unwrapped command,
//!   which spells equivalent options one way.
//!
//! A pattern is a glob over a view: `*` matches any run of characters
//! (spaces and `/` included), `?` one character, `[…]` a class, `{a,b}`
//! alternatives (an alternative may be empty: `rm{, *}`), `\` escapes.
//! Matching is case-sensitive and anchored at both ends. Runs of whitespace
//! in a pattern count as one space and leading and trailing whitespace is
//! ignored. A pattern ending in ` *` also matches without the space, so `rm
//! -rf *` matches `xargs rm -rf` as well as `rm -rf /`.
//!
//! A pattern containing ` | ` is a pipeline pattern: its parts must match,
//! in order, commands of one pipeline (each part any view of one command),
//! with other commands allowed before, between and after, as a `*` would
//! allow in the joined text: `curl * | sh` matches `curl x | sh`,
//! `curl x | sudo sh` and `curl x | tee log | sh | cat`, not `curl x; sh`.
//!
//! # Normalisation ([`normalise`])
//!
//! The command name becomes its basename. Then, up to a `--` word: a word
//! starting with `-` (not `-` alone) is an option. A short option cluster
//! made of ASCII letters and digits is split (`-rf` → `-r -f`); a long
//! option is replaced by its short spelling for a few commands (`rm
//! --recursive`, `--force`, `--dir`, `--verbose`; `chmod`/`chown`/`chgrp
//! --recursive`; `cp --recursive`, `--force`; `mv`/`ln --force`; `shred
//! --force`, `--zero`, `--remove`, `--exact`, `--verbose`; `git --force`);
//! and a few letters are folded into their synonym (`rm -R` is `-r`, `cp
//! -r` is `-R`). The options are then sorted bytewise (`--long` first,
//! then upper case, then lower case), duplicates removed, and put right
//! after the name, followed by `--` when written and the other words in
//! their order. `rm -fr /`, `rm -r -f /`, `rm --recursive --force /`, `rm
//! -Rf /`, `rm / -rf` and `/bin/rm -rf /` all become `rm -f -r /`.
//!
//! Normalisation ignores which options take an argument (`-uroot` is split
//! like any cluster, and the argument of `-o file` is left among the other
//! words, as is a subcommand: `git push -f` becomes `git -f push`), so a
//! normalised view is only for patterns written for it; the built-in
//! [`DANGEROUS`] set is written this way where it says so, with `{,* }`
//! between options so that others may come between them. Every pattern is
//! matched against every view, so a pattern written for the normalised
//! view (`rm -f -r *`) catches every spelling, and one written as usual
//! (`rm -rf *`) the spelling it names.

use globset::{Candidate, GlobBuilder, GlobSet, GlobSetBuilder};

/// How many times a string may be read again as a shell line, one inside
/// another (backticks, `-c` arguments, `eval`, here-documents, `find -exec`).
pub(crate) const MAX_DEPTH: usize = 32;

/// How much of the text of a substitution a word keeps: a longer one is
/// kept as its first bytes, `…` and its last byte (the substitution itself
/// is read whole).
pub(crate) const MAX_SUBST_TEXT: usize = 256;

/// How many wrapper-removal steps are matched one by one; the fully
/// unwrapped command is always matched.
pub(crate) const MAX_STAGE_VIEWS: usize = 8;

/// How many commands a pipeline pattern may name.
const MAX_PARTS: usize = 16;

/// What a substitution already read stands for when its word is read
/// again as a line (its output is unknown).
const PLACEHOLDER: &str = "$_";

/// Shells whose `-c` argument (or standard input) is a shell line.
const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "rbash",
];

/// One simple command of a shell line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Command {
    /// The words after quote removal, without the leading assignments and
    /// the redirections.
    pub(crate) words: Vec<String>,
    /// The pipeline the command belongs to: commands of one pipeline share
    /// the number, and appear in pipeline order in [`commands`]' list.
    pub(crate) pipeline: usize,
    /// The redirections of the command, in the order written.
    pub(crate) redirects: Vec<Redirect>,
    /// For each word, its text as a shell would read it again, when that
    /// differs ([`Word::script`]).
    scripts: Vec<Option<String>>,
    /// How many times the text holding the command was read again.
    depth: usize,
    /// Whether strings the command runs have been read already.
    expanded: bool,
}

/// A redirection of a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Redirect {
    /// The operator with its descriptor number as written: `>`, `2>`,
    /// `>>`, `&>`, `2>&`, `<`, `<<`, `<<-`, `<<<`, ….
    pub(crate) op: String,
    /// The target word after quote removal; for a here-document, its
    /// delimiter.
    pub(crate) target: String,
    /// The body of a here-document, as written.
    pub(crate) body: Option<String>,
    /// The target as a shell would read it again ([`Word::script`]).
    script: Option<String>,
    /// The body as the shell reading it sees it: with backslash escapes
    /// removed and substitutions (already read) replaced, when the
    /// delimiter is unquoted.
    body_script: Option<String>,
    /// Where the parser leaves the body until the whole text is read.
    slot: Option<usize>,
}

impl Redirect {
    /// A redirection without a body.
    fn new(op: String, target: String) -> Self {
        Self {
            op,
            target,
            body: None,
            script: None,
            body_script: None,
            slot: None,
        }
    }

    /// Whether the redirection is a here-document.
    fn is_heredoc(&self) -> bool {
        self.op.ends_with("<<") || self.op.ends_with("<<-")
    }

    /// The redirection as it appears in a view: `> /dev/sda`, `2>&1`.
    fn render(&self) -> String {
        if self.op.ends_with('&') {
            format!("{}{}", self.op, self.target)
        } else {
            format!("{} {}", self.op, self.target)
        }
    }
}

impl Command {
    /// A command of words without substitutions.
    fn plain(words: Vec<String>, pipeline: usize, depth: usize) -> Self {
        Self {
            words,
            pipeline,
            redirects: Vec::new(),
            scripts: Vec::new(),
            depth,
            expanded: false,
        }
    }

    /// The words as a shell would read them again: substitutions already
    /// read are replaced by [`PLACEHOLDER`].
    fn script_words(&self) -> Vec<String> {
        let mut words = self.words.clone();
        for (w, s) in words.iter_mut().zip(&self.scripts) {
            if let Some(s) = s {
                w.clone_from(s);
            }
        }
        words
    }

    /// The command name as patterns see it: the basename of the first word.
    pub(crate) fn name(&self) -> Option<&str> {
        self.words.first().map(|w| basename(w))
    }

    /// The words with every wrapper removed (`sudo nice rm x` → `rm x`).
    pub(crate) fn unwrapped(&self) -> Vec<String> {
        unwrap_chain(&self.words).pop().unwrap_or_default()
    }

    /// Every string patterns are matched against (see the module docs).
    pub(crate) fn views(&self) -> Vec<String> {
        let mut views: Vec<String> = Vec::new();
        let mut add = |v: String| {
            if !v.is_empty() && !views.contains(&v) {
                views.push(v);
            }
        };
        let redirects = self
            .redirects
            .iter()
            .map(Redirect::render)
            .collect::<Vec<_>>()
            .join(" ");
        let chain = unwrap_chain(&self.words);
        for stage in &chain {
            let Some(first) = stage.first() else {
                continue;
            };
            let raw = render(stage, true);
            if basename(first) != first.as_str() {
                add(render(stage, false));
            }
            if !redirects.is_empty() {
                add(format!("{raw} {redirects}"));
            }
            add(raw);
        }
        // Normalising a wrapper (`sudo -f -r rm /`) helps no pattern.
        if let Some(last) = chain.last() {
            add(normalise(last).join(" "));
        }
        if self.words.is_empty() {
            add(redirects);
        }
        views
    }
}

/// Every simple command of a shell line, including nested ones (see the
/// module docs). Substitutions come before the command holding them; the
/// commands of a pipeline come in pipeline order.
pub(crate) fn commands(line: &str) -> Vec<Command> {
    let mut ctx = Ctx::default();
    parse_text(line.as_bytes(), 0, &mut ctx);
    ctx.out
}

/// What the parsers of one line share.
#[derive(Default)]
struct Ctx {
    /// The commands found so far.
    out: Vec<Command>,
    /// The next pipeline number.
    pipelines: usize,
    /// Here-document bodies (as written, as read again), by slot.
    bodies: Vec<Option<(String, String)>>,
}

impl Ctx {
    /// A new pipeline number.
    fn pipeline(&mut self) -> usize {
        let p = self.pipelines;
        self.pipelines += 1;
        p
    }
}

/// Reads `text` as a shell line, then reads the strings its commands run.
fn parse_text(text: &[u8], depth: usize, ctx: &mut Ctx) {
    let start = ctx.out.len();
    Parser::new(text, depth, false).run(ctx);
    settle(start, ctx);
}

/// Reads the body of a here-document with an unquoted delimiter: the
/// substitutions in it are commands. Returns the body as the command
/// reading it sees it.
fn scan_heredoc(body: &[u8], depth: usize, ctx: &mut Ctx) -> String {
    let start = ctx.out.len();
    let mut parser = Parser::new(body, depth, true);
    parser.run(ctx);
    settle(start, ctx);
    let word = std::mem::take(&mut parser.root.word);
    String::from_utf8_lossy(&word.script.unwrap_or(word.bytes)).into_owned()
}

/// Gives the commands listed from `start` on their here-document bodies,
/// then reads the strings they run.
fn settle(start: usize, ctx: &mut Ctx) {
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
fn expand(i: usize, ctx: &mut Ctx) {
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
const ACTIONS: &[&str] = &["eval", "watch", "trap", "su", "runuser", "find"];

/// `eval`'s arguments joined, as `eval` does.
fn join_args(args: &[String]) -> String {
    let args = match args.first() {
        Some(w) if w == "--" => args.get(1..).unwrap_or_default(),
        _ => args,
    };
    args.join(" ")
}

/// The line `watch` runs (its arguments after the options, joined), unless
/// `-x` asks it to run them as a command directly.
fn watch_line(args: &[String]) -> Option<String> {
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
fn trap_action(args: &[String]) -> Option<&str> {
    let mut args = args.iter().map(String::as_str);
    let first = args.next()?;
    let action = if first == "--" { args.next()? } else { first };
    (!action.is_empty() && action != "-" && !action.starts_with('-') && args.next().is_some())
        .then_some(action)
}

/// The `-c` argument of `su` or `runuser`.
fn su_command(args: &[String]) -> Option<&str> {
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
fn shell_input(args: &[String]) -> Option<Option<&str>> {
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
fn find_exec(args: &[String], depth: usize, ctx: &mut Ctx) {
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

/// The state of the parser's stack.
#[derive(Clone, Copy, Debug)]
enum State {
    /// Between words of a command list (the top of [`Parser::lists`]).
    List,
    /// Inside an unquoted word.
    Word,
    /// Inside `"…"`; with `heredoc`, the body of a here-document (no
    /// closing quote). Text goes to the word only with `emit`.
    Dq {
        /// Whether the text belongs to the word.
        emit: bool,
        /// Whether this is a here-document body.
        heredoc: bool,
    },
    /// Inside `${…}`, kept as written.
    Param {
        /// Where the `$` is.
        start: usize,
        /// Whether the text belongs to the word.
        emit: bool,
        /// Whether the expansion is inside double quotes.
        in_dq: bool,
    },
}

/// What ends a command list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Close {
    /// The end of the text.
    Eof,
    /// `)` of a subshell (or arithmetic, or an array).
    Paren,
    /// `)` of `$(`, `<(` or `>(` inside a word.
    Subst {
        /// Where the substitution starts.
        start: usize,
        /// Whether its text belongs to the word.
        emit: bool,
    },
}

/// Where a `case` statement is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Case {
    /// Between `case` and `in`.
    Header,
    /// Reading a pattern, up to `)`.
    Pattern,
    /// Reading the commands of an item.
    Body,
}

/// Words that are not part of a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Skip {
    /// Every word is part of the command.
    None,
    /// The header of `for` or `select`, up to the next separator.
    Header,
    /// The name after `function`.
    Name,
}

/// A command list being read.
struct List {
    /// What ends it.
    close: Close,
    /// Words are not commands (arrays, here-document bodies).
    discard: bool,
    /// The list follows `((` or `$((`: arithmetic if it closes with `))`,
    /// else a subshell. Its commands wait in `held` until that is known,
    /// and `<` and `>` are operators, not redirections.
    arith: bool,
    /// Commands of an `arith` list (and of lists inside it).
    held: Vec<Command>,
    /// The command being read.
    cmd: Cmd,
    /// The word being read.
    word: Word,
    /// How many `case` statements are open.
    cases: usize,
    /// Where the innermost open `case` is.
    case: Case,
    /// Words to skip.
    skip: Skip,
    /// Where a `NAME=` word ended, so that a `(` there opens an array.
    array_at: Option<usize>,
    /// The pipeline state to restore after a substitution.
    saved: Option<(usize, bool)>,
}

impl List {
    /// An empty list.
    fn new(close: Close, discard: bool) -> Self {
        Self {
            close,
            discard,
            arith: false,
            held: Vec::new(),
            cmd: Cmd::default(),
            word: Word::default(),
            cases: 0,
            case: Case::Body,
            skip: Skip::None,
            array_at: None,
            saved: None,
        }
    }

    /// Whether words read now are dropped.
    fn dropping(&self) -> bool {
        self.discard || self.skip != Skip::None || (self.cases > 0 && self.case != Case::Body)
    }
}

/// A command being read.
#[derive(Default)]
struct Cmd {
    /// Its words so far.
    words: Vec<String>,
    /// The script of each word, when it differs.
    scripts: Vec<Option<String>>,
    /// Its redirections so far.
    redirects: Vec<Redirect>,
    /// Whether a word or redirection has been seen.
    started: bool,
    /// Its pipeline, once started.
    pipeline: usize,
    /// A redirection operator waiting for its target word.
    op: Option<String>,
    /// A descriptor number for the next operator.
    fd: Option<String>,
}

/// A word being read.
#[derive(Default)]
struct Word {
    /// Its bytes after quote removal.
    bytes: Vec<u8>,
    /// The word as a shell would read it again (a `-c` argument, a
    /// here-string, …), when that differs from `bytes`: substitutions read
    /// where they stand are replaced by [`PLACEHOLDER`].
    script: Option<Vec<u8>>,
    /// How many bytes preceded the first quoted or escaped character.
    quoted_at: Option<usize>,
}

/// A here-document whose body follows the next newline.
struct Pending {
    /// The delimiter line.
    delim: Vec<u8>,
    /// Whether leading tabs are removed (`<<-`).
    strip: bool,
    /// Whether the delimiter was quoted (no expansion in the body).
    quoted: bool,
    /// Where the body goes.
    slot: usize,
}

/// A pushdown reader of one text: its own stack instead of recursion, so
/// that nesting costs no native stack.
struct Parser<'a> {
    /// The text.
    s: &'a [u8],
    /// The next byte to read.
    pos: usize,
    /// How many times the text was read again.
    depth: usize,
    /// The states, innermost last.
    states: Vec<State>,
    /// The outermost command list.
    root: List,
    /// The nested command lists, innermost last.
    lists: Vec<List>,
    /// The pipeline of the commands being read.
    pipe: usize,
    /// Whether the next command starts a new pipeline.
    new_pipe: bool,
    /// Whether an operator (`|`, `&&`, `||`) waits for its command, so that
    /// a newline does not end the pipeline.
    continued: bool,
    /// Here-documents whose bodies come after the next newline.
    pending: Vec<Pending>,
}

impl<'a> Parser<'a> {
    /// A parser at the start of `s`.
    fn new(s: &'a [u8], depth: usize, heredoc: bool) -> Self {
        let mut states = vec![State::List];
        if heredoc {
            states.push(State::Dq {
                emit: true,
                heredoc: true,
            });
        }
        Self {
            s,
            pos: 0,
            depth,
            states,
            root: List::new(Close::Eof, heredoc),
            lists: Vec::new(),
            pipe: 0,
            new_pipe: true,
            continued: false,
            pending: Vec::new(),
        }
    }

    /// Reads the whole text, adding commands to `ctx`.
    fn run(&mut self, ctx: &mut Ctx) {
        while let Some(state) = self.states.last().copied() {
            match state {
                State::List => self.step_list(ctx),
                State::Word => self.step_word(ctx),
                State::Dq { emit, heredoc } => self.step_dq(ctx, emit, heredoc),
                State::Param { start, emit, in_dq } => self.step_param(ctx, start, emit, in_dq),
            }
        }
    }

    /// The innermost command list.
    fn top(&mut self) -> &mut List {
        match self.lists.last_mut() {
            Some(l) => l,
            None => &mut self.root,
        }
    }

    /// The byte `k` places ahead.
    fn at(&self, k: usize) -> Option<u8> {
        self.s.get(self.pos + k).copied()
    }

    /// Adds a byte to the word.
    fn push(&mut self, b: u8) {
        let w = &mut self.top().word;
        w.bytes.push(b);
        if let Some(script) = &mut w.script {
            script.push(b);
        }
    }

    /// Adds bytes to the word.
    fn extend(&mut self, bytes: &[u8]) {
        let w = &mut self.top().word;
        w.bytes.extend_from_slice(bytes);
        if let Some(script) = &mut w.script {
            script.extend_from_slice(bytes);
        }
    }

    /// Adds the text of a substitution read where it stands: as written
    /// (elided beyond [`MAX_SUBST_TEXT`] bytes) to the word, as
    /// [`PLACEHOLDER`] to its script.
    fn append(&mut self, from: usize, to: usize) {
        let s = self.s;
        let raw = s.get(from..to.min(s.len())).unwrap_or_default();
        let w = &mut self.top().word;
        w.script
            .get_or_insert_with(|| w.bytes.clone())
            .extend_from_slice(PLACEHOLDER.as_bytes());
        if raw.len() <= MAX_SUBST_TEXT {
            w.bytes.extend_from_slice(raw);
            return;
        }
        // Every level of `$($($(…)))` would otherwise copy all the levels
        // inside it: quadratic in the nesting.
        let mut cut = MAX_SUBST_TEXT;
        while raw.get(cut).is_some_and(|&b| b & 0xc0 == 0x80) {
            cut -= 1;
        }
        w.bytes
            .extend_from_slice(raw.get(..cut).unwrap_or_default());
        w.bytes.extend_from_slice("…".as_bytes());
        w.bytes.extend(raw.last());
    }

    /// Notes that the word has quoting from here on.
    fn mark_quoted(&mut self) {
        let w = &mut self.top().word;
        if w.quoted_at.is_none() {
            w.quoted_at = Some(w.bytes.len());
        }
    }

    /// One step between words.
    fn step_list(&mut self, ctx: &mut Ctx) {
        let Some(b) = self.at(0) else {
            self.close_list(ctx);
            return;
        };
        let (discard, case) = {
            let l = self.top();
            (l.discard, (l.cases > 0).then_some(l.case))
        };
        match b {
            b' ' | b'\t' | b'\r' => self.pos += 1,
            b'\\' if self.at(1) == Some(b'\n') => self.pos += 2,
            b'#' => {
                let rest = self.s.get(self.pos..).unwrap_or_default();
                self.pos += memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            }
            b'\n' => {
                if !self.continued {
                    self.separate(ctx);
                }
                self.pos += 1;
                self.read_heredocs(ctx);
            }
            b'<' | b'>' if self.at(1) == Some(b'(') => self.start_word(ctx),
            b'<' | b'>' if self.top().arith => {
                self.finish(ctx);
                self.pos += 1;
            }
            _ if discard => match b {
                b'(' => self.open_paren(ctx),
                b')' => self.close_paren(ctx),
                b';' | b'&' | b'|' | b'<' | b'>' => {
                    self.finish(ctx);
                    self.pos += 1;
                }
                _ => self.start_word(ctx),
            },
            _ if case == Some(Case::Pattern) => match b {
                b'(' | b'|' | b';' | b'&' | b'<' | b'>' => self.pos += 1,
                b')' => {
                    self.pos += 1;
                    self.top().case = Case::Body;
                }
                _ if self.peek_word() == b"esac" => self.close_case(),
                _ => self.start_word(ctx),
            },
            b';' => {
                let len = if self.at(1) == Some(b';') {
                    if self.at(2) == Some(b'&') { 3 } else { 2 }
                } else if self.at(1) == Some(b'&') {
                    2
                } else {
                    1
                };
                self.separate(ctx);
                if len > 1 && case == Some(Case::Body) {
                    self.top().case = Case::Pattern;
                }
                self.pos += len;
            }
            b'&' => match self.at(1) {
                Some(b'&') => {
                    self.separate(ctx);
                    self.continued = true;
                    self.pos += 2;
                }
                Some(b'>') => {
                    let op = if self.at(2) == Some(b'>') {
                        "&>>"
                    } else {
                        "&>"
                    };
                    self.redirect(ctx, op);
                }
                _ => {
                    self.separate(ctx);
                    self.pos += 1;
                }
            },
            b'|' => {
                let len = if matches!(self.at(1), Some(b'|' | b'&')) {
                    2
                } else {
                    1
                };
                if self.at(1) == Some(b'|') {
                    self.separate(ctx);
                } else {
                    self.finish(ctx);
                }
                self.continued = true;
                self.pos += len;
            }
            b'(' => self.open_paren(ctx),
            b')' => self.close_paren(ctx),
            b'<' | b'>' => {
                let rest = self.s.get(self.pos..).unwrap_or_default();
                let op = ["<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">|", ">&", ">"]
                    .into_iter()
                    .find(|op| rest.starts_with(op.as_bytes()))
                    .unwrap_or(">");
                self.redirect(ctx, op);
            }
            _ => {
                if !self.keyword() {
                    self.start_word(ctx);
                }
            }
        }
    }

    /// The reserved-word candidate at the read position: the bytes up to a
    /// blank or an operator.
    fn peek_word(&self) -> &'a [u8] {
        let s = self.s;
        let rest = s.get(self.pos..).unwrap_or_default();
        let len = rest
            .iter()
            .position(|&b| {
                matches!(
                    b,
                    b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>'
                )
            })
            .unwrap_or(rest.len());
        rest.get(..len).unwrap_or_default()
    }

    /// Handles a reserved word where a command starts; false if there is
    /// none.
    fn keyword(&mut self) -> bool {
        {
            let l = self.top();
            if l.cmd.started || l.dropping() {
                return false;
            }
        }
        let word = self.peek_word();
        match word {
            b"!" | b"{" | b"if" | b"then" | b"else" | b"elif" | b"do" | b"while" | b"until"
            | b"coproc" => {}
            b"}" | b"fi" | b"done" => self.new_pipe = false,
            b"case" => {
                let l = self.top();
                l.cases += 1;
                l.case = Case::Header;
            }
            b"esac" if self.top().cases > 0 => {
                self.close_case();
                return true;
            }
            b"for" | b"select" => self.top().skip = Skip::Header,
            b"function" => self.top().skip = Skip::Name,
            _ => return false,
        }
        self.pos += word.len();
        true
    }

    /// Reads `esac`.
    fn close_case(&mut self) {
        self.pos += 4;
        self.new_pipe = false;
        let l = self.top();
        l.cases = l.cases.saturating_sub(1);
        l.case = Case::Body;
    }

    /// Starts a command: gives it its pipeline.
    fn start_cmd(&mut self, ctx: &mut Ctx) {
        self.continued = false;
        if self.top().cmd.started {
            return;
        }
        if self.new_pipe {
            self.pipe = ctx.pipeline();
            self.new_pipe = false;
        }
        let pipe = self.pipe;
        let cmd = &mut self.top().cmd;
        cmd.started = true;
        cmd.pipeline = pipe;
    }

    /// Starts a word at the read position.
    fn start_word(&mut self, ctx: &mut Ctx) {
        if !self.top().dropping() {
            self.start_cmd(ctx);
        }
        self.top().word = Word::default();
        self.states.push(State::Word);
    }

    /// Reads a redirection operator; its target is the next word.
    fn redirect(&mut self, ctx: &mut Ctx, op: &str) {
        self.start_cmd(ctx);
        self.pos += op.len();
        let cmd = &mut self.top().cmd;
        if let Some(prev) = cmd.op.take() {
            cmd.redirects.push(Redirect::new(prev, String::new()));
        }
        let mut full = cmd.fd.take().unwrap_or_default();
        full.push_str(op);
        cmd.op = Some(full);
    }

    /// Ends the command being read (if any) and lists it.
    fn finish(&mut self, ctx: &mut Ctx) {
        let depth = self.depth;
        let l = self.top();
        let mut cmd = std::mem::take(&mut l.cmd);
        if l.discard {
            return;
        }
        if let Some(op) = cmd.op.take() {
            cmd.redirects.push(Redirect::new(op, String::new()));
        }
        if cmd.words.is_empty() && cmd.redirects.is_empty() {
            return;
        }
        if cmd.scripts.iter().all(Option::is_none) {
            cmd.scripts = Vec::new();
        }
        let command = Command {
            words: cmd.words,
            pipeline: cmd.pipeline,
            redirects: cmd.redirects,
            scripts: cmd.scripts,
            depth,
            expanded: false,
        };
        if l.arith {
            l.held.push(command);
        } else {
            ctx.out.push(command);
        }
    }

    /// Ends the command and the pipeline being read.
    fn separate(&mut self, ctx: &mut Ctx) {
        self.finish(ctx);
        self.new_pipe = true;
        let l = self.top();
        if l.skip == Skip::Header {
            l.skip = Skip::None;
        }
    }

    /// Reads `(` between words.
    fn open_paren(&mut self, ctx: &mut Ctx) {
        // `()` after a function name: drop the name, the body follows.
        let s = self.s;
        let after = s
            .get(self.pos + 1..)
            .unwrap_or_default()
            .iter()
            .position(|&b| b != b' ' && b != b'\t')
            .map(|k| self.pos + 1 + k);
        if let Some(close) = after.filter(|&k| s.get(k) == Some(&b')')) {
            let l = self.top();
            if l.cmd.words.len() <= 1 && l.cmd.redirects.is_empty() && !l.discard {
                l.cmd = Cmd::default();
            }
            self.pos = close + 1;
            return;
        }
        let pos = self.pos;
        let l = self.top();
        let discard = l.discard || l.array_at == Some(pos);
        let arith = l.arith;
        self.finish(ctx);
        self.pos += 1;
        let mut list = List::new(Close::Paren, discard);
        list.arith = arith;
        self.lists.push(list);
        self.states.push(State::List);
        if s.get(pos + 1) == Some(&b'(') {
            self.open_arith(discard);
        }
    }

    /// Opens the list after `((` or `$((` (the second `(` at the read
    /// position).
    fn open_arith(&mut self, discard: bool) {
        self.pos += 1;
        let mut list = List::new(Close::Paren, discard);
        list.arith = true;
        self.lists.push(list);
        self.states.push(State::List);
    }

    /// Reads `)` between words.
    fn close_paren(&mut self, ctx: &mut Ctx) {
        self.finish(ctx);
        self.pos += 1;
        match self.top().close {
            Close::Eof => self.new_pipe = true,
            Close::Paren => {
                // `))` closes arithmetic: its "commands" were operands.
                let arithmetic = self.at(0) == Some(b')');
                let held = self.pop_list();
                if !arithmetic {
                    self.release(held, ctx);
                }
                self.new_pipe = false;
            }
            Close::Subst { start, emit } => {
                self.pop_list();
                if emit {
                    self.append(start, self.pos);
                }
            }
        }
    }

    /// Lists commands held by a closed `arith` list that turned out to be a
    /// subshell (in the enclosing `arith` list, if any, they wait on).
    fn release(&mut self, held: Vec<Command>, ctx: &mut Ctx) {
        let parent = self.top();
        if parent.arith {
            parent.held.extend(held);
        } else {
            ctx.out.extend(held);
        }
    }

    /// Ends the innermost list at the end of the text.
    fn close_list(&mut self, ctx: &mut Ctx) {
        self.finish(ctx);
        match self.top().close {
            Close::Eof => {
                self.states.pop();
            }
            Close::Paren => {
                let held = self.pop_list();
                self.release(held, ctx);
            }
            Close::Subst { start, emit } => {
                self.pop_list();
                if emit {
                    self.append(start, self.s.len());
                }
            }
        }
    }

    /// Removes the innermost nested list, restoring the pipeline state a
    /// substitution saved; returns the commands it held.
    fn pop_list(&mut self) -> Vec<Command> {
        self.states.pop();
        let Some(l) = self.lists.pop() else {
            return Vec::new();
        };
        if let Some((pipe, new_pipe)) = l.saved {
            self.pipe = pipe;
            self.new_pipe = new_pipe;
        }
        l.held
    }

    /// Opens `$(`, `<(` or `>(` (`skip` bytes long) inside a word.
    fn open_subst(&mut self, emit: bool, skip: usize) {
        let start = self.pos;
        self.pos += skip;
        let mut list = List::new(Close::Subst { start, emit }, false);
        list.saved = Some((self.pipe, self.new_pipe));
        self.new_pipe = true;
        self.lists.push(list);
        self.states.push(State::List);
    }

    /// Ends the word being read and gives it to the command (or to a
    /// redirection, a keyword clause, …).
    fn end_word(&mut self, ctx: &mut Ctx) {
        self.states.pop();
        let next = self.at(0);
        let after = self.at(1);
        let pos = self.pos;
        let l = self.top();
        let word = std::mem::take(&mut l.word);
        let text = String::from_utf8_lossy(&word.bytes).into_owned();
        let script = word
            .script
            .as_deref()
            .map(|s| String::from_utf8_lossy(s).into_owned());
        if let Some(op) = l.cmd.op.take() {
            let mut r = Redirect::new(op, text);
            r.script = script;
            if r.is_heredoc() {
                let slot = ctx.bodies.len();
                ctx.bodies.push(None);
                r.slot = Some(slot);
                let pending = Pending {
                    strip: r.op.ends_with('-'),
                    delim: word.bytes,
                    quoted: word.quoted_at.is_some(),
                    slot,
                };
                l.cmd.redirects.push(r);
                self.pending.push(pending);
            } else {
                l.cmd.redirects.push(r);
            }
            return;
        }
        if l.discard {
            return;
        }
        if l.cases > 0 && l.case == Case::Header {
            if text == "in" && word.quoted_at.is_none() {
                l.case = Case::Pattern;
            }
            return;
        }
        if l.cases > 0 && l.case == Case::Pattern {
            return;
        }
        match l.skip {
            Skip::Header => return,
            Skip::Name => {
                l.skip = Skip::None;
                return;
            }
            Skip::None => {}
        }
        let unquoted = word.quoted_at.is_none();
        if unquoted
            && !word.bytes.is_empty()
            && word.bytes.iter().all(u8::is_ascii_digit)
            && matches!(next, Some(b'<' | b'>'))
            && after != Some(b'(')
        {
            l.cmd.fd = Some(text);
            return;
        }
        if l.cmd.words.is_empty() && is_assignment(&word) {
            if word.bytes.last() == Some(&b'=') && next == Some(b'(') {
                l.array_at = Some(pos);
            }
            return;
        }
        if unquoted && word.bytes.is_empty() {
            return;
        }
        l.cmd.words.push(text);
        l.cmd.scripts.push(script);
    }

    /// One step inside an unquoted word.
    fn step_word(&mut self, ctx: &mut Ctx) {
        loop {
            let Some(b) = self.at(0) else {
                self.end_word(ctx);
                return;
            };
            match b {
                b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' => {
                    self.end_word(ctx);
                    return;
                }
                b'<' | b'>' => {
                    if self.at(1) == Some(b'(') {
                        self.open_subst(true, 2);
                    } else {
                        self.end_word(ctx);
                    }
                    return;
                }
                b'\\' => match self.at(1) {
                    Some(b'\n') => self.pos += 2,
                    Some(c) => {
                        self.mark_quoted();
                        self.push(c);
                        self.pos += 2;
                    }
                    None => {
                        self.push(b'\\');
                        self.pos += 1;
                    }
                },
                b'\'' => {
                    self.mark_quoted();
                    self.single_quote(true);
                }
                b'"' => {
                    self.mark_quoted();
                    self.pos += 1;
                    self.states.push(State::Dq {
                        emit: true,
                        heredoc: false,
                    });
                    return;
                }
                b'$' => {
                    if self.dollar(true, false) {
                        return;
                    }
                }
                b'`' => self.backtick(ctx, true, false),
                _ => {
                    self.push(b);
                    self.pos += 1;
                }
            }
        }
    }

    /// One step inside double quotes or a here-document body.
    fn step_dq(&mut self, ctx: &mut Ctx, emit: bool, heredoc: bool) {
        loop {
            let Some(b) = self.at(0) else {
                self.states.pop();
                return;
            };
            match b {
                b'"' if !heredoc => {
                    self.pos += 1;
                    self.states.pop();
                    return;
                }
                b'\\' => match self.at(1) {
                    Some(b'\n') => self.pos += 2,
                    Some(c @ (b'$' | b'`' | b'\\')) => {
                        if emit {
                            self.push(c);
                        }
                        self.pos += 2;
                    }
                    Some(b'"') if !heredoc => {
                        if emit {
                            self.push(b'"');
                        }
                        self.pos += 2;
                    }
                    _ => {
                        if emit {
                            self.push(b'\\');
                        }
                        self.pos += 1;
                    }
                },
                b'$' => {
                    if self.dollar(emit, true) {
                        return;
                    }
                }
                b'`' => self.backtick(ctx, emit, true),
                _ => {
                    if emit {
                        self.push(b);
                    }
                    self.pos += 1;
                }
            }
        }
    }

    /// One step inside `${…}`.
    fn step_param(&mut self, ctx: &mut Ctx, start: usize, emit: bool, in_dq: bool) {
        loop {
            let Some(b) = self.at(0) else {
                self.states.pop();
                if emit {
                    self.append(start, self.s.len());
                }
                return;
            };
            match b {
                b'}' => {
                    self.pos += 1;
                    self.states.pop();
                    if emit {
                        let s = self.s;
                        let raw = s.get(start..self.pos).unwrap_or_default();
                        if raw.contains(&b'`') || raw.windows(2).any(|w| w == b"$(") {
                            self.append(start, self.pos);
                        } else {
                            self.extend(raw);
                        }
                    }
                    return;
                }
                b'\\' => self.pos = (self.pos + 2).min(self.s.len()),
                b'\'' if !in_dq => self.single_quote(false),
                b'"' => {
                    self.pos += 1;
                    self.states.push(State::Dq {
                        emit: false,
                        heredoc: false,
                    });
                    return;
                }
                b'$' => {
                    if self.dollar(false, in_dq) {
                        return;
                    }
                }
                b'`' => self.backtick(ctx, false, in_dq),
                _ => self.pos += 1,
            }
        }
    }

    /// Reads `'…'` (to the end of the text when unclosed).
    fn single_quote(&mut self, emit: bool) {
        let s = self.s;
        let from = self.pos + 1;
        let rest = s.get(from..).unwrap_or_default();
        let len = memchr::memchr(b'\'', rest).unwrap_or(rest.len());
        if emit {
            self.extend(rest.get(..len).unwrap_or_default());
        }
        self.pos = (from + len + 1).min(s.len());
    }

    /// Reads what starts with `$`; true if a state was pushed.
    fn dollar(&mut self, emit: bool, in_dq: bool) -> bool {
        match self.at(1) {
            Some(b'(') => {
                let arithmetic = self.at(2) == Some(b'(');
                self.open_subst(emit, 2);
                if arithmetic {
                    self.open_arith(false);
                }
                true
            }
            Some(b'{') => {
                self.states.push(State::Param {
                    start: self.pos,
                    emit,
                    in_dq,
                });
                self.pos += 2;
                true
            }
            Some(b'\'') if !in_dq => {
                let (bytes, end) = ansi_c(self.s, self.pos + 2);
                if emit {
                    self.mark_quoted();
                    self.extend(&bytes);
                }
                self.pos = end;
                false
            }
            Some(b'"') if !in_dq => {
                if emit {
                    self.mark_quoted();
                }
                self.pos += 2;
                self.states.push(State::Dq {
                    emit,
                    heredoc: false,
                });
                true
            }
            _ => {
                if emit {
                    self.push(b'$');
                }
                self.pos += 1;
                false
            }
        }
    }

    /// Reads `` `…` ``: its text, unescaped, is read again as a line.
    fn backtick(&mut self, ctx: &mut Ctx, emit: bool, in_dq: bool) {
        let s = self.s;
        let start = self.pos;
        let mut i = start + 1;
        let mut content = Vec::new();
        while let Some(&b) = s.get(i) {
            i += 1;
            match b {
                b'`' => break,
                b'\\' => match s.get(i) {
                    Some(&c) if matches!(c, b'$' | b'`' | b'\\') || (in_dq && c == b'"') => {
                        content.push(c);
                        i += 1;
                    }
                    _ => content.push(b'\\'),
                },
                _ => content.push(b),
            }
        }
        self.pos = i;
        if self.depth < MAX_DEPTH {
            parse_text(&content, self.depth + 1, ctx);
        }
        if emit {
            self.append(start, i);
        }
    }

    /// Reads the bodies of the pending here-documents after a newline.
    fn read_heredocs(&mut self, ctx: &mut Ctx) {
        let s = self.s;
        for doc in std::mem::take(&mut self.pending) {
            let start = self.pos.min(s.len());
            let mut body_end = s.len();
            let mut next = s.len();
            let mut i = start;
            while i < s.len() {
                let rest = s.get(i..).unwrap_or_default();
                let end = memchr::memchr(b'\n', rest).map_or(s.len(), |k| i + k);
                let mut line = s.get(i..end).unwrap_or_default();
                if let Some(l) = line.strip_suffix(b"\r") {
                    line = l;
                }
                if doc.strip {
                    while let Some(l) = line.strip_prefix(b"\t") {
                        line = l;
                    }
                }
                if line == doc.delim.as_slice() {
                    body_end = i;
                    next = (end + 1).min(s.len());
                    break;
                }
                i = end + 1;
            }
            self.pos = next;
            let body = s.get(start..body_end).unwrap_or_default();
            let text = String::from_utf8_lossy(body).into_owned();
            let script = if doc.quoted || self.depth >= MAX_DEPTH {
                text.clone()
            } else {
                scan_heredoc(body, self.depth + 1, ctx)
            };
            if let Some(b) = ctx.bodies.get_mut(doc.slot) {
                *b = Some((text, script));
            }
        }
    }
}

/// Whether a word is an assignment: `NAME=…` or `NAME+=…` with an unquoted
/// name and `=`.
fn is_assignment(word: &Word) -> bool {
    let b = &word.bytes;
    let name = b
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || c == b'_'))
        .unwrap_or(b.len());
    if name == 0 || b.first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    let eq = match b.get(name..) {
        Some([b'=', ..]) => name,
        Some([b'+', b'=', ..]) => name + 1,
        _ => return false,
    };
    word.quoted_at.is_none_or(|q| q > eq)
}

/// Decodes `$'…'` from just after the opening quote; returns the bytes and
/// the position after the closing quote (the end of the text if none).
fn ansi_c(s: &[u8], mut i: usize) -> (Vec<u8>, usize) {
    /// The value of up to `max` digits of `radix` at `s[*i..]`.
    fn digits(s: &[u8], i: &mut usize, radix: u32, max: usize) -> Option<u32> {
        let mut value: Option<u32> = None;
        for _ in 0..max {
            let Some(d) = s.get(*i).and_then(|&c| char::from(c).to_digit(radix)) else {
                break;
            };
            value = Some(value.unwrap_or(0).saturating_mul(radix).saturating_add(d));
            *i += 1;
        }
        value
    }
    let mut out = Vec::new();
    while let Some(&b) = s.get(i) {
        i += 1;
        if b == b'\'' {
            return (out, i);
        }
        if b != b'\\' {
            out.push(b);
            continue;
        }
        let Some(&e) = s.get(i) else {
            out.push(b'\\');
            break;
        };
        i += 1;
        match e {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(0x07),
            b'b' => out.push(0x08),
            b'e' | b'E' => out.push(0x1b),
            b'f' => out.push(0x0c),
            b'v' => out.push(0x0b),
            b'\\' | b'\'' | b'"' | b'?' => out.push(e),
            b'0'..=b'7' => {
                i -= 1;
                let v = digits(s, &mut i, 8, 3).unwrap_or(0);
                out.push((v & 0xff) as u8);
            }
            b'x' | b'u' | b'U' => {
                let max = match e {
                    b'x' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                match digits(s, &mut i, 16, max) {
                    Some(v) if e == b'x' => out.push((v & 0xff) as u8),
                    Some(v) => {
                        let c = char::from_u32(v).unwrap_or(char::REPLACEMENT_CHARACTER);
                        out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                    }
                    None => out.extend_from_slice(&[b'\\', e]),
                }
            }
            b'c' => match s.get(i) {
                Some(&c) => {
                    out.push(c & 0x1f);
                    i += 1;
                }
                None => out.extend_from_slice(b"\\c"),
            },
            _ => out.extend_from_slice(&[b'\\', e]),
        }
    }
    (out, i)
}

/// How a wrapper's options are read.
struct Wrapper {
    /// The names it goes by.
    names: &'static [&'static str],
    /// Whether it takes options (otherwise only `--` is skipped).
    options: bool,
    /// Short options taking an argument, attached or as the next word.
    short_arg: &'static str,
    /// Short options whose argument can only be attached (`xargs -i{}`).
    short_attached: &'static str,
    /// Long options taking the next word as argument when written without
    /// `=`.
    long_arg: &'static [&'static str],
    /// Short options after which no command follows.
    short_stop: &'static str,
    /// Long options after which no command follows.
    long_stop: &'static [&'static str],
    /// Words taken after the options (the duration of `timeout`).
    operands: usize,
    /// Whether `NAME=value` words may come before the command.
    assignments: bool,
    /// Whether `-S`/`--split-string` splits its argument into words (`env`).
    split: bool,
}

/// A wrapper without options.
const BARE: Wrapper = Wrapper {
    names: &[],
    options: false,
    short_arg: "",
    short_attached: "",
    long_arg: &[],
    short_stop: "",
    long_stop: &[],
    operands: 0,
    assignments: false,
    split: false,
};

/// A wrapper whose options take no argument.
const FLAGS: Wrapper = Wrapper {
    options: true,
    ..BARE
};

/// The wrappers that are seen through.
const WRAPPERS: &[Wrapper] = &[
    Wrapper {
        names: &["sudo"],
        short_arg: "CDgprRtTUuc",
        long_arg: &[
            "user",
            "group",
            "host",
            "prompt",
            "close-from",
            "chdir",
            "chroot",
            "role",
            "type",
            "command-timeout",
            "other-user",
            "login-class",
        ],
        short_stop: "elKVv",
        long_stop: &[
            "edit",
            "list",
            "version",
            "help",
            "validate",
            "remove-timestamp",
        ],
        assignments: true,
        ..FLAGS
    },
    Wrapper {
        names: &["doas"],
        short_arg: "uC",
        short_stop: "L",
        ..FLAGS
    },
    Wrapper {
        names: &["runuser"],
        short_arg: "ugGsw",
        long_arg: &[
            "user",
            "group",
            "supp-group",
            "shell",
            "whitelist-environment",
        ],
        short_stop: "c",
        long_stop: &["command", "session-command"],
        ..FLAGS
    },
    Wrapper {
        names: &["pkexec"],
        long_arg: &["user"],
        long_stop: &["version", "help"],
        ..FLAGS
    },
    Wrapper {
        names: &["env"],
        short_arg: "uCP",
        long_arg: &["unset", "chdir"],
        long_stop: &["help", "version"],
        assignments: true,
        split: true,
        ..FLAGS
    },
    Wrapper {
        names: &["nice"],
        short_arg: "n",
        long_arg: &["adjustment"],
        ..FLAGS
    },
    Wrapper {
        names: &["timeout"],
        short_arg: "sk",
        long_arg: &["signal", "kill-after"],
        operands: 1,
        ..FLAGS
    },
    Wrapper {
        names: &["xargs"],
        short_arg: "adEILnPs",
        short_attached: "eil",
        long_arg: &[
            "arg-file",
            "delimiter",
            "max-lines",
            "max-args",
            "max-procs",
            "max-chars",
            "process-slot-var",
        ],
        ..FLAGS
    },
    Wrapper {
        names: &["command"],
        short_stop: "vV",
        ..FLAGS
    },
    Wrapper {
        names: &["nohup", "eval", "busybox"],
        ..BARE
    },
    Wrapper {
        names: &["time"],
        short_arg: "fo",
        long_arg: &["format", "output"],
        ..FLAGS
    },
    Wrapper {
        names: &["exec"],
        short_arg: "a",
        ..FLAGS
    },
    Wrapper {
        names: &["stdbuf"],
        short_arg: "ioe",
        long_arg: &["input", "output", "error"],
        ..FLAGS
    },
    Wrapper {
        names: &["ionice"],
        short_arg: "cn",
        long_arg: &["class", "classdata"],
        short_stop: "pPu",
        long_stop: &["pid", "pgid", "uid"],
        ..FLAGS
    },
    Wrapper {
        names: &["setsid"],
        ..FLAGS
    },
    Wrapper {
        names: &["taskset"],
        short_stop: "p",
        long_stop: &["pid"],
        operands: 1,
        ..FLAGS
    },
    Wrapper {
        names: &["chroot"],
        long_arg: &["userspec", "groups"],
        operands: 1,
        ..FLAGS
    },
    Wrapper {
        names: &["watch"],
        short_arg: "nq",
        long_arg: &["interval", "equexit"],
        ..FLAGS
    },
];

/// A command being unwrapped: words produced by `env -S` (in reverse
/// order, so that the front is cheap to change), then the rest of the
/// words as written.
struct Seq<'a> {
    /// The first words, last first.
    front: Vec<String>,
    /// The words after them.
    rest: &'a [String],
}

impl<'a> Seq<'a> {
    /// The words of a command.
    fn new(words: &'a [String]) -> Self {
        Self {
            front: Vec::new(),
            rest: words,
        }
    }

    /// Word `i`.
    fn get(&self, i: usize) -> Option<&String> {
        match self.front.len().checked_sub(i + 1) {
            Some(k) => self.front.get(k),
            None => self.rest.get(i - self.front.len()),
        }
    }

    /// How many words there are.
    fn len(&self) -> usize {
        self.front.len() + self.rest.len()
    }

    /// The words.
    fn to_vec(&self) -> Vec<String> {
        let mut out: Vec<String> = self.front.iter().rev().cloned().collect();
        out.extend_from_slice(self.rest);
        out
    }

    /// Removes the first `n` words.
    fn drop_front(&mut self, mut n: usize) {
        while n > 0 && self.front.pop().is_some() {
            n -= 1;
        }
        self.rest = self.rest.get(n..).unwrap_or_default();
    }

    /// Applies a step.
    fn apply(&mut self, step: Step) {
        match step {
            Step::Skip(n) => self.drop_front(n),
            Step::Split { drop, words } => {
                self.drop_front(drop);
                self.front.extend(words.into_iter().rev());
            }
        }
    }
}

/// One wrapper removed.
enum Step {
    /// The command starts this many words further.
    Skip(usize),
    /// `env -S`: the first `drop` words are replaced by `words`.
    Split {
        /// How many words go.
        drop: usize,
        /// What comes in their place.
        words: Vec<String>,
    },
}

/// Removes the wrapper in front of `words`, if there is one and it runs a
/// command.
fn unwrap_step(words: &Seq<'_>) -> Option<Step> {
    let name = basename(words.get(0)?);
    let spec = WRAPPERS.iter().find(|w| w.names.contains(&name))?;
    let mut i = 1;
    while let Some(w) = words.get(i) {
        if w == "--" {
            i += 1;
            break;
        }
        if spec.assignments && is_assignment_str(w) {
            i += 1;
            continue;
        }
        if !spec.options {
            break;
        }
        if spec.split && w == "-" {
            i += 1;
            continue;
        }
        let Some(opt) = w.strip_prefix('-').filter(|o| !o.is_empty()) else {
            break;
        };
        if let Some(long) = opt.strip_prefix('-') {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            if spec.long_stop.contains(&name) {
                return None;
            }
            if spec.split && name == "split-string" {
                return match value {
                    Some(v) => split_step(v, i + 1),
                    None => split_step(words.get(i + 1)?, i + 2),
                };
            }
            i += if value.is_none() && spec.long_arg.contains(&name) {
                2
            } else {
                1
            };
            continue;
        }
        let mut next = i + 1;
        for (k, c) in opt.char_indices() {
            if spec.short_stop.contains(c) {
                return None;
            }
            if spec.short_attached.contains(c) {
                break;
            }
            let split = spec.split && c == 'S';
            if spec.short_arg.contains(c) || split {
                let attached = opt.get(k + c.len_utf8()..).unwrap_or_default();
                if split {
                    return if attached.is_empty() {
                        split_step(words.get(i + 1)?, i + 2)
                    } else {
                        split_step(attached, i + 1)
                    };
                }
                if attached.is_empty() {
                    next = i + 2;
                }
                break;
            }
        }
        i = next;
    }
    i += spec.operands;
    (i < words.len()).then_some(Step::Skip(i))
}

/// `env … -S string rest…`: the first `drop` words give way to `env`
/// followed by the words of the string (which may hold more `env` options).
fn split_step(string: &str, drop: usize) -> Option<Step> {
    let mut words = vec![String::from("env")];
    words.extend(split_words(string));
    Some(Step::Split { drop, words })
}

/// Splits a string into words at unquoted whitespace, removing `'…'`,
/// `"…"` and backslash quoting (the way `env -S` does).
fn split_words(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"') | None, '\\') => {
                if let Some(n) = chars.next() {
                    word.push(n);
                }
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Whether a word is `NAME=value`.
fn is_assignment_str(w: &str) -> bool {
    is_assignment(&Word {
        bytes: w.as_bytes().to_vec(),
        script: None,
        quoted_at: None,
    })
}

/// The command as written, after each of the first [`MAX_STAGE_VIEWS`]
/// wrapper removals, and with every wrapper removed.
fn unwrap_chain(words: &[String]) -> Vec<Vec<String>> {
    let mut chain = vec![words.to_vec()];
    let mut seq = Seq::new(words);
    // Each step removes a word, or (`env -S`) shortens the text: this bound
    // is never reached, it only makes that plain.
    let bound = words.iter().map(|w| w.len() + 1).sum::<usize>();
    let mut last_in_chain = true;
    for _ in 0..bound {
        let Some(step) = unwrap_step(&seq) else {
            break;
        };
        seq.apply(step);
        last_in_chain = chain.len() <= MAX_STAGE_VIEWS;
        if last_in_chain {
            chain.push(seq.to_vec());
        }
    }
    if !last_in_chain {
        chain.push(seq.to_vec());
    }
    chain
}

/// The name patterns compare: the part after the last `/` (a word with
/// whitespace, or ending in `/`, is kept whole).
fn basename(word: &str) -> &str {
    if !word.contains('/') || word.contains(char::is_whitespace) {
        return word;
    }
    match word.rsplit('/').next() {
        Some(base) if !base.is_empty() => base,
        _ => word,
    }
}

/// Words joined by single spaces, the first one by its basename if `base`.
fn render(words: &[String], base: bool) -> String {
    let mut out = String::new();
    for (k, w) in words.iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        out.push_str(if k == 0 && base { basename(w) } else { w });
    }
    out
}

/// Long options replaced by their short spelling in [`normalise`]:
/// `(command, long option, short option)`.
const LONG_OPTIONS: &[(&str, &str, &str)] = &[
    ("rm", "recursive", "-r"),
    ("rm", "force", "-f"),
    ("rm", "dir", "-d"),
    ("rm", "verbose", "-v"),
    ("chmod", "recursive", "-R"),
    ("chown", "recursive", "-R"),
    ("chgrp", "recursive", "-R"),
    ("cp", "recursive", "-R"),
    ("cp", "force", "-f"),
    ("mv", "force", "-f"),
    ("ln", "force", "-f"),
    ("shred", "force", "-f"),
    ("shred", "zero", "-z"),
    ("shred", "remove", "-u"),
    ("shred", "exact", "-x"),
    ("shred", "verbose", "-v"),
    ("git", "force", "-f"),
];

/// Short options that are another letter's synonym in [`normalise`]:
/// `(command, letter, replacement)`.
const SHORT_ALIASES: &[(&str, char, char)] = &[("rm", 'R', 'r'), ("cp", 'r', 'R')];

/// The normalised form of a command's words (see the module docs): the
/// basename of the name, the options split, respelled, sorted and
/// deduplicated, then `--` and the other words in order.
pub(crate) fn normalise(words: &[String]) -> Vec<String> {
    let Some((first, args)) = words.split_first() else {
        return Vec::new();
    };
    let name = basename(first);
    let mut options: Vec<String> = Vec::new();
    let mut rest: Vec<String> = Vec::new();
    let mut ended = false;
    for w in args {
        if ended || w == "--" {
            ended = true;
            rest.push(w.clone());
            continue;
        }
        if let Some(long) = w.strip_prefix("--") {
            let short = LONG_OPTIONS
                .iter()
                .find(|(c, l, _)| *c == name && *l == long)
                .map(|(_, _, s)| *s);
            options.push(short.map_or_else(|| w.clone(), str::to_owned));
            continue;
        }
        match w.strip_prefix('-') {
            Some(cluster)
                if !cluster.is_empty() && cluster.bytes().all(|b| b.is_ascii_alphanumeric()) =>
            {
                for c in cluster.chars() {
                    let c = SHORT_ALIASES
                        .iter()
                        .find(|(n, from, _)| *n == name && *from == c)
                        .map_or(c, |(_, _, to)| *to);
                    options.push(format!("-{c}"));
                }
            }
            Some(other) if !other.is_empty() => options.push(w.clone()),
            _ => rest.push(w.clone()),
        }
    }
    options.sort_unstable();
    options.dedup();
    let mut out = Vec::with_capacity(1 + options.len() + rest.len());
    out.push(name.to_owned());
    out.extend(options);
    out.extend(rest);
    out
}

/// Command patterns compiled into one glob set (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct CommandPatterns {
    /// Every part of every pattern (twice for a part ending in ` *`).
    set: GlobSet,
    /// The `(pattern, part)` each glob of `set` stands for.
    globs: Vec<(usize, usize)>,
    /// How many parts (piped commands) each pattern has.
    parts: Vec<usize>,
}

impl CommandPatterns {
    /// Compiles patterns; an error names the first bad one.
    pub(crate) fn new<S: AsRef<str>>(patterns: &[S]) -> Result<Self, String> {
        let mut builder = GlobSetBuilder::new();
        let mut globs = Vec::new();
        let mut parts = Vec::with_capacity(patterns.len());
        for (p, pattern) in patterns.iter().enumerate() {
            let pattern = pattern.as_ref();
            let text = pattern.split_whitespace().collect::<Vec<_>>().join(" ");
            if text.is_empty() {
                return Err(String::from("empty command pattern"));
            }
            let split: Vec<&str> = text.split(" | ").collect();
            if split.len() > MAX_PARTS {
                return Err(format!(
                    "command pattern `{text}` pipes more than {MAX_PARTS} commands"
                ));
            }
            for (k, part) in split.iter().enumerate() {
                if part.starts_with('|') || part.ends_with('|') {
                    return Err(format!(
                        "command pattern `{text}` has an empty command in its pipeline"
                    ));
                }
                builder.add(glob(part, &text)?);
                globs.push((p, k));
                // Not after an escaping backslash (`echo \ *`).
                if let Some(stem) = part.strip_suffix(" *")
                    && stem.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 0
                {
                    builder.add(glob(stem, &text)?);
                    globs.push((p, k));
                }
            }
            parts.push(split.len());
        }
        let set = builder
            .build()
            .map_err(|e| format!("invalid command patterns: {e}"))?;
        Ok(Self { set, globs, parts })
    }

    /// The indices of the patterns matching some command or pipeline of
    /// `line`, in increasing order.
    pub(crate) fn matches(&self, line: &str) -> Vec<usize> {
        self.matches_commands(&commands(line))
    }

    /// The indices of the patterns matching some command or pipeline of
    /// `commands` (from [`commands`]), in increasing order.
    pub(crate) fn matches_commands(&self, commands: &[Command]) -> Vec<usize> {
        let mut hit = vec![false; self.parts.len()];
        let mut matched: Vec<Vec<(usize, usize)>> = Vec::with_capacity(commands.len());
        let mut scratch = Vec::new();
        for command in commands {
            let mut m = Vec::new();
            for view in command.views() {
                self.set
                    .matches_candidate_into(&Candidate::new(&view), &mut scratch);
                m.extend(scratch.iter().filter_map(|&g| self.globs.get(g).copied()));
            }
            m.sort_unstable();
            m.dedup();
            for &(p, _) in &m {
                if self.parts.get(p) == Some(&1)
                    && let Some(h) = hit.get_mut(p)
                {
                    *h = true;
                }
            }
            matched.push(m);
        }
        if self.parts.iter().any(|&n| n > 1) {
            let mut order: Vec<usize> = (0..commands.len()).collect();
            order.sort_by_key(|&i| (commands[i].pipeline, i));
            for group in order.chunk_by(|&a, &b| commands[a].pipeline == commands[b].pipeline) {
                if group.len() < 2 {
                    continue;
                }
                for (p, &n) in self.parts.iter().enumerate() {
                    if n < 2 || hit[p] {
                        continue;
                    }
                    let mut next = 0;
                    for &c in group {
                        if next < n && matched[c].binary_search(&(p, next)).is_ok() {
                            next += 1;
                        }
                    }
                    if next == n {
                        hit[p] = true;
                    }
                }
            }
        }
        hit.iter()
            .enumerate()
            .filter_map(|(p, &h)| h.then_some(p))
            .collect()
    }
}

/// Compiles one part of `pattern`.
fn glob(part: &str, pattern: &str) -> Result<globset::Glob, String> {
    GlobBuilder::new(part)
        .literal_separator(false)
        .backslash_escape(true)
        .empty_alternates(true)
        .build()
        .map_err(|e| format!("invalid command pattern `{pattern}`: {}", e.kind()))
}

/// The built-in dangerous-command set: `(id, pattern, description)`.
///
/// Patterns are written for the views of [`CommandPatterns`]; those that
/// rely on the normalised view (split, sorted options: `rm -f -r /`) say so.
/// `{,* }` lets other options or words come between two words.
pub(crate) const DANGEROUS: &[(&str, &str, &str)] = &[
    (
        "rm-recursive-force",
        // Normalised: `-f` sorts before `-r`.
        "rm {,* }-f {,* }-r{, *}",
        "deletes a tree recursively and without asking (rm -rf in any spelling)",
    ),
    (
        "rm-no-preserve-root",
        "rm {,* }--no-preserve-root{, *}",
        "deletes with the guard against deleting / turned off",
    ),
    (
        "privilege-escalation",
        "{sudo,doas,su,sudoedit,pkexec} *",
        "runs a command with raised privileges",
    ),
    ("dd-write", "dd {,* }of=*", "dd writing to a file or device"),
    (
        "mkfs",
        "{mkfs,mke2fs,mkswap}*",
        "creates a file system, erasing what the device held",
    ),
    (
        "chmod-777-recursive",
        // Normalised: options first, then the mode.
        "chmod {,* }-R {,* }{777,0777,a+rwx,ugo+rwx}{, *}",
        "makes a whole tree writable by everyone",
    ),
    (
        "chmod-777-root",
        "chmod {,* }{777,0777,a+rwx,ugo+rwx} /",
        "makes the root directory writable by everyone",
    ),
    (
        "chown-recursive",
        // Normalised: `--recursive` is `-R`.
        "{chown,chgrp} {,* }-R{, *}",
        "changes the owner of a whole tree",
    ),
    ("shred", "shred *", "overwrites files beyond recovery"),
    (
        "wipefs",
        "wipefs *",
        "erases file-system signatures from a device",
    ),
    (
        "fdisk",
        "{fdisk,sfdisk,cfdisk,gdisk,sgdisk} *",
        "edits a partition table",
    ),
    ("parted", "parted *", "edits a partition table"),
    (
        "docker-privileged",
        "{docker,podman} * --privileged{,=true}{, *}",
        "starts a container with full access to the host",
    ),
    (
        "download-pipe-shell",
        "{curl,wget} * | {sh,bash,zsh,dash,ksh,fish,python,python3,perl,ruby,node}{, *}",
        "runs a downloaded script (curl … | sh)",
    ),
    (
        "download-subst-shell",
        "{sh,bash,zsh,dash,ksh,source,.} {,* }{<(,$(}{curl,wget} *",
        "runs a downloaded script (bash <(curl …), bash -c \"$(curl …)\")",
    ),
    (
        "git-push-force",
        "git {,* }push {,* }{--force*,+*}",
        "rewrites the history of a remote branch",
    ),
    (
        "git-push-f",
        // Normalised: `-f` (and `--force`) sort before the subcommand.
        "git {,* }-f {,* }push{, *}",
        "rewrites the history of a remote branch",
    ),
    (
        "git-reset-hard",
        "git {,* }reset {,* }--hard{, *}",
        "discards uncommitted changes",
    ),
    (
        "git-clean-force",
        // Normalised.
        "git {,* }-f {,* }clean{, *}",
        "deletes untracked files",
    ),
    ("fork-bomb", ": | :", "the fork bomb :(){ :|:& };:"),
    (
        "write-block-device",
        "*> /dev/{sd,hd,vd,xvd,nvme,mmcblk,disk}*",
        "overwrites a disk through a redirection",
    ),
    (
        "mv-to-dev-null",
        "mv * /dev/null",
        "moves files into /dev/null, destroying them",
    ),
    (
        "crontab-remove",
        // Normalised.
        "crontab {,* }-r{, *}",
        "deletes every cron job of the user",
    ),
    (
        "system-power",
        "{shutdown,reboot,halt,poweroff} *",
        "shuts the machine down or restarts it",
    ),
    (
        "systemctl-power",
        "systemctl {,* }{poweroff,reboot,halt,kexec}{, *}",
        "shuts the machine down or restarts it",
    ),
];

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use proptest::prelude::*;

    use super::*;

    /// The words of every command of a line, in order.
    fn words(line: &str) -> Vec<Vec<String>> {
        commands(line).into_iter().map(|c| c.words).collect()
    }

    /// The commands of a line, each as its words joined by spaces.
    fn joined(line: &str) -> Vec<String> {
        commands(line).iter().map(|c| c.words.join(" ")).collect()
    }

    /// The pipelines of a line: each as its commands' words joined by
    /// spaces, in order of first appearance.
    fn pipelines(line: &str) -> Vec<Vec<String>> {
        let mut out: Vec<(usize, Vec<String>)> = Vec::new();
        for c in commands(line) {
            let text = c.words.join(" ");
            match out.iter_mut().find(|(p, _)| *p == c.pipeline) {
                Some((_, list)) => list.push(text),
                None => out.push((c.pipeline, vec![text])),
            }
        }
        out.into_iter().map(|(_, list)| list).collect()
    }

    fn check_words(cases: &[(&str, &[&[&str]])]) {
        for (line, want) in cases {
            let want: Vec<Vec<String>> = want
                .iter()
                .map(|c| c.iter().map(|w| (*w).to_owned()).collect())
                .collect();
            assert_eq!(words(line), want, "line {line:?}");
        }
    }

    #[test]
    fn words_and_quoting() {
        check_words(&[
            ("", &[]),
            ("  \t ", &[]),
            ("rm -rf /", &[&["rm", "-rf", "/"]]),
            ("r\"m\" -'rf'", &[&["rm", "-rf"]]),
            ("r''m -r\"\"f /", &[&["rm", "-rf", "/"]]),
            ("\"rm\" \"-rf\" \"/\"", &[&["rm", "-rf", "/"]]),
            ("\\rm -rf /", &[&["rm", "-rf", "/"]]),
            ("r\\m \\-rf /", &[&["rm", "-rf", "/"]]),
            (
                "echo 'a b' \"c d\" e\\ f",
                &[&["echo", "a b", "c d", "e f"]],
            ),
            (
                r#"echo "a\"b\\c\$d\`e\xf""#,
                &[&["echo", "a\"b\\c$d`e\\xf"]],
            ),
            ("echo 'it''s' \"x\"'y'z", &[&["echo", "its", "xyz"]]),
            ("echo 'a\\b'", &[&["echo", "a\\b"]]),
            (r"echo $'a\tb\x41\101\n\'q\\'", &[&["echo", "a\tbAA\n'q\\"]]),
            (r"echo $'\u00e9\cA\e\z'", &[&["echo", "é\u{1}\u{1b}\\z"]]),
            (r"r$'\x6d' -rf /", &[&["rm", "-rf", "/"]]),
            ("echo $\"hi $x\"", &[&["echo", "hi $x"]]),
            (
                "echo $HOME ${x:-y} ~ *.rs {a,b} $",
                &[&["echo", "$HOME", "${x:-y}", "~", "*.rs", "{a,b}", "$"]],
            ),
            ("echo \"$HOME\"/x", &[&["echo", "$HOME/x"]]),
            ("echo ''", &[&["echo", ""]]),
            ("echo a\\", &[&["echo", "a\\"]]),
            ("echo é ü", &[&["echo", "é", "ü"]]),
            ("echo \\é", &[&["echo", "é"]]),
        ]);
    }

    #[test]
    fn comments_and_continuations() {
        check_words(&[
            ("echo a # rm -rf /", &[&["echo", "a"]]),
            ("# rm -rf /", &[]),
            ("  # rm -rf /\nls", &[&["ls"]]),
            (
                "echo a#b '#c' \"#d\" \\#e #f",
                &[&["echo", "a#b", "#c", "#d", "#e"]],
            ),
            ("echo $#", &[&["echo", "$#"]]),
            ("echo a;# rm -rf /", &[&["echo", "a"]]),
            ("echo a \\\n  b", &[&["echo", "a", "b"]]),
            ("ec\\\nho x", &[&["echo", "x"]]),
            ("echo \"a\\\nb\"", &[&["echo", "ab"]]),
            ("echo 'a\\\nb'", &[&["echo", "a\\\nb"]]),
            ("rm \\\n-rf \\\n/", &[&["rm", "-rf", "/"]]),
            ("ls \\\n\\\n", &[&["ls"]]),
        ]);
    }

    #[test]
    fn unclosed_and_stray() {
        check_words(&[
            ("echo 'abc", &[&["echo", "abc"]]),
            ("echo 'abc; rm -rf /", &[&["echo", "abc; rm -rf /"]]),
            ("echo \"a b", &[&["echo", "a b"]]),
            ("echo $'a", &[&["echo", "a"]]),
            ("rm -rf / 'x", &[&["rm", "-rf", "/", "x"]]),
            ("echo ${x", &[&["echo", "${x"]]),
            (
                "echo $(rm -rf /",
                &[&["rm", "-rf", "/"], &["echo", "$(rm -rf /"]],
            ),
            (
                "echo `rm -rf /",
                &[&["rm", "-rf", "/"], &["echo", "`rm -rf /"]],
            ),
            ("(rm -rf /", &[&["rm", "-rf", "/"]]),
            ("{ rm -rf /", &[&["rm", "-rf", "/"]]),
            ("ls)", &[&["ls"]]),
            ("ls ) rm -rf /", &[&["ls"], &["rm", "-rf", "/"]]),
            ("ls }", &[&["ls", "}"]]),
            (")))", &[]),
            ("|| && ; ;; &", &[]),
            ("> ", &[&[]]),
        ]);
    }

    #[test]
    fn separators() {
        check_words(&[
            (
                "a; b && c || d | e |& f & g\nh",
                &[
                    &["a"],
                    &["b"],
                    &["c"],
                    &["d"],
                    &["e"],
                    &["f"],
                    &["g"],
                    &["h"],
                ],
            ),
            ("a;b&&c||d|e", &[&["a"], &["b"], &["c"], &["d"], &["e"]]),
            (
                "echo a\n\nrm -rf /\n",
                &[&["echo", "a"], &["rm", "-rf", "/"]],
            ),
            (
                "echo a\r\nrm -rf /\r\n",
                &[&["echo", "a"], &["rm", "-rf", "/"]],
            ),
            (
                "echo ok && sudo rm -rf /",
                &[&["echo", "ok"], &["sudo", "rm", "-rf", "/"]],
            ),
            (
                "echo 'a;b' \"c|d\" e\\&f",
                &[&["echo", "a;b", "c|d", "e&f"]],
            ),
        ]);
    }

    #[test]
    fn redirections_are_not_words() {
        check_words(&[
            (
                "echo hi > f 2>&1 >> g < h &> i &>> j <<< k 3<> l >| m 4<&0 >&2",
                &[&["echo", "hi"]],
            ),
            ("2>/dev/null rm x", &[&["rm", "x"]]),
            ("echo 2 > f", &[&["echo", "2"]]),
            ("echo a2>f", &[&["echo", "a2"]]),
            ("echo \"2\">f", &[&["echo", "2"]]),
            ("> /dev/sda", &[&[]]),
            (
                "dd if=/dev/zero of=/dev/sda",
                &[&["dd", "if=/dev/zero", "of=/dev/sda"]],
            ),
        ]);
        let c = commands("echo hi >f 2>&1 <<<'a b' 3< \"x y\" &>> log >");
        let ops: Vec<(&str, &str)> = c[0]
            .redirects
            .iter()
            .map(|r| (r.op.as_str(), r.target.as_str()))
            .collect();
        assert_eq!(
            ops,
            [
                (">", "f"),
                ("2>&", "1"),
                ("<<<", "a b"),
                ("3<", "x y"),
                ("&>>", "log"),
                (">", "")
            ]
        );
    }

    #[test]
    fn assignments_are_dropped() {
        check_words(&[
            ("FOO=1 BAR=\"x y\" rm -rf /", &[&["rm", "-rf", "/"]]),
            ("FOO=1", &[]),
            ("A+=1 b", &[&["b"]]),
            ("_x1=2 b", &[&["b"]]),
            ("\"A\"=1 b", &[&["A=1", "b"]]),
            ("A\\=1 b", &[&["A=1", "b"]]),
            ("1A=2 b", &[&["1A=2", "b"]]),
            ("=1 b", &[&["=1", "b"]]),
            ("echo A=1", &[&["echo", "A=1"]]),
            ("A='x' B=\"$(rm -rf /)\"", &[&["rm", "-rf", "/"]]),
            ("x=$(rm -rf /)", &[&["rm", "-rf", "/"]]),
            ("a=(1 $(rm -rf /) 2)", &[&["rm", "-rf", "/"]]),
            ("a=(x y); ls", &[&["ls"]]),
        ]);
    }

    #[test]
    fn substitutions() {
        check_words(&[
            (
                "echo $(rm -rf /)",
                &[&["rm", "-rf", "/"], &["echo", "$(rm -rf /)"]],
            ),
            (
                "echo \"$(rm -rf /)\"",
                &[&["rm", "-rf", "/"], &["echo", "$(rm -rf /)"]],
            ),
            ("echo a$(id)b", &[&["id"], &["echo", "a$(id)b"]]),
            (
                "$(curl x | sh)",
                &[&["curl", "x"], &["sh"], &["$(curl x | sh)"]],
            ),
            (
                "echo `rm -rf /`",
                &[&["rm", "-rf", "/"], &["echo", "`rm -rf /`"]],
            ),
            (
                "echo \"`rm -rf /`\"",
                &[&["rm", "-rf", "/"], &["echo", "`rm -rf /`"]],
            ),
            (
                r"echo `echo \`rm -rf /\``",
                &[
                    &["rm", "-rf", "/"],
                    &["echo", "`rm -rf /`"],
                    &["echo", r"`echo \`rm -rf /\``"],
                ],
            ),
            (
                "diff <(ls a) >(tee b)",
                &[
                    &["ls", "a"],
                    &["tee", "b"],
                    &["diff", "<(ls a)", ">(tee b)"],
                ],
            ),
            ("cat < <(curl x)", &[&["curl", "x"], &["cat"]]),
            (
                "echo ${x:-$(rm -rf /)}",
                &[&["rm", "-rf", "/"], &["echo", "${x:-$(rm -rf /)}"]],
            ),
            (
                "echo \"${x:-\"$(id)\"}\"",
                &[&["id"], &["echo", "${x:-\"$(id)\"}"]],
            ),
            ("echo ${x:-'}'}", &[&["echo", "${x:-'}'}"]]),
            (
                "echo $((1 << 2))\nrm -rf /",
                &[&["echo", "$((1 << 2))"], &["rm", "-rf", "/"]],
            ),
            (
                "echo $(( $(id -u) + (2 * 3) ))",
                &[&["id", "-u"], &["echo", "$(( $(id -u) + (2 * 3) ))"]],
            ),
            ("(( x << 2 ))\nrm -rf /", &[&["rm", "-rf", "/"]]),
            // `((…))` is arithmetic only when it closes with `))`.
            ("((rm -rf /))", &[]),
            ("((((rm -rf /))))", &[]),
            ("((rm -rf /) )", &[&["rm", "-rf", "/"]]),
            ("((rm -rf /); ls)", &[&["rm", "-rf", "/"], &["ls"]]),
            ("(( (a) + (b) ))", &[]),
            ("((a) | b)", &[&["a"], &["b"]]),
            (
                "$((rm -rf /) )",
                &[&["rm", "-rf", "/"], &["$((rm -rf /) )"]],
            ),
            (
                "echo $((x > 1 ? $(id) : 2))",
                &[&["id"], &["echo", "$((x > 1 ? $(id) : 2))"]],
            ),
            ("((x <<EOF\nrm -rf /\nEOF\n))", &[]),
            ("((", &[]),
            ("((a", &[&["a"]]),
            ("echo $(())", &[&["echo", "$(())"]]),
            ("echo $( )", &[&["echo", "$( )"]]),
            (
                "echo $(echo \")\"; rm -rf /)",
                &[
                    &["echo", ")"],
                    &["rm", "-rf", "/"],
                    &["echo", "$(echo \")\"; rm -rf /)"],
                ],
            ),
            (
                "echo $(echo ')' # )\nrm -rf /)",
                &[
                    &["echo", ")"],
                    &["rm", "-rf", "/"],
                    &["echo", "$(echo ')' # )\nrm -rf /)"],
                ],
            ),
        ]);
    }

    #[test]
    fn compound_commands() {
        check_words(&[
            ("(cd x && rm y)", &[&["cd", "x"], &["rm", "y"]]),
            ("{ a; b; }", &[&["a"], &["b"]]),
            ("{a,b}", &[&["{a,b}"]]),
            (
                "if true; then rm -rf /; elif x; then y; else z; fi",
                &[&["true"], &["rm", "-rf", "/"], &["x"], &["y"], &["z"]],
            ),
            (
                "while read x; do rm \"$x\"; done",
                &[&["read", "x"], &["rm", "$x"]],
            ),
            ("until false; do :; done", &[&["false"], &[":"]]),
            ("for f in $(ls); do rm $f; done", &[&["ls"], &["rm", "$f"]]),
            ("for f in a b\ndo rm $f\ndone", &[&["rm", "$f"]]),
            (
                "for ((i=0; i<3; i++)); do echo $i; done",
                &[&["echo", "$i"]],
            ),
            ("select x in a b; do echo $x; done", &[&["echo", "$x"]]),
            (
                "case $x in a) rm -rf /;; b|c) ls;; (d) pwd;& *) id;;& esac",
                &[&["rm", "-rf", "/"], &["ls"], &["pwd"], &["id"]],
            ),
            (
                "case x in\n a)\n rm -rf /\n ;;\nesac; echo done",
                &[&["rm", "-rf", "/"], &["echo", "done"]],
            ),
            (
                "case a in a) case b in b) x;; esac; y;; esac; z",
                &[&["x"], &["y"], &["z"]],
            ),
            (
                "echo \"$(case x in a) rm -rf /;; esac)\" && ls",
                &[
                    &["rm", "-rf", "/"],
                    &["echo", "$(case x in a) rm -rf /;; esac)"],
                    &["ls"],
                ],
            ),
            ("f() { rm -rf /; }", &[&["rm", "-rf", "/"]]),
            ("f () { rm -rf /; }; f", &[&["rm", "-rf", "/"], &["f"]]),
            ("function f { rm -rf /; }", &[&["rm", "-rf", "/"]]),
            ("function f() (rm -rf /)", &[&["rm", "-rf", "/"]]),
            (":(){ :|:& };:", &[&[":"], &[":"], &[":"]]),
            ("! rm -rf /", &[&["rm", "-rf", "/"]]),
            ("coproc rm -rf /", &[&["rm", "-rf", "/"]]),
            (
                "[[ -f x ]] && rm x",
                &[&["[[", "-f", "x", "]]"], &["rm", "x"]],
            ),
            ("echo if then fi {", &[&["echo", "if", "then", "fi", "{"]]),
            ("\"if\" x", &[&["if", "x"]]),
            ("A=1 if", &[&["if"]]),
        ]);
    }

    #[test]
    fn here_documents_are_data() {
        check_words(&[
            ("cat <<EOF\nrm -rf /\nEOF\nls", &[&["cat"], &["ls"]]),
            ("cat <<EOF\nrm -rf /\nEOF", &[&["cat"]]),
            ("cat <<'EOF'\n$(rm -rf /)\nEOF", &[&["cat"]]),
            ("cat <<\\EOF\n`rm -rf /`\nEOF", &[&["cat"]]),
            (
                "cat <<EOF\n$(rm -rf /)\nEOF",
                &[&["cat"], &["rm", "-rf", "/"]],
            ),
            (
                "cat <<EOF\n`rm -rf /` \\$(id)\nEOF",
                &[&["cat"], &["rm", "-rf", "/"]],
            ),
            (
                "cat <<-EOF | wc\n\trm -rf /\n\tEOF\nls",
                &[&["cat"], &["wc"], &["ls"]],
            ),
            ("cat <<A <<B\na\nA\nb\nB\nrm x", &[&["cat"], &["rm", "x"]]),
            ("cat <<EOF\nnever closed\nrm -rf /", &[&["cat"]]),
            ("cat << \"E F\"\nx\nE F\nls", &[&["cat"], &["ls"]]),
            (
                "cat <<EOF; ls\nbody\nEOF\npwd",
                &[&["cat"], &["ls"], &["pwd"]],
            ),
            ("cat <<EOF\r\nrm -rf /\r\nEOF\r\nls", &[&["cat"], &["ls"]]),
            ("cat <<EOF\nEOF x\nEOF\nls", &[&["cat"], &["ls"]]),
            ("cat <<", &[&["cat"]]),
            ("x=$(cat <<EOF\nrm -rf /\nEOF\n); ls", &[&["cat"], &["ls"]]),
        ]);
        let c = commands("cat <<EOF > out\nrm -rf /\nEOF\n");
        assert_eq!(c[0].redirects[0].op, "<<");
        assert_eq!(c[0].redirects[0].target, "EOF");
        assert_eq!(c[0].redirects[0].body.as_deref(), Some("rm -rf /\n"));
        assert_eq!(c[0].redirects[1].target, "out");
        let c = commands("cat <<A <<-B\na\nA\n\tb\n\tB\n");
        assert_eq!(c[0].redirects[0].body.as_deref(), Some("a\n"));
        assert_eq!(c[0].redirects[1].body.as_deref(), Some("\tb\n"));
    }

    #[test]
    fn pipelines_are_numbered() {
        let cases: &[(&str, &[&[&str]])] = &[
            ("a | b; c | d | e", &[&["a", "b"], &["c", "d", "e"]]),
            ("a && b | c || d", &[&["a"], &["b", "c"], &["d"]]),
            ("a |& b & c", &[&["a", "b"], &["c"]]),
            ("a |\n b", &[&["a", "b"]]),
            ("{ curl x; } | sh", &[&["curl x", "sh"]]),
            ("curl x | (sh)", &[&["curl x", "sh"]]),
            ("curl x | { cat; sh; }", &[&["curl x", "cat"], &["sh"]]),
            ("(a; b) | c", &[&["a"], &["b", "c"]]),
            ("x $(a | b) | c", &[&["a", "b"], &["x $(a | b)", "c"]]),
            (
                "while read l; do echo $l; done | sh",
                &[&["read l"], &["echo $l", "sh"]],
            ),
            (":(){ :|:& };:", &[&[":", ":"], &[":"]]),
        ];
        for (line, want) in cases {
            let want: Vec<Vec<String>> = want
                .iter()
                .map(|p| p.iter().map(|c| (*c).to_owned()).collect())
                .collect();
            assert_eq!(pipelines(line), want, "line {line:?}");
        }
    }

    #[test]
    fn strings_run_as_lines_are_read() {
        // (line, a command that must be found)
        let cases: &[(&str, &str)] = &[
            ("bash -c \"rm -rf /\"", "rm -rf /"),
            ("sh -c 'ls; rm -rf /'", "rm -rf /"),
            ("zsh -c 'rm -rf /'", "rm -rf /"),
            ("dash -c 'rm -rf /'", "rm -rf /"),
            ("/bin/bash -c 'rm -rf /'", "rm -rf /"),
            ("bash -ec 'rm -rf /'", "rm -rf /"),
            ("bash -lc 'rm -rf /'", "rm -rf /"),
            ("bash -o pipefail -c 'rm -rf /'", "rm -rf /"),
            ("bash --norc --login -c 'rm -rf /'", "rm -rf /"),
            ("bash -c -x 'rm -rf /'", "rm -rf /"),
            ("fish --command='rm -rf /'", "rm -rf /"),
            ("env bash -c 'rm -rf /'", "rm -rf /"),
            ("sudo sh -c 'rm -rf /'", "rm -rf /"),
            ("sudo -u root sh -c 'rm -rf /'", "rm -rf /"),
            ("xargs sh -c 'rm -rf \"$1\"' _", "rm -rf $1"),
            ("nohup sh -c 'rm -rf /' &", "rm -rf /"),
            ("bash -c \"sh -c 'rm -rf /'\"", "rm -rf /"),
            ("bash -c \"bash -c \\\"sh -c 'rm -rf /'\\\"\"", "rm -rf /"),
            ("sh -c 'echo $(rm -rf /)'", "rm -rf /"),
            ("eval \"rm -rf /\"", "rm -rf /"),
            ("eval rm -rf /", "rm -rf /"),
            ("eval 'ls; rm -rf /'", "rm -rf /"),
            ("su -c 'rm -rf /' root", "rm -rf /"),
            ("su root -c 'rm -rf /'", "rm -rf /"),
            ("su - root --command='rm -rf /'", "rm -rf /"),
            ("runuser -u x -- sh -c 'rm -rf /'", "rm -rf /"),
            ("bash <<< 'rm -rf /'", "rm -rf /"),
            ("bash -s <<EOF\nrm -rf /\nEOF", "rm -rf /"),
            ("sudo bash <<'EOF'\nrm -rf /\nEOF", "rm -rf /"),
            ("trap 'rm -rf /' EXIT", "rm -rf /"),
            ("watch -n 1 'rm -rf /'", "rm -rf /"),
            ("find / -exec rm -rf {} \\;", "rm -rf {}"),
            ("find / -name x -exec rm -rf {} + -print", "rm -rf {}"),
            ("find . -execdir sh -c 'rm -rf \"$0\"' {} ';'", "rm -rf $0"),
            ("find . -ok rm {} \\; -exec shred {} \\;", "shred {}"),
            ("sudo find / -delete -exec rm {} \\;", "rm {}"),
        ];
        for (line, want) in cases {
            let got = joined(line);
            assert!(
                got.iter().any(|c| c == want),
                "{line:?}: {want:?} not in {got:?}"
            );
        }
        // Not read: a script, a `-c` without its string, a lookup.
        for line in [
            "bash script.sh",
            "bash -c",
            "bash -x script.sh 'rm -rf /'",
            "echo 'sh -c \"rm -rf /\"'",
            "cat <<EOF\nrm -rf /\nEOF",
            "bash script <<EOF\nrm -rf /\nEOF",
            "trap -p 'rm -rf /'",
            "watch -x 'rm -rf /'",
            // Known gaps (see the module docs).
            "echo 'rm -rf /' | sh",
            "ssh host 'rm -rf /'",
            "CMD='rm -rf /'; $CMD",
        ] {
            let got = joined(line);
            assert!(!got.iter().any(|c| c == "rm -rf /"), "{line:?}: {got:?}");
        }
    }

    #[test]
    fn substitutions_are_read_once() {
        // A substitution in a `-c` string is read where it stands; the
        // string read again holds `$_` in its place.
        for line in [
            "bash -c \"$(rm -rf /)\"",
            "bash -c \"echo `rm -rf /`\"",
            "bash -c 'echo $(rm -rf /)'",
            "bash <<< \"$(rm -rf /)\"",
            "bash <<EOF\n$(rm -rf /)\nEOF",
            "eval \"$(rm -rf /)\"",
            "sudo sh -c \"${x:-$(rm -rf /)}\"",
        ] {
            let got = joined(line);
            let n = got.iter().filter(|c| *c == "rm -rf /").count();
            assert_eq!(n, 1, "{line:?}: {got:?}");
        }
        assert_eq!(
            joined("bash -c \"$(curl x)\""),
            ["curl x", "bash -c $(curl x)", PLACEHOLDER]
        );
        assert_eq!(joined("bash -c \"rm -rf $(pwd)\"")[2], "rm -rf $_");
    }

    #[test]
    fn long_substitutions_are_elided() {
        let inner = "é".repeat(200);
        let c = commands(&format!("echo a$(echo {inner})b"));
        assert_eq!(c[0].words, ["echo", inner.as_str()]);
        let word = &c[1].words[1];
        assert!(word.starts_with("a$(echo éé"), "{word}");
        assert!(word.ends_with("é…)b"), "{word}");
        assert!(word.len() < MAX_SUBST_TEXT + 10, "{}", word.len());
    }

    #[test]
    fn wrappers_are_removed() {
        let cases: &[(&str, &str)] = &[
            ("rm -rf /", "rm -rf /"),
            ("sudo rm -rf /", "rm -rf /"),
            ("sudo -u root -E -- rm -rf /", "rm -rf /"),
            ("sudo -Eu root rm", "rm"),
            ("sudo --user=root --preserve-env rm", "rm"),
            ("sudo --user root HOME=/x rm", "rm"),
            ("sudo -i rm", "rm"),
            ("sudo env X=1 nice rm -rf /", "rm -rf /"),
            ("/usr/bin/sudo /bin/rm -rf /", "/bin/rm -rf /"),
            ("doas -u root rm", "rm"),
            ("pkexec --user root rm", "rm"),
            ("env -i PATH=/x rm -rf /", "rm -rf /"),
            ("env -u HOME -C /tmp rm", "rm"),
            ("env --unset HOME --chdir=/tmp rm", "rm"),
            ("env - rm", "rm"),
            ("env -S 'rm -rf' /", "rm -rf /"),
            ("env -S\"rm -rf /\"", "rm -rf /"),
            ("env --split-string='X=1 rm -rf' /", "rm -rf /"),
            ("env -- rm", "rm"),
            ("nice -n 10 rm", "rm"),
            ("nice -n10 rm", "rm"),
            ("nice -10 rm", "rm"),
            ("nice --adjustment=5 rm", "rm"),
            ("timeout 5 rm -rf /", "rm -rf /"),
            ("timeout -s KILL 5 rm", "rm"),
            ("timeout --signal=KILL -k 1 5s rm", "rm"),
            ("timeout --preserve-status 5 rm", "rm"),
            ("xargs rm -rf", "rm -rf"),
            ("xargs -0 -n 1 -I{} rm -rf {}", "rm -rf {}"),
            ("xargs -P 4 --max-args 2 -i rm", "rm"),
            ("xargs -a list -d '\\n' rm", "rm"),
            ("command rm", "rm"),
            ("command -p rm", "rm"),
            ("nohup rm", "rm"),
            ("time -p rm", "rm"),
            ("time rm", "rm"),
            ("exec -a x rm", "rm"),
            ("exec -cl rm", "rm"),
            ("stdbuf -oL -e 0 rm", "rm"),
            ("ionice -c3 -n 7 rm", "rm"),
            ("setsid -f rm", "rm"),
            ("taskset -c 0 rm", "rm"),
            ("taskset 0x1 rm", "rm"),
            ("chroot /mnt rm", "rm"),
            ("busybox rm -rf /", "rm -rf /"),
            ("eval rm", "rm"),
            ("watch -n 1 rm", "rm"),
            ("nohup nice timeout 5 sudo -u x env A=1 xargs rm", "rm"),
            // Not unwrapped: no command follows, or it is not run.
            ("sudo", "sudo"),
            ("sudo -l rm", "sudo -l rm"),
            ("sudo -e /etc/passwd", "sudo -e /etc/passwd"),
            ("timeout 5", "timeout 5"),
            ("env", "env"),
            ("env X=1", "env X=1"),
            ("command -v rm", "command -v rm"),
            ("ionice -p 12", "ionice -p 12"),
            ("taskset -p 1 2", "taskset -p 1 2"),
            ("nice", "nice"),
            ("sudoku rm", "sudoku rm"),
        ];
        for (line, want) in cases {
            let c = &commands(line)[0];
            assert_eq!(c.unwrapped().join(" "), *want, "line {line:?}");
        }
        assert_eq!(commands("sudo /bin/rm x")[0].name(), Some("sudo"));
        assert_eq!(commands("/bin/rm x")[0].name(), Some("rm"));
    }

    #[test]
    fn long_wrapper_chains_are_cheap() {
        let line = format!("{}rm -rf /", "sudo ".repeat(20_000));
        let start = Instant::now();
        let c = commands(&line);
        assert_eq!(c[0].unwrapped().join(" "), "rm -rf /");
        let views = c[0].views();
        assert!(views.len() < 40, "{}", views.len());
        assert!(views.iter().any(|v| v == "rm -f -r /"));
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn normalisation() {
        let cases: &[(&str, &str)] = &[
            ("rm -rf /", "rm -f -r /"),
            ("rm -fr /", "rm -f -r /"),
            ("rm -r -f /", "rm -f -r /"),
            ("rm -f -r /", "rm -f -r /"),
            ("rm --recursive --force /", "rm -f -r /"),
            ("rm --force -R /", "rm -f -r /"),
            ("rm -Rf /", "rm -f -r /"),
            ("rm -rfrf /", "rm -f -r /"),
            ("rm / -rf", "rm -f -r /"),
            ("/bin/rm -rf /", "rm -f -r /"),
            (
                "rm -rfv --no-preserve-root a b",
                "rm --no-preserve-root -f -r -v a b",
            ),
            ("rm -rf -- -x -y", "rm -f -r -- -x -y"),
            ("rm - -f", "rm -f -"),
            ("chmod --recursive 777 /", "chmod -R 777 /"),
            ("chmod 777 -R /", "chmod -R 777 /"),
            ("cp -r a b", "cp -R a b"),
            ("git push --force origin", "git -f push origin"),
            ("git clean -fdx", "git -d -f -x clean"),
            ("tar --file=x -x", "tar --file=x -x"),
            ("ls", "ls"),
        ];
        for (line, want) in cases {
            let words = &commands(line)[0].words;
            assert_eq!(normalise(words).join(" "), *want, "line {line:?}");
        }
        assert!(normalise(&[]).is_empty());
    }

    #[test]
    fn views_of_a_command() {
        let c = &commands("sudo /bin/rm -rf / 2>/dev/null")[0];
        assert_eq!(
            c.views(),
            [
                "sudo /bin/rm -rf / 2> /dev/null",
                "sudo /bin/rm -rf /",
                "/bin/rm -rf /",
                "rm -rf / 2> /dev/null",
                "rm -rf /",
                "rm -f -r /",
            ]
        );
        assert_eq!(commands("> /dev/sda")[0].views(), ["> /dev/sda"]);
        assert_eq!(commands("echo x >&2")[0].views(), ["echo x >&2", "echo x"]);
    }

    fn hits(patterns: &[&str], line: &str) -> Vec<usize> {
        CommandPatterns::new(patterns).unwrap().matches(line)
    }

    #[test]
    fn pattern_semantics() {
        // (pattern, line, matches)
        let cases: &[(&str, &str, bool)] = &[
            ("rm -rf *", "rm -rf /", true),
            ("rm -rf *", "rm -rf", true),
            ("rm -rf *", "rm -rfv x", false),
            ("rm -rf*", "rm -rfv x", true),
            ("rm -rf *", "echo rm -rf /", false),
            ("rm -rf *", "echo 'rm -rf /'", false),
            ("rm -rf *", "echo ok && rm -rf /", true),
            ("rm -rf *", "/bin/rm -rf /", true),
            ("rm -rf *", "./rm -rf /", true),
            ("/bin/rm *", "/bin/rm -rf /", true),
            ("/bin/rm *", "rm -rf /", false),
            ("rm -rf *", "RM -rf /", false),
            ("rm -rf *", "sudo rm -rf /", true),
            ("sudo *", "sudo rm -rf /", true),
            ("nice *", "sudo nice rm", true),
            ("rm -?f /", "rm -rf /", true),
            ("rm [-]rf /", "rm -rf /", true),
            ("git push --force*", "git push --force-with-lease", true),
            ("git push --force*", "git push origin --force", false),
            ("git push * --force*", "git push origin --force", true),
            ("  rm   -rf \t * ", "rm -rf /", true),
            ("rm -f -r *", "rm -rf /", true),
            ("rm -f -r *", "rm --recursive --force x", true),
            ("echo a  b", "echo 'a  b'", false),
            ("echo a b", "echo 'a b'", true),
            ("* > /dev/sda", "echo x > /dev/sda", true),
            ("> /dev/sda", "> /dev/sda", true),
            ("curl * | sh", "curl x | sh", true),
            ("curl * | sh", "curl -s x | sudo sh", true),
            ("curl * | sh", "curl x | tee log | sh | cat", true),
            ("curl * | sh", "echo | curl x | sh", true),
            ("curl * | sh", "curl x; sh", false),
            ("curl * | sh", "sh | curl x", false),
            ("curl * | sh", "curl x | bash", false),
            ("curl * | sh", "curl x", false),
            ("curl * | sh", "$(curl x | sh)", true),
            ("curl * | sh", "echo $(curl x) | sh", false),
            ("a | a", "a", false),
            ("a | a", "a | a", true),
            ("echo \\ *", "echo ' x'", true),
            ("echo \\ *", "echo", false),
            ("echo \\\\ *", "echo '\\'", true),
            ("echo $(*", "echo $(id)", true),
            ("echo *…)", &format!("echo $({})", "x".repeat(300)), true),
        ];
        for (pattern, line, want) in cases {
            let got = !hits(&[*pattern], line).is_empty();
            assert_eq!(got, *want, "pattern {pattern:?} line {line:?}");
        }
        assert_eq!(
            hits(&["ls *", "rm -rf *", "x | y", "cat *"], "rm -rf / | ls"),
            [0, 1]
        );
    }

    #[test]
    fn bad_patterns_are_reported() {
        for (pattern, error) in [
            ("", "empty command pattern"),
            ("  ", "empty command pattern"),
            (
                "| sh",
                "command pattern `| sh` has an empty command in its pipeline",
            ),
            (
                "curl |",
                "command pattern `curl |` has an empty command in its pipeline",
            ),
            (
                "a | | b",
                "command pattern `a | | b` has an empty command in its pipeline",
            ),
            (
                "rm [a",
                "invalid command pattern `rm [a`: unclosed character class; missing ']'",
            ),
            (
                "rm [z-a]",
                "invalid command pattern `rm [z-a]`: invalid range; 'z' > 'a'",
            ),
            (
                "rm {a",
                "invalid command pattern `rm {a`: unclosed alternate group; missing '}' \
                 (maybe escape '{' with '[{]'?)",
            ),
            ("rm \\", "invalid command pattern `rm \\`: dangling '\\'"),
        ] {
            assert_eq!(
                CommandPatterns::new(&[pattern]).unwrap_err(),
                error,
                "pattern {pattern:?}"
            );
        }
        let many = vec!["a"; MAX_PARTS + 1].join(" | ");
        assert!(
            CommandPatterns::new(&[many])
                .unwrap_err()
                .contains("more than 16")
        );
        let owned: Vec<String> = vec!["rm *".into()];
        assert!(CommandPatterns::new(&owned).is_ok());
        assert!(
            CommandPatterns::new::<&str>(&[])
                .unwrap()
                .matches("rm")
                .is_empty()
        );
    }

    /// The built-in set, one id at a time: lines it must flag and near
    /// misses it must not.
    const DANGEROUS_CASES: &[(&str, &[&str], &[&str])] = &[
        (
            "rm-recursive-force",
            &[
                "rm -rf /",
                "rm -fr /",
                "rm -r -f /",
                "rm -f -r /",
                "rm --recursive --force /",
                "rm -Rf ~",
                "rm -rfv build",
                "rm -r -i -f x",
                "rm / -rf",
                "rm -rf",
                "/bin/rm -rf /",
                "xargs rm -rf",
            ],
            &[
                "rm -f file",
                "rm -r dir",
                "rm -rv dir",
                "rm file-r -f",
                "rm -- -rf",
                "echo rm -rf /",
                "rmdir -rf x",
                "grep -rf x",
            ],
        ),
        (
            "rm-no-preserve-root",
            &["rm -r --no-preserve-root /", "rm --no-preserve-root -rf /"],
            &["rm --preserve-root -r /", "echo --no-preserve-root"],
        ),
        (
            "privilege-escalation",
            &[
                "sudo ls",
                "sudo",
                "doas rm x",
                "su -",
                "su",
                "pkexec id",
                "env sudo ls",
                "x | sudo tee /etc/x",
            ],
            &["sudoku", "echo sudo", "ls sudo", "suspend"],
        ),
        (
            "dd-write",
            &[
                "dd if=/dev/zero of=/dev/sda",
                "dd of=/dev/sda if=x bs=1M",
                "sudo dd if=x of=y",
            ],
            &[
                "dd if=/dev/sda",
                "dd if=/dev/sda | gzip > img",
                "echo dd of=x",
                "dd",
            ],
        ),
        (
            "mkfs",
            &[
                "mkfs.ext4 /dev/sdb1",
                "mkfs -t ext4 /dev/sdb1",
                "sudo mke2fs /dev/x",
                "mkswap /dev/x",
            ],
            &["mkdir fs", "echo mkfs", "man mkfs"],
        ),
        (
            "chmod-777-recursive",
            &[
                "chmod -R 777 /",
                "chmod -R 0777 /var",
                "chmod 777 -R x",
                "chmod --recursive 777 x",
                "chmod -Rv a+rwx x",
                "chmod -R ugo+rwx x",
            ],
            &[
                "chmod -R 755 x",
                "chmod 777 x",
                "chmod -R 7777 x",
                "chmod -R 775 x",
                "chown -R 777 x",
            ],
        ),
        (
            "chmod-777-root",
            &["chmod 777 /", "chmod -v 0777 /"],
            &["chmod 777 /tmp/x", "chmod 755 /"],
        ),
        (
            "chown-recursive",
            &[
                "chown -R user /",
                "chown -hR u:g x",
                "chown --recursive u x",
                "chgrp -R g x",
                "sudo chown -R a b",
            ],
            &["chown user x", "chown -h u x", "echo chown -R"],
        ),
        (
            "shred",
            &["shred -u secret", "shred x", "sudo shred /dev/sda"],
            &["echo shred", "shredder x"],
        ),
        ("wipefs", &["wipefs -a /dev/sda"], &["echo wipefs -a"]),
        (
            "fdisk",
            &[
                "fdisk /dev/sda",
                "sfdisk /dev/sda < t",
                "sgdisk -Z /dev/sda",
            ],
            &["echo fdisk", "fdisks x"],
        ),
        (
            "parted",
            &[
                "parted /dev/sda rm 1",
                "sudo parted -s /dev/sda mklabel gpt",
            ],
            &["echo parted"],
        ),
        (
            "docker-privileged",
            &[
                "docker run --privileged ubuntu",
                "docker run -it --privileged=true ubuntu sh",
                "docker run -d ubuntu --privileged",
                "docker container run --privileged x",
                "podman run --privileged x",
                "sudo docker run --privileged x",
            ],
            &[
                "docker run ubuntu",
                "docker run --privileged=false x",
                "docker ps",
                "echo docker run --privileged",
            ],
        ),
        (
            "download-pipe-shell",
            &[
                "curl https://x.sh | sh",
                "curl -fsSL https://x | bash",
                "wget -qO- https://x | sh",
                "curl x | sudo sh",
                "curl x | sudo -E bash -s -- --flag",
                "curl x | bash -s",
                "curl x | zsh",
                "curl x | tee log | sh",
                "curl x | python3 -",
                "echo $(curl x | sh)",
                "bash -c 'curl x | sh'",
            ],
            &[
                "curl x | grep sh",
                "curl x | shasum",
                "curl -o install.sh x && sh install.sh",
                "curl x > f; sh f",
                "cat x | sh",
                "curl x | jq .",
                "echo 'curl x | sh'",
            ],
        ),
        (
            "download-subst-shell",
            &[
                "bash <(curl -s https://x)",
                "sh <(wget -qO- x)",
                "bash -c \"$(curl -fsSL https://x)\"",
                "source <(curl x)",
                ". <(curl x)",
            ],
            &[
                "bash <(cat x)",
                "diff <(curl a) <(curl b)",
                "bash script.sh",
            ],
        ),
        (
            "git-push-force",
            &[
                "git push --force",
                "git push origin main --force",
                "git push --force-with-lease",
                "git -C repo push --force origin",
                "git push origin +main",
            ],
            &[
                "git push",
                "git push origin main",
                "git push --no-force",
                "git pull --force",
                "echo git push --force",
            ],
        ),
        (
            "git-push-f",
            &[
                "git push -f",
                "git push origin -f",
                "git push -uf origin main",
                "git -C x push -f",
            ],
            &[
                "git push -u origin",
                "git fetch -f",
                "git push origin feature-fix",
            ],
        ),
        (
            "git-reset-hard",
            &[
                "git reset --hard",
                "git reset --hard HEAD~3",
                "git -C x reset -q --hard",
            ],
            &["git reset --soft HEAD~1", "git reset file"],
        ),
        (
            "git-clean-force",
            &["git clean -fdx", "git clean -f", "git clean --force -d"],
            &["git clean -n", "git clean -dn", "git commit -f"],
        ),
        (
            "fork-bomb",
            &[":(){ :|:& };:", ": () { : | : & }; :"],
            &[":", ": ; :", "a | a"],
        ),
        (
            "write-block-device",
            &[
                "> /dev/sda",
                "echo x > /dev/sda",
                "cat img >> /dev/nvme0n1",
                "cat img 1>/dev/mmcblk0",
                "sudo sh -c 'cat x > /dev/sdb'",
            ],
            &["echo x > /dev/null", "cat /dev/sda > img", "ls /dev/sda"],
        ),
        (
            "mv-to-dev-null",
            &["mv x /dev/null", "mv -f a b /dev/null"],
            &["mv x y", "mv /dev/null x", "cp x /dev/null"],
        ),
        (
            "crontab-remove",
            &["crontab -r", "crontab -ir", "crontab -u x -r"],
            &["crontab -l", "crontab -e"],
        ),
        (
            "system-power",
            &["shutdown -h now", "reboot", "sudo poweroff", "halt -f"],
            &["echo reboot", "rebooter"],
        ),
        (
            "systemctl-power",
            &[
                "systemctl reboot",
                "sudo systemctl poweroff -i",
                "systemctl --force reboot",
            ],
            &["systemctl restart nginx", "systemctl status"],
        ),
    ];

    fn dangerous() -> CommandPatterns {
        let patterns: Vec<&str> = DANGEROUS.iter().map(|d| d.1).collect();
        CommandPatterns::new(&patterns).unwrap()
    }

    /// The ids of the built-in patterns matching a line.
    fn dangerous_ids(set: &CommandPatterns, line: &str) -> Vec<&'static str> {
        set.matches(line)
            .into_iter()
            .map(|i| DANGEROUS[i].0)
            .collect()
    }

    #[test]
    fn dangerous_set_hits_and_near_misses() {
        let set = dangerous();
        for (id, hits, misses) in DANGEROUS_CASES {
            assert!(!hits.is_empty() && !misses.is_empty(), "{id}");
            for line in *hits {
                let got = dangerous_ids(&set, line);
                assert!(got.contains(id), "{id}: {line:?} not flagged (got {got:?})");
            }
            for line in *misses {
                let got = dangerous_ids(&set, line);
                assert!(!got.contains(id), "{id}: {line:?} flagged");
            }
        }
        for (id, _, _) in DANGEROUS {
            assert!(
                DANGEROUS_CASES.iter().any(|c| c.0 == *id),
                "{id} has no test cases"
            );
        }
        let mut ids: Vec<&str> = DANGEROUS.iter().map(|d| d.0).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), DANGEROUS.len(), "ids are unique");
    }

    #[test]
    fn hostile_spellings_of_rm_rf() {
        let set = dangerous();
        for line in [
            "echo ok && sudo rm -rf /",
            "echo ok; rm -rf /",
            "echo ok\nrm -rf /",
            "true || rm -rf /",
            "ls | rm -rf /",
            "bash -c \"rm -rf /\"",
            "sh -c 'rm -rf /'",
            "bash -c \"sh -c 'rm -rf /'\"",
            "r''m -r\"\"f /",
            "\"rm\" \"-rf\" \"/\"",
            "\\rm -rf /",
            "r\\m -\\r\\f /",
            "$'rm' $'-rf' /",
            "echo $(rm -rf /)",
            "echo `rm -rf /`",
            "echo \"`rm -rf /`\"",
            "x=$(rm -rf /)",
            "env -i PATH=/x rm -rf /",
            "timeout 5 rm -rf /",
            "timeout -s 9 5s rm -rf /",
            "sudo env X=1 nice rm -rf /",
            "nohup rm -rf / &",
            "find / | xargs rm -rf",
            "find / -print0 | xargs -0 rm -rf",
            "find / -exec rm -rf {} \\;",
            "(rm -rf /)",
            "{ rm -rf /; }",
            "if true; then rm -rf /; fi",
            "f() { rm -rf /; }; f",
            "FOO=1 rm -rf /",
            "/usr/bin/rm --recursive --force /",
            "command rm -rf /",
            "exec rm -rf /",
            "eval 'rm -rf /'",
            "bash <<EOF\nrm -rf /\nEOF",
            "cat <<EOF\n$(rm -rf /)\nEOF",
            "echo \"${x:-$(rm -rf /)}\"",
            "rm -rf /  # cleanup",
            "rm -rf / 'unclosed",
            "busybox rm -rf /",
            "sudo -u root -- /bin/rm -Rf /",
            "echo hi > /dev/null; rm -rf / 2>&1",
        ] {
            let got = dangerous_ids(&set, line);
            assert!(
                got.contains(&"rm-recursive-force"),
                "{line:?} not flagged: {got:?}"
            );
        }
        for line in [
            "echo 'rm -rf /'",
            "echo \"rm -rf /\"",
            "# rm -rf /",
            "echo hi # rm -rf /",
            "cat <<EOF\nrm -rf /\nEOF",
            "cat <<'EOF'\n$(rm -rf /)\nEOF",
            "grep -r 'rm -rf' .",
            "git commit -m 'rm -rf /'",
            "printf '%s\\n' rm -rf /",
            "man rm",
            "rm -f x",
        ] {
            let got = dangerous_ids(&set, line);
            assert!(
                !got.contains(&"rm-recursive-force"),
                "{line:?} flagged: {got:?}"
            );
        }
    }

    /// Runs `f`, failing if it takes longer than a generous bound (debug
    /// builds on a shared machine).
    fn quickly<T>(what: &str, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = f();
        let took = start.elapsed();
        // A guard against hangs and blow-ups, far above the milliseconds these take.
        assert!(took < Duration::from_secs(60), "{what} took {took:?}");
        out
    }

    #[test]
    fn hostile_sizes_complete_quickly() {
        let set = dangerous();
        let deep = |open: &str, close: &str, n: usize| {
            format!("{}rm -rf /{}", open.repeat(n), close.repeat(n))
        };
        let flagged = [
            deep("$(", ")", 1000),
            deep("$(", ")", 50_000),
            deep("( ", ")", 50_000),
            deep("$( (", ") )", 20_000),
            deep("{ ", "; }", 20_000),
            deep("echo \"$(", ")\"", 10_000),
            deep("<(", ")", 20_000),
            deep("x=$(", ")", 20_000),
            deep("${x:-$(", ")}", 10_000),
            deep("$(", "", 50_000),
            format!("{}rm -rf /", "a; ".repeat(30_000)),
            format!("{}rm -rf /", "echo 'x' \"y\" $z | ".repeat(5_000)),
            format!("{}rm -rf /", "sudo ".repeat(20_000)),
            format!("{}rm -rf /", "eval ".repeat(20_000)),
            format!("rm -rf /{}", " x".repeat(50_000)),
            format!("rm -rf /\n{}", "cat <<EOF\n".repeat(20_000)),
            format!("rm -rf / {}", "'".repeat(100_001)),
            format!("rm -rf / {}", "\\".repeat(100_001)),
        ];
        for line in &flagged {
            let got = quickly(&line[..40.min(line.len())], || dangerous_ids(&set, line));
            assert!(
                got.contains(&"rm-recursive-force"),
                "{:?}… not flagged",
                &line[..40.min(line.len())]
            );
        }
        for line in [
            "`".repeat(100_000),
            "\"".repeat(100_000),
            "$(".repeat(50_000),
            "${".repeat(50_000),
            "<<".repeat(50_000),
            "((".repeat(50_000),
            "case x in ".repeat(20_000),
            "f() ".repeat(20_000),
            "x".repeat(100_000),
            "a\n".repeat(50_000),
            "find -exec ".repeat(10_000),
            "env -S ".repeat(10_000),
            "sh -c \"".repeat(10_000),
            // `bash -c bash -c … rm -rf /` runs `bash`: the rest are arguments.
            format!("{}rm -rf /", "bash -c ".repeat(20_000)),
        ] {
            quickly(&line[..20], || dangerous_ids(&set, &line));
        }
    }

    /// A line that runs `inner` through `n` nested backticks.
    fn backticks(inner: &str, n: usize) -> String {
        let mut line = inner.to_owned();
        for _ in 0..n {
            let escaped = line.replace('\\', "\\\\").replace('`', "\\`");
            line = format!("echo `{escaped}`");
        }
        line
    }

    /// A line that runs `inner` through `n` nested `sh -c '…'`.
    fn nested_sh(inner: &str, n: usize) -> String {
        let mut line = inner.to_owned();
        for _ in 0..n {
            line = format!("sh -c '{}'", line.replace('\'', "'\\''"));
        }
        line
    }

    #[test]
    fn nested_strings_up_to_the_depth_limit() {
        let set = dangerous();
        for n in [1, 2, 5, 10] {
            let line = backticks("rm -rf /", n);
            assert!(
                dangerous_ids(&set, &line).contains(&"rm-recursive-force"),
                "{n} backticks"
            );
            let line = nested_sh("rm -rf /", n);
            assert!(
                dangerous_ids(&set, &line).contains(&"rm-recursive-force"),
                "{n} sh -c"
            );
        }
        // Beyond the limit nothing breaks, it just is not read again.
        let line = backticks("rm -rf /", 14);
        quickly("14 backticks", || commands(&line));
        let line = nested_sh("rm -rf /", 11);
        assert!(line.len() > 200_000);
        let got = quickly("11 sh -c", || dangerous_ids(&set, &line));
        assert!(got.contains(&"rm-recursive-force"));
        let line = format!("{}rm -rf /{}", "$(bash -c \"".repeat(40), "\")".repeat(40));
        quickly("40 bash -c", || commands(&line));
    }

    #[test]
    fn depth_is_bounded() {
        // `bash -c` inside `bash -c` without quoting grows linearly; reading
        // again stops at MAX_DEPTH.
        let line = format!("{}x", "eval ".repeat(100));
        let c = commands(&line);
        assert_eq!(c.len(), MAX_DEPTH + 1);
        assert!(c.iter().all(|c| c.depth <= MAX_DEPTH));
        // The deepest is not read again, but still seen through.
        let last = c.iter().find(|c| c.depth == MAX_DEPTH).unwrap();
        assert_eq!(last.words.len(), 100 - MAX_DEPTH + 1);
        assert_eq!(last.unwrapped(), ["x"]);
    }

    proptest! {
        // No regression files: this module writes nothing outside itself.
        #![proptest_config(ProptestConfig {
            failure_persistence: None,
            ..ProptestConfig::with_cases(512)
        })]

        #[test]
        fn never_panics(line in "[a-z $'\"`\\\\(){};|&<>#\n=*-]{0,80}") {
            let set = dangerous();
            let _ = set.matches(&line);
            for c in commands(&line) {
                let _ = c.views();
            }
        }

        #[test]
        fn quoting_a_letter_changes_nothing(
            // `q…`: a quoted reserved word (`'d'o`) is rightly no keyword.
            word in "q[a-z]{0,7}",
            k in 0usize..8,
            quote in 0usize..4,
        ) {
            let k = k % word.len();
            let (a, b) = word.split_at(k);
            let (c, rest) = b.split_at(1);
            let quoted = match quote {
                0 => format!("{a}'{c}'{rest}"),
                1 => format!("{a}\"{c}\"{rest}"),
                2 => format!("{a}\\{c}{rest}"),
                _ => format!("{a}$'{c}'{rest}"),
            };
            prop_assert_eq!(words(&format!("{quoted} x")), words(&format!("{word} x")));
        }
    }
}
