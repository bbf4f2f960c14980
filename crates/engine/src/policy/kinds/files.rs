//! What the `path` and `workspace` checks share: which files a request
//! touches, with which operation, and whether a rule covers them
//! (SPEC §4.4); and their `operations`, `tools` and `arguments` fields.

use globset::Glob;
use palisade_protocol::{CheckRequest, ResourceKind, Stage, pointer};
use serde_json::{Map, Value};

use super::command::{shell_lines, shell_tools};
use super::{Context, Field, Found, Whole, described_entries, names};
use crate::paths::{self, OperationSet, PathRules, Target};
use crate::policy::read::{Reader, child};
use crate::shell;
use crate::tools::arguments;
use crate::tools::{ToolMatcher, ToolMatcherBuilder};

/// What a file rule protects.
#[derive(Clone, Debug)]
pub(super) enum Rule {
    /// Files matching the globs (minus the exceptions).
    Paths(Box<PathRules>),
    /// Files outside the workspace root.
    Workspace,
}

/// A compiled `path` or `workspace` check.
#[derive(Clone, Debug)]
pub(super) struct FileCheck {
    rule: Rule,
    operations: OperationSet,
    tools: Option<ToolMatcher>,
    arguments: Vec<String>,
    /// The tools whose command-named arguments are shell lines.
    shell: ToolMatcher,
}

/// A file the request touches: where it is written and what is done to it.
struct Touched {
    pointer: String,
    text: String,
    ops: OperationSet,
    /// For a file operand of a shell line: the program and whether the
    /// shell changes the word (a glob or an expansion in its file name).
    shell: Option<(String, bool)>,
}

/// Why a target is a hit: what to say beside the check's message, and
/// whether that is the whole message when the check sets none (a target
/// that cannot be resolved is refused for that, not for what the check
/// protects).
type Why = (Option<String>, bool);

/// What a shell word leaves unknown once `$HOME` and `$PWD` at its start
/// are set aside.
#[derive(PartialEq, Eq)]
enum Unknown {
    /// Nothing: the word is as written (globs aside).
    Nothing,
    /// Part of it: the first unknown expansion, as written.
    Part(String),
    /// All of it: the word is only expansions (and `/`).
    Whole,
}

/// The `operations`, `tools` and `arguments` of a file check, read.
pub(super) struct Fields {
    /// The operations named (`None`: the rule's default).
    operations: Option<OperationSet>,
    tools: Vec<Glob>,
    /// The fields as written, for the policy's [`CheckKind`](crate::CheckKind).
    pub(super) written: (Vec<String>, Vec<String>, Vec<String>),
}

/// Reads and compiles `operations`, `tools` and `arguments`.
pub(super) fn read_fields(r: &mut Reader, obj: &Map<String, Value>, ptr: &str) -> Option<Fields> {
    let operations = r.optional_entries(obj, ptr, "operations");
    let sets = r.each_compiled(obj, ptr, "operations", &operations, |op| {
        OperationSet::from_policy(&[op.to_owned()])
    });
    let tools = r.optional_entries(obj, ptr, "tools");
    let globs = r.globs(obj, ptr, "tools", &tools);
    let arguments = r.optional_entries(obj, ptr, "arguments");
    let (sets, globs) = (sets?, globs?);
    let operations_set = (!sets.is_empty()).then(|| {
        sets.iter()
            .fold(OperationSet::NONE, |all, one| all.union(*one))
    });
    Some(Fields {
        operations: operations_set,
        tools: globs,
        written: (operations, tools, arguments),
    })
}

/// The `operations` field of a file check.
pub(super) const OPERATIONS: Field = Field {
    name: "operations",
    required: false,
    schema: || {
        let operations: Vec<&str> = paths::operation_names().collect();
        names(&operations, "The operations checked.")
    },
};

/// The `tools` field of a file check.
pub(super) const TOOLS: Field = Field {
    name: "tools",
    required: false,
    schema: || {
        described_entries("Tool-name globs the check reads arguments of (default: every tool).")
    },
};

/// The `arguments` field of a file check.
pub(super) const ARGUMENTS: Field = Field {
    name: "arguments",
    required: false,
    schema: || described_entries("The argument names that hold paths (default: found by name)."),
};

impl Whole for FileCheck {
    fn first_hit(&self, cx: &mut Context<'_>) -> Option<Found> {
        let (pointer, (detail, own_message)) = self.first_target(cx)?;
        Some(Found {
            pointer,
            detail,
            source: None,
            own_message,
        })
    }

    fn build(&self) -> Result<(), String> {
        if let Rule::Paths(rules) = &self.rule {
            rules.build()?;
        }
        self.shell.build()?;
        self.tools.as_ref().map_or(Ok(()), ToolMatcher::build)
    }
}

impl FileCheck {
    /// Compiles a file check; an error is the `tools` field's.
    pub(super) fn new(rule: Rule, fields: Fields, ptr: &str, r: &mut Reader) -> Option<Self> {
        let operations = fields.operations.unwrap_or(match rule {
            Rule::Paths(_) => OperationSet::ALL,
            Rule::Workspace => OperationSet::WORKSPACE_DEFAULT,
        });
        let shell = match shell_tools(&fields.tools) {
            Ok(shell) => shell,
            Err(e) => {
                r.err(child(ptr, "tools"), e);
                return None;
            }
        };
        let mut b = ToolMatcherBuilder::default();
        for g in &fields.tools {
            b.add_glob(0, g.clone());
        }
        let tools = b.finish();
        Some(Self {
            rule,
            operations,
            tools,
            arguments: fields.written.2.clone(),
            shell,
        })
    }

    /// The pointer of the first file target the rule covers, and why, if any.
    fn first_target(&self, cx: &Context<'_>) -> Option<(String, Why)> {
        let (request, stage) = (cx.request, cx.stage);
        let cwd = request.context_str("cwd");
        let home = request.context_str("home");
        let root = request.context_str("workspaceRoot").or(cwd);
        let lines = shell_lines(cx, &self.shell);
        // The directory the tool itself runs in, when its arguments name one
        // (Codex's `workdir`, Gemini CLI's `dir_path`): relative files of the
        // call are there, not in the session's `cwd`.
        let mut base = cwd.map(str::to_owned);
        let mut dir_member = None;
        if stage == Stage::ToolUse
            && let Some((ptr, dir)) = call_dir(request, !lines.is_empty())
        {
            match paths::resolve(dir, cwd, home) {
                Ok(Target::File(p)) => base = Some(p.as_str().to_owned()),
                Ok(Target::NotFile { .. }) => {}
                Err(e) => {
                    return Some((
                        ptr,
                        (
                            Some(format!(
                                "the directory the tool runs in cannot be resolved, so the call is refused: {e}"
                            )),
                            true,
                        ),
                    ));
                }
            }
            dir_member = Some(ptr);
        }
        let base = base.as_deref();
        let mut targets = match stage {
            Stage::Action => action_targets(request),
            Stage::ToolUse => self.tool_targets(cx),
            _ => return None,
        };
        targets.extend(self.shell_targets(cx, lines));
        for t in targets {
            if !self.operations.intersects(t.ops) {
                continue;
            }
            // The directory member itself is relative to the session's `cwd`.
            let from = if dir_member.as_deref() == Some(t.pointer.as_str()) && t.shell.is_none() {
                cwd
            } else {
                base
            };
            let hit = match &t.shell {
                None => self.target_hit(&t.text, t.ops, from, cwd, home, root),
                Some((program, dynamic)) => {
                    self.operand_hit(&t, program, *dynamic, from, cwd, home, root)
                }
            };
            if let Some(why) = hit {
                return Some((t.pointer, why));
            }
        }
        None
    }

    /// Whether a target written in the request is covered (`Some`), and
    /// why when that needs saying. `from` is the directory a relative
    /// target is in; `cwd` anchors the rule's relative patterns.
    fn target_hit(
        &self,
        text: &str,
        ops: OperationSet,
        from: Option<&str>,
        cwd: Option<&str>,
        home: Option<&str>,
        root: Option<&str>,
    ) -> Option<Why> {
        let resolved = match paths::resolve(text, from, home) {
            Ok(Target::File(p)) => p,
            Ok(Target::NotFile { .. }) => return None,
            // A target that cannot be read as a path is not let through.
            Err(e) => {
                return Some((
                    Some(format!(
                        "the path cannot be resolved, so it is refused: {e}"
                    )),
                    true,
                ));
            }
        };
        let hit = match &self.rule {
            Rule::Paths(rules) => {
                rules.matches(&resolved, cwd, home)
                    // A glob names every file it may match, as in a shell line.
                    || (is_glob(text) && rules.matches_glob(&resolved, cwd, home))
                    || (ops.intersects(OperationSet::READ)
                        && rules.matches_in_dir(&resolved, cwd, home))
            }
            // Without a root nothing can be outside it.
            Rule::Workspace => root.is_some_and(|root| !paths::within(&resolved, root, home)),
        };
        hit.then_some((None, false))
    }

    /// Whether a file operand of a shell line is covered, and why. What
    /// only running the shell can tell is handled as the module docs of
    /// `docs/POLICY.md` say: unknown parts are wildcards for `paths`, and
    /// make a write or delete unknowable for `workspace`.
    #[expect(
        clippy::too_many_arguments,
        reason = "the directories a shell word is read against, each needed apart"
    )]
    fn operand_hit(
        &self,
        t: &Touched,
        program: &str,
        dynamic: bool,
        from: Option<&str>,
        cwd: Option<&str>,
        home: Option<&str>,
        root: Option<&str>,
    ) -> Option<Why> {
        if matches!(self.rule, Rule::Workspace) && root.is_none() {
            // Without a root nothing can be outside it.
            return None;
        }
        let what = || describe(program, &t.text, t.ops);
        let (text, unknown) = wildcards(&t.text);
        let resolved = match paths::resolve(&text, from, home) {
            Ok(Target::File(p)) => p,
            Ok(Target::NotFile { .. }) => return None,
            Err(e) => {
                return Some((
                    Some(format!(
                        "{}, which cannot be resolved, so it is refused: {e}",
                        what()
                    )),
                    true,
                ));
            }
        };
        match &self.rule {
            Rule::Paths(rules) => {
                if unknown == Unknown::Whole {
                    return None;
                }
                let hit = rules.matches(&resolved, cwd, home)
                    || ((dynamic || unknown != Unknown::Nothing)
                        && rules.matches_glob(&resolved, cwd, home))
                    || (t.ops.intersects(OperationSet::READ)
                        && rules.matches_in_dir(&resolved, cwd, home));
                hit.then(|| (Some(what()), false))
            }
            Rule::Workspace => {
                let root = root?;
                match unknown {
                    Unknown::Nothing => (!paths::within(&resolved, root, home))
                        .then(|| (Some(format!("{}, outside the workspace", what())), false)),
                    Unknown::Part(var) => Some((
                        Some(format!(
                            "{}; `{var}` is not known before the line runs, so the file may be outside the workspace",
                            what()
                        )),
                        false,
                    )),
                    Unknown::Whole => Some((
                        Some(format!(
                            "{}; the file is not known before the line runs, so it may be outside the workspace",
                            what()
                        )),
                        false,
                    )),
                }
            }
        }
    }

    /// The file operands of `lines`, the shell lines the request would run.
    fn shell_targets(&self, cx: &Context<'_>, lines: Vec<(String, String)>) -> Vec<Touched> {
        if cx.stage == Stage::ToolUse
            && cx.request.tool.is_some()
            && let Some(tools) = &self.tools
            && !cx.names(tools)
        {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (ptr, line) in lines {
            let parsed = shell::parsed(&line);
            let (commands, assigned) = (&parsed.commands, &parsed.vars);
            let unwrapped: Vec<Vec<String>> =
                commands.iter().map(shell::Command::unwrapped).collect();
            let vars = Vars::new(assigned, &unwrapped);
            // Directories the line changes to: a relative file after a `cd`
            // may be under any of them (or under `cwd`, in a subshell).
            let mut dirs: Vec<String> = Vec::new();
            // Whether a `cd` joined by `&&` to this command went before it:
            // then the command runs only where the `cd` went.
            let mut moved = false;
            let mut joined = false;
            for (cmd, words) in commands.iter().zip(&unwrapped) {
                if !joined {
                    moved = false;
                }
                let program = words
                    .first()
                    .map(|w| w.rsplit('/').next().unwrap_or(w).to_owned())
                    .unwrap_or_default();
                for op in shell::operands(cmd, words) {
                    for text in vars.expand(&op.text) {
                        let relative = !text.starts_with(['/', '~', '$']) && !text.contains("://");
                        if relative {
                            for dir in &dirs {
                                out.push(Touched {
                                    pointer: ptr.clone(),
                                    text: format!("{dir}/{text}"),
                                    ops: op.ops,
                                    shell: Some((program.clone(), op.dynamic)),
                                });
                            }
                            if moved && !dirs.is_empty() {
                                continue;
                            }
                        }
                        out.push(Touched {
                            pointer: ptr.clone(),
                            text,
                            ops: op.ops,
                            shell: Some((program.clone(), op.dynamic)),
                        });
                    }
                }
                if matches!(program.as_str(), "cd" | "pushd")
                    && let Some(dir) = words
                        .get(1..)
                        .unwrap_or_default()
                        .iter()
                        .find(|w| !w.starts_with('-'))
                    && dirs.len() < MAX_READINGS
                {
                    for d in vars.expand(dir) {
                        if d.contains(['$', '`']) || d.is_empty() {
                            continue;
                        }
                        let d = d.trim_end_matches('/').to_owned();
                        if !d.starts_with(['/', '~']) {
                            // Relative: to `cwd`, or to a directory before it.
                            let joined: Vec<String> =
                                dirs.iter().map(|prev| format!("{prev}/{d}")).collect();
                            dirs.extend(joined);
                        }
                        dirs.push(d);
                        dirs.truncate(MAX_READINGS);
                    }
                    if cmd.and_then && !d_unknown(&vars, dir) {
                        moved = true;
                    }
                }
                joined = cmd.and_then;
            }
        }
        out
    }

    /// The path-named arguments of the tool.
    fn tool_targets(&self, cx: &Context<'_>) -> Vec<Touched> {
        let Some(tool) = cx.request.tool.as_ref() else {
            return Vec::new();
        };
        if let Some(tools) = &self.tools
            && !cx.names(tools)
        {
            return Vec::new();
        }
        let base = "/tool/arguments";
        let Some(args) = tool.arguments.as_ref() else {
            return Vec::new();
        };
        let ops = operation_of_tool(&tool.name);
        let transfer = transfers(&tool.name);
        let mut out = self.targets_in(args, base, ops, transfer);
        // Arguments written as JSON text (OpenAI's function calls carry
        // them as a string; a tool that calls another, such as
        // `use_mcp_tool`, passes the inner call's as one) are read for
        // what they hold, located at the string.
        for (ptr, inner) in arguments::json_texts(args, base) {
            out.extend(
                self.targets_in(&inner, &ptr, ops, transfer)
                    .into_iter()
                    .map(|t| Touched {
                        pointer: ptr.clone(),
                        ..t
                    }),
            );
        }
        out
    }

    /// The files the arguments `args` (at `base`) of a tool doing `ops`
    /// name; `transfer`: the tool copies, moves, renames or links files,
    /// and its `from` and `to` are paths too.
    fn targets_in(
        &self,
        args: &Value,
        base: &str,
        ops: OperationSet,
        transfer: bool,
    ) -> Vec<Touched> {
        let mut out = patch_targets(args, base);
        if !args.is_object() {
            return out;
        }
        let mut found: Vec<(String, &Value)> = Vec::new();
        if self.arguments.is_empty() {
            found = arguments::members(args, base, &|name, _| {
                arguments::is_path_name(name) || (transfer && arguments::is_transfer_name(name))
            });
        } else {
            // Names at any depth, or pointers into the arguments.
            let names: Vec<&str> = self
                .arguments
                .iter()
                .filter(|a| !a.starts_with('/'))
                .map(String::as_str)
                .collect();
            if !names.is_empty() {
                found = arguments::members(args, base, &|name, _| names.contains(&name));
            }
            for a in self.arguments.iter().filter(|a| a.starts_with('/')) {
                if let Some(v) = args.pointer(a) {
                    found.push((format!("{base}{a}"), v));
                }
            }
        }
        if self.arguments.is_empty() {
            out.extend(filter_targets(args, base, ops));
            out.extend(revision_targets(args, base));
            out.extend(file_url_targets(args, base));
            // Code a tool runs; code it writes (a notebook cell's
            // `new_source`) reads nothing.
            if ops.intersects(OperationSet::EXEC) {
                out.extend(code_literal_targets(args, base));
            }
        }
        for (ptr, v) in found {
            for (pointer, text) in strings_at(&ptr, v) {
                out.push(Touched {
                    pointer,
                    text: text.to_owned(),
                    ops,
                    shell: None,
                });
            }
        }
        out
    }
}

/// The member of a tool call's arguments naming the directory the tool
/// runs in, with its pointer: a working-directory name (`cwd`, `workdir`,
/// `working_directory`), or for a tool that runs a shell line also a
/// directory name (`directory`, `dir_path`), which elsewhere names the
/// directory acted on.
fn call_dir(request: &CheckRequest, shell: bool) -> Option<(String, &str)> {
    let Value::Object(args) = request.tool.as_ref()?.arguments.as_ref()? else {
        return None;
    };
    args.iter().find_map(|(name, v)| {
        // Every such name holds `dir` or `cwd` (in any case): most names
        // are passed over without being cut into words.
        let lower = name.to_ascii_lowercase();
        if !lower.contains("dir") && !lower.contains("cwd") {
            return None;
        }
        let words = arguments::name_words(name).join(" ");
        let named = arguments::WORKDIR_NAMES.contains(&words.as_str())
            || (shell && arguments::SHELL_DIR_NAMES.contains(&words.as_str()));
        let dir = v.as_str().filter(|d| named && !d.is_empty())?;
        let mut ptr = "/tool/arguments".to_owned();
        pointer::push(&mut ptr, name);
        Some((ptr, dir))
    })
}

/// The files quoted in code a tool runs (one whose name says it runs
/// something, or says nothing of what it does): in a member at any depth whose
/// last word is `code`, `script`, `source`, `program` or `snippet`
/// (`execute_code {"code": "print(open('/home/u/.ssh/id_rsa').read())"}`),
/// each quoted string (`'…'`, `"…"` or `` `…` `` on one line) that looks
/// like a path (no blank, holding a `/` or starting with `.` or `~`) is a
/// file the code reads. What code does with a path cannot be told; a read
/// is what the checks that protect files from being read need, and taking
/// every path as written to would ask about every output file.
fn code_literal_targets(args: &Value, base: &str) -> Vec<Touched> {
    const CODE_WORDS: &[&str] = &["code", "script", "source", "program", "snippet"];
    let members = arguments::members(args, base, &|name, _| {
        arguments::name_words(name)
            .last()
            .is_some_and(|w| CODE_WORDS.contains(&w.as_str()))
    });
    let mut out = Vec::new();
    for (ptr, v) in members {
        for (pointer, code) in strings_at(&ptr, v) {
            for literal in quoted_paths(code) {
                out.push(Touched {
                    pointer: pointer.clone(),
                    text: literal.to_owned(),
                    ops: OperationSet::READ,
                    shell: None,
                });
            }
        }
    }
    out
}

/// The quoted strings of `code` that look like paths ([`code_literal_targets`]).
fn quoted_paths(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in code.lines() {
        let mut rest = line;
        while let Some(open) = rest.find(['\'', '"', '`']) {
            let quote = rest[open..].chars().next().unwrap_or('"');
            let body = &rest[open + 1..];
            // The closing quote: the next one not after a backslash.
            let mut end = None;
            let mut escaped = false;
            for (i, c) in body.char_indices() {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == quote {
                    end = Some(i);
                    break;
                }
            }
            let Some(end) = end else {
                break;
            };
            let literal = &body[..end];
            if !literal.is_empty()
                && literal.len() <= 4096
                && !literal.contains(char::is_whitespace)
                && !literal.contains("://")
                && (literal.contains('/') || literal.starts_with(['.', '~']))
            {
                out.push(literal);
            }
            rest = &body[end + 1..];
        }
    }
    out
}

/// The files `file:` URLs in the arguments name, in members of any name
/// and depth (`{"url": "file:///home/u/.ssh/id_rsa"}` of a fetch or
/// browser tool): each is read.
fn file_url_targets(args: &Value, base: &str) -> Vec<Touched> {
    let mut out = Vec::new();
    let mut stack = vec![(base.to_owned(), args, 0)];
    while let Some((ptr, v, depth)) = stack.pop() {
        match v {
            // A URL parser drops blanks and control characters around a
            // URL (` file:///…` opens the file).
            Value::String(s)
                if s.trim_matches(|c: char| c <= ' ')
                    .get(..5)
                    .is_some_and(|p| p.eq_ignore_ascii_case("file:")) =>
            {
                out.push(Touched {
                    pointer: ptr,
                    text: s.trim_matches(|c: char| c <= ' ').to_owned(),
                    ops: OperationSet::READ,
                    shell: None,
                });
            }
            Value::Object(map) if depth < arguments::MAX_DEPTH => {
                for (name, child) in map {
                    let mut p = ptr.clone();
                    pointer::push(&mut p, name);
                    stack.push((p, child, depth + 1));
                }
            }
            Value::Array(items) if depth < arguments::MAX_DEPTH => {
                for (i, child) in items.iter().enumerate() {
                    let mut p = ptr.clone();
                    pointer::push_index(&mut p, i);
                    stack.push((p, child, depth + 1));
                }
            }
            _ => {}
        }
    }
    out
}

/// The files a Git revision argument reads (`{"revision": "HEAD:.env"}`
/// of a Git tool's `show`, as `git show HEAD:.env` reads `.env`): the
/// path after the first `:` of a member named as a revision, a ref or an
/// object, at any depth.
fn revision_targets(args: &Value, base: &str) -> Vec<Touched> {
    const REVISION_WORDS: &[&str] = &[
        "revision",
        "revisions",
        "rev",
        "revs",
        "ref",
        "refs",
        "object",
        "objects",
        "treeish",
        "commitish",
        "blob",
        "spec",
        "revspec",
        "commit",
        "sha",
    ];
    let found = arguments::members(args, base, &|name, _| {
        arguments::name_words(name)
            .last()
            .is_some_and(|w| REVISION_WORDS.contains(&w.as_str()))
    });
    let mut out = Vec::new();
    for (ptr, v) in found {
        let items = strings_at(&ptr, v);
        for (p, spec) in items {
            // A revision is one word (`HEAD`, `origin/main`, `:` for the
            // index); "fix: rotate .env" is a message, not a revision.
            if let Some((rev, path)) = spec.split_once(':')
                && !rev.contains(char::is_whitespace)
                && !path.is_empty()
                && !path.starts_with(char::is_whitespace)
                && !path.starts_with("//")
            {
                out.push(Touched {
                    pointer: p,
                    text: path.to_owned(),
                    ops: OperationSet::READ,
                    shell: None,
                });
            }
        }
    }
    out
}

/// The strings of a member's value with their pointers: the value
/// itself, or each string item of an array.
fn strings_at<'v>(ptr: &str, v: &'v Value) -> Vec<(String, &'v str)> {
    match v {
        Value::String(s) => vec![(ptr.to_owned(), s.as_str())],
        Value::Array(items) => items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| {
                let mut p = ptr.to_owned();
                pointer::push_index(&mut p, i);
                item.as_str().map(|s| (p, s))
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The files a search tool's name filters pick (Claude Code's `Grep`
/// `glob`, Gemini CLI's `include`): each filter under the directory the
/// call searches (its first path-named member, else the working
/// directory), at any depth.
fn filter_targets(args: &Value, base: &str, ops: OperationSet) -> Vec<Touched> {
    let filters = arguments::members(args, base, &|name, depth| {
        depth == 0 && arguments::is_filter_name(name)
    });
    if filters.is_empty() {
        return Vec::new();
    }
    let dir = args.as_object().and_then(|map| {
        map.iter()
            .filter(|(name, _)| arguments::is_path_name(name))
            .find_map(|(_, v)| v.as_str())
            .filter(|d| !d.is_empty())
    });
    let mut out = Vec::new();
    for (ptr, v) in filters {
        let items = strings_at(&ptr, v);
        for (p, filter) in items {
            // `a,b` and `{a,b}` list several filters.
            let list: Vec<&str> = match filter.strip_prefix('{').and_then(|f| f.strip_suffix('}')) {
                Some(inner) if !inner.contains(['{', '}']) => inner.split(',').collect(),
                _ if filter.contains('{') => vec![filter],
                _ => filter.split(',').collect(),
            };
            for one in list {
                let one = one.trim();
                if one.is_empty() || one.starts_with('!') {
                    continue;
                }
                out.push(Touched {
                    pointer: p.clone(),
                    text: under_filter(dir, one),
                    ops,
                    shell: None,
                });
            }
        }
    }
    out
}

/// The path a name filter picks under `dir`: an absolute or home filter
/// as written, else the filter's last components (a leading `**/` is any
/// depth) under the directory.
pub(super) fn under_filter(dir: Option<&str>, filter: &str) -> String {
    if filter.starts_with(['/', '~']) {
        return filter.to_owned();
    }
    let mut rest = filter;
    while let Some(r) = rest.strip_prefix("**/").or_else(|| rest.strip_prefix("./")) {
        rest = r;
    }
    match dir {
        Some(d) => format!("{}/{rest}", d.trim_end_matches('/')),
        None => rest.to_owned(),
    }
}

/// Whether a target's file name is a glob.
fn is_glob(text: &str) -> bool {
    let name = text.rsplit('/').next().unwrap_or(text);
    name.contains(['*', '?', '[', '{'])
}

/// The marker that opens a patch in the format of Codex's `apply_patch`.
const PATCH_BEGIN: &str = "*** Begin Patch";

/// The files a patch in any string of the arguments touches, also inside
/// a shell line's here-document: in the format of Codex's `apply_patch`,
/// `Add File` and `Update File` write, `Delete File` deletes, `Move to`
/// writes its destination and deletes the source; in a unified diff (`git
/// apply`, `patch`), see [`unified_diff_files`].
fn patch_targets(args: &Value, base: &str) -> Vec<Touched> {
    let mut out = Vec::new();
    let mut stack: Vec<(String, &Value)> = vec![(base.to_owned(), args)];
    while let Some((ptr, v)) = stack.pop() {
        match v {
            Value::String(s) if s.contains(PATCH_BEGIN) || is_unified_diff(s) => {
                let mut files = patch_files(s);
                files.extend(unified_diff_files(s));
                for (path, ops) in files {
                    out.push(Touched {
                        pointer: ptr.clone(),
                        text: path,
                        ops,
                        shell: None,
                    });
                }
            }
            Value::Object(map) if stack.len() < 1024 => {
                for (k, child) in map {
                    let mut p = ptr.clone();
                    pointer::push(&mut p, k);
                    stack.push((p, child));
                }
            }
            Value::Array(items) if stack.len() < 1024 => {
                for (i, child) in items.iter().enumerate() {
                    let mut p = ptr.clone();
                    pointer::push_index(&mut p, i);
                    stack.push((p, child));
                }
            }
            _ => {}
        }
    }
    out
}

/// The files of a patch's text and what is done to them.
fn patch_files(text: &str) -> Vec<(String, OperationSet)> {
    let mut out: Vec<(String, OperationSet)> = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        let Some(rest) = line.strip_prefix("***") else {
            continue;
        };
        let rest = rest.trim_start();
        let (op, path) = if let Some(p) = rest.strip_prefix("Add File:") {
            (OperationSet::WRITE, p)
        } else if let Some(p) = rest.strip_prefix("Update File:") {
            (OperationSet::WRITE, p)
        } else if let Some(p) = rest.strip_prefix("Delete File:") {
            (OperationSet::DELETE, p)
        } else if let Some(p) = rest.strip_prefix("Move to:") {
            // The file updated just before is moved: it goes away.
            if let Some(last) = out.last_mut() {
                last.1 = last.1.union(OperationSet::DELETE);
            }
            (OperationSet::WRITE, p)
        } else {
            continue;
        };
        let path = path.trim();
        if !path.is_empty() {
            out.push((path.to_owned(), op));
        }
    }
    out
}

/// Whether `text` may hold a unified diff: a `--- ` line, a `+++ ` line
/// and a hunk (`@@`).
fn is_unified_diff(text: &str) -> bool {
    text.contains("+++ ") && text.contains("--- ") && text.contains("@@")
}

/// The files of the unified diffs in `text`, and what is done to them: each
/// `--- OLD` line followed by a `+++ NEW` line (a timestamp after a tab is
/// not part of the path; `/dev/null` is no file) and then by a hunk. `NEW`
/// is written; `OLD` is written, and deleted when `NEW` is another file or
/// none. `a/` and `b/` in front of both (git's) are taken away; git's
/// `rename from`/`rename to` lines delete and write.
fn unified_diff_files(text: &str) -> Vec<(String, OperationSet)> {
    let path = |s: &str| {
        let s = s.split('\t').next().unwrap_or(s).trim();
        let s = s
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .unwrap_or(s);
        (s != "/dev/null" && !s.is_empty()).then(|| s.to_owned())
    };
    let lines: Vec<&str> = text.lines().map(str::trim_start).collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(to) = line.strip_prefix("rename to ") {
            out.push((to.trim().to_owned(), OperationSet::WRITE));
        } else if let Some(from) = line.strip_prefix("rename from ") {
            out.push((from.trim().to_owned(), OperationSet::DELETE));
        }
        let (Some(old), Some(new)) = (
            line.strip_prefix("--- "),
            lines.get(i + 1).and_then(|l| l.strip_prefix("+++ ")),
        ) else {
            continue;
        };
        if !lines.get(i + 2).is_some_and(|l| l.starts_with("@@")) {
            continue;
        }
        let (mut old, mut new) = (path(old), path(new));
        let git =
            |p: &Option<String>, prefix: &str| p.as_deref().is_none_or(|p| p.starts_with(prefix));
        if git(&old, "a/") && git(&new, "b/") {
            old = old.map(|p| p.get(2..).unwrap_or_default().to_owned());
            new = new.map(|p| p.get(2..).unwrap_or_default().to_owned());
        }
        if let Some(old) = &old {
            let gone = new.as_ref() != Some(old);
            out.push((
                old.clone(),
                if gone {
                    OperationSet::WRITE.union(OperationSet::DELETE)
                } else {
                    OperationSet::WRITE
                },
            ));
        }
        if let Some(new) = new
            && old.as_ref() != Some(&new)
        {
            out.push((new, OperationSet::WRITE));
        }
    }
    out
}

/// The file targets of an action, or its file resource when it names no
/// targets (a `process` or `network` resource has none; a process's
/// command line is read as a shell line).
fn action_targets(request: &CheckRequest) -> Vec<Touched> {
    let Some(action) = request.action.as_ref() else {
        return Vec::new();
    };
    if let Some(r) = &action.resource
        && matches!(r.kind, ResourceKind::Process | ResourceKind::Network)
    {
        return Vec::new();
    }
    let ops = OperationSet::of_request(action.operation.as_deref());
    let targets: Vec<Touched> = action
        .targets
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, t)| Touched {
            pointer: format!("/action/targets/{i}/uri"),
            text: t.uri.clone(),
            ops,
            shell: None,
        })
        .collect();
    // Without targets, a file resource is itself what the action touches:
    // `{"operation": "read", "resource": {"kind": "file", "uri":
    // "file:///home/u/.ssh/id_rsa"}}`.
    match &action.resource {
        Some(r) if targets.is_empty() && r.kind == ResourceKind::File => r
            .uri
            .iter()
            .map(|uri| Touched {
                pointer: "/action/resource/uri".to_owned(),
                text: uri.clone(),
                ops,
                shell: None,
            })
            .collect(),
        _ => targets,
    }
}

/// How many readings a shell word may have once the line's variables are
/// put in.
const MAX_READINGS: usize = 16;

/// The variables a shell line sets itself, with every value each may take
/// (`None`: one the line does not spell out).
struct Vars(Vec<(String, Vec<Option<String>>)>);

impl Vars {
    /// From the line's assignments and the commands that set variables
    /// (`export f=.env`, `read f`).
    fn new(assigned: &[(String, Option<String>)], unwrapped: &[Vec<String>]) -> Self {
        let mut vars = Self(Vec::new());
        for (name, value) in assigned {
            vars.add(name.clone(), value.clone());
        }
        for words in unwrapped {
            let Some(name) = words.first() else { continue };
            let args = words.get(1..).unwrap_or_default();
            match name.as_str() {
                "export" | "declare" | "local" | "typeset" | "readonly" => {
                    for a in args.iter().filter(|a| !a.starts_with('-')) {
                        if let Some((n, v)) = a.split_once('=') {
                            let literal = !v.contains(['$', '`']) && !n.ends_with('+');
                            vars.add(
                                n.trim_end_matches('+').to_owned(),
                                literal.then(|| v.to_owned()),
                            );
                        }
                    }
                }
                "read" | "mapfile" | "readarray" | "getopts" | "printf" => {
                    for a in args.iter().filter(|a| !a.starts_with('-')) {
                        vars.add(a.clone(), None);
                    }
                }
                _ => {}
            }
        }
        vars
    }

    fn add(&mut self, name: String, value: Option<String>) {
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some((_, values)) => values.push(value),
            None => self.0.push((name, vec![value])),
        }
    }

    /// The readings of a word: each `$name` or `${name}` the line set to
    /// written values replaced by each of them, and each `$(echo …)` of
    /// written words by its output; anything else is kept.
    #[expect(
        clippy::indexing_slicing,
        reason = "`i` is a position in `b` found by the loop that reads it"
    )]
    fn expand(&self, word: &str) -> Vec<String> {
        let mut out = vec![String::new()];
        let b = word.as_bytes();
        let mut lit = 0;
        let mut i = 0;
        while i < b.len() {
            let (end, values): (usize, Option<Vec<String>>) = match (b[i], b.get(i + 1).copied()) {
                (b'$', Some(b'{')) => {
                    let end = closing(b, i + 1, b'{', b'}');
                    let name = word.get(i + 2..end.saturating_sub(1)).unwrap_or("");
                    (end, self.values(name))
                }
                (b'$', Some(c)) if c == b'_' || c.is_ascii_alphabetic() => {
                    let n = b[i + 1..]
                        .iter()
                        .take_while(|c| **c == b'_' || c.is_ascii_alphanumeric())
                        .count();
                    (i + 1 + n, self.values(&word[i + 1..i + 1 + n]))
                }
                (b'$', Some(b'(')) => {
                    let end = closing(b, i + 1, b'(', b')');
                    let inner = word.get(i + 2..end.saturating_sub(1)).unwrap_or("");
                    (end, echoed(inner).map(|v| vec![v]))
                }
                (b'`', _) => {
                    let end = b[i + 1..]
                        .iter()
                        .position(|&c| c == b'`')
                        .map_or(b.len(), |p| i + p + 2);
                    let inner = word.get(i + 1..end.saturating_sub(1)).unwrap_or("");
                    (end, echoed(inner).map(|v| vec![v]))
                }
                _ => {
                    i += 1;
                    continue;
                }
            };
            let end = end.min(b.len());
            if let Some(values) = values {
                let head = &word[lit..i];
                let mut next = Vec::new();
                for prefix in &out {
                    for v in &values {
                        if next.len() < MAX_READINGS {
                            next.push(format!("{prefix}{head}{v}"));
                        }
                    }
                }
                out = next;
                lit = end;
            }
            i = end;
        }
        for o in &mut out {
            o.push_str(&word[lit..]);
        }
        out
    }

    /// Every value of a variable, when the line writes them all.
    fn values(&self, name: &str) -> Option<Vec<String>> {
        let (_, values) = self.0.iter().find(|(n, _)| n == name)?;
        values.iter().cloned().collect()
    }
}

/// Whether a `cd`'s directory is not known before the line runs.
fn d_unknown(vars: &Vars, dir: &str) -> bool {
    vars.expand(dir)
        .iter()
        .any(|d| d.contains(['$', '`']) || d.is_empty())
}

/// What `echo` or `printf` of written words prints (without the newline),
/// if the text is one such command.
fn echoed(text: &str) -> Option<String> {
    let commands = shell::commands(text);
    let [cmd] = commands.as_slice() else {
        return None;
    };
    let words = cmd.unwrapped();
    if words.iter().any(|w| w.contains(['$', '`'])) || !cmd.redirects.is_empty() {
        return None;
    }
    let (name, args) = words.split_first()?;
    match name.as_str() {
        "echo" => {
            let args: Vec<&str> = args
                .iter()
                .map(String::as_str)
                .skip_while(|a| matches!(*a, "-n" | "-e" | "-E" | "-ne" | "-en"))
                .collect();
            Some(args.join(" "))
        }
        "printf" => match args {
            [format] if !format.contains(['%', '\\']) => Some(format.clone()),
            [format, arg] if format == "%s" => Some(arg.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// `` `cat` would read `~/.ssh/id_rsa` ``.
fn describe(program: &str, text: &str, ops: OperationSet) -> String {
    let text = shown(text);
    if ops == OperationSet::ALL {
        return format!("`{program}` is given `{text}` and may read, write or delete it");
    }
    let verbs: Vec<&str> = ops
        .names()
        .into_iter()
        .map(|n| match n {
            "read" => "read",
            "write" => "write",
            "delete" => "delete",
            "list" => "list",
            "stat" => "inspect",
            _ => "run",
        })
        .collect();
    let verbs = match verbs.as_slice() {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    format!("`{program}` would {verbs} `{text}`")
}

/// A word of a shell line, at most 120 characters of it, for a message.
fn shown(text: &str) -> String {
    let mut out: String = text.chars().take(120).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// A shell word with each expansion other than `$HOME` and `$PWD` at its
/// start replaced by `*`, and what that leaves unknown.
#[expect(
    clippy::indexing_slicing,
    reason = "`i` is a position in `b` found by the loop that reads it"
)]
fn wildcards(word: &str) -> (String, Unknown) {
    let b = word.as_bytes();
    let mut out = String::with_capacity(word.len());
    let mut first: Option<String> = None;
    let mut i = 0;
    for lead in ["$HOME", "${HOME}", "$PWD", "${PWD}"] {
        if let Some(rest) = word.strip_prefix(lead)
            && (rest.is_empty() || rest.starts_with('/'))
        {
            out.push_str(lead);
            i = lead.len();
            break;
        }
    }
    let mut lit = i;
    while i < b.len() {
        let end = match (b[i], b.get(i + 1).copied()) {
            (b'$', Some(b'{')) => closing(b, i + 1, b'{', b'}'),
            (b'$', Some(b'(')) => closing(b, i + 1, b'(', b')'),
            (b'$', Some(c)) if c == b'_' || c.is_ascii_alphabetic() => {
                let n = b[i + 1..]
                    .iter()
                    .take_while(|c| **c == b'_' || c.is_ascii_alphanumeric())
                    .count();
                i + 1 + n
            }
            (b'$', Some(c)) if c.is_ascii_digit() || b"@*#?$!-".contains(&c) => i + 2,
            (b'`', _) => b[i + 1..]
                .iter()
                .position(|&c| c == b'`')
                .map_or(b.len(), |p| i + p + 2),
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&word[lit..i]);
        if !out.ends_with('*') {
            out.push('*');
        }
        if first.is_none() {
            first = Some(shown(&word[i..end.min(b.len())]));
        }
        i = end.min(b.len());
        lit = i;
    }
    out.push_str(&word[lit..]);
    let unknown = match first {
        None => Unknown::Nothing,
        Some(_) if out.bytes().all(|c| c == b'*' || c == b'/') => Unknown::Whole,
        Some(var) => Unknown::Part(var),
    };
    (out, unknown)
}

/// The index after the bracket closing the one at `open`, or the end.
fn closing(b: &[u8], open: usize, left: u8, right: u8) -> usize {
    let mut depth = 0usize;
    for (k, &c) in b.iter().enumerate().skip(open) {
        if c == left {
            depth += 1;
        } else if c == right {
            depth -= 1;
            if depth == 0 {
                return k + 1;
            }
        }
    }
    b.len()
}

/// What a tool probably does to the files it names, from its name; a name
/// that says nothing counts as every operation.
fn operation_of_tool(name: &str) -> OperationSet {
    let words = tool_words(name);
    let has = |names: &[&str]| words.iter().any(|w| names.contains(&w.as_str()));
    let op = if has(&[
        "delete", "remove", "unlink", "rmdir", "rm", "erase", "trash",
    ]) {
        "delete"
    } else if has(&["move", "rename", "mv"]) {
        // Reads the source, writes the destination, removes the source.
        "move"
    } else if has(&["copy", "cp", "duplicate"]) {
        "copy"
    } else if has(&[
        "write", "edit", "create", "save", "append", "put", "patch", "replace", "upload", "mkdir",
        "touch",
    ]) {
        "write"
    } else if has(&["grep", "rg", "ripgrep", "content", "contents"])
        || (has(&["search"]) && !has(&["file", "files", "name", "names", "path", "paths"]))
    {
        // A search that prints what it finds in files reads them.
        return OperationSet::READ.union(OperationSet::LIST);
    } else if has(&["list", "ls", "glob", "find", "search", "tree", "dir"]) {
        "list"
    } else if has(&["stat", "exists", "info"]) {
        "stat"
    } else if has(&[
        "read", "cat", "view", "open", "get", "load", "download", "head", "tail",
    ]) {
        "read"
    } else if has(&["exec", "run", "spawn", "shell", "bash"]) {
        "exec"
    } else {
        return OperationSet::ALL;
    };
    OperationSet::of_request(Some(op))
}

/// Whether a tool's name says it copies, moves, renames or links files
/// (`copy_file`, `moveFile`, `mcp__fs__rename`, `symlink`).
fn transfers(name: &str) -> bool {
    tool_words(name).iter().any(|w| {
        matches!(
            w.as_str(),
            "copy" | "cp" | "duplicate" | "move" | "rename" | "mv" | "link" | "symlink" | "ln"
        )
    })
}

/// The whole words of a tool's name, lowercased: `read_file`, `readFile`,
/// `mcp__fs__read` all hold `read`.
fn tool_words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if (!c.is_ascii_alphanumeric() || (c.is_ascii_uppercase() && prev_lower)) && !cur.is_empty()
        {
            words.push(std::mem::take(&mut cur));
        }
        if c.is_ascii_alphanumeric() {
            cur.push(c.to_ascii_lowercase());
        }
        prev_lower = c.is_ascii_lowercase();
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paths::Operation;

    #[test]
    fn the_files_of_unified_diffs() {
        let names = |text: &str| -> Vec<String> {
            unified_diff_files(text)
                .into_iter()
                .map(|(p, ops)| {
                    let w = if ops.intersects(OperationSet::WRITE) {
                        "w"
                    } else {
                        ""
                    };
                    let d = if ops.intersects(OperationSet::DELETE) {
                        "d"
                    } else {
                        ""
                    };
                    format!("{p}:{w}{d}")
                })
                .collect()
        };
        let git = "diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-A=1\n+A=2\n";
        assert_eq!(names(git), [".env:w"]);
        let plain = "--- /home/u/.ssh/authorized_keys\t2026-01-01 00:00\n+++ /home/u/.ssh/authorized_keys\n@@ -0,0 +1 @@\n+k\n";
        assert_eq!(names(plain), ["/home/u/.ssh/authorized_keys:w"]);
        let created = "--- /dev/null\n+++ b/src/new.rs\n@@ -0,0 +1 @@\n+x\n";
        assert_eq!(names(created), ["src/new.rs:w"]);
        let deleted = "--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n";
        assert_eq!(names(deleted), ["old.txt:wd"]);
        let renamed = "diff --git a/x b/y\nrename from x\nrename to y\n";
        assert_eq!(names(renamed), ["x:d", "y:w"]);
        // Not a diff: no hunk after the two lines, or text that only
        // quotes them.
        assert!(names("--- a\n+++ b\ntext\n").is_empty());
        assert!(names("the --- and +++ lines, @@ too").is_empty());
        assert!(is_unified_diff(git) && !is_unified_diff("--- title ---"));
    }

    #[test]
    fn paths_quoted_in_code() {
        let code = "open('/home/u/.ssh/id_rsa')\nx = \"a / b\"; y = 'it\\'s'\n\
                    load(`~/.aws/credentials`, \"../.env\") # 'unclosed\n\
                    get('https://h/x/.env'); '.'; ''";
        assert_eq!(
            quoted_paths(code),
            ["/home/u/.ssh/id_rsa", "~/.aws/credentials", "../.env", "."]
        );
    }

    #[test]
    fn tool_names_say_what_they_do() {
        assert!(operation_of_tool("write_file").contains(&Operation::Write));
        assert!(!operation_of_tool("write_file").contains(&Operation::Read));
        assert!(operation_of_tool("mcp__fs__read_file").contains(&Operation::Read));
        assert!(operation_of_tool("delete_branch").contains(&Operation::Delete));
        assert!(
            operation_of_tool("frobnicate").contains(&Operation::Delete),
            "unknown: everything"
        );
        assert!(operation_of_tool("writeFile").contains(&Operation::Write));
        assert!(
            operation_of_tool("copy_file").contains(&Operation::Read),
            "a copy reads its source"
        );
        assert!(operation_of_tool("move_file").contains(&Operation::Delete));
        assert!(!operation_of_tool("writeFile").contains(&Operation::Read));
        // A search that prints what it finds reads; one of names lists.
        for name in ["Grep", "search_file_content", "mcp__fs__grep", "searchText"] {
            assert!(operation_of_tool(name).contains(&Operation::Read), "{name}");
            assert!(
                !operation_of_tool(name).contains(&Operation::Write),
                "{name}"
            );
        }
        assert!(!operation_of_tool("search_files").contains(&Operation::Read));
        assert!(operation_of_tool("search_files").contains(&Operation::List));
        // Tools whose `from` and `to` are paths.
        for name in ["copy_file", "moveFile", "mcp__fs__rename", "symlink", "ln"] {
            assert!(transfers(name), "{name}");
        }
        for name in [
            "send_email",
            "translate",
            "copyright_lookup",
            "linked_issues",
        ] {
            assert!(!transfers(name), "{name}");
        }
    }

    #[test]
    fn filters_are_placed_under_the_searched_directory() {
        assert_eq!(under_filter(Some("/repo"), ".env"), "/repo/.env");
        assert_eq!(under_filter(Some("/repo/"), "**/*.pem"), "/repo/*.pem");
        assert_eq!(under_filter(None, "./a/.env"), "a/.env");
        assert_eq!(
            under_filter(Some("/repo"), "~/.ssh/id_rsa"),
            "~/.ssh/id_rsa"
        );
        assert_eq!(under_filter(Some("/repo"), "/etc/shadow"), "/etc/shadow");
    }
}
