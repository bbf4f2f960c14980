//! State shared by the replicas of a service: the flow sessions a
//! [`Guard`](crate::Guard) reads before it decides a request and writes
//! after, so that a session's steps seen by one replica count on every
//! other.
//!
//! The service implements [`SharedState`] on Redis (`state.redis`); an
//! embedder that runs several processes supplies its own store with
//! [`Guard::with_shared_state`](crate::Guard::with_shared_state).
//!
//! ```
//! use std::collections::HashMap;
//! use std::sync::{Arc, Mutex};
//!
//! use palisade_checks::shared::{SharedState, StateError};
//!
//! /// Sessions in this process's memory, versioned as a store must be.
//! #[derive(Debug, Default)]
//! struct Memory(Mutex<HashMap<(String, String), (u64, String)>>);
//!
//! #[async_trait::async_trait]
//! impl SharedState for Memory {
//!     async fn session_get(&self, tenant: &str, id: &str)
//!         -> Result<(u64, Option<String>), StateError> {
//!         let map = self.0.lock().map_err(|e| StateError(e.to_string()))?;
//!         Ok(match map.get(&(tenant.to_owned(), id.to_owned())) {
//!             Some((v, s)) => (*v, Some(s.clone())),
//!             None => (0, None),
//!         })
//!     }
//!     async fn session_put(&self, tenant: &str, id: &str, version: u64, state: &str, _ttl_ms: u64)
//!         -> Result<Option<u64>, StateError> {
//!         let mut map = self.0.lock().map_err(|e| StateError(e.to_string()))?;
//!         let slot = map.entry((tenant.to_owned(), id.to_owned())).or_insert((0, String::new()));
//!         if slot.0 != version {
//!             return Ok(None); // another writer was first: read again
//!         }
//!         *slot = (version + 1, state.to_owned());
//!         Ok(Some(version + 1))
//!     }
//! }
//! let _state: Arc<dyn SharedState> = Arc::new(Memory::default());
//! ```

use std::fmt;

/// A failure of the shared state: unreachable, too slow, or an answer that
/// cannot be read. Its text says which.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("shared state unavailable: {0}")]
pub struct StateError(pub String);

/// What a guard does with a request whose session the shared state cannot
/// read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum OnStateError {
    /// Decide on this process's copy of the session, with a
    /// `state.unavailable` warning saying what was not read.
    Allow,
    /// Refuse the request (`state.unavailable`): its flow checks cannot
    /// judge it without the session's earlier steps (the default).
    #[default]
    Block,
}

/// A store of flow sessions shared by several processes, versioned so
/// that two writers of one session never lose each other's steps.
#[async_trait::async_trait]
pub trait SharedState: Send + Sync + fmt::Debug {
    /// A session's state as [`palisade_engine::Sessions::export`] wrote
    /// it, with its version: `(0, None)` for a session the store does not
    /// hold.
    async fn session_get(
        &self,
        tenant: &str,
        id: &str,
    ) -> Result<(u64, Option<String>), StateError>;

    /// Writes a session's state if the store still holds it at `version`:
    /// the new version, or `None` when another writer was first (the guard
    /// then reads it again and adds its step). The session expires
    /// `ttl_ms` after its last write.
    async fn session_put(
        &self,
        tenant: &str,
        id: &str,
        version: u64,
        state: &str,
        ttl_ms: u64,
    ) -> Result<Option<u64>, StateError>;
}
