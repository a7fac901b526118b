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

use super::detect::Line;
use super::{
    printed, push_msg, row_size, rows_full, BenchCollective, Format, ImportOptions, LineMessage,
    Log, Printed, Row, RowSize, Series,
};

/// 1 µs in seconds.
const US: f64 = 1e-6;

/// True when `line` is UCC perftest's column header (`Count  Size  Time, us`).
pub fn is_ucc_header(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("Count") && t.contains("Size") && t.contains("Time, us")
}

/// Parses cleaned lines of one UCC perftest log.
pub fn parse(lines: &[Line], opts: &ImportOptions) -> (Option<Log>, Vec<LineMessage>) {
    let mut msgs = Vec::new();
    let Some(h) = lines.iter().position(|(_, l)| is_ucc_header(l)) else {
        return (None, msgs);
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
    let mut rows = Vec::new();
    for (n, l) in lines.iter().skip(h + 1) {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with("avg") {
            continue;
        }
        if rows_full(rows.len(), &mut msgs, *n) {
            break;
        }
        let toks: Vec<&str> = t.split_whitespace().collect();
        let get = |i: usize, m: f64| toks.get(i).and_then(|s| printed(s, m));
        let zero = "size 0 B: nothing to time; row skipped";
        let size = match row_size(get(1, 1.0), &mut msgs, *n, zero) {
            RowSize::Positive(s) => Printed { half_ulp: 0.0, ..s },
            RowSize::Skipped => continue,
            RowSize::Unread => {
                push_msg(
                    &mut msgs,
                    *n,
                    "not a table row (expected count and size in bytes); skipped",
                );
                continue;
            }
        };
        let Some(time) = get(2, US).filter(|t| t.value > 0.0) else {
            push_msg(
                &mut msgs,
                *n,
                "average time is missing or not positive; row skipped",
            );
            continue;
        };
        rows.push(Row {
            line: *n,
            size,
            time,
            algbw: None,
            busbw: None,
            bw_unknown: None,
            wrong: None,
            min_time: get(3, US).map(|p| p.value),
            max_time: get(4, US).map(|p| p.value),
            iterations: None,
        });
    }
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
