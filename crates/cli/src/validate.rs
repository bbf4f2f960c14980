//! `palisade validate FILE...` and `palisade policy show FILE`.

use std::path::{Path, PathBuf};

use palisade_engine::Engine;

pub(crate) fn run(files: &[PathBuf]) -> anyhow::Result<u8> {
    let mut invalid = false;
    for file in files {
        match Engine::from_path(file) {
            Ok(engine) => {
                let n = engine.policy().checks().len();
                let warnings = engine.policy().warnings();
                say!(
                    "{}: ok ({n} check{}{})",
                    file.display(),
                    if n == 1 { "" } else { "s" },
                    match warnings.len() {
                        0 => String::new(),
                        1 => ", 1 warning".to_owned(),
                        w => format!(", {w} warnings"),
                    }
                );
                let places = palisade_engine::Policy::places(file, &warnings);
                for (i, w) in warnings.iter().enumerate() {
                    match places.get(i) {
                        Some(place) => say!(
                            "{}: warning: {}",
                            place.prefix().unwrap_or_else(|| file.display().to_string()),
                            place.describe(w)
                        ),
                        None => say!("{}: warning: {w}", file.display()),
                    }
                }
            }
            Err(errors) => {
                invalid = true;
                if let Some(shown) = crate::diagnostic::syntax_error(file) {
                    say!("{}: {shown}", file.display());
                    continue;
                }
                for line in problem_lines(file, &errors) {
                    say!("{line}");
                }
            }
        }
    }
    Ok(if invalid { 2 } else { 0 })
}

/// `palisade policy show FILE`: the effective policy as YAML, or every
/// problem as `validate` prints them.
pub(crate) fn show(file: &Path) -> anyhow::Result<u8> {
    match palisade_engine::Policy::effective_document(file) {
        Ok(document) => {
            let text = serde_yaml_ng::to_string(&document)?;
            say!(
                "# The effective policy of {} (palisade policy show)",
                file.display()
            );
            say_raw!("{text}");
            Ok(0)
        }
        Err(errors) => {
            if let Some(shown) = crate::diagnostic::syntax_error(file) {
                eprintln!("{}: {shown}", file.display());
                return Ok(2);
            }
            for line in problem_lines(file, &errors) {
                eprintln!("{line}");
            }
            Ok(2)
        }
    }
}

/// Each problem of the policy file `file` on a line of its own, told
/// where it is (`FILE:LINE:COLUMN: POINTER (check `ID`): MESSAGE`).
fn problem_lines(file: &Path, errors: &palisade_engine::PolicyErrors) -> Vec<String> {
    if errors.is_placed() {
        return errors.lines();
    }
    errors
        .iter()
        .map(|e| format!("{}: {e}", file.display()))
        .collect()
}
