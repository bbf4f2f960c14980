//! Errors: policy problems (all of them at once, each with its JSON pointer)
//! and request problems.

use std::fmt;

/// One problem in a policy: where it is (a JSON pointer, `""` for the
/// whole document) and what is wrong and allowed. The same shape as a
/// request's and a config's problems.
pub type PolicyError = palisade_protocol::Problem;

/// Every problem found in a policy. A policy with any problem is rejected
/// whole: nothing of it is loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PolicyErrors {
    /// The problems, in document order.
    pub errors: Vec<PolicyError>,
}

impl PolicyErrors {
    pub(crate) fn one(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            errors: vec![PolicyError::new(pointer, message)],
        }
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

impl fmt::Display for PolicyErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.errors.len();
        write!(
            f,
            "invalid policy ({n} error{}):",
            if n == 1 { "" } else { "s" }
        )?;
        for e in &self.errors {
            write!(f, "\n  {e}")?;
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
