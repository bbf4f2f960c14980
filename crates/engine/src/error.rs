//! Errors: policy problems (all of them at once, each with its JSON pointer)
//! and request problems.

use std::fmt;

/// One problem in a policy: where it is (a JSON pointer, `""` for the
/// whole document) and what is wrong and allowed. The same shape as a
/// request's and a config's problems.
pub type PolicyError = palisade_protocol::Problem;

/// Where a policy problem was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The file, as it was named to the loader.
    pub file: String,
    /// The line and column (both from 1, the column in characters) of the
    /// value the problem names, or of the nearest value that holds it (the
    /// object a required field is missing from); `None` when it cannot be
    /// told (the document as a whole).
    pub position: Option<(usize, usize)>,
    /// The id of the check the problem is in: its `id`, else the id the
    /// loader gives it (`<type>-<index>`).
    pub check: Option<String>,
}

/// Every problem found in a policy. A policy with any problem is rejected
/// whole: nothing of it is loaded.
///
/// Read from a file, each problem is told with its place:
/// `policy.yaml:12:14: /checks/3/on_fail (check `no-secrets`): unknown
/// value …`; read from a string, with its pointer only.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PolicyErrors {
    /// The problems, in document order.
    pub errors: Vec<PolicyError>,
    /// The place of each problem, when the policy was read from a file.
    places: Vec<Place>,
}

impl PolicyErrors {
    /// The problems, not yet placed in a file.
    pub fn new(errors: Vec<PolicyError>) -> Self {
        Self {
            errors,
            places: Vec::new(),
        }
    }

    pub(crate) fn one(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(vec![PolicyError::new(pointer, message)])
    }

    /// A syntax error of a document's text at `position` (line and column
    /// from 1), its message without the parser's positions.
    pub(crate) fn syntax(message: &str, position: Option<(usize, usize)>) -> Self {
        Self::one("", without_positions(message)).placed(vec![Place {
            file: String::new(),
            position,
            check: None,
        }])
    }

    /// Gives each problem its place (one per problem, in order), and puts
    /// the problems in the order of their places in the file.
    pub(crate) fn placed(self, places: Vec<Place>) -> Self {
        if places.len() != self.errors.len() {
            return self;
        }
        let mut both: Vec<(PolicyError, Place)> = self.errors.into_iter().zip(places).collect();
        both.sort_by_key(|(_, place)| place.position.unwrap_or((0, 0)));
        let (errors, places) = both.into_iter().unzip();
        Self { errors, places }
    }

    /// The place of the `i`th problem, when the policy was read from a
    /// file.
    pub fn place(&self, i: usize) -> Option<&Place> {
        self.places.get(i)
    }

    /// Whether the problems are told with their file (so a caller need not
    /// name it again).
    pub fn is_placed(&self) -> bool {
        !self.places.is_empty()
    }

    /// Each problem as one line: `FILE:LINE:COLUMN: POINTER (check `ID`):
    /// MESSAGE` when it has a place, else `POINTER: MESSAGE`.
    pub fn lines(&self) -> Vec<String> {
        self.errors
            .iter()
            .enumerate()
            .map(|(i, e)| match self.places.get(i) {
                Some(place) => placed_line(e, place),
                None => e.to_string(),
            })
            .collect()
    }

    /// How many problems there are.
    pub fn len(&self) -> usize {
        self.errors.len()
    }

    /// Whether there are none (never true for an error that was returned).
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// The problems.
    pub fn iter(&self) -> impl Iterator<Item = &PolicyError> {
        self.errors.iter()
    }
}

/// A parser's message without its ` at line N column M` positions.
pub fn without_positions(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find(" at line ") {
        out.push_str(rest.get(..i).unwrap_or_default());
        let after = rest.get(i + " at line ".len()..).unwrap_or_default();
        let line_end = after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len());
        let after = after.get(line_end..).unwrap_or_default();
        rest = match after.strip_prefix(" column ") {
            Some(col) => {
                let end = col.find(|c: char| !c.is_ascii_digit()).unwrap_or(col.len());
                col.get(end..).unwrap_or_default()
            }
            None => after,
        };
    }
    out.push_str(rest);
    out
}

/// A problem told at its place: `FILE:LINE:COLUMN: POINTER (check `ID`):
/// MESSAGE`; the pointer and check only where there are ones.
pub fn placed_line(problem: &PolicyError, place: &Place) -> String {
    match place.prefix() {
        Some(prefix) => format!("{prefix}: {}", place.describe(problem)),
        None => place.describe(problem),
    }
}

impl Place {
    /// `FILE:LINE:COLUMN` (`line L column C` without a file), or the part
    /// of it there is.
    pub fn prefix(&self) -> Option<String> {
        match (self.file.as_str(), self.position) {
            ("", None) => None,
            ("", Some((l, c))) => Some(format!("line {l} column {c}")),
            (file, None) => Some(file.to_owned()),
            (file, Some((l, c))) => Some(format!("{file}:{l}:{c}")),
        }
    }

    /// A problem here without the prefix: `POINTER (check `ID`): MESSAGE`.
    pub fn describe(&self, problem: &PolicyError) -> String {
        if problem.pointer.is_empty() {
            return problem.message.clone();
        }
        match &self.check {
            Some(id) => format!("{} (check `{id}`): {}", problem.pointer, problem.message),
            None => format!("{}: {}", problem.pointer, problem.message),
        }
    }
}

impl fmt::Display for PolicyErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.errors.len();
        write!(
            f,
            "invalid policy ({n} error{}):",
            if n == 1 { "" } else { "s" }
        )?;
        for line in self.lines() {
            write!(f, "\n  {line}")?;
        }
        Ok(())
    }
}

/// A request that cannot be evaluated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// The text is not JSON, or a field has the wrong type.
    #[error("{pointer}: {message}", pointer = display_pointer(pointer))]
    Malformed {
        /// JSON pointer to the offending field (`""` when the document itself is malformed).
        pointer: String,
        /// What is wrong.
        message: String,
    },
    /// The request parsed but some values are not allowed.
    #[error("{}", join_problems(.0))]
    Invalid(Vec<palisade_protocol::Problem>),
}

impl RequestError {
    /// The first offending JSON pointer.
    pub fn pointer(&self) -> &str {
        match self {
            RequestError::Malformed { pointer, .. } => pointer,
            RequestError::Invalid(problems) => problems.first().map_or("", |p| p.pointer.as_str()),
        }
    }
}

fn display_pointer(pointer: &str) -> &str {
    if pointer.is_empty() { "/" } else { pointer }
}

fn join_problems(problems: &[palisade_protocol::Problem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_lose_their_positions() {
        assert_eq!(
            without_positions(
                "did not find expected '-' indicator at line 4 column 4, while parsing a block collection at line 2 column 3"
            ),
            "did not find expected '-' indicator, while parsing a block collection"
        );
        assert_eq!(without_positions("no position"), "no position");
    }
}
