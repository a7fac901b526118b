//! Benchmarks (criterion). Filled in per view.
fn main() {}
