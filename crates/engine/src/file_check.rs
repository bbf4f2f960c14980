//! The `path` and `workspace` checks: which files a request touches, with
//! which operation, and whether a rule covers them (SPEC §4.4).

use palisade_protocol::{CheckRequest, ResourceKind, Stage, pointer};
use serde_json::Value;

use crate::arguments;
use crate::paths::{self, OperationSet, PathRules, Target};
use crate::tools::{ToolMatcher, ToolMatcherBuilder};

/// What a file rule protects.
#[derive(Clone, Debug)]
pub(crate) enum Rule {
    /// Files matching the globs (minus the exceptions).
    Paths(Box<PathRules>),
    /// Files outside the workspace root.
    Workspace,
}

/// A compiled `path` or `workspace` check.
#[derive(Clone, Debug)]
pub(crate) struct FileCheck {
    rule: Rule,
    operations: OperationSet,
    tools: Option<ToolMatcher>,
    arguments: Vec<String>,
}

/// A file the request touches: where it is written and how it resolved.
struct Touched {
    pointer: String,
    text: String,
}

impl FileCheck {
    pub(crate) fn new(
        rule: Rule,
        operations: &[String],
        tools: &[String],
        arguments: &[String],
    ) -> Result<Self, (&'static str, String)> {
        let operations = if operations.is_empty() {
            match rule {
                Rule::Paths(_) => OperationSet::ALL,
                Rule::Workspace => OperationSet::WORKSPACE_DEFAULT,
            }
        } else {
            OperationSet::from_policy(operations).map_err(|e| ("operations", e))?
        };
        let tools = if tools.is_empty() {
            None
        } else {
            let mut b = ToolMatcherBuilder::default();
            for g in tools {
                b.add(0, g).map_err(|e| ("tools", e))?;
            }
            b.build().map_err(|e| ("tools", e))?
        };
        let arguments = arguments.to_vec();
        Ok(Self {
            rule,
            operations,
            tools,
            arguments,
        })
    }

    /// The pointer of the first file target the rule covers, and why, if any.
    pub(crate) fn first_hit(
        &self,
        request: &CheckRequest,
        stage: Stage,
    ) -> Option<(String, Option<String>)> {
        let (operation, targets) = match stage {
            Stage::Action => action_targets(request)?,
            Stage::ToolUse => self.tool_targets(request)?,
            _ => return None,
        };
        if !self.operations.intersects(operation) {
            return None;
        }
        let cwd = request.context_str("cwd");
        let home = request.context_str("home");
        for t in targets {
            let resolved = match paths::resolve(&t.text, cwd, home) {
                Ok(Target::File(p)) => p,
                Ok(Target::NotFile { .. }) => continue,
                // A target that cannot be read as a path is not let through.
                Err(e) => {
                    return Some((
                        t.pointer,
                        Some(format!("the target cannot be resolved: {e}")),
                    ));
                }
            };
            let hit = match &self.rule {
                Rule::Paths(rules) => rules.matches(&resolved, cwd, home),
                Rule::Workspace => {
                    let Some(root) = request.context_str("workspaceRoot").or(cwd) else {
                        // Without a root nothing can be outside it.
                        return None;
                    };
                    !paths::within(&resolved, root, home)
                }
            };
            if hit {
                return Some((t.pointer, None));
            }
        }
        None
    }

    fn tool_targets(&self, request: &CheckRequest) -> Option<(OperationSet, Vec<Touched>)> {
        let tool = request.tool.as_ref()?;
        if let Some(tools) = &self.tools {
            let mut named = false;
            tools.matches(&tool.name, |_| named = true);
            if !named {
                return None;
            }
        }
        let args = tool.arguments.as_ref()?;
        if !args.is_object() {
            return None;
        }
        let base = "/tool/arguments";
        let mut found: Vec<(String, &Value)> = Vec::new();
        if self.arguments.is_empty() {
            found = arguments::members(args, base, &|name, _| arguments::is_path_name(name));
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
        let mut out = Vec::new();
        for (ptr, v) in found {
            match v {
                Value::String(s) => out.push(Touched {
                    pointer: ptr,
                    text: s.clone(),
                }),
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        if let Value::String(s) = item {
                            let mut p = ptr.clone();
                            pointer::push_index(&mut p, i);
                            out.push(Touched {
                                pointer: p,
                                text: s.clone(),
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        Some((operation_of_tool(&tool.name), out))
    }
}

/// The operation and file targets of an action (a `process` or `network`
/// resource has none).
fn action_targets(request: &CheckRequest) -> Option<(OperationSet, Vec<Touched>)> {
    let action = request.action.as_ref()?;
    if let Some(r) = &action.resource
        && matches!(r.kind, ResourceKind::Process | ResourceKind::Network)
    {
        return None;
    }
    let targets = action
        .targets
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, t)| Touched {
            pointer: format!("/action/targets/{i}/uri"),
            text: t.uri.clone(),
        })
        .collect();
    Some((
        OperationSet::of_request(action.operation.as_deref()),
        targets,
    ))
}

/// What a tool probably does to the files it names, from its name; a name
/// that says nothing counts as every operation.
pub(crate) fn operation_of_tool(name: &str) -> OperationSet {
    // Whole words of the name: `read_file`, `readFile`, `mcp__fs__read` all hold `read`.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paths::Operation;

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
    }
}
