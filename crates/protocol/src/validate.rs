//! Value checks on a parsed request that the type system cannot express.

use std::fmt;

use crate::{CheckRequest, SUPPORTED_VERSIONS};

/// One problem with a document (a request, a policy, a config): where it
/// is (a JSON pointer, `""` for the document itself) and what is wrong.
/// Displayed as `pointer: message`, the document itself as `/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// JSON pointer to the offending value, such as `/action/confidence`.
    pub pointer: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl Problem {
    /// A problem at `pointer`.
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() {
            "/"
        } else {
            &self.pointer
        };
        write!(f, "{pointer}: {}", self.message)
    }
}

impl std::error::Error for Problem {}

impl CheckRequest {
    /// Checks the values the types allow but the protocol does not, and
    /// returns every problem found, each with its JSON pointer.
    ///
    /// ```
    /// use palisade_protocol::{Action, CheckRequest};
    ///
    /// let request = CheckRequest::action(Action::described("deploy").with_confidence(1.5));
    /// let problems = request.validate().unwrap_err();
    /// assert_eq!(problems[0].pointer, "/action/confidence");
    /// ```
    pub fn validate(&self) -> Result<(), Vec<Problem>> {
        let mut problems = Vec::new();
        if let Some(version) = &self.protocol_version
            && !SUPPORTED_VERSIONS.contains(&version.as_str())
        {
            problems.push(Problem::new(
                "/protocolVersion",
                format!(
                    "unsupported protocol version `{version}`; supported: {}",
                    SUPPORTED_VERSIONS
                        .iter()
                        .map(|v| format!("`{v}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        if self.request_id.as_deref().is_some_and(str::is_empty) {
            problems.push(Problem::new("/requestId", "must not be empty when present"));
        }
        if let Some(tool) = &self.tool
            && tool.name.trim().is_empty()
        {
            problems.push(Problem::new("/tool/name", "tool name must not be empty"));
        }
        if let Some(action) = &self.action {
            if let Some(confidence) = action.confidence
                && !(0.0..=1.0).contains(&confidence)
            {
                problems.push(Problem::new(
                    "/action/confidence",
                    format!("confidence must be between 0 and 1, got {confidence}"),
                ));
            }
            if let Some(targets) = &action.targets {
                for (i, target) in targets.iter().enumerate() {
                    if target.uri.is_empty() {
                        problems.push(Problem::new(
                            format!("/action/targets/{i}/uri"),
                            "target uri must not be empty",
                        ));
                    }
                }
            }
            if action
                .description
                .as_deref()
                .is_some_and(|d| d.trim().is_empty())
            {
                problems.push(Problem::new(
                    "/action/description",
                    "must not be empty when present",
                ));
            }
        }
        if let Some(checks) = &self.checks {
            for (i, id) in checks.iter().enumerate() {
                if id.is_empty() {
                    problems.push(Problem::new(
                        format!("/checks/{i}"),
                        "check id must not be empty",
                    ));
                }
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }
}
