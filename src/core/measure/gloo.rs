//! The gloo benchmark parser (pytorch/gloo, gloo/benchmark): a header block
//! `Device: …`, `Algorithm: allreduce_ring_chunked`, `Options:
//! processes=2, inputs=1, threads=1`, then the columns
//! `elements  min (us)  p50 (us)  p99 (us)  max (us)  [avg (GB/s)]  samples`
//! (newer versions also print `size (B)` first).
//!
//! The time of one operation is taken as the median (`p50`). Without a
//! `size (B)` column the size is `elements × 4 B` (the benchmark's
//! elements are `float`). The `avg (GB/s)` column is size / mean time, and
//! the mean is not printed, so it is not checked.

use super::columns::{read_rows, Columns};
use super::detect::Line;
use super::generic::time_scale;
use super::{
    BenchCollective, Format, ImportOptions, LineMessage, Log, RankCount, RankSource, Series,
};

/// Bytes per element of gloo's benchmark (`float`).
pub const ELEMENT_BYTES: f64 = 4.0;

/// The header's cells (split on runs of two or more spaces), lower case.
fn cells(h: &str) -> Vec<String> {
    super::osu::header_cells(&h.to_ascii_lowercase())
}

/// True when `line` is gloo's benchmark column header.
pub fn is_gloo_header(line: &str) -> bool {
    let c = cells(line.trim());
    c.first()
        .is_some_and(|f| f == "elements" || f.starts_with("size"))
        && c.iter().any(|x| x == "elements")
        && c.iter().any(|x| x.starts_with("p50"))
}

/// The collective named by `Algorithm: allreduce_ring_chunked`.
fn algorithm_collective(alg: &str) -> Option<BenchCollective> {
    let parts: Vec<&str> = alg.split('_').collect();
    (1..=parts.len().min(2))
        .rev()
        .find_map(|k| BenchCollective::from_name(&parts[..k].concat()))
}

/// Parses cleaned lines of one gloo benchmark log.
pub fn parse(lines: &[Line], opts: &ImportOptions) -> (Option<Log>, Vec<LineMessage>) {
    let Some(h) = lines.iter().position(|(_, l)| is_gloo_header(l)) else {
        return (None, Vec::new());
    };
    let names = cells(lines[h].1.trim());
    let find = |w: &str| names.iter().position(|n| n.starts_with(w));
    let el_i = find("elements").unwrap_or(0);
    let size_i = find("size");
    let p50_i = find("p50").unwrap_or(2);
    let (min_i, max_i, samples_i) = (find("min"), find("max"), find("samples"));
    let unit = names[p50_i]
        .split_once('(')
        .map(|(_, u)| u.trim_end_matches(')').to_string());
    let time_mul = unit.as_deref().and_then(time_scale).unwrap_or(1e-6);
    let mut alg = None;
    let mut stated_p = None;
    for (n, l) in &lines[..h] {
        let t = l.trim();
        if let Some(a) = t.strip_prefix("Algorithm:") {
            alg = Some((a.trim().to_string(), *n));
        }
        if let Some(o) = t.strip_prefix("Options:") {
            let procs = o
                .split(',')
                .find_map(|kv| kv.trim().strip_prefix("processes="))
                .and_then(|v| v.trim().parse::<usize>().ok());
            if let Some(p) = procs.filter(|&p| p >= 1) {
                stated_p = Some(RankCount {
                    p,
                    source: RankSource::NRanks { line: *n },
                    note: format!("p = {p} from “processes={p}” on line {n}"),
                });
            }
        }
    }
    let from_alg = alg
        .as_ref()
        .and_then(|(a, n)| algorithm_collective(a).map(|c| (c, a.clone(), *n)));
    let (collective, collective_note) = match (opts.collective, from_alg) {
        (Some(c), _) => (c, format!("{} (chosen by you)", c.label())),
        (None, Some((c, a, n))) => (
            c,
            format!("{} (from “Algorithm: {a}” on line {n})", c.label()),
        ),
        (None, None) => (
            BenchCollective::AllReduce,
            "all-reduce (assumed: no “Algorithm:” line; choose another if needed)".into(),
        ),
    };
    let cols = Columns {
        size: size_i.map_or((el_i, ELEMENT_BYTES), |i| (i, 1.0)),
        time: (p50_i, time_mul),
        min: min_i,
        max: max_i,
        iterations: samples_i,
        width: names.len(),
        skip_words: false,
        what: "p50 time",
    };
    let (rows, msgs) = read_rows(lines, h, &cols);
    let mut notes = vec![format!(
        "units from gloo's benchmark: {}, time = the median (p50) in {}",
        if size_i.is_some() {
            "size in bytes"
        } else {
            "size = elements × 4 B (float)"
        },
        unit.as_deref().unwrap_or("µs (assumed)")
    )];
    if find("avg").is_some() {
        notes.push(
            "the avg (GB/s) column is size / mean time and the mean is not printed: not checked"
                .into(),
        );
    }
    let series = Series {
        label: "p50 time".into(),
        rows,
    };
    let mut log = Log::one_table(
        Format::Gloo,
        (collective, collective_note),
        series,
        lines,
        String::new(),
        notes,
    );
    if stated_p.is_some() {
        log.stated_p = stated_p;
    }
    (Some(log), msgs)
}
