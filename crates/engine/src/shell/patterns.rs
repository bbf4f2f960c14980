//! Command patterns: globs over the views of parsed commands.

use globset::{Candidate, GlobBuilder, GlobSet, GlobSetBuilder};

use super::{Command, MAX_PARTS, commands};

/// Command patterns compiled into one glob set (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct CommandPatterns {
    /// Every part of every pattern (twice for a part ending in ` *`).
    set: GlobSet,
    /// The `(pattern, part)` each glob of `set` stands for.
    globs: Vec<(usize, usize)>,
    /// How many parts (piped commands) each pattern has.
    parts: Vec<usize>,
}

impl CommandPatterns {
    /// Compiles patterns; an error names the first bad one.
    pub(crate) fn new<S: AsRef<str>>(patterns: &[S]) -> Result<Self, String> {
        let mut builder = GlobSetBuilder::new();
        let mut globs = Vec::new();
        let mut parts = Vec::with_capacity(patterns.len());
        for (p, pattern) in patterns.iter().enumerate() {
            let pattern = pattern.as_ref();
            let text = pattern.split_whitespace().collect::<Vec<_>>().join(" ");
            if text.is_empty() {
                return Err(String::from("empty command pattern"));
            }
            let split: Vec<&str> = text.split(" | ").collect();
            if split.len() > MAX_PARTS {
                return Err(format!(
                    "command pattern `{text}` pipes more than {MAX_PARTS} commands"
                ));
            }
            for (k, part) in split.iter().enumerate() {
                if part.starts_with('|') || part.ends_with('|') {
                    return Err(format!(
                        "command pattern `{text}` has an empty command in its pipeline"
                    ));
                }
                builder.add(glob(part, &text)?);
                globs.push((p, k));
                // Not after an escaping backslash (`echo \ *`).
                if let Some(stem) = part.strip_suffix(" *")
                    && stem.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 0
                {
                    builder.add(glob(stem, &text)?);
                    globs.push((p, k));
                }
            }
            parts.push(split.len());
        }
        let set = builder
            .build()
            .map_err(|e| format!("invalid command patterns: {e}"))?;
        Ok(Self { set, globs, parts })
    }

    /// The indices of the patterns matching some command or pipeline of
    /// `line`, in increasing order.
    pub(crate) fn matches(&self, line: &str) -> Vec<usize> {
        self.matches_commands(&commands(line))
    }

    /// The indices of the patterns matching some command or pipeline of
    /// `commands` (from [`commands`]), in increasing order.
    pub(crate) fn matches_commands(&self, commands: &[Command]) -> Vec<usize> {
        let mut hit = vec![false; self.parts.len()];
        let mut matched: Vec<Vec<(usize, usize)>> = Vec::with_capacity(commands.len());
        let mut scratch = Vec::new();
        for command in commands {
            let mut m = Vec::new();
            for view in command.views() {
                self.set
                    .matches_candidate_into(&Candidate::new(&view), &mut scratch);
                m.extend(scratch.iter().filter_map(|&g| self.globs.get(g).copied()));
            }
            m.sort_unstable();
            m.dedup();
            for &(p, _) in &m {
                if self.parts.get(p) == Some(&1)
                    && let Some(h) = hit.get_mut(p)
                {
                    *h = true;
                }
            }
            matched.push(m);
        }
        if self.parts.iter().any(|&n| n > 1) {
            let mut order: Vec<usize> = (0..commands.len()).collect();
            order.sort_by_key(|&i| (commands[i].pipeline, i));
            for group in order.chunk_by(|&a, &b| commands[a].pipeline == commands[b].pipeline) {
                if group.len() < 2 {
                    continue;
                }
                for (p, &n) in self.parts.iter().enumerate() {
                    if n < 2 || hit[p] {
                        continue;
                    }
                    let mut next = 0;
                    for &c in group {
                        if next < n && matched[c].binary_search(&(p, next)).is_ok() {
                            next += 1;
                        }
                    }
                    if next == n {
                        hit[p] = true;
                    }
                }
            }
        }
        hit.iter()
            .enumerate()
            .filter_map(|(p, &h)| h.then_some(p))
            .collect()
    }
}

/// Compiles one part of `pattern`.
pub(super) fn glob(part: &str, pattern: &str) -> Result<globset::Glob, String> {
    GlobBuilder::new(part)
        .literal_separator(false)
        .backslash_escape(true)
        .empty_alternates(true)
        .build()
        .map_err(|e| format!("invalid command pattern `{pattern}`: {}", e.kind()))
}
