//! The examples of README.md and docs/ against the code: every policy
//! shown loads (or, marked `<!-- invalid policy -->` before its block, is
//! refused), every config shown loads, every request shown is a valid v1
//! request, and every `palisade` command shown names a command and
//! options that exist.

use std::path::{Path, PathBuf};

use crate::util::palisade;

/// One fenced code block: the file, the line its fence opens at, the info
/// string, the text, and whether the line before the fence marks it as
/// an invalid example.
struct Block {
    file: PathBuf,
    line: usize,
    lang: String,
    text: String,
    invalid: bool,
    /// `<!-- run: … -->` on the line before the fence: the block's
    /// commands are run and their output compared ([`run`]).
    run: Option<String>,
    /// `<!-- file: NAME -->` above the fence: the file a run block may use.
    named: Option<String>,
    /// `<!-- not run: REASON -->`: a console block that cannot run here.
    not_run: Option<String>,
}

mod run;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn blocks() -> Vec<Block> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            let Some(info) = lines[i].trim_start().strip_prefix("```") else {
                i += 1;
                continue;
            };
            let indent = lines[i].len() - lines[i].trim_start().len();
            let start = i;
            // The markers: the comment lines right above the fence.
            let markers: Vec<&str> = lines[..start]
                .iter()
                .rev()
                .map(|l| l.trim())
                .take_while(|l| l.starts_with("<!--") && l.ends_with("-->"))
                .collect();
            let marker = |name: &str| {
                markers.iter().find_map(|m| {
                    m.strip_prefix("<!-- ")?
                        .strip_prefix(name)
                        .and_then(|r| r.strip_suffix("-->"))
                        .map(|r| r.trim().trim_start_matches(':').trim().to_owned())
                })
            };
            let invalid = marker("invalid policy").is_some();
            let run = marker("run");
            let not_run = marker("not run");
            let named = marker("file");
            i += 1;
            let mut body = Vec::new();
            while i < lines.len() && lines[i].trim_start() != "```" {
                body.push(lines[i].get(indent..).unwrap_or(lines[i].trim_start()));
                i += 1;
            }
            out.push(Block {
                file: file.clone(),
                line: start + 1,
                lang: info.trim().to_owned(),
                text: body.join("\n") + "\n",
                invalid,
                run,
                named,
                not_run,
            });
            i += 1;
        }
    }
    out
}

fn parse(block: &Block) -> Option<serde_json::Value> {
    match block.lang.as_str() {
        "json" => serde_json::from_str(&block.text).ok(),
        "yaml" | "yml" => serde_yaml_ng::from_str(&block.text).ok(),
        _ => None,
    }
}

const CONFIG_SECTIONS: &[&str] = &[
    "listen",
    "keys",
    "tenants",
    "policy",
    "llm",
    "moderation",
    "mcp_servers",
    "audit",
    "budgets",
    "limits",
    "rate_limits",
    "circuit_breaker",
    "state",
    "playground",
    "strict_requests",
    "gateway",
    "approvals",
];

#[test]
fn every_policy_config_and_request_shown_is_valid() {
    let mut problems = Vec::new();
    let mut counts = [0usize; 3];
    for block in blocks() {
        let Some(value) = parse(&block) else { continue };
        let Some(obj) = value.as_object() else {
            continue;
        };
        let at = format!("{}:{}", block.file.display(), block.line);
        // A policy's checks are objects (an audit record's are ids).
        let policy_checks = obj
            .get("checks")
            .and_then(|c| c.as_array())
            .is_some_and(|c| c.first().is_none_or(serde_json::Value::is_object));
        if policy_checks && !obj.keys().any(|k| CONFIG_SECTIONS.contains(&k.as_str())) {
            counts[0] += 1;
            // From the text, as a file is read (repeated keys included).
            let loaded = match block.lang.as_str() {
                "json" => palisade_engine::Policy::from_json_str(&block.text),
                _ => palisade_engine::Policy::from_yaml_str(&block.text),
            };
            match (loaded, block.invalid) {
                (Err(e), false) => {
                    problems.push(format!("{at}: the policy shown does not load: {e}"))
                }
                (Ok(_), true) => problems.push(format!("{at}: marked invalid, and it loads")),
                _ => {}
            }
        } else if !obj.contains_key("checks")
            && !obj.is_empty()
            && obj.keys().all(|k| CONFIG_SECTIONS.contains(&k.as_str()))
            && block.lang != "json"
        {
            counts[1] += 1;
            if let Err(e) = palisade_transport::ServiceConfig::from_value(value.clone()) {
                problems.push(format!("{at}: the config shown does not load: {e}"));
            }
        } else if (obj.contains_key("protocolVersion") && obj.contains_key("decision"))
            || obj.contains_key("receiptId")
            || obj.contains_key("checkId")
        {
            // A decision, a finding or an audit record: what the service
            // writes, not input.
        } else if ["stage", "tool", "content", "action"]
            .iter()
            .any(|k| obj.contains_key(*k))
            && !obj.contains_key("hook_event_name")
            // An `mcp` check's arguments name the tool with a string.
            && obj.get("tool").is_none_or(serde_json::Value::is_object)
        {
            counts[2] += 1;
            if let Err(e) = palisade_engine::parse_request(&value.to_string()) {
                problems.push(format!("{at}: the request shown is not valid: {e}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        counts.iter().all(|&n| n > 0),
        "policies, configs, requests: {counts:?}"
    );
}

#[test]
fn every_palisade_command_shown_exists_with_its_options() {
    let mut problems = Vec::new();
    let mut help_of = std::collections::HashMap::new();
    let mut seen = 0;
    for block in blocks() {
        if !matches!(block.lang.as_str(), "sh" | "bash" | "console" | "shell") {
            continue;
        }
        // Lines joined across `\` continuations.
        let joined = block.text.replace("\\\n", " ");
        for (n, line) in joined.lines().enumerate() {
            let line = line.trim().trim_start_matches("$ ");
            let words: Vec<&str> = line.split_whitespace().collect();
            if line.contains("listening on") {
                continue; // what `serve` prints
            }
            let Some(p) = words
                .iter()
                .position(|w| *w == "palisade" || (w.ends_with("/palisade") && !w.contains('=')))
            else {
                continue;
            };
            // `cargo install … palisade`, `pip install palisade-…`: not the command.
            if p > 0 && matches!(words[p - 1], "-p" | "install" | "--package") {
                continue;
            }
            let Some(command) = words.get(p + 1) else {
                continue;
            };
            if !command.starts_with(|c: char| c.is_ascii_lowercase())
                || !command.chars().all(|c| c.is_ascii_lowercase() || c == '-')
            {
                continue;
            }
            seen += 1;
            let at = format!("{}:{} `{line}`", block.file.display(), block.line + n + 1);
            let mut path = vec![*command];
            if matches!(*command, "hooks" | "policy" | "audit")
                && let Some(sub) = words.get(p + 2)
            {
                path.push(sub);
            }
            // `palisade mcp pins list|approve|reset`, `palisade mcp wrap|unwrap`.
            if *command == "mcp" && words.get(p + 2) == Some(&"pins") {
                path.push("pins");
                if let Some(sub) = words.get(p + 3) {
                    path.push(sub);
                }
            }
            if *command == "mcp"
                && let Some(sub @ (&"wrap" | &"unwrap")) = words.get(p + 2)
            {
                path.push(sub);
            }
            let key = path.join(" ");
            let help: &String = help_of.entry(key.clone()).or_insert_with(|| {
                let mut args = path.clone();
                args.push("--help");
                let run = palisade(&args).run();
                if run.code == 0 {
                    run.stdout_text().to_owned()
                } else {
                    String::new()
                }
            });
            if help.is_empty() {
                problems.push(format!("{at}: `palisade {key}` is not a command"));
                continue;
            }
            for w in &words[p + 1..] {
                if matches!(*w, "|" | ">" | "<" | "&&" | ";" | "#")
                    || w.starts_with('>')
                    || w.starts_with('<')
                {
                    break;
                }
                let Some(flag) = w.strip_prefix("--") else {
                    continue;
                };
                let flag = flag.split('=').next().unwrap_or(flag);
                if flag.is_empty() || flag == "help" {
                    continue;
                }
                let option = format!("--{flag}");
                let named = help.match_indices(&option).any(|(i, _)| {
                    !help[i + option.len()..]
                        .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                });
                if !named {
                    problems.push(format!("{at}: `palisade {key}` has no option `--{flag}`"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(seen > 20, "palisade commands found: {seen}");
}
