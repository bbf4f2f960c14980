//! Tool-name globs: all globs of a stage in one `GlobSet`, built when
//! first needed.
//!
//! `*` matches any run of characters (a tool name has no path separators),
//! `?` one character, `[…]` a class, `{a,b}` alternatives; `\` escapes.
//! Matching is case-sensitive, like `fnmatchcase`.

pub(crate) mod arguments;
pub(crate) mod globs;

use std::sync::Arc;

use globset::{Glob, GlobBuilder};

use crate::tools::globs::LazyGlobSet;

fn glob(pattern: &str) -> Result<Glob, globset::Error> {
    GlobBuilder::new(pattern)
        .literal_separator(false)
        .backslash_escape(true)
        .build()
}

/// Parses a tool glob, with a one-line error.
pub(crate) fn parse_glob(pattern: &str) -> Result<Glob, String> {
    glob(pattern).map_err(|e| format!("invalid glob: {}", e.kind()))
}

/// Every tool glob of a stage (or of a check).
#[derive(Clone, Debug)]
pub(crate) struct ToolMatcher {
    /// Shared by the matcher's clones: built once for all of them.
    set: Arc<LazyGlobSet>,
    checks: Vec<u32>,
}

/// Collects globs.
#[derive(Default)]
pub(crate) struct ToolMatcherBuilder {
    globs: Vec<Glob>,
    checks: Vec<u32>,
}

impl ToolMatcherBuilder {
    /// Adds a glob that ignores case (for built-in tool lists: `Bash` is `bash`).
    pub(crate) fn add_any_case(&mut self, check: u32, pattern: &str) -> Result<(), String> {
        let g = GlobBuilder::new(pattern)
            .literal_separator(false)
            .backslash_escape(true)
            .case_insensitive(true)
            .build()
            .map_err(|e| format!("invalid glob: {}", e.kind()))?;
        self.globs.push(g);
        self.checks.push(check);
        Ok(())
    }

    #[cfg(test)]
    pub(crate) fn add(&mut self, check: u32, pattern: &str) -> Result<(), String> {
        self.add_glob(check, parse_glob(pattern)?);
        Ok(())
    }

    /// Adds a parsed glob.
    pub(crate) fn add_glob(&mut self, check: u32, glob: Glob) {
        self.globs.push(glob);
        self.checks.push(check);
    }

    /// The matcher of the globs added, `None` without any; its set is
    /// built when first needed ([`ToolMatcher::build`]).
    pub(crate) fn finish(self) -> Option<ToolMatcher> {
        (!self.checks.is_empty()).then(|| ToolMatcher {
            set: Arc::new(LazyGlobSet::new(self.globs)),
            checks: self.checks,
        })
    }
}

impl ToolMatcher {
    /// Builds the glob set now if it is not built yet; an error says why it
    /// cannot be (its automaton is over its size limit).
    pub(crate) fn build(&self) -> Result<(), String> {
        self.set
            .build()
            .map_err(|e| format!("invalid glob set: {e}"))
    }

    /// The matcher's identity, shared by its clones: the same key for two
    /// matchers alive at once means the same globs.
    pub(crate) fn key(&self) -> usize {
        Arc::as_ptr(&self.set) as usize
    }

    /// Whether some glob matches `name`: one search that stops at the
    /// first match, for a check that only needs to know that its tools name
    /// the request's. A set that cannot be built names every tool, as in
    /// [`Self::matches`].
    pub(crate) fn names(&self, name: &str) -> bool {
        match self.set.get() {
            Ok(set) => set.is_match(name),
            Err(_) => !self.checks.is_empty(),
        }
    }

    /// Calls `hit(check)` for every check with a glob matching `name`
    /// (a check may be reported more than once). A set that cannot be built
    /// matches every name, so that its checks fail closed (a stage whose
    /// set cannot be built is refused before this is reached).
    pub(crate) fn matches(&self, name: &str, mut hit: impl FnMut(u32)) {
        match self.set.get() {
            Ok(set) => {
                for i in set.matches(name) {
                    if let Some(&check) = self.checks.get(i) {
                        hit(check);
                    }
                }
            }
            Err(_) => self.checks.iter().for_each(|&c| hit(c)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hits(globs: &[&str], name: &str) -> Vec<u32> {
        let mut b = ToolMatcherBuilder::default();
        for (i, g) in globs.iter().enumerate() {
            b.add(i as u32, g).unwrap();
        }
        let m = b.finish().unwrap();
        m.build().unwrap();
        let mut out = Vec::new();
        m.matches(name, |c| out.push(c));
        out.sort();
        assert_eq!(m.names(name), !out.is_empty(), "{globs:?} {name:?}");
        out
    }

    #[test]
    fn fnmatch_like_semantics() {
        assert_eq!(hits(&["bash*"], "bashkit_exec"), [0]);
        assert_eq!(hits(&["bash*"], "read_file"), Vec::<u32>::new());
        assert_eq!(hits(&["[Ss]hell*", "ssh_?*"], "Shell_Run"), [0]);
        assert_eq!(hits(&["ssh_?*"], "ssh_"), Vec::<u32>::new());
        assert_eq!(hits(&["mcp__*__send_*"], "mcp__slack__send_message"), [0]);
        assert_eq!(hits(&["*"], "a/b"), [0], "no path semantics");
        assert_eq!(hits(&["Bash"], "bash"), Vec::<u32>::new(), "case-sensitive");
    }

    #[test]
    fn bad_globs_are_reported() {
        assert!(parse_glob("[abc").unwrap_err().starts_with("invalid glob"));
    }
}
