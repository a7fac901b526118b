//! The OSU micro-benchmarks collective parser (`osu_allreduce`,
//! `osu_allgather`, `osu_reduce_scatter`, `osu_bcast`, `osu_alltoall`,
//! `osu_reduce`): a title `# OSU MPI Allreduce Latency Test v7.1`, a header
//! `# Size  Avg Latency(us)` optionally followed by `Min Latency(us)`,
//! `Max Latency(us)` and `Iterations` (the `-f` option), then one row per
//! message size in bytes. OSU prints no bandwidths.

use super::detect::{is_osu_header, Line};
use super::generic::time_scale;
use super::{
    printed, push_msg, rows_full, BenchCollective, Format, ImportOptions, LineMessage, Log,
    Printed, Row, Series,
};
use super::{row_size, RowSize};

/// Splits an OSU header on runs of two or more spaces (column names contain
/// single spaces: "Avg Latency(us)").
fn header_cells(h: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in h.split("  ") {
        let p = part.trim();
        if !p.is_empty() {
            out.push(p.to_string());
        }
    }
    out
}

/// Parses cleaned lines of one OSU log.
pub fn parse(lines: &[Line], opts: &ImportOptions) -> (Option<Log>, Vec<LineMessage>) {
    let mut msgs = Vec::new();
    let Some(h) = lines.iter().position(|(_, l)| is_osu_header(l)) else {
        return (None, msgs);
    };
    let header = lines[h]
        .1
        .trim_start()
        .trim_start_matches('#')
        .replace('\t', "  ");
    let names = header_cells(&header);
    let find = |w: &str| {
        names
            .iter()
            .position(|n| n.to_ascii_lowercase().starts_with(w))
    };
    let avg_i = find("avg").unwrap_or(1);
    let min_i = find("min");
    let max_i = find("max");
    let it_i = find("iter");
    let unit = names.get(avg_i).and_then(|n| {
        n.split_once('(')
            .map(|(_, u)| u.trim_end_matches(')').to_string())
    });
    let time_mul = unit.as_deref().and_then(time_scale).unwrap_or(1e-6);
    let title = lines
        .iter()
        .find(|(_, l)| l.contains("OSU"))
        .map(|(_, l)| l.trim_start().trim_start_matches('#').trim().to_string())
        .unwrap_or_default();
    let from_title = title
        .split_whitespace()
        .filter_map(BenchCollective::from_name)
        .next();
    let (collective, collective_note) = match (from_title, opts.collective) {
        (Some(c), _) => (
            c,
            format!("{} (from the title “OSU … {}”)", c.label(), c.label()),
        ),
        (None, Some(c)) => (c, format!("{} (chosen by you)", c.label())),
        (None, None) => (
            BenchCollective::AllReduce,
            "all-reduce (assumed: no OSU title line)".into(),
        ),
    };
    let mut rows = Vec::new();
    for (n, l) in lines.iter().skip(h + 1) {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if rows_full(rows.len(), &mut msgs, *n) {
            break;
        }
        let toks: Vec<&str> = t.split_whitespace().collect();
        let get = |i: usize, m: f64| toks.get(i).and_then(|s| printed(s, m));
        let zero = "size 0 B: nothing to time; row skipped";
        let size = match row_size(get(0, 1.0), &mut msgs, *n, zero) {
            RowSize::Positive(s) => Printed { half_ulp: 0.0, ..s },
            RowSize::Skipped => continue,
            RowSize::Unread => {
                push_msg(
                    &mut msgs,
                    *n,
                    "not a table row (expected a size in bytes first); skipped",
                );
                continue;
            }
        };
        let time = match get(avg_i, time_mul) {
            Some(t) if t.value > 0.0 => t,
            Some(_) => {
                push_msg(
                    &mut msgs,
                    *n,
                    "average latency is not positive; row skipped",
                );
                continue;
            }
            None if toks.len() <= avg_i => {
                push_msg(
                    &mut msgs,
                    *n,
                    "truncated line: no average latency; row skipped",
                );
                continue;
            }
            None => {
                push_msg(
                    &mut msgs,
                    *n,
                    "average latency is not a number; row skipped",
                );
                continue;
            }
        };
        if toks.len() < names.len() {
            push_msg(
                &mut msgs,
                *n,
                format!("line ends early: {} of {} columns", toks.len(), names.len()),
            );
        }
        rows.push(Row {
            line: *n,
            size,
            time,
            algbw: None,
            busbw: None,
            bw_unknown: None,
            wrong: None,
            min_time: min_i.and_then(|i| get(i, time_mul)).map(|p| p.value),
            max_time: max_i.and_then(|i| get(i, time_mul)).map(|p| p.value),
            iterations: it_i.and_then(|i| toks.get(i)).and_then(|s| s.parse().ok()),
        });
    }
    let mut notes = vec![format!(
        "units from OSU: size in bytes (per-rank message), latency in {}",
        unit.as_deref().unwrap_or("µs (assumed)")
    )];
    if min_i.is_some() || max_i.is_some() {
        notes.push("min/max latency columns read (OSU -f)".into());
    }
    let series = Series {
        label: "avg latency".into(),
        rows,
    };
    let collective = (collective, collective_note);
    let log = Log::one_table(Format::Osu, collective, series, lines, title, notes);
    (Some(log), msgs)
}
