//! The async runtime's integration tests, one binary: the audit log, the
//! fixtures' MCP and LLM services, the guard; helpers in `util`.

mod util;

#[path = "checks/audit.rs"]
mod audit;
#[path = "checks/fixtures.rs"]
mod fixtures;
#[path = "checks/guard.rs"]
mod guard;
#[path = "checks/shared_state.rs"]
mod shared_state;
