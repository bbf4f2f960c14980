//! `palisade policy suggest FILE`: the flow rule's effect categories of a
//! tool list, as a policy fragment for a person to review
//! (`palisade_engine::suggest`).

use std::path::Path;

/// Prints the fragment for the tool list in `file`; exit 0, or 2 with
/// what is wrong with the file.
pub(crate) fn run(file: &Path) -> anyhow::Result<u8> {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{}: cannot read the tool list: {e}", file.display());
            return Ok(2);
        }
    };
    let tools = match palisade_engine::suggest::read_tools(&text) {
        Ok(tools) => tools,
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return Ok(2);
        }
    };
    let suggestions: Vec<_> = tools
        .iter()
        .map(palisade_engine::suggest::classify)
        .collect();
    let source = file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    say_raw!(
        "{}",
        palisade_engine::suggest::fragment(&source, &suggestions)
    );
    Ok(0)
}
