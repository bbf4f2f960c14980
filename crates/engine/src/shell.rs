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
//!   Pieces written next to each other make one word. Unquoted braces
//!   are expanded and words are split at unquoted `$IFS` (`shell/words.rs`).
//!   Variables, globs and `~` are not expanded: `$HOME`, `${x:-y}` and `*.rs`
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
//! Opaque commands (a program named by an expansion, a shell reading a
//! pipe, inline code reaching the shell or the file system, a file
//! downloaded and run) are marked with [`Command::opaque`]; the rules are
//! in the policy reference (`docs/POLICY.md`, "Opaque commands").
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

pub(crate) mod builtin;
mod configured;
#[cfg(test)]
mod differential;
mod files;
mod lines;
mod normalise;
mod opaque;
mod parse;
mod patterns;
#[cfg(test)]
mod tests;
mod words;
mod wrappers;

pub(crate) use builtin::{DANGEROUS, Native};
pub(crate) use files::operands;
pub(crate) use normalise::normalise;
pub(crate) use patterns::CommandPatterns;

use lines::parse_text;
use wrappers::unwrap_chain;

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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// For each word, whether its base name depends on an expansion, a
    /// substitution or a glob (empty when none does).
    dynamic: Vec<bool>,
    /// Why what the command runs cannot be known without running it, if
    /// that is so.
    pub(crate) opaque: Option<String>,
    /// Whether the command calls a function of the line that calls itself
    /// in the background or through a pipe (a fork bomb).
    pub(crate) fork_bomb: bool,
    /// Whether the command is run in the background (`cmd &`).
    background: bool,
    /// Whether the command is inside `>( … )`, reading what the command
    /// around it writes there.
    output_subst: bool,
    /// How many times the text holding the command was read again.
    depth: usize,
    /// Whether strings the command runs have been read already.
    expanded: bool,
    /// Whether the command is followed by `&&`: what comes next runs only
    /// if it succeeded.
    pub(crate) and_then: bool,
    /// For a command a `find` runs on what it finds (`-exec … {} ;`): the
    /// files `{}` stands for, as globs (each starting point, with the
    /// name filter when there is one).
    pub(crate) found: Vec<String>,
    /// Whether [`Command::found`] is what `xargs` appends to the command
    /// (`find ~/.ssh | xargs cat`), rather than what `{}` stands for.
    pub(crate) found_appended: bool,
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
        // `<<<` is a here-string: its word is the input, no body follows.
        (self.op.ends_with("<<") && !self.op.ends_with("<<<")) || self.op.ends_with("<<-")
    }

    /// The redirection as it appears in a view: `> /dev/sda`, `2>&1`.
    fn render(&self) -> String {
        // `>|` and `>&file` write as `>` does.
        if let Some(fd) = self.op.strip_suffix(">|") {
            return format!("{fd}> {}", self.target);
        }
        if self.op.ends_with(">&")
            && !self.target.is_empty()
            && self.target != "-"
            && !self.target.bytes().all(|b| b.is_ascii_digit())
        {
            return format!("{} {}", self.op.trim_end_matches('&'), self.target);
        }
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
            depth,
            ..Self::default()
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
        wrappers::unwrap_all(&self.words)
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
    commands_and_vars(line).0
}

/// A line read once: its commands and the variables it assigns.
#[derive(Debug)]
pub(crate) struct Parsed {
    /// What [`commands`] returns.
    pub(crate) commands: Vec<Command>,
    /// The variables the line assigns (`f=.env; cat $f`), in order: each
    /// name with its value when it is written without expansions, `None`
    /// otherwise (`f=$(x)`, `f+=y`, a `for` loop's variable without `in`).
    pub(crate) vars: Vec<(String, Option<String>)>,
}

/// How many lines each thread keeps read: the `command`, `path` and
/// `workspace` checks of one request read the same lines.
const PARSED_CACHE: usize = 4;

thread_local! {
    static RECENT: std::cell::RefCell<Vec<(String, std::rc::Rc<Parsed>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// [`commands`] with the variables the line assigns, read once per thread
/// for the last few lines.
pub(crate) fn parsed(line: &str) -> std::rc::Rc<Parsed> {
    if let Some(hit) = RECENT.with_borrow(|recent| {
        recent
            .iter()
            .find(|(l, _)| l == line)
            .map(|(_, p)| std::rc::Rc::clone(p))
    }) {
        return hit;
    }
    let (commands, vars) = commands_and_vars(line);
    let p = std::rc::Rc::new(Parsed { commands, vars });
    RECENT.with_borrow_mut(|recent| {
        if recent.len() >= PARSED_CACHE {
            recent.remove(0);
        }
        recent.push((line.to_owned(), std::rc::Rc::clone(&p)));
    });
    p
}

/// [`commands`], with the variables the line assigns ([`Parsed::vars`]).
fn commands_and_vars(line: &str) -> (Vec<Command>, Vec<(String, Option<String>)>) {
    let mut ctx = Ctx::default();
    parse_text(line.as_bytes(), 0, &mut ctx);
    // Variables whose value some program runs, set in the line or for a
    // command (`GIT_SSH_COMMAND=… git fetch`, `env PAGER=… man x`), and
    // options whose value a program runs (`ssh -o ProxyCommand=…`,
    // `rsync -e …`): their values are lines of their own. Lines read here
    // may set more.
    let (mut var, mut cmd) = (0, 0);
    let mut read = 0;
    while (var < ctx.vars.len() || cmd < ctx.out.len()) && read < MAX_DEFINED {
        let mut lines: Vec<String> = Vec::new();
        for (name, value) in ctx.vars.get(var..).unwrap_or_default() {
            if let Some(value) = value {
                lines.extend(configured::var_lines(name, value));
            }
        }
        var = ctx.vars.len();
        for c in ctx.out.get(cmd..).unwrap_or_default() {
            for (name, value) in configured::assigned_words(&c.words) {
                lines.extend(configured::var_lines(name, value));
            }
            lines.extend(configured::option_lines(&c.unwrapped()));
        }
        cmd = ctx.out.len();
        for l in lines {
            read += 1;
            if read > MAX_DEFINED {
                break;
            }
            parse_text(l.as_bytes(), 1, &mut ctx);
        }
    }
    lines::xargs_fed(&mut ctx.out);
    opaque::analyse(&mut ctx.out, &ctx.functions);
    (ctx.out, ctx.vars)
}

/// How many lines that variables of a line stand for are read.
const MAX_DEFINED: usize = 32;

/// What the parsers of one line share.
#[derive(Default)]
struct Ctx {
    /// The commands found so far.
    out: Vec<Command>,
    /// The next pipeline number.
    pipelines: usize,
    /// Here-document bodies (as written, as read again), by slot.
    bodies: Vec<Option<(String, String)>>,
    /// The names of the functions the line defines.
    functions: Vec<String>,
    /// The variables the line assigns, in order: the value when it is
    /// written without expansions.
    vars: Vec<(String, Option<String>)>,
}

impl Ctx {
    /// A new pipeline number.
    fn pipeline(&mut self) -> usize {
        let p = self.pipelines;
        self.pipelines += 1;
        p
    }
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
