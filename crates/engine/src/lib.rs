#![doc = include_str!("../README.md")]

mod clock;
mod dupkeys;
mod engine;
mod error;
mod eval;
pub mod policy;
mod request;
mod scan;
mod tools;

pub use clock::{new_id, rfc3339};
pub use engine::Engine;
pub use error::{PolicyError, PolicyErrors, RequestError};
pub use eval::default_replacement;
pub use policy::{Check, CheckKind, OnFail, Policy};
pub use request::{parse_json, parse_request};
pub use scan::stream;
