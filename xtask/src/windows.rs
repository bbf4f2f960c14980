//! The table of common text (part of `cargo xtask generate`): counts the four-byte windows of the
//! sources and documentation of the crates in `Cargo.lock` and writes the
//! most common ones to `crates/engine/src/scan/common_windows.rs`. The
//! literal filter chooses each table's hash so that these windows, which
//! any text of code and English prose is full of, seldom land on a bit its
//! literals set.
//!
//! The corpus is the locked dependencies (their sources unpacked by
//! `cargo fetch`), at most [`PER_CRATE`] bytes of each, files read in the
//! order of their paths; the bindings crates (`windows*`, `winapi*`), one
//! generated API each, are left out. The same `Cargo.lock` gives the same
//! table.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde_json::Value;

/// How many windows the table keeps.
const KEEP: usize = 4096;
/// How many bytes of each crate are read.
const PER_CRATE: usize = 150_000;
/// The files read: sources, documentation, manifests and data.
const EXTENSIONS: [&str; 7] = ["rs", "md", "json", "toml", "yml", "yaml", "txt"];
/// Where the table goes, relative to the repository root.
const OUT: &str = "crates/engine/src/scan/common_windows.rs";

/// Writes the table.
pub(crate) fn run(root: &Path) -> Result<()> {
    let (text, summary) = table(root)?;
    let path = root.join(OUT);
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    println!("wrote {OUT}: {summary}");
    Ok(())
}

/// Whether the committed table is the one `Cargo.lock` gives: `Err`
/// naming the file when it is not.
pub(crate) fn check(root: &Path) -> Result<()> {
    let (text, _) = table(root)?;
    let path = root.join(OUT);
    let committed =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    if committed != text {
        bail!("{OUT} is stale (the crates in `Cargo.lock` changed): run `cargo xtask generate`");
    }
    Ok(())
}

/// The table's text, and a line saying what it was made from.
fn table(root: &Path) -> Result<(String, String)> {
    let status = Command::new(cargo())
        .args(["fetch", "--locked", "--quiet"])
        .current_dir(root)
        .status()
        .context("running `cargo fetch --locked`")?;
    if !status.success() {
        bail!("`cargo fetch --locked` failed: {status}");
    }
    let output = Command::new(cargo())
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(root)
        .output()
        .context("running `cargo metadata`")?;
    if !output.status.success() {
        bail!(
            "`cargo metadata` failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let metadata: Value = serde_json::from_slice(&output.stdout)?;
    let crates = dependency_dirs(&metadata)?;
    let mut counts: HashMap<u32, u64> = HashMap::new();
    let (mut read, mut used) = (0usize, 0usize);
    for dir in &crates {
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.starts_with("windows") || name.starts_with("winapi") {
            continue;
        }
        let mut files = Vec::new();
        collect(dir, &mut files)?;
        files.sort();
        let mut budget = PER_CRATE;
        for file in files {
            if budget == 0 {
                break;
            }
            let bytes = std::fs::read(&file).with_context(|| format!("{}", file.display()))?;
            let bytes = bytes.get(..budget.min(bytes.len())).unwrap_or_default();
            budget -= bytes.len();
            read += bytes.len();
            for w in bytes.windows(4) {
                if let Ok(w) = <[u8; 4]>::try_from(w) {
                    *counts
                        .entry(u32::from_le_bytes(w) | 0x2020_2020)
                        .or_default() += 1;
                }
            }
        }
        used += 1;
    }
    let mut common: Vec<(u32, u64)> = counts.into_iter().collect();
    common.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    common.truncate(KEEP);
    let summary = format!("{KEEP} windows from {read} bytes of {used} crates");
    Ok((render(&common, used, read)?, summary))
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// The directories of the packages that are not the workspace's own.
fn dependency_dirs(metadata: &Value) -> Result<Vec<PathBuf>> {
    let members: Vec<&str> = metadata["workspace_members"]
        .as_array()
        .context("`cargo metadata`: no `workspace_members`")?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let mut dirs: Vec<PathBuf> = metadata["packages"]
        .as_array()
        .context("`cargo metadata`: no `packages`")?
        .iter()
        .filter(|p| !p["id"].as_str().is_some_and(|id| members.contains(&id)))
        .filter_map(|p| p["manifest_path"].as_str())
        .filter_map(|m| Path::new(m).parent().map(Path::to_path_buf))
        .collect();
    dirs.sort();
    dirs.dedup();
    Ok(dirs)
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("{}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, files)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| EXTENSIONS.contains(&e))
        {
            files.push(path);
        }
    }
    Ok(())
}

fn render(common: &[(u32, u64)], crates: usize, bytes: usize) -> Result<String> {
    let mut out = String::new();
    writeln!(
        out,
        "//! Generated by `cargo xtask generate`; do not edit.\n\
         //!\n\
         //! The {} four-byte windows (ASCII case folded, as the literal filter\n\
         //! reads them) most common in {bytes} bytes of the sources and\n\
         //! documentation of the {crates} crates in `Cargo.lock`, each with how\n\
         //! often it occurs, most common first.\n\
         \n\
         /// `(window as a little-endian word, occurrences)`.\n\
         #[rustfmt::skip]\n\
         pub(super) static COMMON_WINDOWS: [(u32, u32); {}] = [",
        common.len(),
        common.len()
    )?;
    for row in common.chunks(4) {
        out.push_str("   ");
        for &(key, count) in row {
            let count = u32::try_from(count).context("a window occurs over 2^32 times")?;
            write!(out, " (0x{key:08x}, {count}),")?;
        }
        out.push('\n');
    }
    out.push_str("];\n");
    Ok(out)
}
