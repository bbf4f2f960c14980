//! `cargo xtask dist`: the release artefacts for one platform, as the
//! release workflow (`.github/workflows/release.yml`) attaches them to a
//! version tag: the `palisade` archive with its sha256, the shell
//! installer, the Python wheel carrying the binary (maturin) and the npm
//! tarball of `palisade-pi`. One release build serves them all: maturin
//! builds the binary the archive takes.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use sha2::{Digest, Sha256};

const USAGE: &str =
    "usage: cargo xtask dist [--target TRIPLE] [--out DIR] [--only archive,installer,wheel,npm]
  Builds into DIR (default target/dist): palisade-TRIPLE.tar.gz and its .sha256,
  palisade-installer.sh, the wheel (maturin: $MATURIN, else maturin on the PATH)
  and palisade-pi-VERSION.tgz (npm). --target builds for TRIPLE (default: this
  machine's); --only builds the artefacts named.";

/// The artefacts `cargo xtask dist` can build.
const KINDS: [&str; 4] = ["archive", "installer", "wheel", "npm"];

/// The installer script; `@VERSION@` is the release's version.
const INSTALLER: &str = include_str!("installer.sh");

struct Options {
    target: Option<String>,
    out: PathBuf,
    only: Vec<String>,
}

fn parse(args: &[&str], root: &Path) -> Result<Options> {
    let mut options = Options {
        target: None,
        out: root.join("target/dist"),
        only: KINDS.iter().map(|k| (*k).to_owned()).collect(),
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .map(|v| (*v).to_owned())
                .with_context(|| format!("{arg} needs a value\n{USAGE}"))
        };
        match *arg {
            "--target" => options.target = Some(value()?),
            "--out" => options.out = PathBuf::from(value()?),
            "--only" => {
                options.only = value()?.split(',').map(str::to_owned).collect();
                if let Some(bad) = options.only.iter().find(|k| !KINDS.contains(&k.as_str())) {
                    bail!(
                        "--only: `{bad}` is not an artefact; expected {}",
                        KINDS.join(", ")
                    );
                }
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => bail!("unknown argument `{other}`\n{USAGE}"),
        }
    }
    Ok(options)
}

pub(crate) fn run(args: &[&str], root: &Path) -> Result<()> {
    let options = parse(args, root)?;
    let wants = |kind: &str| options.only.iter().any(|k| k == kind);
    let version = env!("CARGO_PKG_VERSION");
    std::fs::create_dir_all(&options.out)
        .with_context(|| format!("cannot create {}", options.out.display()))?;
    let out = std::path::absolute(&options.out)?;
    let triple = match &options.target {
        Some(t) => t.clone(),
        None => host_triple()?,
    };
    let mut made = Vec::new();
    if wants("wheel") {
        made.push(wheel(root, &out, options.target.as_deref())?);
    }
    if wants("archive") {
        let binary = build_binary(root, options.target.as_deref())?;
        made.extend(archive(root, &out, &binary, &triple)?);
    }
    if wants("installer") {
        let path = out.join("palisade-installer.sh");
        std::fs::write(&path, INSTALLER.replace("@VERSION@", version))
            .with_context(|| format!("cannot write {}", path.display()))?;
        made.push(path);
    }
    if wants("npm") {
        made.push(npm(root, &out, version)?);
    }
    for path in made {
        println!("{}", path.display());
    }
    Ok(())
}

/// This machine's target triple, as rustc names it.
fn host_triple() -> Result<String> {
    let out = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned()))
        .arg("-vV")
        .output()
        .context("cannot run rustc")?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_owned)
        .context("rustc -vV does not name its host")
}

fn cargo_target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map_or_else(|| root.join("target"), |d| root.join(d))
}

fn status(cmd: &mut Command, what: &str) -> Result<()> {
    let status = cmd.status().with_context(|| format!("cannot run {what}"))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}

/// The release binary (a no-op build when maturin just built it).
fn build_binary(root: &Path, target: Option<&str>) -> Result<PathBuf> {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    cmd.current_dir(root)
        .args(["build", "--release", "--locked", "-p", "palisade"]);
    if let Some(t) = target {
        cmd.args(["--target", t]);
    }
    status(&mut cmd, "cargo build --release -p palisade")?;
    let mut dir = cargo_target_dir(root);
    if let Some(t) = target {
        dir.push(t);
    }
    let exe = if target.is_some_and(|t| t.contains("windows")) {
        "palisade.exe"
    } else {
        "palisade"
    };
    Ok(dir.join("release").join(exe))
}

/// `palisade-TRIPLE.tar.gz` (a folder of the same name holding the binary
/// and the README) and its `.sha256`.
fn archive(root: &Path, out: &Path, binary: &Path, triple: &str) -> Result<Vec<PathBuf>> {
    let name = format!("palisade-{triple}");
    let staging = out.join(".staging");
    let _ = std::fs::remove_dir_all(&staging);
    let folder = staging.join(&name);
    std::fs::create_dir_all(&folder)?;
    std::fs::copy(binary, folder.join("palisade"))
        .with_context(|| format!("cannot copy {}", binary.display()))?;
    std::fs::copy(root.join("README.md"), folder.join("README.md"))?;
    let file = format!("{name}.tar.gz");
    let path = out.join(&file);
    status(
        Command::new("tar")
            .arg("-czf")
            .arg(&path)
            .arg("-C")
            .arg(&staging)
            .arg(&name),
        "tar",
    )?;
    std::fs::remove_dir_all(&staging)?;
    let bytes = std::fs::read(&path)?;
    let digest = hex(&Sha256::digest(&bytes));
    let sum = out.join(format!("{file}.sha256"));
    std::fs::write(&sum, format!("{digest}  {file}\n"))?;
    Ok(vec![path, sum])
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The wheel: maturin builds the release binary and packs it with
/// `python/palisade_guardrails`.
fn wheel(root: &Path, out: &Path, target: Option<&str>) -> Result<PathBuf> {
    let maturin = std::env::var("MATURIN").unwrap_or_else(|_| "maturin".to_owned());
    let before = wheels_in(out)?;
    let mut cmd = Command::new(&maturin);
    cmd.current_dir(root.join("python"))
        .args(["build", "--release", "--locked", "--quiet", "-o"])
        .arg(out);
    if let Some(t) = target {
        cmd.args(["--target", t]);
    }
    match cmd.status() {
        Ok(s) if s.success() => {}
        Ok(s) => bail!("maturin build failed ({s})"),
        Err(e) => bail!(
            "cannot run `{maturin}` ({e}): install it (pip install maturin==1.16.0) or set MATURIN, or leave the wheel out with --only archive,installer,npm"
        ),
    }
    let after = wheels_in(out)?;
    after
        .into_iter()
        .filter(|w| !before.contains(w))
        .max_by_key(|w| w.metadata().and_then(|m| m.modified()).ok())
        .or_else(|| wheels_in(out).ok()?.into_iter().next())
        .context("maturin wrote no wheel")
}

fn wheels_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut wheels = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "whl") {
            wheels.push(path);
        }
    }
    Ok(wheels)
}

/// `npm pack` of `packages/palisade-pi`.
fn npm(root: &Path, out: &Path, version: &str) -> Result<PathBuf> {
    let mut cmd = Command::new("npm");
    cmd.current_dir(root.join("packages/palisade-pi"))
        .args(["pack", "--silent", "--pack-destination"])
        .arg(out)
        .stdout(std::process::Stdio::null());
    match cmd.status() {
        Ok(s) if s.success() => {}
        Ok(s) => bail!("npm pack failed ({s})"),
        Err(e) => bail!(
            "cannot run `npm` ({e}): install Node.js, or leave the npm tarball out with --only archive,installer,wheel"
        ),
    }
    let path = out.join(format!("palisade-pi-{version}.tgz"));
    if !path.exists() {
        bail!("npm pack did not write {}", path.display());
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_artefacts_and_arguments_are_refused() {
        let root = Path::new("/repo");
        let err = parse(&["--only", "archive,zip"], root)
            .err()
            .unwrap()
            .to_string();
        assert_eq!(
            err,
            "--only: `zip` is not an artefact; expected archive, installer, wheel, npm"
        );
        let err = parse(&["--out"], root).err().unwrap().to_string();
        assert!(
            err.starts_with("--out needs a value\nusage: cargo xtask dist"),
            "{err}"
        );
        let ok = parse(&["--only", "npm", "--out", "/x"], root).unwrap();
        assert_eq!(ok.only, ["npm"]);
        assert_eq!(ok.out, Path::new("/x"));
    }

    #[test]
    fn the_installer_names_the_version_and_every_released_platform() {
        let script = INSTALLER.replace("@VERSION@", "9.8.7");
        assert!(script.contains("version=\"9.8.7\""));
        assert!(!script.contains("@VERSION@"));
        for triple in [
            "x86_64-unknown-linux-gnu",
            "aarch64-unknown-linux-gnu",
            "x86_64-apple-darwin",
            "aarch64-apple-darwin",
        ] {
            assert!(script.contains(triple), "{triple}");
        }
    }
}
