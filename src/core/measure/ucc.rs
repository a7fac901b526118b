//! The UCC perftest parser (`ucc_perftest`, openucx/ucc tools/perftest): a
//! header block of `Key: value` lines (`Collective: Allreduce`,
//! `Memory type: …`), the column header `Count  Size  Time, us` with an
//! optional `Bandwidth, GB/s` block (the `-F` option), a second header line
//! `avg min max [avg min max]`, then one row per size:
//! `count size t_avg t_min t_max [bw_avg bw_min bw_max]`.
//!
//! Size is in bytes (count × datatype size), times in µs. UCC's bandwidth
//! columns follow UCC's own definition per collective (for all-to-all,
//! size · (p−1) / time, not nccl-tests' busbw), so they are read as a note
//! and not checked.

use super::columns::{read_rows, Columns};
use super::detect::Line;
use super::{BenchCollective, Format, ImportOptions, LineMessage, Log, Series};

/// 1 µs in seconds.
const US: f64 = 1e-6;

/// True when `line` is UCC perftest's column header (`Count  Size  Time, us`).
pub fn is_ucc_header(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("Count") && t.contains("Size") && t.contains("Time, us")
}

/// Parses cleaned lines of one UCC perftest log.
pub fn parse(lines: &[Line], opts: &ImportOptions) -> (Option<Log>, Vec<LineMessage>) {
    let Some(h) = lines.iter().position(|(_, l)| is_ucc_header(l)) else {
        return (None, Vec::new());
    };
    let has_bw = lines[h].1.contains("Bandwidth");
    let mut from_log = None;
    for (n, l) in &lines[..h] {
        if let Some(v) = l.trim().strip_prefix("Collective:") {
            from_log = BenchCollective::from_name(v.trim()).map(|c| (c, *n, v.trim().to_string()));
        }
    }
    let (collective, collective_note) = match (from_log, opts.collective) {
        (_, Some(c)) => (c, format!("{} (chosen by you)", c.label())),
        (Some((c, n, v)), None) => (
            c,
            format!("{} (from “Collective: {v}” on line {n})", c.label()),
        ),
        (None, None) => (
            BenchCollective::AllReduce,
            "all-reduce (assumed: no “Collective:” line; choose another if needed)".into(),
        ),
    };
    let cols = Columns {
        size: (1, 1.0),
        time: (2, US),
        min: Some(3),
        max: Some(4),
        iterations: None,
        width: if has_bw { 8 } else { 5 },
        skip_words: true,
        what: "average time",
    };
    let (rows, msgs) = read_rows(lines, h, &cols);
    let mut notes = vec![
        "units from UCC perftest: size in bytes (count × datatype size), time in µs (avg, min, max over ranks)".to_string(),
    ];
    if has_bw {
        notes.push("the Bandwidth, GB/s columns use UCC's own definition per collective, not nccl-tests' algbw/busbw: not checked".into());
    }
    let series = Series {
        label: "avg time".into(),
        rows,
    };
    let log = Log::one_table(
        Format::Ucc,
        (collective, collective_note),
        series,
        lines,
        String::new(),
        notes,
    );
    (Some(log), msgs)
}
