//! `palisade mcp wrap|unwrap HOST` on real configuration files in a home
//! of their own, and `palisade doctor`'s report of wrapped servers.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::util::{BIN, TempDir};

/// A home, a project and a PATH without any coding agent on it.
struct Home {
    dir: TempDir,
}

impl Home {
    fn new(test: &str) -> Self {
        let dir = TempDir::new(&format!("wrap-{test}"));
        for d in ["home", "proj"] {
            std::fs::create_dir_all(dir.path().join(d)).unwrap();
        }
        Home { dir }
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn project(&self) -> PathBuf {
        self.dir.path().join("proj")
    }

    fn write(&self, path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// `palisade ARGS` in the project, with this home; (code, stdout, stderr).
    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = Command::new(BIN)
            .args(args)
            .current_dir(self.project())
            .env("HOME", self.home())
            .env("PATH", "/usr/bin:/bin")
            .env("XDG_STATE_HOME", self.dir.path().join("state"))
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env_remove("PI_CODING_AGENT_DIR")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!err.contains("panicked"), "{err}");
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            err,
        )
    }
}

const CLAUDE: &str = r#"{
  "numStartups": 12,
  "theme": "dark",
  "mcpServers": {
    "fs": {
      "type": "stdio",
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-filesystem",
        "/home/dev/app"
      ],
      "env": {}
    },
    "bare": {"command": "my-server"},
    "search": {"type": "http", "url": "https://search.example.com/mcp", "headers": {"Authorization": "Bearer ${SEARCH_TOKEN}"}},
    "old": {"type": "sse", "url": "https://old.example.com/sse"}
  },
  "projects": {"/home/dev/app": {"allowedTools": []}}
}
"#;

const CURSOR: &str = r#"{"mcpServers":{"github":{"command":"docker","args":["run","-i","--rm","ghcr.io/github/github-mcp-server"],"env":{"GITHUB_PERSONAL_ACCESS_TOKEN":"${env:GITHUB_TOKEN}"}},"linear":{"url":"https://mcp.linear.app/mcp"}}}"#;

const GEMINI: &str = r#"// Gemini CLI settings: comments are allowed here.
{
  "theme": "GitHub", // the user's theme
  /* the servers */
  "mcpServers": {
    "fs": { "command": "npx", "args": [ "-y", "@modelcontextprotocol/server-filesystem", "." ], "trust": false },
    "api": { "httpUrl": "https://api.example.com/mcp", "headers": { "X-Key": "$API_KEY" } },
    "sse": { "url": "https://sse.example.com/sse" }
  }
}
"#;

const CODEX: &str = r#"# Codex configuration
model = "gpt-5" # the model

[mcp_servers.fs]
# the reference filesystem server
command = 'npx'   # run through npx
args = ["-y", "@modelcontextprotocol/server-filesystem", "/home/dev/app"]
startup_timeout_sec = 20

[mcp_servers.fs.env]
LOG = "debug"

[mcp_servers.docs]
command = "docs-server"

[mcp_servers.remote]
url = "https://remote.example.com/mcp"

[profiles.fast]
model = "gpt-5-mini"
"#;

/// A JSON file's servers (its comments, ` //` to the end of a line and
/// the one block comment of GEMINI, dropped: none is inside a string here).
fn servers_json(text: &str) -> Value {
    let clean: String = text
        .lines()
        .map(|l| match l.find(" //") {
            Some(i) => l[..i].to_owned(),
            None if l.trim_start().starts_with("//") => String::new(),
            None => l.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let clean = clean.replace("/* the servers */", "");
    let v: Value = serde_json::from_str(&clean).unwrap_or_else(|e| panic!("{e}:\n{clean}"));
    v["mcpServers"].clone()
}

#[track_caller]
fn assert_wrapped(entry: &Value, name: &str, original: &[&str]) {
    let command = entry["command"].as_str().unwrap();
    assert!(command.ends_with("/palisade"), "{entry}");
    let args: Vec<&str> = entry["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let mut want = vec!["mcp-proxy", "--name", name, "--"];
    want.extend_from_slice(original);
    assert_eq!(args, want, "{entry}");
}

/// Wraps, wraps again (nothing changes), unwraps (the bytes come back).
fn round_trip(h: &Home, host: &str, path: &Path, original: &str, scope: &[&str]) -> String {
    h.write(path, original);
    let mut args = vec!["mcp", "wrap", host];
    args.extend_from_slice(scope);
    let (code, out, err) = h.run(&args);
    assert_eq!(code, 0, "{out}{err}");
    let wrapped = std::fs::read_to_string(path).unwrap();
    assert_ne!(wrapped, original, "{out}");
    let (code, again, err) = h.run(&args);
    assert_eq!(code, 0, "{again}{err}");
    assert!(again.contains("already wrapped"), "{again}");
    assert!(again.contains("nothing to change"), "{again}");
    assert_eq!(
        std::fs::read_to_string(path).unwrap(),
        wrapped,
        "wrapping twice changes nothing"
    );
    let mut args = vec!["mcp", "unwrap", host];
    args.extend_from_slice(scope);
    let (code, out2, err) = h.run(&args);
    assert_eq!(code, 0, "{out2}{err}");
    assert_eq!(
        std::fs::read_to_string(path).unwrap(),
        original,
        "unwrap gives back the file byte for byte; it was wrapped as:\n{wrapped}"
    );
    let (_, out3, _) = h.run(&args);
    assert!(out3.contains("nothing to change"), "{out3}");
    out + &wrapped
}

#[test]
fn claude_code_servers_wrap_and_unwrap_byte_for_byte() {
    let h = Home::new("claude");
    let path = h.home().join(".claude.json");
    let out = round_trip(&h, "claude-code", &path, CLAUDE, &[]);
    assert!(out.contains("fs: wrapped"), "{out}");
    assert!(out.contains("search: wrapped"), "{out}");
    assert!(out.contains("old: left as it is: an SSE server"), "{out}");
    // What wrap wrote, read as Claude Code reads it.
    h.write(&path, CLAUDE);
    h.run(&["mcp", "wrap", "claude-code"]);
    let text = std::fs::read_to_string(&path).unwrap();
    let all: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(all["numStartups"], 12);
    assert_eq!(
        all["projects"],
        serde_json::json!({"/home/dev/app": {"allowedTools": []}})
    );
    let s = &all["mcpServers"];
    assert_wrapped(
        &s["fs"],
        "fs",
        &[
            "npx",
            "-y",
            "@modelcontextprotocol/server-filesystem",
            "/home/dev/app",
        ],
    );
    assert_eq!(s["fs"]["type"], "stdio");
    assert_wrapped(&s["bare"], "bare", &["my-server"]);
    // A URL server: --upstream, its header from an environment variable of
    // the entry, never on the command line.
    let args = s["search"]["args"].to_string();
    assert!(
        args.contains(r#""--upstream","https://search.example.com/mcp","--header","Authorization=PALISADE_HEADER_1""#),
        "{args}"
    );
    assert!(!args.contains("SEARCH_TOKEN"), "{args}");
    assert_eq!(
        s["search"]["env"]["PALISADE_HEADER_1"],
        "Bearer ${SEARCH_TOKEN}"
    );
    assert!(s["search"].get("url").is_none() && s["search"].get("type").is_none());
    assert_eq!(s["old"]["type"], "sse");
}

#[test]
fn project_scope_is_the_project_s_mcp_json() {
    let h = Home::new("project");
    let path = h.project().join(".mcp.json");
    let original =
        "{\"mcpServers\": {\"fs\": {\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"]}}}";
    round_trip(&h, "claude-code", &path, original, &["--scope", "project"]);
    assert!(!h.home().join(".claude.json").exists());
}

#[test]
fn cursor_servers_wrap_and_unwrap_byte_for_byte() {
    let h = Home::new("cursor");
    let path = h.home().join(".cursor/mcp.json");
    let out = round_trip(&h, "cursor", &path, CURSOR, &[]);
    assert!(
        out.contains("github: wrapped") && out.contains("linear: wrapped"),
        "{out}"
    );
    h.run(&["mcp", "wrap", "cursor"]);
    let s = servers_json(&std::fs::read_to_string(&path).unwrap());
    assert_wrapped(
        &s["github"],
        "github",
        &[
            "docker",
            "run",
            "-i",
            "--rm",
            "ghcr.io/github/github-mcp-server",
        ],
    );
    assert_eq!(
        s["github"]["env"]["GITHUB_PERSONAL_ACCESS_TOKEN"],
        "${env:GITHUB_TOKEN}"
    );
}

#[test]
fn gemini_settings_with_comments_wrap_and_unwrap_byte_for_byte() {
    let h = Home::new("gemini");
    let path = h.home().join(".gemini/settings.json");
    let out = round_trip(&h, "gemini-cli", &path, GEMINI, &[]);
    assert!(
        out.contains("fs: wrapped") && out.contains("api: wrapped"),
        "{out}"
    );
    assert!(out.contains("sse: left as it is: an SSE server"), "{out}");
    h.run(&["mcp", "wrap", "gemini-cli"]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("// Gemini CLI settings: comments are allowed here.\n"));
    assert!(text.contains("\"theme\": \"GitHub\", // the user's theme"));
    let s = servers_json(&text);
    assert_wrapped(
        &s["fs"],
        "fs",
        &["npx", "-y", "@modelcontextprotocol/server-filesystem", "."],
    );
    assert_eq!(s["fs"]["trust"], false);
    assert_eq!(s["api"]["env"]["PALISADE_HEADER_1"], "$API_KEY");
}

#[test]
fn codex_toml_keeps_its_comments_and_comes_back_byte_for_byte() {
    let h = Home::new("codex");
    let path = h.home().join(".codex/config.toml");
    let out = round_trip(&h, "codex", &path, CODEX, &[]);
    assert!(
        out.contains("fs: wrapped") && out.contains("docs: wrapped"),
        "{out}"
    );
    assert!(out.contains("remote: wrapped"), "{out}");
    h.run(&["mcp", "wrap", "codex"]);
    let text = std::fs::read_to_string(&path).unwrap();
    for kept in [
        "# Codex configuration\nmodel = \"gpt-5\" # the model\n",
        "# the reference filesystem server\n",
        "   # run through npx\n",
        "[mcp_servers.fs.env]\nLOG = \"debug\"\n",
        "[profiles.fast]\nmodel = \"gpt-5-mini\"\n",
    ] {
        assert!(text.contains(kept), "{kept:?} is kept:\n{text}");
    }
    assert!(
        text.contains(r#"args = ["mcp-proxy", "--name", "fs", "--", 'npx', "-y", "@modelcontextprotocol/server-filesystem", "/home/dev/app"]"#),
        "{text}"
    );
    assert!(
        !text.contains("command = \"docs-server\"")
            && text.contains(r#"args = ["mcp-proxy", "--name", "docs", "--", "docs-server"]"#),
        "{text}"
    );
}

#[test]
fn dry_run_shows_the_change_and_writes_nothing() {
    let h = Home::new("dry");
    let path = h.project().join(".cursor/mcp.json");
    let original =
        "{\n  \"mcpServers\": {\n    \"fs\": {\"command\": \"npx\", \"args\": [\"pkg\"]}\n  }\n}\n";
    h.write(&path, original);
    let (code, out, err) = h.run(&["mcp", "wrap", "cursor", "--scope", "project", "--dry-run"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("fs: would wrap"), "{out}");
    assert!(
        out.contains("  -    \"fs\": {\"command\": \"npx\", \"args\": [\"pkg\"]}"),
        "{out}"
    );
    assert!(
        out.contains("\"args\": [\"mcp-proxy\", \"--name\", \"fs\", \"--\", \"npx\", \"pkg\"]"),
        "{out}"
    );
    assert!(out.contains("dry run: nothing written"), "{out}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
}

#[test]
fn a_malformed_config_is_a_clear_error_and_nothing_is_written() {
    let h = Home::new("malformed");
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "claude-code",
            ".claude.json",
            "{\"mcpServers\": {\"fs\": {\"command\": \"npx\",}}}",
            "is not valid JSON",
        ),
        (
            "cursor",
            ".cursor/mcp.json",
            "[1, 2]",
            "is not a JSON object",
        ),
        (
            "gemini-cli",
            ".gemini/settings.json",
            "{\"mcpServers\": [\"fs\"]}",
            "`mcpServers` is not an object",
        ),
        (
            "codex",
            ".codex/config.toml",
            "[mcp_servers.fs]\ncommand = \"npx\n",
            "is not valid TOML",
        ),
        (
            "codex",
            ".codex/config.toml",
            "mcp_servers = 3\n",
            "`mcp_servers` is not a table",
        ),
    ];
    for (host, file, text, why) in cases {
        let path = h.home().join(file);
        h.write(&path, text);
        for verb in ["wrap", "unwrap"] {
            let (code, out, err) = h.run(&["mcp", verb, host]);
            assert_eq!(code, 2, "{host} {verb}: {out}{err}");
            assert!(err.starts_with("error: "), "{err}");
            assert!(err.contains(&path.display().to_string()), "{err}");
            assert!(
                err.contains("nothing written") && err.contains(why),
                "{err}"
            );
            assert_eq!(err.lines().count(), 1, "{err}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), *text);
        }
    }
    let (code, _, err) = h.run(&["mcp", "wrap", "pi"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown host `pi`"), "{err}");
    let (code, _, err) = h.run(&["mcp", "wrap", "cursor", "--scope", "team"]);
    assert_eq!(code, 2);
    assert!(err.contains("--scope: `team` is not a scope"), "{err}");
}

#[test]
fn a_wrapped_server_runs_behind_the_proxy() {
    let h = Home::new("runs");
    let path = h.project().join(".mcp.json");
    let original = format!(
        "{{\"mcpServers\": {{\"guard\": {{\"command\": {:?}, \"args\": [\"mcp\"]}}}}}}",
        BIN
    );
    h.write(&path, &original);
    let (code, out, err) = h.run(&["mcp", "wrap", "claude-code", "--scope", "project"]);
    assert_eq!(code, 0, "{out}{err}");
    let entry = servers_json(&std::fs::read_to_string(&path).unwrap())["guard"].clone();
    // Started as Claude Code starts it: the entry's command and arguments.
    let mut child = Command::new(entry["command"].as_str().unwrap())
        .args(
            entry["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap()),
        )
        .current_dir(h.project())
        .env("XDG_STATE_HOME", h.dir.path().join("state"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"drop_tables","arguments":{}}}"#,
    ];
    child
        .stdin
        .take()
        .unwrap()
        .write_all((lines.join("\n") + "\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.contains(
            "the MCP server `guard` does not list a tool named `drop_tables` (mcp.tool_unknown)"
        ),
        "{out}"
    );
    // Its pins were kept under the server's name.
    let pins = std::fs::read_to_string(h.dir.path().join("state/palisade/pins.json")).unwrap();
    assert!(pins.contains("\"guard\""), "{pins}");
}

#[test]
fn doctor_lists_wrapped_servers_and_warns_of_the_others() {
    let h = Home::new("doctor");
    let (code, out, err) = h.run(&["hooks", "install", "claude-code"]);
    assert_eq!(code, 0, "{out}{err}");
    let path = h.home().join(".claude.json");
    h.write(
        &path,
        r#"{"mcpServers": {"a": {"command": "npx", "args": ["a"]}, "b": {"command": "b-server"}, "c": {"type": "sse", "url": "https://c/sse"}}}"#,
    );
    h.run(&["mcp", "wrap", "claude-code"]);
    h.write(
        &h.project().join(".mcp.json"),
        r#"{"mcpServers": {"p": {"command": "p-server"}}}"#,
    );
    let (code, out, err) = h.run(&["doctor"]);
    assert!(
        out.contains(&format!(
            "  mcp servers (user: {}): wrapped: a, b\n",
            path.display()
        )),
        "{out}"
    );
    assert!(
        out.contains("  mcp servers (user: ")
            && out.contains("NOT wrapped and not wrappable by palisade: c (an SSE server"),
        "{out}"
    );
    assert!(
        out.contains("(project: ") && out.contains("): warning: NOT wrapped: p; their tool definitions are not judged (wrap them: palisade mcp wrap claude-code --scope project)"),
        "{out}"
    );
    // Servers not wrapped are warnings: the hooks still decide their calls.
    assert_eq!(code, 0, "{out}{err}");
    // A host without hooks but with MCP servers is listed too.
    h.write(
        &h.home().join(".cursor/mcp.json"),
        "{\"mcpServers\": {\"x\": {\"command\": \"x\"}",
    );
    let (_, out, _) = h.run(&["doctor"]);
    assert!(out.contains("cursor\n"), "{out}");
    assert!(
        out.contains("cannot be read, so its servers are unknown"),
        "{out}"
    );
}

/// Comments inside Gemini CLI's server entries (in an entry, before its
/// first argument, in a URL server) stay, once, and come back byte for
/// byte; a trailing comma, which Gemini CLI refuses, is an error.
#[test]
fn gemini_comments_inside_entries_stay_where_they_are() {
    let h = Home::new("gemini-inside");
    let path = h.project().join(".gemini/settings.json");
    let original = "{\n  \"mcpServers\": {\n    \"fs\": {\n      // the files\n      \"command\": \"npx\", /* via npx */\n      \"args\": [ // its arguments\n        \"-y\",\n        \"pkg\"\n      ]\n    },\n    \"api\": { \"httpUrl\": \"https://api.example.com/mcp\" /* remote */ }\n  }\n}\n";
    let out = round_trip(&h, "gemini-cli", &path, original, &["--scope", "project"]);
    assert!(
        out.contains("fs: wrapped") && out.contains("api: wrapped"),
        "{out}"
    );
    h.run(&["mcp", "wrap", "gemini-cli", "--scope", "project"]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches("// its arguments").count(), 1, "{text}");
    assert!(
        text.contains("\"args\": [ // its arguments\n        \"mcp-proxy\",\n        \"--name\",\n        \"fs\",\n        \"--\",\n        \"npx\",\n        \"-y\",\n"),
        "{text}"
    );
    assert!(
        text.contains("// the files\n") && text.contains("/* via npx */"),
        "{text}"
    );
    let s = servers_json(&text.replace("/* via npx */", ""));
    assert_wrapped(&s["fs"], "fs", &["npx", "-y", "pkg"]);

    let bad = "{\"mcpServers\": {\"fs\": {\"command\": \"npx\"}, // c\n}}";
    h.write(&path, bad);
    let (code, _, err) = h.run(&["mcp", "wrap", "gemini-cli", "--scope", "project"]);
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "trailing comma at line 2 column 1; comments are allowed, trailing commas are not"
        ) && err.contains("nothing written"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), bad);
}

/// Claude Code keeps a project's own servers (its `local` scope) in
/// `~/.claude.json` under `projects.PATH.mcpServers`: wrapped with the
/// user's, or one project's alone with `--project`; doctor names them.
#[test]
fn claude_code_project_servers_in_claude_json_are_wrapped_too() {
    let h = Home::new("claude-projects");
    let path = h.home().join(".claude.json");
    let original = r#"{
  "mcpServers": {"top": {"command": "top-server"}},
  "projects": {
    "/work/a": {
      "allowedTools": [],
      "mcpServers": {"fs": {"type": "stdio", "command": "npx", "args": ["-y", "fs-server", "/work/a"], "env": {}}}
    },
    "/work/b": {"mcpServers": {"gh": {"type": "http", "url": "https://gh.example.com/mcp", "headers": {"Authorization": "Bearer ${GH}"}}}},
    "/work/c": {"history": []}
  }
}
"#;
    let out = round_trip(&h, "claude-code", &path, original, &[]);
    for line in [
        "top: wrapped",
        "fs (project /work/a): wrapped",
        "gh (project /work/b): wrapped",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
    h.run(&["mcp", "wrap", "claude-code"]);
    let all: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_wrapped(&all["mcpServers"]["top"], "top", &["top-server"]);
    let a = &all["projects"]["/work/a"];
    assert_wrapped(
        &a["mcpServers"]["fs"],
        "fs",
        &["npx", "-y", "fs-server", "/work/a"],
    );
    assert_eq!(a["allowedTools"], serde_json::json!([]));
    let gh = &all["projects"]["/work/b"]["mcpServers"]["gh"];
    assert!(
        gh["args"]
            .to_string()
            .contains(r#""--upstream","https://gh.example.com/mcp""#),
        "{gh}"
    );
    assert_eq!(gh["env"]["PALISADE_HEADER_1"], "Bearer ${GH}");
    let (code, out, _) = h.run(&["mcp", "unwrap", "claude-code"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);

    // One project alone.
    let (code, out, err) = h.run(&["mcp", "wrap", "claude-code", "--project", "/work/a/"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("fs (project /work/a): wrapped"), "{out}");
    assert!(!out.contains("top") && !out.contains("gh"), "{out}");
    assert!(
        out.contains("undo with: palisade mcp unwrap claude-code --project /work/a"),
        "{out}"
    );
    let (_, out, _) = h.run(&["doctor"]);
    assert!(
        out.contains(&format!(
            "  mcp servers (user: {}): wrapped: fs (project /work/a)\n",
            path.display()
        )),
        "{out}"
    );
    assert!(
        out.contains("): warning: NOT wrapped: top, gh (project /work/b); their tool definitions are not judged"),
        "{out}"
    );
    let (code, out, _) = h.run(&["mcp", "wrap", "claude-code", "--project", "/work/none"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("no MCP servers of the project /work/none"),
        "{out}"
    );
    let (code, out, _) = h.run(&["mcp", "unwrap", "claude-code", "--project", "/work/a"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);

    // --project belongs to Claude Code's ~/.claude.json.
    let (code, _, err) = h.run(&["mcp", "wrap", "cursor", "--project", "/work/a"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--project names a project of Claude Code's ~/.claude.json"),
        "{err}"
    );
    // A project whose `mcpServers` is not an object: an error naming it.
    let bad = r#"{"projects": {"/work/a": {"mcpServers": [1]}}}"#;
    h.write(&path, bad);
    let (code, _, err) = h.run(&["mcp", "wrap", "claude-code"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("`mcpServers` is not an object (in `projects` of /work/a)"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), bad);
}

/// A URL server of Codex (`url`, its token in `bearer_token_env_var`,
/// headers literal and from the environment) runs behind the proxy as
/// Codex starts it: the token reaches the server from the environment,
/// never from the file or the command line; unwrap gives the bytes back.
#[test]
fn a_codex_url_server_is_wrapped_with_its_token_from_the_environment() {
    let h = Home::new("codex-url");
    let config = h.dir.path().join("serve.yaml");
    std::fs::write(
        &config,
        format!(
            "keys:\n  - {{ id: ci, env: GW_SERVE_KEY, tenant: default, scopes: [\"guardrails:check\"] }}\n\
             gateway:\n  pins: {:?}\n  servers:\n    guard: {{ command: [{:?}, mcp] }}\n",
            h.dir.path().join("serve-pins.json").display().to_string(),
            BIN
        ),
    )
    .unwrap();
    let (child, addr) = crate::util::serve(
        &["--config", config.to_str().unwrap()],
        None,
        &[("GW_SERVE_KEY", "gw-secret-9")],
    );
    let _served = super::Served(child);
    let path = h.home().join(".codex/config.toml");
    let original = format!(
        "model = \"gpt-5\"\n\n[mcp_servers.guard]\n# the guard, remote\nurl = \"http://{addr}/gateway/guard/mcp\" # served\nbearer_token_env_var = \"GW_TOKEN\"\nhttp_headers = {{ \"X-Trace\" = \"t1\" }}\nenv_http_headers = {{ \"X-Env\" = \"GW_ENV\" }}\nstartup_timeout_sec = 20\n\n[mcp_servers.login]\nurl = \"https://login.example.com/mcp\"\nscopes = [\"read\"]\n"
    );
    let out = round_trip(&h, "codex", &path, &original, &[]);
    assert!(out.contains("guard: wrapped"), "{out}");
    assert!(
        out.contains(
            "login: left as it is: it logs in with OAuth (`scopes`), which the proxy does not do"
        ),
        "{out}"
    );
    h.run(&["mcp", "wrap", "codex"]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains("gw-secret"), "{text}");
    assert!(text.contains("\n# the guard, remote\ncommand = "), "{text}");
    assert!(text.contains("startup_timeout_sec = 20\n"), "{text}");
    let doc = toml_edit::Document::parse(text.as_str()).unwrap();
    let entry = doc["mcp_servers"]["guard"].as_table().unwrap();
    let strings = |k: &str| -> Vec<String> {
        entry[k]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    let args = strings("args");
    let url = format!("http://{addr}/gateway/guard/mcp");
    assert_eq!(
        args,
        [
            "mcp-proxy",
            "--name",
            "guard",
            "--upstream",
            url.as_str(),
            "--header",
            "Authorization=Bearer ${GW_TOKEN}",
            "--header",
            "X-Env=GW_ENV",
            "--header",
            "X-Trace=PALISADE_HEADER_1",
        ]
    );
    assert_eq!(strings("env_vars"), ["GW_TOKEN", "GW_ENV"]);
    let env = entry["env"].as_inline_table().unwrap();
    assert_eq!(env.get("PALISADE_HEADER_1").unwrap().as_str(), Some("t1"));
    assert!(entry.get("url").is_none() && entry.get("bearer_token_env_var").is_none());

    // Started as Codex starts a command server: its `env`, and the
    // variables `env_vars` names taken from Codex's environment.
    let start = |token: Option<&str>| {
        let mut cmd = Command::new(entry["command"].as_str().unwrap());
        cmd.args(&args)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("XDG_STATE_HOME", h.dir.path().join("state"))
            .env("GW_ENV", "e1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env.iter() {
            cmd.env(k, v.as_str().unwrap());
        }
        if let Some(t) = token {
            cmd.env("GW_TOKEN", t);
        }
        let mut child = cmd.spawn().unwrap();
        let lines = [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        ];
        child
            .stdin
            .take()
            .unwrap()
            .write_all((lines.join("\n") + "\n").as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (out, err) = start(Some("gw-secret-9"));
    let list = out
        .lines()
        .find(|l| l.contains(r#""id":2"#))
        .unwrap_or_else(|| panic!("{out}{err}"));
    assert!(list.contains(r#""name":"check""#), "{list}");
    // The service refuses a wrong key: the token is what it checks.
    let (out, err) = start(Some("wrong"));
    assert!(!out.contains(r#""name":"check""#), "{out}{err}");
    let (_, err) = start(None);
    assert!(
        err.contains("--header Authorization: the environment variable `GW_TOKEN` is not set"),
        "{err}"
    );
}

/// GitHub Copilot CLI's `~/.copilot/mcp-config.json` (`$COPILOT_HOME`):
/// `local` and `stdio` servers keep their command, an `http` one becomes
/// a `local` one running the proxy (its headers in `env`, where Copilot
/// CLI expands `${VAR}`), an `sse` one is left; `tools` stay.
#[test]
fn copilot_cli_servers_wrap_and_unwrap_byte_for_byte() {
    let h = Home::new("copilot");
    let path = h.home().join(".copilot/mcp-config.json");
    let original = r#"{
  "mcpServers": {
    "serena": {
      "type": "local",
      "command": "uvx",
      "args": ["--from", "git+https://github.com/oraios/serena", "serena", "start-mcp-server"],
      "tools": ["*"],
      "env": {"API_KEY": "${MY_API_KEY}"}
    },
    "azure": {"type": "stdio", "command": "npx", "args": ["-y", "@azure/mcp@latest", "server", "start"], "tools": ["*"], "env": {}},
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/readonly",
      "tools": ["get_issue"],
      "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}"}
    },
    "cloudflare": {"type": "sse", "url": "https://docs.mcp.cloudflare.com/sse", "tools": ["*"]}
  }
}
"#;
    let out = round_trip(&h, "copilot-cli", &path, original, &[]);
    for line in [
        "serena: wrapped",
        "azure: wrapped",
        "github: wrapped",
        "cloudflare: left as it is: an SSE server",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
    h.run(&["mcp", "wrap", "copilot-cli"]);
    let s = servers_json(&std::fs::read_to_string(&path).unwrap());
    assert_wrapped(
        &s["serena"],
        "serena",
        &[
            "uvx",
            "--from",
            "git+https://github.com/oraios/serena",
            "serena",
            "start-mcp-server",
        ],
    );
    assert_eq!(s["serena"]["type"], "local");
    assert_eq!(s["serena"]["env"]["API_KEY"], "${MY_API_KEY}");
    let gh = &s["github"];
    assert_eq!(gh["type"], "local");
    assert_eq!(gh["tools"], serde_json::json!(["get_issue"]));
    assert_eq!(gh["env"]["PALISADE_HEADER_1"], "Bearer ${GITHUB_TOKEN}");
    let args = gh["args"].to_string();
    assert!(
        args.contains(r#""--upstream","https://api.githubcopilot.com/mcp/readonly","--header","Authorization=PALISADE_HEADER_1""#),
        "{args}"
    );
    let (_, out, _) = h.run(&["doctor"]);
    assert!(
        out.contains(&format!(
            "  mcp servers (user: {}): wrapped: serena, azure, github\n",
            path.display()
        )),
        "{out}"
    );
    // COPILOT_HOME moves the file; the project scope names where to go.
    let (code, _, err) = h.run(&["mcp", "wrap", "copilot-cli", "--scope", "project"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("palisade mcp wrap claude-code --scope project"),
        "{err}"
    );
    let moved = h.dir.path().join("copilot-home");
    h.write(
        &moved.join("mcp-config.json"),
        r#"{"mcpServers": {"x": {"type": "local", "command": "x", "tools": ["*"]}}}"#,
    );
    let out = Command::new(BIN)
        .args(["mcp", "wrap", "copilot-cli"])
        .current_dir(h.project())
        .env("HOME", h.home())
        .env("COPILOT_HOME", &moved)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("mcp-config.json") && text.contains("x: wrapped"),
        "{text}"
    );
}
