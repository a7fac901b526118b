//! The OSU micro-benchmarks collective parser (`osu_allreduce`,
//! `osu_allgather`, `osu_reduce_scatter`, `osu_bcast`, `osu_alltoall`,
//! `osu_reduce`): a title `# OSU MPI Allreduce Latency Test v7.1`, a header
//! `# Size  Avg Latency(us)` optionally followed by `Min Latency(us)`,
//! `Max Latency(us)` and `Iterations` (the `-f` option), then one row per
//! message size in bytes. OSU prints no bandwidths.

use super::columns::{read_rows, Columns};
use super::generic::time_scale;
use super::log::Line;
use super::{CollectiveKind, Format, ImportOptions, LineMessage, Log, Series};

/// True when `line` is an OSU column header (`# Size  Avg Latency(us)`).
pub fn is_osu_header(line: &str) -> bool {
    let l = line.trim_start();
    let Some(rest) = l.strip_prefix('#') else {
        return false;
    };
    let r = rest.trim_start().to_ascii_lowercase();
    r.starts_with("size") && r.contains("latency")
}

/// Splits an OSU header on runs of two or more spaces (column names contain
/// single spaces: "Avg Latency(us)").
pub(crate) fn header_cells(h: &str) -> Vec<String> {
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
    let Some(h) = lines.iter().position(|(_, l)| is_osu_header(l)) else {
        return (None, Vec::new());
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
    // The title is the comment line that starts with "OSU" (OSU's own
    // "# OSU MPI Allreduce Latency Test v7.3", the runner's "# OSU-format
    // …"); failing that, the first other line that names OSU, but not a
    // "source:" line. A runner log's second comment line mentions "(OSU's)"
    // in passing and is not the title.
    fn bare(l: &str) -> &str {
        l.trim_start_matches(['#', ' '])
    }
    let title = lines
        .iter()
        .find(|(_, l)| bare(l).starts_with("OSU"))
        .or_else(|| {
            lines.iter().find(|(_, l)| {
                l.contains("OSU") && !bare(l).to_ascii_lowercase().starts_with("source:")
            })
        })
        .map(|(_, l)| bare(l).trim().to_string())
        .unwrap_or_default();
    let from_title = title
        .split_whitespace()
        .filter_map(CollectiveKind::from_name)
        .next();
    let (collective, collective_note) = match (from_title, opts.collective) {
        (Some(c), _) => (
            c,
            format!("{} (from the title “OSU … {}”)", c.label(), c.label()),
        ),
        (None, Some(c)) => (c, format!("{} (chosen by you)", c.label())),
        (None, None) => (
            CollectiveKind::AllReduce,
            "all-reduce (assumed: no OSU title line)".into(),
        ),
    };
    let cols = Columns {
        size: (0, 1.0),
        time: (avg_i, time_mul),
        min: min_i,
        max: max_i,
        iterations: it_i,
        width: names.len(),
        skip_words: false,
        what: "average latency",
    };
    let (rows, msgs) = read_rows(lines, h, &cols);
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
