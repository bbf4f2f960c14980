//! The `command` check: the shell lines a request would run, and whether a
//! command in them matches a pattern (SPEC §4.5).

use std::sync::{Arc, OnceLock};

use globset::Glob;
use palisade_protocol::{ResourceKind, Stage};
use serde_json::{Map, Value};

use super::{Context, Field, Form, Found, Runs, Spec, Whole, described_entries};
use crate::policy::read::{Reader, child};
use crate::policy::{CheckKind, OnFail};
use crate::shell::{CommandPatterns, DANGEROUS, Native, parsed};
use crate::tools::arguments;
use crate::tools::{ToolMatcher, ToolMatcherBuilder};

/// The `command` check type.
pub(super) const SPEC: Spec = Spec {
    name: "command",
    fields: FIELDS,
    stages: &[Stage::Action, Stage::ToolUse],
    runs: Runs::Engine,
    entry_field: Some("commands"),
    can_redact: false,
    default_on_fail: OnFail::Block,
    message: "runs a dangerous command",
    read,
    default_entries: || {
        crate::shell::builtin::DANGEROUS
            .iter()
            .map(|b| format!("@{}", b.id))
            .collect()
    },
};

/// Tools whose arguments are shell lines, when a check names none.
const DEFAULT_TOOLS: &[&str] = &[
    "bash*",
    "sh",
    "zsh",
    "shell*",
    "*_shell",
    "*terminal*",
    "*exec*",
    "run_command*",
    "run_shell*",
    "powershell*",
    "cmd",
    // Desktop Commander's input to a process it started (a shell, often).
    "interact_with_process",
    // Codex's input to a command it started.
    "write_stdin",
    // Keys typed into a terminal multiplexer's pane.
    "*tmux*",
    "*send?keys*",
];

/// The tools whose arguments are shell lines: `tools`, or [`DEFAULT_TOOLS`]
/// (in any case) when empty, one matcher for the whole process (its set is
/// built once, for every check that names no tools).
pub(super) fn shell_tools(tools: &[Glob]) -> Result<ToolMatcher, String> {
    if tools.is_empty() {
        return default_shell_tools().clone();
    }
    let mut b = ToolMatcherBuilder::default();
    for g in tools {
        b.add_glob(0, g.clone());
    }
    b.finish().ok_or_else(|| "no tools".to_owned())
}

/// The matcher of [`DEFAULT_TOOLS`], one for the whole process.
fn default_shell_tools() -> &'static Result<ToolMatcher, String> {
    static DEFAULT: OnceLock<Result<ToolMatcher, String>> = OnceLock::new();
    DEFAULT.get_or_init(|| {
        let mut b = ToolMatcherBuilder::default();
        for g in DEFAULT_TOOLS {
            b.add_any_case(0, g)?;
        }
        b.finish().ok_or_else(|| "no tools".to_owned())
    })
}

/// Whether a request's tool runs shell lines: `tools` names it; or, when
/// `tools` is the default list, the tool part of an MCP tool's name
/// (`mcp__shell__run_command`'s `run_command`) is in it, or the tool has a
/// command-named member (`command`, `cmd`) of its own — whatever its name,
/// a tool given a command runs it.
fn runs_shell(cx: &Context<'_>, tools: &ToolMatcher) -> (bool, bool) {
    if cx.names(tools) {
        return (true, true);
    }
    let Some(tool) = &cx.request.tool else {
        return (false, false);
    };
    let default = matches!(default_shell_tools(), Ok(d) if d.key() == tools.key());
    if !default {
        return (false, false);
    }
    if let Some(part) = mcp_tool_part(&tool.name)
        && tools.names(part)
    {
        return (true, true);
    }
    let has_command = |args: &Value| {
        args.as_object().is_some_and(|map| {
            map.iter()
                .any(|(name, v)| arguments::is_command_name(name, false) && !v.is_null())
                || !arguments::program_and_args(map).is_empty()
        })
    };
    let by_member = tool.arguments.as_ref().is_some_and(|args| {
        has_command(args)
            || arguments::json_texts(args, "")
                .iter()
                .any(|(_, inner)| has_command(inner))
    });
    (by_member, false)
}

/// The tool's own name in an MCP tool's full name: `mcp__server__tool`
/// (Claude Code, Codex), `mcp_server_tool` (Gemini CLI) is taken at its
/// last double underscore only.
fn mcp_tool_part(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("mcp__")?;
    rest.rsplit_once("__")
        .map(|(_, tool)| tool)
        .filter(|t| !t.is_empty())
}

/// A compiled `command` check.
#[derive(Clone, Debug)]
struct CommandCheck {
    patterns: CommandPatterns,
    /// For the built-in set: what each pattern catches.
    descriptions: Option<Vec<&'static str>>,
    tools: ToolMatcher,
}

impl Whole for CommandCheck {
    fn first_hit(&self, cx: &mut Context<'_>) -> Option<Found> {
        let (pointer, detail) = self.first_line(cx)?;
        Some(Found {
            pointer,
            detail,
            source: None,
            own_message: false,
        })
    }

    fn build(&self) -> Result<(), String> {
        self.patterns.build()?;
        self.tools.build()
    }
}

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let commands = r.optional_entries(obj, ptr, "commands");
    // `commands` empty: the built-in dangerous-command set.
    let compiled = if commands.is_empty() {
        let builtin: Vec<String> = DANGEROUS.iter().map(|d| format!("@{}", d.id)).collect();
        CommandPatterns::new(&builtin)
            .map(|p| (p, Some(DANGEROUS.iter().map(|d| d.description).collect())))
    } else {
        CommandPatterns::read(&commands, r.known).map(|p| (p, None))
    };
    let compiled = match compiled {
        Ok(c) => Some(c),
        Err(e) => {
            report_commands(r, obj, ptr, &commands, e);
            None
        }
    };
    let tools = r.optional_entries(obj, ptr, "tools");
    let globs = r.globs(obj, ptr, "tools", &tools)?;
    let (patterns, descriptions) = compiled?;
    let shell = match shell_tools(&globs) {
        Ok(m) => m,
        Err(e) => {
            r.err(child(ptr, "tools"), e);
            return None;
        }
    };
    let form = Form::Whole(Arc::new(CommandCheck {
        patterns,
        descriptions,
        tools: shell,
    }));
    Some((CheckKind::Command { commands, tools }, form))
}

/// The type's own fields.
const FIELDS: &[Field] = &[
    Field {
        name: "commands",
        required: false,
        schema: || {
            described_entries("Command patterns (default: the built-in set of dangerous commands).")
        },
    },
    Field {
        name: "tools",
        required: false,
        schema: || {
            described_entries("Tool-name globs the check reads arguments of (default: every tool).")
        },
    },
];

impl CommandCheck {
    /// The pointer of the first shell line with a matching command, and what
    /// the matching pattern catches.
    fn first_line(&self, cx: &Context<'_>) -> Option<(String, Option<String>)> {
        for (ptr, line) in shell_lines(cx, &self.tools) {
            let parsed = parsed(&line);
            let commands = &parsed.commands;
            let matched = self.patterns.matches_commands(commands);
            if let Some(&i) = matched.first() {
                let mut why = match &self.descriptions {
                    Some(d) => d.get(i).map(|s| (*s).to_owned()),
                    None => None,
                };
                if self.patterns.has_native(i, Native::Opaque)
                    && let Some(reason) = commands.iter().find_map(|c| c.opaque.as_deref())
                {
                    why = Some(match why {
                        Some(d) => format!("{d}: {reason}"),
                        None => reason.to_owned(),
                    });
                }
                return Some((ptr, why));
            }
        }
        None
    }
}

/// Reports why the `commands` list did not compile: it was compiled
/// once; only when that fails is each entry compiled on its own, to report
/// every bad one at its pointer (`e` when none fails alone).
pub(super) fn report_commands(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
    commands: &[String],
    e: String,
) {
    let before = r.errors.len();
    r.each_compiled(obj, ptr, "commands", commands, |c| {
        CommandPatterns::new(&[c]).map(|_| ())
    });
    if r.errors.len() == before {
        r.err(child(ptr, "commands"), e);
    }
}

/// The shell lines a request would run, with their pointers: the
/// command-named arguments of a tool that `tools` names, or the targets and
/// command-named attributes of a process action.
pub(super) fn shell_lines(cx: &Context<'_>, tools: &ToolMatcher) -> Vec<(String, String)> {
    let (request, stage) = (cx.request, cx.stage);
    let mut out = Vec::new();
    match stage {
        Stage::ToolUse => {
            let Some(tool) = &request.tool else {
                return out;
            };
            // `named`: the tool is a shell by its name, so that its bare
            // string and its `script`, `code`, … members are lines too.
            let (shell, named) = runs_shell(cx, tools);
            if !shell {
                return out;
            }
            let base = "/tool/arguments";
            match &tool.arguments {
                // A bare string is the line itself.
                Some(Value::String(s)) if named => {
                    out.push((base.to_owned(), s.clone()));
                }
                Some(args @ Value::Object(_)) => object_lines(args, base, named, &mut out),
                _ => {}
            }
            // Arguments written as JSON text, read for what they hold and
            // located at the string.
            for (ptr, inner) in tool
                .arguments
                .iter()
                .flat_map(|a| arguments::json_texts(a, base))
            {
                let mut lines = Vec::new();
                object_lines(&inner, &ptr, named, &mut lines);
                out.extend(lines.into_iter().map(|(_, line)| (ptr.clone(), line)));
            }
        }
        Stage::Action => {
            let Some(action) = &request.action else {
                return out;
            };
            let process = action
                .resource
                .as_ref()
                .is_some_and(|r| r.kind == ResourceKind::Process)
                || action.operation.as_deref().is_some_and(|op| {
                    matches!(
                        op.to_ascii_lowercase().as_str(),
                        "exec" | "execute" | "spawn" | "run" | "shell" | "command"
                    )
                });
            if !process {
                return out;
            }
            for (i, t) in action.targets.iter().flatten().enumerate() {
                out.push((format!("/action/targets/{i}/uri"), t.uri.clone()));
            }
            let program = action.resource.as_ref().and_then(|r| r.uri.as_deref());
            if let Some(attrs) = &action.attributes {
                // `{"resource": {"uri": "/bin/rm"}, "attributes": {"args":
                // ["-rf", "/"]}}` runs the program with those arguments.
                if let (Some(program), Some(Value::Array(rest))) = (program, attrs.get("args")) {
                    let mut words = vec![Value::String(program.to_owned())];
                    words.extend(rest.iter().cloned());
                    push_line(
                        &mut out,
                        "/action/attributes/args".to_owned(),
                        &Value::Array(words),
                    );
                }
                let attrs = Value::Object(attrs.clone());
                let found = arguments::members(&attrs, "/action/attributes", &|name, depth| {
                    arguments::is_command_name(name, depth == 0)
                });
                for (p, v) in found {
                    push_line(&mut out, p, v);
                }
            }
            // Nothing else says what runs: the resource is the command
            // (`{"kind": "process", "uri": "rm -rf /"}`).
            if out.is_empty()
                && let Some(program) = program
            {
                out.push(("/action/resource/uri".to_owned(), program.to_owned()));
            }
        }
        _ => {}
    }
    out
}

/// A string is a line; an array of strings is an argv, joined with spaces
/// after quoting each word so that the parser sees the same words.
/// The lines of a shell tool's arguments `args` (an object, at `base`);
/// `named`: the tool is a shell by its name.
fn object_lines(args: &Value, base: &str, named: bool, out: &mut Vec<(String, String)>) {
    let Value::Object(map) = args else {
        return;
    };
    // `{"command": "rm", "args": ["-rf", "/"]}` is one line, and so is
    // `{"program": "cat", "arguments": ["x"]}`.
    for words in arguments::program_and_args(map) {
        push_line(out, base.to_owned(), &Value::Array(words));
    }
    let found = arguments::members(args, base, &|name, depth| {
        arguments::is_command_name(name, depth == 0 && named)
    });
    for (p, v) in found {
        // A tool named only by its member: a patch given as its `command`
        // (Codex's `apply_patch`) is data, whose files the file checks read
        // as a patch.
        if !named
            && v.as_str()
                .is_some_and(|s| s.trim_start().starts_with("*** Begin Patch"))
        {
            continue;
        }
        push_line(out, p, v);
    }
}

fn push_line(out: &mut Vec<(String, String)>, ptr: String, v: &Value) {
    // A member named in the plural (`commands`) holds lines, one each.
    let plural = ptr.rsplit('/').next().is_some_and(|name| {
        arguments::name_words(name)
            .last()
            .is_some_and(|w| w == "commands")
    });
    // A line found twice (as a member named as a command, and as a
    // string of an object read whole) is read once.
    let mut push = |p: String, line: &str| {
        if !out.iter().any(|(q, l)| *q == p && l == line) {
            out.push((p, line.to_owned()));
        }
    };
    match v {
        Value::String(s) => push(ptr, s),
        Value::Array(items) if plural => {
            for (i, item) in items.iter().enumerate() {
                if let Value::String(s) = item {
                    push(format!("{ptr}/{i}"), s);
                }
            }
        }
        Value::Array(items) => {
            let words: Vec<String> = items
                .iter()
                .filter_map(|w| w.as_str())
                .map(|w| format!("'{}'", w.replace('\'', r"'\''")))
                .collect();
            if !words.is_empty() {
                push(ptr, &words.join(" "));
            }
        }
        // An object where a line was expected (`{"command": {"line":
        // …}}`): what it would run cannot be told from its shape, so each
        // string in it is read as a line. A member named as a command
        // inside it is found on its own too: once is enough.
        Value::Object(_) => {
            let mut leaves = Vec::new();
            string_leaves(v, &ptr, 0, &mut leaves);
            for (p, line) in leaves {
                push(p, line);
            }
        }
        _ => {}
    }
}

/// The strings of `v` at any depth (to [`MAX_LEAF_DEPTH`]), with their
/// pointers under `ptr`, in document order.
fn string_leaves<'v>(v: &'v Value, ptr: &str, depth: usize, out: &mut Vec<(String, &'v str)>) {
    if depth > MAX_LEAF_DEPTH {
        return;
    }
    match v {
        Value::String(s) => out.push((ptr.to_owned(), s)),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                string_leaves(item, &format!("{ptr}/{i}"), depth + 1, out);
            }
        }
        Value::Object(map) => {
            for (name, item) in map {
                let mut p = ptr.to_owned();
                palisade_protocol::pointer::push(&mut p, name);
                string_leaves(item, &p, depth + 1, out);
            }
        }
        _ => {}
    }
}

/// How deep [`string_leaves`] reads.
const MAX_LEAF_DEPTH: usize = 16;
