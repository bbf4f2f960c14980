//! Command patterns: globs over the views of parsed commands.

use globset::{Glob, GlobBuilder};

use super::builtin::{Builtin, DANGEROUS, Native};
use super::{Command, MAX_PARTS, commands};
use crate::globs::LazyGlobSet;

/// Command patterns compiled into one glob set (see the module docs).
///
/// The globs are parsed when the patterns are read; their set is built when
/// first needed ([`CommandPatterns::build`], which a stage calls when it is
/// built), so that a one-request process that never reads a shell line
/// (a coding agent's post-tool hook) does not build it.
#[derive(Clone, Debug)]
pub(crate) struct CommandPatterns {
    /// Every part of every pattern as written and with its following words
    /// (or without its final ` *`): one glob `part{, *}` (`stem{, *}`)
    /// where an alternation can join the two, else two globs.
    set: LazyGlobSet,
    /// The `(pattern, part)` each glob of `set` stands for.
    globs: Vec<(usize, usize)>,
    /// How many parts (piped commands) each pattern has.
    parts: Vec<usize>,
    /// The entry of the check's `commands` each pattern comes from (an `@`
    /// entry brings several).
    entry_of: Vec<usize>,
    /// How many entries there are.
    entries: usize,
    /// The native tests of `@` entries: `(entry, test)`.
    natives: Vec<(usize, Native)>,
}

/// What an `@` entry of a check's `commands` stands for: built-in entries,
/// by id, or all of them with `@builtin`.
fn builtins_named(name: &str) -> Result<Vec<&'static Builtin>, String> {
    if name == "builtin" {
        return Ok(DANGEROUS.iter().collect());
    }
    if let Some(b) = DANGEROUS.iter().find(|b| b.id == name) {
        return Ok(vec![b]);
    }
    let mut known: Vec<&str> = vec!["@builtin"];
    let ids: Vec<String> = DANGEROUS.iter().map(|b| format!("@{}", b.id)).collect();
    known.extend(ids.iter().map(String::as_str));
    let at = format!("@{name}");
    let near = palisade_protocol::suggest::closest(&at, known.iter().copied()).or_else(|| {
        known.iter().copied().find(|k| {
            k.get(1..)
                .is_some_and(|k| k.contains(name) || name.contains(k))
        })
    });
    let hint = near.map_or_else(String::new, |n| format!(" (did you mean `{n}`?)"));
    Err(format!(
        "unknown built-in command entry `@{name}`{hint}; known: {}",
        known.join(", ")
    ))
}

impl CommandPatterns {
    /// Reads patterns, parsing their globs (the set is built on first
    /// use); an error names the first bad one.
    pub(crate) fn new<S: AsRef<str>>(patterns: &[S]) -> Result<Self, String> {
        let mut builder = Vec::new();
        let mut globs = Vec::new();
        let mut parts = Vec::with_capacity(patterns.len());
        let mut natives = Vec::new();
        let mut entry_of = Vec::new();
        for (p, pattern) in patterns.iter().enumerate() {
            let pattern = pattern.as_ref();
            if let Some(name) = pattern.trim().strip_prefix('@') {
                for b in builtins_named(name)? {
                    for part in b.patterns {
                        let n = Self::add(&mut builder, &mut globs, parts.len(), part)?;
                        parts.push(n);
                        entry_of.push(p);
                    }
                    if b.native != Native::None {
                        natives.push((p, b.native));
                    }
                }
                continue;
            }
            let n = Self::add(&mut builder, &mut globs, parts.len(), pattern)?;
            parts.push(n);
            entry_of.push(p);
        }
        Ok(Self {
            set: LazyGlobSet::new(builder),
            globs,
            parts,
            entry_of,
            entries: patterns.len(),
            natives,
        })
    }

    /// Builds the glob set now if it is not built yet; an error says why it
    /// cannot be (its combined automaton is over its size limit).
    pub(crate) fn build(&self) -> Result<(), String> {
        self.set
            .build()
            .map_err(|e| format!("invalid command patterns: {e}"))
    }

    /// Whether entry `p` has the native test `native`.
    pub(crate) fn has_native(&self, p: usize, native: Native) -> bool {
        self.natives.contains(&(p, native))
    }

    /// Adds the globs of one pattern for entry `p`; returns how many
    /// commands it pipes.
    fn add(
        builder: &mut Vec<Glob>,
        globs: &mut Vec<(usize, usize)>,
        p: usize,
        pattern: &str,
    ) -> Result<usize, String> {
        {
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
                // A part matches a command's view whole or its first words:
                // `git push --force` matches `git push --force origin main`.
                // A part ending in ` $` matches whole views only; one ending
                // in ` *` also matches without the space (`rm -rf *` matches
                // a bare `rm -rf`). Neither after an escaping backslash.
                let unescaped =
                    |stem: &str| stem.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 0;
                if let Some(stem) = part.strip_suffix(" $").filter(|s| unescaped(s)) {
                    builder.push(glob(stem, &text)?);
                    globs.push((p, k));
                    continue;
                }
                let extended = match part.strip_suffix(" *").filter(|s| unescaped(s)) {
                    Some(stem) => stem.to_owned(),
                    None => format!("{part} *"),
                };
                // One glob for both when an alternation can join them:
                // `stem{, *}` is `stem` and `stem *`, `part{, *}` is `part`
                // and `part *` (a glob set's size is about its globs').
                let joined = if unescaped(part) {
                    let base = part.strip_suffix(" *").filter(|s| unescaped(s));
                    Some(format!("{}{{, *}}", base.unwrap_or(part)))
                } else {
                    None
                };
                // A part that does not parse (an unclosed `{` or `[`) does
                // not parse joined either: it is then parsed as written,
                // for an error that names its own mistake.
                if let Some(Ok(g)) = joined.map(|j| glob(&j, &text)) {
                    builder.push(g);
                    globs.push((p, k));
                    continue;
                }
                builder.push(glob(part, &text)?);
                globs.push((p, k));
                builder.push(glob(&extended, &text)?);
                globs.push((p, k));
            }
            Ok(split.len())
        }
    }

    /// The indices of the patterns matching some command or pipeline of
    /// `line`, in increasing order.
    pub(crate) fn matches(&self, line: &str) -> Vec<usize> {
        self.matches_commands(&commands(line))
    }

    /// The indices of the patterns matching some command or pipeline of
    /// `commands` (from [`commands`]), in increasing order.
    #[expect(
        clippy::indexing_slicing,
        reason = "command and pattern indices come from the lists being matched"
    )]
    pub(crate) fn matches_commands(&self, commands: &[Command]) -> Vec<usize> {
        let mut hit = vec![false; self.parts.len()];
        let mut entry_hit = vec![false; self.entries];
        let mut matched: Vec<Vec<(usize, usize)>> = Vec::with_capacity(commands.len());
        let mut scratch = Vec::new();
        // A set that cannot be built matches every command: fail closed (a
        // stage whose set cannot be built is refused before this is reached).
        let set = self.set.get().ok();
        for command in commands {
            let mut m = Vec::new();
            for view in command.views() {
                match set {
                    Some(set) => {
                        set.matches_into(&view, &mut scratch);
                        m.extend(scratch.iter().filter_map(|&g| self.globs.get(g).copied()));
                    }
                    None => m.extend(self.globs.iter().copied()),
                }
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
            for &(p, native) in &self.natives {
                let fires = match native {
                    Native::Opaque => command.opaque.is_some(),
                    Native::ForkBomb => command.fork_bomb,
                    Native::None => false,
                };
                if fires && let Some(h) = entry_hit.get_mut(p) {
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
        for (k, &h) in hit.iter().enumerate() {
            if h && let Some(e) = self.entry_of.get(k).and_then(|&p| entry_hit.get_mut(p)) {
                *e = true;
            }
        }
        entry_hit
            .iter()
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
