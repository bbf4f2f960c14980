//! The transport's integration tests, one binary: a module per transport
//! and endpoint family, helpers in `util`.

mod util;

#[path = "transport/events.rs"]
mod events;
#[path = "transport/hooks.rs"]
mod hooks;
#[path = "transport/hosted.rs"]
mod hosted;
#[path = "transport/http.rs"]
mod http;
#[path = "transport/jsonrpc.rs"]
mod jsonrpc;
#[path = "transport/mcp.rs"]
mod mcp;
#[path = "transport/openapi.rs"]
mod openapi;
#[path = "transport/repeated_keys.rs"]
mod repeated_keys;
#[path = "transport/requests.rs"]
mod requests;
