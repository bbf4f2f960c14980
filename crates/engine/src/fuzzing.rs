//! Entry points for the fuzz targets in `fuzz/`: the shell parser and path
//! resolution, the two parsers that read attacker-controlled text, without
//! a policy around them. Built only with the `fuzzing` feature; not a
//! stable API.

use crate::{paths, shell};

/// One simple command of a shell line, as the parser read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedCommand {
    /// The words after quote removal.
    pub words: Vec<String>,
    /// The words with every wrapper removed (`sudo nice rm x` → `rm x`).
    pub unwrapped: Vec<String>,
    /// The redirections: operator and target.
    pub redirects: Vec<(String, String)>,
    /// Why the command is opaque, if it is.
    pub opaque: Option<String>,
    /// The strings command patterns are matched against.
    pub views: Vec<String>,
    /// The files the command touches: the word and its operations.
    pub files: Vec<(String, Vec<&'static str>)>,
}

/// Every simple command of a shell line.
pub fn shell(line: &str) -> Vec<ParsedCommand> {
    shell::commands(line)
        .iter()
        .map(|c| ParsedCommand {
            words: c.words.clone(),
            unwrapped: c.unwrapped(),
            redirects: c
                .redirects
                .iter()
                .map(|r| (r.op.clone(), r.target.clone()))
                .collect(),
            opaque: c.opaque.clone(),
            views: c.views(),
            files: shell::operands(c, &c.unwrapped())
                .into_iter()
                .map(|o| (o.text, o.ops.names()))
                .collect(),
        })
        .collect()
}

/// The normalised form of a command's words (options split, sorted and
/// spelled one way).
pub fn normalise(words: &[String]) -> Vec<String> {
    shell::normalise(words)
}

/// A target resolved against `cwd` and `home`: its readings (the primary
/// one first), `Ok(None)` for a URI of another scheme, or why it cannot be
/// resolved.
pub fn resolve(
    target: &str,
    cwd: Option<&str>,
    home: Option<&str>,
) -> Result<Option<Vec<String>>, String> {
    match paths::resolve(target, cwd, home)? {
        paths::Target::File(p) => Ok(Some(p.readings().map(str::to_owned).collect())),
        paths::Target::NotFile { .. } => Ok(None),
    }
}

/// Whether a target is inside `root` (`None`: it cannot be resolved or is
/// not a file).
pub fn within(target: &str, root: &str, cwd: Option<&str>, home: Option<&str>) -> Option<bool> {
    match paths::resolve(target, cwd, home).ok()? {
        paths::Target::File(p) => Some(paths::within(&p, root, home)),
        paths::Target::NotFile { .. } => None,
    }
}

/// Whether `patterns` (minus `except`) match a target, as a `path`
/// check decides it; an error names a bad pattern or an unresolvable
/// target.
pub fn path_matches(
    patterns: &[String],
    except: &[String],
    target: &str,
    cwd: Option<&str>,
    home: Option<&str>,
) -> Result<bool, String> {
    let rules = paths::PathRules::new(patterns, except)?;
    match paths::resolve(target, cwd, home)? {
        paths::Target::File(p) => Ok(rules.matches(&p, cwd, home)),
        paths::Target::NotFile { .. } => Ok(false),
    }
}

/// Where each path this CPU has finds the first block of base64 from
/// `from` in the search for runs to decode (the path's name and the
/// block's position), the scalar path first.
pub fn base64_blocks(hay: &[u8], from: usize) -> Vec<(&'static str, Option<usize>)> {
    use crate::scan::literal::simd::Path;
    Path::ALL
        .into_iter()
        .filter(|p| p.available())
        .map(|path| (path.name(), crate::scan::base64_block_on(path, hay, from)))
        .collect()
}

/// What each literal-filter path this CPU has reports for `literals`
/// (bytes, and whether ASCII case is ignored) in `hay`: the path's name
/// and its occurrences (literal index, start) in its order, the scalar
/// path first.
pub fn literal_paths(
    literals: &[(Vec<u8>, bool)],
    hay: &[u8],
) -> Vec<(&'static str, Vec<(u32, usize)>)> {
    use crate::scan::literal::{LiteralSetBuilder, simd::Path};
    let mut builder = LiteralSetBuilder::default();
    for (bytes, case_insensitive) in literals {
        if !bytes.is_empty() {
            builder.add(bytes, *case_insensitive);
        }
    }
    let set = builder.build();
    Path::ALL
        .into_iter()
        .filter(|p| p.available())
        .map(|path| {
            let mut found = Vec::new();
            set.for_each_on(path, hay, |id, start| found.push((id, start)));
            (path.name(), found)
        })
        .collect()
}
