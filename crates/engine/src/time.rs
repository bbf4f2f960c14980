//! Time: the clock evaluation reads, and the sliding windows rate limits
//! count in.

pub(crate) mod clock;
pub(crate) mod window;

pub use clock::{Clock, SystemClock};
