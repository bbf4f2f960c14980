#![doc = include_str!("../README.md")]

pub mod canonical;
mod decision;
mod enums;
mod object;
pub mod pointer;
mod request;
#[cfg(feature = "schema")]
pub mod schema;
pub mod suggest;
mod validate;

pub use decision::{Approval, Decision, Finding, Location, Modified, Provider, Source};
pub use enums::{DecisionKind, FindingAction, Mode, ResourceKind, Severity, Stage, Stakes};
pub use request::{Action, Agent, Caller, CheckRequest, Object, Options, Resource, Target, Tool};
pub use validate::Problem;

/// The protocol version this crate speaks.
pub const PROTOCOL_VERSION: &str = "1";

/// Every protocol version a request may declare.
pub const SUPPORTED_VERSIONS: &[&str] = &[PROTOCOL_VERSION];

/// The repository README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct RepositoryReadme;
