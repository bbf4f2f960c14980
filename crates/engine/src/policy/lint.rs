//! Warnings about valid policies: checks, or entries of them, that can
//! never fire as written.

use globset::{GlobBuilder, GlobSetBuilder};

use super::{CheckKind, Policy};
use crate::error::PolicyError;
use crate::policy::read::{child, index};

/// Tool names the coding-agent hosts and common frameworks use; a glob
/// that matches one of them only in another case is most likely a mistake.
const KNOWN_TOOLS: &[&str] = &[
    // Claude Code
    "Bash",
    "Read",
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "Glob",
    "Grep",
    "LS",
    "WebFetch",
    "WebSearch",
    "Task",
    "TodoWrite",
    // Codex
    "shell",
    "exec_command",
    "apply_patch",
    "local_shell",
    // Gemini CLI
    "run_shell_command",
    "read_file",
    "write_file",
    "replace",
    "glob",
    "search_file_content",
    "list_directory",
    "web_fetch",
    "google_web_search",
    "read_many_files",
    "save_memory",
    // Copilot CLI, pi
    "bash",
    "view",
    "edit",
    "create",
    "read",
    "write",
];

impl Policy {
    /// What in a valid policy can never fire as written, each at its JSON
    /// pointer: a `tools` glob that matches a host's tool only in another
    /// case (globs are case-sensitive), a command pattern that begins with
    /// an option (patterns are matched from the command's name), and a
    /// `when` that requires a stage the check does not run at.
    ///
    /// ```
    /// let policy = palisade_engine::Policy::from_yaml_str(
    ///     "checks:\n  - {type: tool_pattern, stage: tool_use, tools: [webfetch]}\n",
    /// ).unwrap();
    /// let warnings = policy.warnings();
    /// assert_eq!(warnings[0].pointer, "/checks/0/tools/0");
    /// assert!(warnings[0].message.contains("`WebFetch`"));
    /// ```
    pub fn warnings(&self) -> Vec<PolicyError> {
        let mut out = Vec::new();
        let tools_of = |check: &super::Check| match &check.kind {
            CheckKind::ToolPattern { tools }
            | CheckKind::Schema { tools, .. }
            | CheckKind::Path { tools, .. }
            | CheckKind::Workspace { tools, .. }
            | CheckKind::Command { tools, .. } => Some(tools.clone()),
            _ => None,
        };
        let globs: Vec<String> = self.checks.iter().filter_map(tools_of).flatten().collect();
        let mut case_warnings = tool_case_warnings(&globs).into_iter();
        for (i, check) in self.checks.iter().enumerate() {
            let ptr = index("/checks", i);
            if let CheckKind::Command { commands, .. } = &check.kind {
                command_warnings(&ptr, commands, &mut out);
            }
            for j in 0..tools_of(check).map_or(0, |t| t.len()) {
                if let Some(message) = case_warnings.next().flatten() {
                    out.push(PolicyError::new(index(&child(&ptr, "tools"), j), message));
                }
            }
            if let Some(when) = &check.when
                && let Some(stage) = required_stage(when)
                && !check.stages.iter().any(|s| s.as_str() == stage)
            {
                let runs: Vec<&str> = check.stages.iter().map(|s| s.as_str()).collect();
                out.push(PolicyError::new(
                    child(&ptr, "when"),
                    format!(
                        "`when` requires stage `{stage}`, and the check runs at {}: it never fires; add `{stage}` to `stage`, or drop the comparison",
                        runs.iter()
                            .map(|s| format!("`{s}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
        }
        out
    }
}

/// For each glob, a warning when it matches no known tool name as written
/// but one in another case. Two glob sets for all the globs: a policy with
/// thousands of tool globs is linted in the time of two compilations.
fn tool_case_warnings(globs: &[String]) -> Vec<Option<String>> {
    let set = |insensitive| {
        let mut set = GlobSetBuilder::new();
        // A glob that does not parse was refused with the policy; it
        // matches nothing here.
        let mut ids = Vec::with_capacity(globs.len());
        let mut added = 0;
        for glob in globs {
            let built = GlobBuilder::new(glob)
                .literal_separator(false)
                .backslash_escape(true)
                .case_insensitive(insensitive)
                .build();
            ids.push(built.ok().map(|g| {
                set.add(g);
                added += 1;
                added - 1
            }));
        }
        let set = set.build().ok();
        // Per glob: the known tools it matches.
        let mut matched: Vec<Vec<&str>> = vec![Vec::new(); globs.len()];
        if let Some(set) = set {
            for tool in KNOWN_TOOLS {
                let hits = set.matches(tool);
                for (glob, id) in ids.iter().enumerate() {
                    if let (Some(id), Some(m)) = (id, matched.get_mut(glob))
                        && hits.contains(id)
                    {
                        m.push(tool);
                    }
                }
            }
        }
        matched
    };
    let exact = set(false);
    let folded = set(true);
    exact
        .iter()
        .zip(folded)
        .zip(globs)
        .map(|((exact, near), glob)| {
            (exact.is_empty() && !near.is_empty()).then(|| case_warning(glob, &near))
        })
        .collect()
}

/// The warning for a glob that matches the `near` tool names only in
/// another case.
fn case_warning(glob: &str, near: &[&str]) -> String {
    let named = near
        .iter()
        .map(|t| format!("`{t}`"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "tool glob `{glob}` matches {named} only in another case, and tool globs are case-sensitive: it matches none of the tool names coding agents use; add {named} to `tools` if it should"
    )
}

/// Command patterns whose command (of any piped part) begins with an
/// option: a view begins with the command's name, so they never match.
fn command_warnings(ptr: &str, commands: &[String], out: &mut Vec<PolicyError>) {
    for (j, pattern) in commands.iter().enumerate() {
        let text = pattern.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Some(part) = text.split(" | ").find(|p| p.starts_with('-')) {
            out.push(PolicyError::new(
                index(&child(ptr, "commands"), j),
                format!(
                    "command pattern `{text}`: `{part}` begins with an option, and a command is matched from its name: it never fires; name the command (`rm {part}`), or write `* {part}` for any command"
                ),
            ));
        }
    }
}

/// The stage a `when` requires: `request.stage == "output"` alone or as a
/// term of a conjunction (`&&`) with no `||`.
fn required_stage(when: &str) -> Option<&str> {
    if when.contains("||") {
        return None;
    }
    when.split("&&").find_map(|term| {
        let term = term
            .trim()
            .trim_start_matches('(')
            .trim_end_matches(')')
            .trim();
        let (left, right) = term.split_once("==")?;
        let (left, right) = (left.trim(), right.trim());
        let value = if left == "request.stage" {
            right
        } else if right == "request.stage" {
            left
        } else {
            return None;
        };
        value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warnings(yaml: &str) -> Vec<(String, String)> {
        Policy::from_yaml_str(yaml)
            .unwrap()
            .warnings()
            .into_iter()
            .map(|w| (w.pointer, w.message))
            .collect()
    }

    #[test]
    fn checks_that_cannot_fire_are_warned_about() {
        let w = warnings(
            "checks:
  - {id: a, type: tool_pattern, stage: tool_use, tools: [webfetch, Bash, bash*, read_file, my_tool, WRITE]}
  - {id: b, type: command, stage: tool_use, commands: ['-rf *', 'curl * | -x', 'rm -rf *']}
  - {id: c, type: regex, stage: tool_use, patterns: [x], when: 'request.stage == \"output\"'}
  - {id: d, type: regex, stage: [tool_use, output], patterns: [x], when: 'request.stage == \"output\" && request.tool.name == \"x\"'}
  - {id: e, type: regex, stage: tool_use, patterns: [x], when: 'request.stage == \"output\" || true'}
  - {id: f, type: regex, stage: input, patterns: [x], when: \"(request.stage == 'output') && true\"}
  - {id: g, type: command, stage: tool_use, tools: [Bash, BASH], commands: ['rm -rf *']}
",
        );
        let pointers: Vec<&str> = w.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/checks/0/tools/0",
                "/checks/0/tools/5",
                "/checks/1/commands/0",
                "/checks/1/commands/1",
                "/checks/2/when",
                "/checks/5/when",
                "/checks/6/tools/1"
            ],
            "{w:#?}"
        );
        assert!(w[0].1.contains("add `WebFetch` to `tools`"), "{}", w[0].1);
        assert!(
            w[1].1
                .contains("matches `Write`, `write` only in another case"),
            "{}",
            w[1].1
        );
        assert!(w[2].1.contains("`rm -rf *`"), "{}", w[2].1);
        assert!(w[4].1.contains("requires stage `output`"), "{}", w[4].1);
        assert!(
            w[6].1.contains("tool glob `BASH` matches `Bash`"),
            "{}",
            w[6].1
        );
    }

    #[test]
    fn the_default_policy_has_no_warnings() {
        let policy = Policy::from_yaml_str(crate::DEFAULT_POLICY).unwrap();
        assert!(policy.warnings().is_empty(), "{:?}", policy.warnings());
    }
}
