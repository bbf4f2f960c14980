//! Streaming output scanning.
