//! Engine benchmarks.

fn main() {}
