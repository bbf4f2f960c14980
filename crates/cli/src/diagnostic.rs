//! Syntax errors of policy and config files shown where they are: the
//! file's line, with a caret under the place reading stopped.

use std::path::Path;

use annotate_snippets::{Level, Renderer, Snippet};

/// When the file at `path` is not valid JSON or YAML (by its extension):
/// the parser's message over the line it stopped at, a caret under the
/// place. `None` when the file parses, cannot be read, or is neither.
pub(crate) fn syntax_error(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    let (format, message, offset) = match extension.as_str() {
        "json" => {
            let e = serde_json::from_str::<serde_json::Value>(&text).err()?;
            let message = e.to_string();
            let message = match message.rfind(" at line ") {
                Some(i) => message.get(..i).unwrap_or(&message).to_owned(),
                None => message,
            };
            (
                "JSON",
                message,
                offset_of(&text, e.line(), e.column().saturating_sub(1)),
            )
        }
        "yaml" | "yml" => {
            let e = serde_yaml_ng::from_str::<serde_json::Value>(&text).err()?;
            let location = e.location()?;
            // `… at line 4 column 4, while parsing a block collection at
            // line 2 column 3`: the snippet shows the one place.
            let message = palisade_engine::without_positions(&e.to_string());
            ("YAML", message, location.index().min(text.len()))
        }
        _ => return None,
    };
    Some(render(path, &text, format, &message, offset))
}

/// The byte offset of a 1-based line and 0-based column (in characters)
/// of `text`, within it.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text.get(start..).and_then(|rest| rest.find('\n')) {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let rest = text.get(start..).unwrap_or_default();
    let line_len = rest.find('\n').unwrap_or(rest.len());
    start
        + rest
            .char_indices()
            .nth(column)
            .map_or(line_len, |(i, _)| i.min(line_len))
}

fn render(path: &Path, text: &str, format: &str, message: &str, offset: usize) -> String {
    // Past the last line (the text ended too soon): at the end of the text
    // that is there.
    let offset = offset.min(text.trim_end().len());
    let title = format!("invalid {format}: {message}");
    let origin = path.display().to_string();
    // One character under the caret; none at the end of the text.
    let end = text
        .get(offset..)
        .and_then(|rest| rest.chars().next())
        .map_or(offset, |c| {
            offset + if c == '\n' { 0 } else { c.len_utf8() }
        });
    let report = Level::Error.title(&title).snippet(
        Snippet::source(text)
            .origin(&origin)
            .fold(true)
            .annotation(Level::Error.span(offset..end).label("here")),
    );
    let rendered = Renderer::plain().render(report).to_string();
    // The caller says `error: ` itself.
    rendered
        .strip_prefix("error: ")
        .unwrap_or(&rendered)
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_follow_lines_and_characters() {
        let text = "ab\nçd\n";
        assert_eq!(offset_of(text, 1, 0), 0);
        assert_eq!(offset_of(text, 2, 1), 5);
        assert_eq!(offset_of(text, 2, 9), 6);
        assert_eq!(offset_of(text, 3, 0), 7);
        assert_eq!(offset_of(text, 9, 0), 7);
    }
}
