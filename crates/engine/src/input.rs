//! What comes in: requests read from JSON with errors that name the field,
//! JSON that repeats a key refused, and tool arguments checked against a
//! JSON Schema.

pub(crate) mod dupkeys;
pub(crate) mod request;
pub(crate) mod tool_schema;
