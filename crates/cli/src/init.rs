//! `palisade init`: a starter policy (the embedded default, with its
//! comments) and a test file for it.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, bail};

use crate::InitArgs;

/// The policy file `init` writes.
const POLICY_FILE: &str = "palisade.yaml";
/// The test file `init` writes; it names [`POLICY_FILE`].
const TEST_FILE: &str = "palisade_test.yaml";
/// The starter test cases.
const STARTER_TEST: &str = include_str!("starter_test.yaml");

pub(crate) fn run(args: &InitArgs) -> anyhow::Result<u8> {
    let dir = &args.dir;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the directory `{}`", dir.display()))?;
    let policy = dir.join(POLICY_FILE);
    let test = dir.join(TEST_FILE);
    if !args.force {
        let existing: Vec<String> = [&policy, &test]
            .iter()
            .filter(|p| p.exists())
            .map(|p| format!("`{}`", p.display()))
            .collect();
        if !existing.is_empty() {
            bail!(
                "{} already exist{}; nothing was written (`--force` overwrites)",
                existing.join(" and "),
                if existing.len() == 1 { "s" } else { "" }
            );
        }
    }
    write(&policy, palisade_engine::DEFAULT_POLICY)?;
    write(&test, STARTER_TEST)?;
    say!(
        "wrote {} (the default policy, commented) and {} (its test cases)",
        policy.display(),
        test.display()
    );
    say!("next:");
    say!("  palisade test {}", test.display());
    say!("  palisade serve --policy {}", policy.display());
    Ok(0)
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    let mut file = std::fs::File::create(path)
        .with_context(|| format!("cannot write `{}`", path.display()))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot write `{}`", path.display()))
}
