//! UCC perftest output (`ucc_perftest`, openucx/ucc tools/perftest): a
//! header block of `Key: value` lines (`Collective: Allreduce`), the column
//! header `Count  Size  Time, us` (and `Bandwidth, GB/s` with `-F`), a
//! second header line `avg min max`, then `count size t_avg t_min t_max`
//! rows. The page recognises this table and names it in the rejection; it
//! does not read it (a reader through the generic columns cost about 1 KB
//! of the page's gzipped weight: see the commit history).

/// True when `line` is UCC perftest's column header (`Count  Size  Time, us`).
pub fn is_ucc_header(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("Count") && t.contains("Size") && t.contains("Time, us")
}
