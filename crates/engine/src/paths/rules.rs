//! Path rules: `paths` and `except` globs compiled and matched.

use globset::{Glob, GlobBuilder};

use super::resolve::{ResolvedPath, base_dir, escapes, file_name, shown, under};
use crate::tools::globs::{LazyGlobSet, SetGlob};

/// The compiled `paths` and `except` globs of a `path` check.
#[derive(Clone, Debug)]
pub(crate) struct PathRules {
    /// `paths`: case-insensitive, with loose fallbacks.
    deny: Globs,
    /// `except`: exact, no fallbacks.
    allow: Globs,
    /// File names the `paths` patterns can match (`.env`, `x.pem`, …), to
    /// try against a glob written in a shell line.
    samples: Vec<String>,
    /// For patterns that name a file by the directory holding it
    /// (`**/.aws/credentials`): that directory's name, lowercased, and
    /// sample names of the file, to try in a directory read as a whole.
    in_dirs: Vec<(String, Vec<String>)>,
}

impl PathRules {
    /// Reads a check's `paths` and `except`, parsing their globs (their sets
    /// are built on first use, or by [`PathRules::build`]); an error names
    /// the first bad pattern. No patterns at all matches nothing.
    pub(crate) fn new(paths: &[String], except: &[String]) -> Result<Self, String> {
        Self::read(paths, except, false)
    }

    /// [`PathRules::new`]; when the globs are `known` to parse (the
    /// embedded default policy's), each is parsed when its set is built.
    pub(crate) fn read(paths: &[String], except: &[String], known: bool) -> Result<Self, String> {
        let mut samples = Vec::new();
        let mut in_dirs: Vec<(String, Vec<String>)> = Vec::new();
        for p in paths {
            let mut parts = p.rsplit('/');
            let name = parts.next().unwrap_or(p);
            if let Some(parent) = parts.next()
                && !name.is_empty()
                && name != "**"
                && !parent.is_empty()
                && !parent.contains(['*', '?', '[', '{', '~'])
            {
                in_dirs.push((parent.to_lowercase(), name_samples(name)));
            }
            if !name.is_empty() && name != "**" {
                for s in name_samples(name) {
                    if !samples.contains(&s) {
                        samples.push(s);
                    }
                }
            }
        }
        Ok(Self {
            deny: Globs::new(paths, true, known)?,
            allow: Globs::new(except, false, known)?,
            samples,
            in_dirs,
        })
    }

    /// Builds the glob sets now if they are not built yet; an error says
    /// why one cannot be (its automaton is over its size limit).
    pub(crate) fn build(&self) -> Result<(), String> {
        for set in self.deny.sets.iter().chain(&self.allow.sets) {
            set.build()
                .map_err(|e| format!("invalid path patterns: {e}"))?;
        }
        Ok(())
    }

    /// Whether a path whose file name is a shell glob (`.e*`, `id_rs?`,
    /// `*.pem`) may name a file the rule matches: the glob is tried against
    /// sample names of the `paths` patterns, as the shell would expand it
    /// (a leading `.` must be written). A glob in a directory component is
    /// matched as written.
    pub(crate) fn matches_glob(
        &self,
        path: &ResolvedPath,
        cwd: Option<&str>,
        home: Option<&str>,
    ) -> bool {
        for reading in path.readings() {
            let (dir, name) = reading.rsplit_once('/').unwrap_or(("", reading));
            if !name.contains(['*', '?', '[', '{']) {
                continue;
            }
            let Ok(glob) = GlobBuilder::new(name)
                .literal_separator(true)
                .backslash_escape(false)
                .case_insensitive(true)
                .build()
            else {
                continue;
            };
            let glob = glob.compile_matcher();
            for sample in &self.samples {
                if sample.starts_with('.') && !name.starts_with('.') {
                    continue;
                }
                if !glob.is_match(sample) {
                    continue;
                }
                let candidate = if reading.starts_with('/') || !dir.is_empty() {
                    format!("{dir}/{sample}")
                } else {
                    sample.clone()
                };
                if let Ok(super::Target::File(p)) = super::resolve(&candidate, None, None)
                    && self.matches(&p, cwd, home)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether a directory read as a whole (searched, or its files read
    /// one by one) holds a file the rule names by that directory:
    /// `~/.aws` holds `credentials` for `**/.aws/credentials`. Files the
    /// rule names by their name alone (`.env`, `*.pem`) may be in any
    /// directory, so they are not assumed in every one searched.
    pub(crate) fn matches_in_dir(
        &self,
        dir: &ResolvedPath,
        cwd: Option<&str>,
        home: Option<&str>,
    ) -> bool {
        if self.in_dirs.is_empty() {
            return false;
        }
        for reading in dir.readings() {
            let reading = reading.trim_end_matches('/');
            let last = file_name(reading);
            for (parent, names) in &self.in_dirs {
                if !last.eq_ignore_ascii_case(parent) {
                    continue;
                }
                for name in names {
                    let candidate = format!("{reading}/{name}");
                    if let Ok(super::Target::File(p)) = super::resolve(&candidate, None, None)
                        && self.matches(&p, cwd, home)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether some reading of `path` is matched by `paths` and not by
    /// `except`. `cwd` and `home` are the request's context, the same that
    /// `path` was resolved with; an unusable one counts as missing.
    pub(crate) fn matches(
        &self,
        path: &ResolvedPath,
        cwd: Option<&str>,
        home: Option<&str>,
    ) -> bool {
        let home_dir = home.and_then(|h| base_dir(h, None, "home").ok());
        let cwd_dir = cwd.and_then(|c| base_dir(c, home, "cwd").ok());
        let (cwd_dir, home_dir) = (cwd_dir.as_deref(), home_dir.as_deref());
        path.readings()
            .any(|r| self.deny.hit(r, cwd_dir, home_dir) && !self.allow.hit(r, cwd_dir, home_dir))
    }
}

/// Index of the glob set for file names.
pub(super) const NAME: usize = 0;
/// Index of the glob set for absolute patterns.
pub(super) const ABSOLUTE: usize = 1;
/// Index of the glob set for patterns anchored at `cwd`.
pub(super) const RELATIVE: usize = 2;
/// Index of the glob set for `**/…` patterns, matched anywhere.
pub(super) const ANYWHERE: usize = 3;
/// Index of the glob set for `~/…` patterns, anchored at `home`.
pub(super) const HOME: usize = 4;
/// Index of the `**/`-prefixed absolute patterns, for relative targets.
pub(super) const LOOSE_ABSOLUTE: usize = 5;
/// Index of the `**/`-prefixed relative patterns, for a missing `cwd`.
pub(super) const LOOSE_RELATIVE: usize = 6;
/// Index of the `**/`-prefixed home patterns, for a missing `home`.
pub(super) const LOOSE_HOME: usize = 7;
/// How many glob sets one side of a rule has.
pub(super) const SETS: usize = 8;

/// One side of a path rule (`paths` or `except`), one glob set per kind of
/// anchor.
#[derive(Clone, Debug)]
pub(super) struct Globs {
    /// The sets, indexed by [`NAME`] … [`LOOSE_HOME`]. One that cannot be
    /// built matches every path on the `paths` side and none on the
    /// `except` side: the rule fails closed (a stage whose sets cannot be
    /// built is refused before it is matched)
    sets: [LazyGlobSet; SETS],
    /// `paths` (case-insensitive, loose fallbacks) rather than `except`.
    deny: bool,
}

impl Globs {
    /// Compiles one side of a rule.
    fn new(patterns: &[String], deny: bool, known: bool) -> Result<Self, String> {
        let mut builders: [Vec<SetGlob>; SETS] = std::array::from_fn(|_| Vec::new());
        for pattern in patterns {
            add_pattern(&mut builders, pattern, deny, known)?;
        }
        let parse = if deny { parse_deny } else { parse_allow };
        Ok(Self {
            sets: builders.map(|globs| LazyGlobSet::with_known(globs, parse)),
            deny,
        })
    }

    /// Whether one reading is matched, given the normalized `cwd` and `home`.
    #[expect(
        clippy::indexing_slicing,
        reason = "the glob sets are a fixed array indexed by its own constants"
    )]
    fn hit(&self, reading: &str, cwd: Option<&str>, home: Option<&str>) -> bool {
        let sets = &self.sets;
        let unbuilt = self.deny;
        if sets[NAME].is_match_or(file_name(reading), unbuilt) {
            return true;
        }
        let matches = |set: usize, path: &str| sets[set].is_match_or(path, unbuilt);
        if !reading.starts_with('/') {
            let rel = if reading == "." { "" } else { reading };
            if matches(ANYWHERE, rel) {
                return true;
            }
            return if self.deny {
                matches(LOOSE_ABSOLUTE, rel)
                    || matches(LOOSE_RELATIVE, rel)
                    || matches(LOOSE_HOME, rel)
            } else {
                !escapes(reading) && matches(RELATIVE, rel)
            };
        }
        if matches(ABSOLUTE, reading) || matches(ANYWHERE, reading) {
            return true;
        }
        let anchored = |base: Option<&str>, set: usize, loose: usize| match base {
            Some(base) => under(reading, base, self.deny).is_some_and(|rel| matches(set, rel)),
            None => self.deny && matches(loose, reading),
        };
        anchored(cwd, RELATIVE, LOOSE_RELATIVE) || anchored(home, HOME, LOOSE_HOME)
    }
}

/// Classifies one pattern and adds its globs to `builders`.
#[expect(
    clippy::indexing_slicing,
    reason = "the glob sets are a fixed array indexed by its own constants"
)]
pub(super) fn add_pattern(
    builders: &mut [Vec<SetGlob>; SETS],
    pattern: &str,
    deny: bool,
    known: bool,
) -> Result<(), String> {
    let bad = |why: &str| format!("invalid path pattern {}: {why}", shown(pattern));
    // A glob known to parse is parsed when its set is built.
    let glob = |text: &str, deny: bool| -> Result<SetGlob, globset::Error> {
        if known {
            Ok(SetGlob::Known(text.to_owned()))
        } else {
            glob(text, deny).map(SetGlob::Parsed)
        }
    };
    if pattern.is_empty() {
        return Err("invalid path pattern ``: empty".to_owned());
    }
    if pattern.contains('\0') {
        return Err(bad("contains a nul byte"));
    }
    let (set, loose, body) = if pattern == "~" || pattern.starts_with("~/") {
        (HOME, Some(LOOSE_HOME), &pattern[1..])
    } else if pattern.starts_with('~') {
        return Err(bad("`~user` cannot be resolved; write the absolute path"));
    } else if !pattern.contains('/') {
        builders[NAME].push(glob(pattern, deny).map_err(|e| bad(e.kind().to_string().as_str()))?);
        return Ok(());
    } else if pattern.starts_with('/') {
        (ABSOLUTE, Some(LOOSE_ABSOLUTE), pattern)
    } else if pattern.starts_with("**/") {
        (ANYWHERE, None, pattern)
    } else {
        (RELATIVE, Some(LOOSE_RELATIVE), pattern)
    };
    for form in pattern_forms(body, set == ABSOLUTE).map_err(bad)? {
        builders[set].push(glob(&form, deny).map_err(|e| bad(e.kind().to_string().as_str()))?);
        if let (true, Some(loose)) = (deny, loose) {
            let anywhere = if form.starts_with('/') {
                format!("**{form}")
            } else if form.is_empty() {
                "**".to_owned()
            } else {
                format!("**/{form}")
            };
            builders[loose]
                .push(glob(&anywhere, deny).map_err(|e| bad(e.kind().to_string().as_str()))?);
        }
    }
    Ok(())
}

/// The globs a pattern with `/` stands for: the pattern with `.` components
/// and repeated slashes dropped, plus the directory itself for `dir/` and
/// `dir/**` (and everything under it for `dir/`). A `..` component is an
/// error. `absolute` keeps the leading `/` (the root is `/`); otherwise the
/// anchor itself is the empty string.
pub(super) fn pattern_forms(body: &str, absolute: bool) -> Result<Vec<String>, &'static str> {
    let trailing = body.ends_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in body.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err("`..` is not allowed in a pattern"),
            _ => parts.push(part),
        }
    }
    let joined = parts.join("/");
    let full = |s: &str| {
        if absolute {
            format!("/{s}")
        } else {
            s.to_owned()
        }
    };
    let mut forms = vec![full(&joined)];
    if trailing {
        forms.push(full(&if joined.is_empty() {
            "**".to_owned()
        } else {
            format!("{joined}/**")
        }));
    } else if joined == "**" {
        forms.push(full(""));
    } else if let Some(parent) = joined.strip_suffix("/**") {
        forms.push(full(parent));
    }
    Ok(forms)
}

/// One glob: `*` and `?` stay within a component; `paths` ignore case.
/// Parses a glob of the `paths` side.
fn parse_deny(text: &str) -> Result<Glob, String> {
    glob(text, true).map_err(|e| e.to_string())
}

/// Parses a glob of the `except` side.
fn parse_allow(text: &str) -> Result<Glob, String> {
    glob(text, false).map_err(|e| e.to_string())
}

pub(super) fn glob(pattern: &str, deny: bool) -> Result<Glob, globset::Error> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .case_insensitive(deny)
        .build()
}

/// Names a file-name pattern matches: `*` as nothing and as `x`, `?` as
/// `x`, a class as its first member, each `{a,b}` alternative.
fn name_samples(pattern: &str) -> Vec<String> {
    let mut out = Vec::new();
    for alt in brace_alternatives(pattern) {
        for star in ["", "x"] {
            let mut s = String::new();
            let mut chars = alt.chars();
            while let Some(c) = chars.next() {
                match c {
                    '*' => s.push_str(star),
                    '?' => s.push('x'),
                    '\\' => s.extend(chars.next()),
                    '[' => {
                        let class: String = chars.by_ref().take_while(|&c| c != ']').collect();
                        match class.chars().next() {
                            Some('!' | '^') | None => s.push('x'),
                            Some(first) => s.push(first),
                        }
                    }
                    c => s.push(c),
                }
            }
            if !s.is_empty() && !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

/// A pattern with its first level of `{a,b}` alternatives expanded (at most
/// 64 results; nested braces are kept as written).
fn brace_alternatives(pattern: &str) -> Vec<String> {
    let Some(open) = pattern.find('{') else {
        return vec![pattern.to_owned()];
    };
    let Some(close) = pattern[open..].find('}').map(|i| open + i) else {
        return vec![pattern.to_owned()];
    };
    let (head, body, tail) = (
        &pattern[..open],
        &pattern[open + 1..close],
        &pattern[close + 1..],
    );
    let mut out = Vec::new();
    for alt in body.split(',') {
        for rest in brace_alternatives(tail) {
            if out.len() < 64 {
                out.push(format!("{head}{alt}{rest}"));
            }
        }
    }
    out
}
