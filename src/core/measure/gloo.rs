//! gloo's benchmark output (pytorch/gloo, gloo/benchmark): `Algorithm:
//! allreduce_ring_chunked`, `Options: processes=2, …`, then the columns
//! `elements  min (us)  p50 (us)  p99 (us)  max (us)  [avg (GB/s)]  samples`
//! (newer versions print `size (B)` first). The page recognises this table
//! and names it in the rejection; it does not read it (see [`super::ucc`]).

/// True when `line` is gloo's benchmark column header.
pub fn is_gloo_header(line: &str) -> bool {
    let c = super::osu::header_cells(&line.trim().to_ascii_lowercase());
    c.first()
        .is_some_and(|f| f == "elements" || f.starts_with("size"))
        && c.iter().any(|x| x == "elements")
        && c.iter().any(|x| x.starts_with("p50"))
}
