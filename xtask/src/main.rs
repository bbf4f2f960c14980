//! Repository tools.
//!
//! `cargo xtask generate [--check]` writes (or, with `--check`, checks
//! without writing) every generated file of the repository:
//! - the JSON Schemas in `schemas/` from the protocol types and the policy
//!   loader's tables, the service's OpenAPI document built on them (and its
//!   copy in `crates/transport`), the MCP tools' schemas, and the JSON form
//!   of the embedded default policy (`cargo xtask schemas [--check]` does
//!   these alone);
//! - the literal filter's table of common text
//!   (`crates/engine/src/scan/common_windows.rs`, [`windows`]), from the
//!   crates in `Cargo.lock`;
//! - the built-in detectors' plans (`crates/engine/src/detect/plans.rs`)
//!   and the table of confusable skeletons
//!   (`crates/engine/src/view/skeletons.rs`), rendered by the engine's own
//!   tests, which this runs.
//!
//! `cargo xtask alternate` times whole processes run in turn
//! ([`alternate`]). `cargo xtask dist` builds the release artefacts for
//! one platform ([`dist`]).

mod alternate;
mod dist;
mod openapi;
mod windows;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use palisade_protocol::{CheckRequest, Decision};
use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Value, json};

const USAGE: &str = "usage: cargo xtask generate [--check] | cargo xtask schemas [--check] | cargo xtask dist [--help] | cargo xtask alternate …";

/// The engine's generated files that its tests render: (file, the test
/// that renders and checks it, the variable that makes the test write it).
const ENGINE_RENDERED: &[(&str, &str, &str)] = &[
    (
        "crates/engine/src/detect/plans.rs",
        "detect::tests::embedded_plans_are_fresh",
        "PALISADE_WRITE_PLANS",
    ),
    (
        "crates/engine/src/view/skeletons.rs",
        "view::tests::ascii_skeletons_are_fresh",
        "PALISADE_WRITE_SKELETONS",
    ),
];

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Vec<String>) -> Result<()> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["schemas"] => write_schemas(&repo_root()),
        ["schemas", "--check"] => check_schemas(&repo_root()),
        ["alternate", rest @ ..] => alternate::run(rest),
        ["generate"] => generate(&repo_root(), false),
        ["generate", "--check"] => generate(&repo_root(), true),
        ["dist", rest @ ..] => dist::run(rest, &repo_root()),
        _ => bail!("{USAGE}"),
    }
}

/// Writes, or checks, every generated file.
fn generate(root: &Path, check: bool) -> Result<()> {
    let mut problems = Vec::new();
    if check {
        if let Err(e) = check_schemas(root) {
            problems.push(format!("{e:#}"));
        }
        if let Err(e) = windows::check(root) {
            problems.push(format!("{e:#}"));
        }
    } else {
        write_schemas(root)?;
        windows::run(root)?;
    }
    for (file, test, var) in ENGINE_RENDERED {
        let mut command =
            std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        command
            .args([
                "test",
                "--quiet",
                "--locked",
                "--all-features",
                "-p",
                "palisade-engine",
                "--lib",
                test,
                "--",
                "--exact",
            ])
            .current_dir(root);
        if !check {
            command.env(var, "1");
        }
        let status = command
            .status()
            .with_context(|| format!("running the test that renders {file}"))?;
        match (status.success(), check) {
            (true, true) => println!("{file} is up to date"),
            (true, false) => println!("wrote {file}"),
            (false, true) => problems.push(format!(
                "{file} is stale or its test failed ({test}): run `cargo xtask generate`"
            )),
            (false, false) => bail!("rendering {file} failed ({test})"),
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    bail!("{}", problems.join("\n"))
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Every generated file, relative to the repository root, with its content.
fn generated() -> Result<Vec<(&'static str, String)>> {
    let request = schema_for::<CheckRequest>(
        SchemaSettings::draft2020_12().for_deserialize(),
        "https://palisade.dev/schemas/check-request.v1.json",
        "Palisade v1 CheckRequest",
    );
    let mut decision = schema_for::<Decision>(
        SchemaSettings::draft2020_12().for_serialize(),
        "https://palisade.dev/schemas/decision.v1.json",
        "Palisade v1 Decision",
    );
    // Optional fields are skipped when absent, so `null` never appears in output.
    palisade_protocol::schema::strip_null(&mut decision);
    let openapi = openapi::document(&request, &decision)?;
    let mcp_tools = Value::Object(palisade_transport::wire::mcp_tool_schemas());
    Ok(vec![
        ("schemas/check-request.v1.json", to_pretty(&request)?),
        ("schemas/decision.v1.json", to_pretty(&decision)?),
        ("schemas/openapi.json", to_pretty(&openapi)?),
        (
            "schemas/policy.v1.json",
            to_pretty(&palisade_engine::policy::json_schema())?,
        ),
        // The service serves its own copy, inside its crate so that the
        // crate builds from its published tarball.
        ("crates/transport/openapi.json", to_pretty(&openapi)?),
        // The MCP tools' input schemas, for users and for the service.
        ("schemas/mcp-tools.json", to_pretty(&mcp_tools)?),
        ("crates/transport/mcp-tools.json", to_pretty(&mcp_tools)?),
        // The embedded default policy as JSON, which the engine loads
        // without the YAML parser.
        (
            "crates/engine/src/default_policy.json",
            to_pretty(&serde_yaml_ng::from_str::<Value>(
                palisade_engine::DEFAULT_POLICY,
            )?)?,
        ),
    ])
}

fn schema_for<T: JsonSchema>(settings: SchemaSettings, id: &str, title: &str) -> Value {
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut value = schema.to_value();
    if let Some(obj) = value.as_object_mut() {
        obj.insert("$id".into(), json!(id));
        obj.insert("title".into(), json!(title));
        obj.insert(
            "$comment".into(),
            json!(
                "Generated by `cargo xtask schemas` from the palisade-protocol types; do not edit."
            ),
        );
    }
    value
}

fn to_pretty(value: &Value) -> Result<String> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    Ok(text)
}

fn write_schemas(root: &Path) -> Result<()> {
    for (rel, content) in generated()? {
        let path = root.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        std::fs::write(&path, content).with_context(|| format!("writing {}", path.display()))?;
        println!("wrote {rel}");
    }
    Ok(())
}

/// The generated files that differ from what is committed.
fn stale(root: &Path) -> Result<Vec<&'static str>> {
    let mut stale = Vec::new();
    for (rel, content) in generated()? {
        let current = std::fs::read_to_string(root.join(rel)).unwrap_or_default();
        if current != content {
            stale.push(rel);
        }
    }
    Ok(stale)
}

fn check_schemas(root: &Path) -> Result<()> {
    let stale = stale(root)?;
    if stale.is_empty() {
        println!("schemas are up to date");
        return Ok(());
    }
    bail!(
        "stale generated files: {}; run `cargo xtask generate` and commit the result",
        stale.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_schemas_are_fresh() {
        let stale = stale(&repo_root()).unwrap();
        assert!(
            stale.is_empty(),
            "stale: {stale:?}; run `cargo xtask generate`"
        );
    }

    #[test]
    fn check_fails_on_a_stale_copy() {
        let dir = std::env::temp_dir().join(format!("palisade-xtask-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("schemas")).unwrap();
        write_schemas(&dir).unwrap();
        assert!(check_schemas(&dir).is_ok());
        std::fs::write(dir.join("schemas/decision.v1.json"), "{}\n").unwrap();
        let err = check_schemas(&dir).unwrap_err().to_string();
        assert!(
            err.contains("schemas/decision.v1.json") && err.contains("cargo xtask generate"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
