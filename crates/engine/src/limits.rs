//! Size limits on policies, so that one policy cannot exhaust the service.

/// Most checks in one policy.
pub const MAX_CHECKS: usize = 10_000;
/// Most entries (patterns, words, globs) in one check.
pub const MAX_ENTRIES_PER_CHECK: usize = 100_000;
/// Most entries over all checks of a policy.
pub const MAX_ENTRIES_TOTAL: usize = 1_000_000;
/// Longest entry (pattern, word, glob), in bytes.
pub const MAX_ENTRY_BYTES: usize = 4_096;
/// Longest `replacement`, in bytes.
pub const MAX_REPLACEMENT_BYTES: usize = 4_096;
/// Longest `message`, `suggestion` or `name`, in bytes.
pub const MAX_TEXT_BYTES: usize = 4_096;
/// Longest `llm_judge` prompt, in bytes.
pub const MAX_PROMPT_BYTES: usize = 16_384;
/// Longest CEL expression (`expr`, `when`), in bytes.
pub const MAX_EXPR_BYTES: usize = 4_096;
/// Largest `schema` of a `schema` check, in bytes of compact JSON.
pub const MAX_SCHEMA_BYTES: usize = 256 * 1024;
/// Longest check id, in bytes.
pub const MAX_ID_BYTES: usize = 128;
/// Largest compiled form of one regex pattern, in bytes.
pub const MAX_REGEX_BYTES: usize = 2 * 1024 * 1024;
/// Largest policy document, in bytes.
pub const MAX_POLICY_BYTES: usize = 64 * 1024 * 1024;
