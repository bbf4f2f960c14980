//! `palisade validate FILE...`

use std::path::PathBuf;

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
                for w in &warnings {
                    say!("{}: warning: {w}", file.display());
                }
            }
            Err(errors) => {
                invalid = true;
                if let Some(shown) = crate::diagnostic::syntax_error(file) {
                    say!("{}: {shown}", file.display());
                    continue;
                }
                for e in errors.iter() {
                    say!("{}: {e}", file.display());
                }
            }
        }
    }
    Ok(if invalid { 2 } else { 0 })
}
