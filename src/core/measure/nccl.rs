//! The nccl-tests table parser (`all_reduce_perf`, `all_gather_perf`,
//! `reduce_scatter_perf`, `broadcast_perf`, `reduce_perf`, `alltoall_perf`).
//!
//! Layout (NVIDIA nccl-tests, src/common.cu): a `#` header with `nThread`,
//! `nGpus`, one `# Rank k …` line per rank, the column header
//! `size count type [redop] [root] time algbw busbw #wrong time algbw busbw
//! #wrong` (older versions print `error` for `#wrong`), a units line
//! `(B) (elements) (us) (GB/s) (GB/s)`, one row per size with an out-of-place
//! and an in-place group, and the trailer `# Avg bus bandwidth : x` (GB/s,
//! the mean busbw of every printed value).

use super::detect::{is_nccl_header, stated_ranks};
use super::log::Line;
use super::{
    printed, push_msg, rows_full, CollectiveKind, Format, ImportOptions, LineMessage, Log, Printed,
    RankCount, RankSource, Row, Series,
};
use crate::core::units::decimal;

/// 1 GB/s in bytes per second (nccl-tests uses decimal GB).
const GBPS: f64 = 1e9;
/// 1 µs in seconds.
const US: f64 = 1e-6;

#[derive(Clone, Copy, Debug)]
struct Group {
    time: usize,
    algbw: Option<usize>,
    busbw: Option<usize>,
    wrong: Option<usize>,
    wrong_is_count: bool,
}

/// Parses cleaned lines of one nccl-tests log.
///
/// Returns the log (if a column header was found) and line messages for
/// rows that could not be read (wrong column count, a non-number, a negative
/// or zero time, a zero size, a truncated last line).
// A table parser that reads its cases top to bottom, line by line; it
// predates the `too_many_lines` limit of clippy.toml and is the measure
// view's to split.
#[allow(clippy::too_many_lines)]
pub fn parse(lines: &[Line], opts: &ImportOptions) -> (Option<Log>, Vec<LineMessage>) {
    let mut msgs = Vec::new();
    let Some(hpos) = lines.iter().position(|(_, l)| is_nccl_header(l)) else {
        return (None, msgs);
    };
    let header_line = &lines[hpos].1;
    let cols: Vec<String> = header_line
        .trim_start()
        .trim_start_matches('#')
        .split_whitespace()
        .map(|s| s.to_ascii_lowercase())
        .collect();
    let size_col = cols.iter().position(|c| c == "size").unwrap_or(0);
    let has_redop = cols.iter().any(|c| c == "redop");
    let redop_col = cols.iter().position(|c| c == "redop");
    let root_col = cols.iter().position(|c| c == "root");
    let mut groups: Vec<Group> = Vec::new();
    for (i, c) in cols.iter().enumerate() {
        match c.as_str() {
            "time" => groups.push(Group {
                time: i,
                algbw: None,
                busbw: None,
                wrong: None,
                wrong_is_count: false,
            }),
            "algbw" => {
                if let Some(g) = groups.last_mut() {
                    g.algbw = Some(i);
                }
            }
            "busbw" => {
                if let Some(g) = groups.last_mut() {
                    g.busbw = Some(i);
                }
            }
            "#wrong" | "wrong" | "error" | "#error" => {
                if let Some(g) = groups.last_mut() {
                    g.wrong = Some(i);
                    g.wrong_is_count = c.contains("wrong");
                }
            }
            _ => {}
        }
    }
    // Group labels from the line above the header ("out-of-place  in-place").
    let mut labels: Vec<String> = vec!["out-of-place".into(), "in-place".into()];
    if let Some((_, above)) = hpos.checked_sub(1).and_then(|i| lines.get(i)) {
        let found: Vec<String> = above
            .trim_start_matches('#')
            .split_whitespace()
            .map(str::to_string)
            .collect();
        if found.len() == groups.len() && !found.is_empty() {
            labels = found;
        }
    }
    let mut series: Vec<Series> = groups
        .iter()
        .enumerate()
        .map(|(i, _)| Series {
            label: labels
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("group {}", i + 1)),
            rows: Vec::new(),
        })
        .collect();

    // Header fields.
    let mut n_thread = 1usize;
    let mut n_gpus = 1usize;
    let mut max_rank: Option<(usize, usize)> = None;
    let mut avg_busbw = None;
    let mut title = String::new();
    let mut tool: Option<(CollectiveKind, String)> = None;
    let mut step_note = None;
    for (n, l) in lines {
        let t = l.trim_start();
        if t.starts_with(|c: char| c.is_ascii_digit()) {
            continue; // a data row: no header fields
        }
        let toks: Vec<&str> = t.trim_start_matches('#').split_whitespace().collect();
        if title.is_empty() && is_title(t) {
            title = t.trim_start_matches('#').trim().to_string();
        }
        for w in toks.windows(2) {
            match w {
                ["nThread", v] => n_thread = v.parse().unwrap_or(1).max(1),
                ["nGpus", v] => n_gpus = v.parse().unwrap_or(1).max(1),
                ["Rank", v] if t.starts_with('#') => {
                    if let Ok(k) = v.parse::<usize>() {
                        if max_rank.is_none_or(|(m, _)| k >= m) {
                            max_rank = Some((k, *n));
                        }
                    }
                }
                ["step:", v] => step_note = Some(step_text(v)),
                _ => {}
            }
        }
        let source_line = t
            .trim_start_matches('#')
            .trim_start()
            .to_ascii_lowercase()
            .starts_with("source:");
        if tool.is_none() && !source_line {
            for w in t.split(|c: char| c.is_whitespace() || c == '/') {
                if let Some(name) = w
                    .strip_suffix("_perf")
                    .or_else(|| w.strip_suffix("_perf_mpi"))
                {
                    if let Some(c) = CollectiveKind::from_name(name) {
                        tool = Some((c, format!("{name}_perf on line {n}")));
                    }
                }
            }
        }
        if t.starts_with('#') && t.to_ascii_lowercase().contains("avg bus bandwidth") {
            let num = t.rsplit(':').next().unwrap_or("").trim();
            match printed(num, GBPS) {
                Some(v) => avg_busbw = Some((v, *n)),
                None => push_msg(
                    &mut msgs,
                    *n,
                    format!("cannot read the average bus bandwidth “{num}”"),
                ),
            }
        }
    }

    // Data rows.
    let ncols = cols.len();
    let mut redops: Vec<String> = Vec::new();
    let mut roots: Vec<i64> = Vec::new();
    let last_line = lines.last().map(|(n, _)| *n).unwrap_or(0);
    let mut kept = 0usize;
    let group_names: Vec<String> = series.iter().map(|s| s.label.clone()).collect();
    for (n, l) in lines.iter().skip(hpos + 1) {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let toks: Vec<&str> = t.split_whitespace().collect();
        let first_is_int = toks
            .first()
            .is_some_and(|s| s.bytes().all(|b| b.is_ascii_digit()));
        if !first_is_int {
            if toks.first().is_some_and(|s| s.starts_with('-')) {
                push_msg(&mut msgs, *n, "negative size; row skipped");
            } else if t.len() > 200 || toks.len() < 3 {
                push_msg(
                    &mut msgs,
                    *n,
                    "not a table row (expected a size in bytes first); skipped",
                );
            } else {
                push_msg(
                    &mut msgs,
                    *n,
                    format!("not a table row (starts with “{}”); skipped", clip(toks[0])),
                );
            }
            continue;
        }
        if rows_full(kept, &mut msgs, *n) {
            break;
        }
        let truncated = toks.len() < ncols;
        if toks.len() > ncols {
            push_msg(
                &mut msgs,
                *n,
                format!(
                    "{} columns where the header has {ncols}; extra columns ignored",
                    toks.len()
                ),
            );
        }
        let size = match toks.get(size_col).and_then(|s| printed(s, 1.0)) {
            Some(s) if s.value > 0.0 => Printed { half_ulp: 0.0, ..s },
            Some(_) => {
                push_msg(&mut msgs, *n, "size 0 B: nothing to time; row skipped");
                continue;
            }
            None => {
                push_msg(&mut msgs, *n, "cannot read the size; row skipped");
                continue;
            }
        };
        if let Some(r) = redop_col.and_then(|i| toks.get(i)) {
            redops.push(r.to_string());
        }
        if let Some(r) = root_col
            .and_then(|i| toks.get(i))
            .and_then(|r| r.parse().ok())
        {
            roots.push(r);
        }
        let mut any = false;
        for (gi, g) in groups.iter().enumerate() {
            let name = group_names.get(gi).map(String::as_str).unwrap_or("");
            let needed = [Some(g.time), g.algbw, g.busbw, g.wrong]
                .into_iter()
                .flatten()
                .max()
                .unwrap_or(0);
            if needed >= toks.len() {
                let why = if *n == last_line {
                    "truncated last line"
                } else {
                    "line ends early"
                };
                push_msg(
                    &mut msgs,
                    *n,
                    format!(
                        "{why}: {} of {ncols} columns; {name} values missing",
                        toks.len()
                    ),
                );
                continue;
            }
            let time_tok = toks.get(g.time).copied().unwrap_or("");
            let time = match printed(time_tok, US) {
                Some(t) if t.value > 0.0 => t,
                Some(_) => {
                    push_msg(
                        &mut msgs,
                        *n,
                        format!("{name} time {} µs is not positive; skipped", clip(time_tok)),
                    );
                    continue;
                }
                None => {
                    push_msg(
                        &mut msgs,
                        *n,
                        format!("{name} time “{}” is not a number; skipped", clip(time_tok)),
                    );
                    continue;
                }
            };
            let bw = |i: Option<usize>| i.and_then(|i| toks.get(i)).and_then(|s| printed(s, GBPS));
            let algbw = bw(g.algbw);
            let busbw = bw(g.busbw);
            for (what, i, v) in [("algbw", g.algbw, algbw), ("busbw", g.busbw, busbw)] {
                if let (Some(i), None) = (i, v) {
                    let tok = toks.get(i).copied().unwrap_or("");
                    push_msg(
                        &mut msgs,
                        *n,
                        format!("{name} {what} “{}” is not a number; not checked", clip(tok)),
                    );
                }
            }
            let wrong = if g.wrong_is_count {
                g.wrong
                    .and_then(|i| toks.get(i))
                    .and_then(|s| crate::core::units::decimal::parse(s))
                    .filter(|v| v.is_finite())
            } else {
                None
            };
            if let Some(s) = series.get_mut(gi) {
                s.rows.push(Row {
                    line: *n,
                    size,
                    time,
                    algbw,
                    busbw,
                    bw_unknown: None,
                    wrong,
                    min_time: None,
                    max_time: None,
                    iterations: None,
                });
                any = true;
            }
        }
        if any {
            kept += 1;
        } else if !truncated {
            push_msg(&mut msgs, *n, "no readable time in this row; skipped");
        }
    }

    // The collective.
    let (collective, collective_note) = if let Some((c, how)) = tool {
        (c, format!("{} (from {how})", c.label()))
    } else if let Some(c) = opts.collective {
        (c, format!("{} (chosen by you)", c.label()))
    } else {
        infer_collective(&series, has_redop, &redops, &roots)
    };

    // The rank count.
    let per_process = n_thread.saturating_mul(n_gpus);
    let (mut stated, comment_p) = stated_ranks(lines, per_process);
    if let Some((k, line)) = max_rank {
        let p = k + 1;
        stated = Some(RankCount {
            p,
            source: RankSource::RankLines { line },
            note: format!("p = {p} from the rank lines (highest: Rank {k} on line {line})"),
        });
    }

    let mut notes = Vec::new();
    notes.push(
        "units from nccl-tests: size in bytes, time in µs, algbw and busbw in GB/s (10⁹ B/s)"
            .to_string(),
    );
    if let Some(s) = step_note {
        notes.push(s);
    }
    if let Some(first) = series.first() {
        if let Some(step) = linear_step(&first.rows) {
            notes.push(format!(
                "sizes step linearly by {step} B (nccl-tests run without -f): not powers of two"
            ));
        }
    }
    if n_thread.saturating_mul(n_gpus) > 1 {
        notes.push(format!(
            "nThread {n_thread} × nGpus {n_gpus} GPUs per process"
        ));
    }
    let log = Log {
        format: Format::NcclTests,
        part: String::new(),
        collective,
        collective_note,
        series,
        stated_p: stated,
        comment_p,
        avg_busbw,
        title,
        notes,
        annotation: None,
    };
    (Some(log), msgs)
}

/// True for a `#` line that names the test: nccl-tests' `# Collective test
/// starting: all_reduce_perf`, `# nccl-tests version …`, or a comment naming
/// a `*_perf` binary. Parameter lines (`# nThread …`), rank lines, column
/// headers and a `# source:` line are not titles.
fn is_title(t: &str) -> bool {
    let Some(body) = t.strip_prefix('#').map(str::trim) else {
        return false;
    };
    if body.is_empty() || body.to_ascii_lowercase().starts_with("source:") || is_nccl_header(t) {
        return false;
    }
    if body.starts_with("Collective test concluded") {
        return false;
    }
    body.starts_with("Collective test starting")
        || body.contains("nccl-tests version")
        || body
            .split(|c: char| c.is_whitespace() || c == '/' || c == ',' || c == ':')
            .any(|w| w.ends_with("_perf") || w.ends_with("_perf_mpi"))
}

/// The column header nccl-tests would have printed above `row`, when the
/// row's tokens fit its layout: `size count type [redop] [root]` and one or
/// two groups of `time algbw busbw #wrong` (older versions: `error`, a
/// float such as `2e-07`). `None` when they do not fit.
fn header_for_row(row: &str) -> Option<String> {
    let t: Vec<&str> = row.split_whitespace().collect();
    let int = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let word = |s: &str| s.starts_with(|c: char| c.is_ascii_alphabetic());
    if t.len() < 7 || !int(t[0]) || !int(t[1]) || !word(t[2]) {
        return None;
    }
    let mut head = String::from("# size count type");
    let mut i = 3;
    if word(t[3]) {
        head += " redop";
        i = 4;
        if matches!(t.len() - i, 5 | 9) {
            t[i].parse::<i64>().ok()?;
            head += " root";
            i += 1;
        }
    }
    let rest = &t[i..];
    if rest.len() != 4 && rest.len() != 8 {
        return None;
    }
    for g in rest.chunks(4) {
        for v in &g[..3] {
            printed(v, 1.0)?;
        }
        let w = g[3];
        let wrong = if int(w) || w == "N/A" {
            "#wrong"
        } else if printed(w, 1.0).is_some() {
            "error"
        } else {
            return None;
        };
        head += &format!(" time algbw busbw {wrong}");
    }
    Some(head)
}

/// Rows pasted without nccl-tests' column header: when the first line that
/// starts with a number fits nccl-tests' layout (see `header_for_row`) and
/// so does at least half of the lines that start with a number, returns the
/// lines with that header inserted above the first row (numbered as that
/// row), ready for [`parse`]. `None` otherwise.
pub fn headerless(lines: &[Line]) -> Option<Vec<Line>> {
    let numeric: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            lines[i]
                .1
                .trim_start()
                .starts_with(|c: char| c.is_ascii_digit())
        })
        .collect();
    let &first = numeric.first()?;
    let head = header_for_row(&lines[first].1)?;
    let fits = numeric
        .iter()
        .filter(|&&i| header_for_row(&lines[i].1).as_deref() == Some(head.as_str()))
        .count();
    if fits * 2 < numeric.len() {
        return None;
    }
    let mut out = lines.to_vec();
    out.insert(first, (lines[first].0, head));
    Some(out)
}

/// The note for rows read by [`headerless`].
pub const HEADERLESS_NOTE: &str = "no column header: the rows fit nccl-tests' layout (size count type redop [root] time algbw busbw #wrong, twice) and were read as nccl-tests rows";

fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(24).collect();
    if s.chars().count() > 24 {
        out.push('…');
    }
    out
}

/// The common step when sizes grow by a constant difference (≥ 3 rows).
pub fn linear_step(rows: &[Row]) -> Option<u64> {
    if rows.len() < 3 {
        return None;
    }
    let d: Vec<f64> = rows
        .windows(2)
        .map(|w| w[1].size.value - w[0].size.value)
        .collect();
    let first = *d.first()?;
    (first > 0.0 && d.iter().all(|&x| x == first)).then_some(first as u64)
}

/// Guesses the collective from the numbers when no tool name is in the log:
/// busbw/algbw > 1 is all-reduce, < 1 all-gather or reduce-scatter (by
/// `redop`), = 1 broadcast or reduce. All-gather and all-to-all share the
/// factor (p−1)/p and print the same `count` (one rank's block, nccl-tests'
/// `AllGatherGetCollByteCount` and `AlltoAllGetCollByteCount`), so a table
/// cannot tell them apart: the note says so and names the menu.
fn infer_collective(
    series: &[Series],
    has_redop: bool,
    redops: &[String],
    roots: &[i64],
) -> (CollectiveKind, String) {
    let mut ratios: Vec<f64> = series
        .iter()
        .flat_map(|s| &s.rows)
        .filter_map(|r| Some(r.busbw?.value / r.algbw?.value))
        .filter(|x| x.is_finite() && *x > 0.0)
        .collect();
    crate::core::order::sort_f64(&mut ratios);
    let med = ratios.get(ratios.len() / 2).copied();
    let reducing = has_redop && redops.iter().any(|r| r != "none" && r != "-");
    let rooted = roots.iter().any(|&r| r >= 0);
    let c = match med {
        Some(m) if m > 1.005 => CollectiveKind::AllReduce,
        Some(m) if m < 0.995 => {
            if reducing {
                CollectiveKind::ReduceScatter
            } else {
                CollectiveKind::AllGather
            }
        }
        Some(_) if reducing => CollectiveKind::Reduce,
        Some(_) => CollectiveKind::Broadcast,
        None => CollectiveKind::AllReduce,
    };
    let why = match med {
        Some(m) => {
            // All-gather's factor is all-to-all's too: name both.
            let (who, choose) = if c == CollectiveKind::AllGather {
                (
                    "all-gather or all-to-all",
                    "the two share the factor (p−1)/p, so it is read as all-gather: choose all-to-all if it came from alltoall_perf",
                )
            } else {
                (c.label(), "choose another if this is wrong")
            };
            format!("{who} (the log does not name the tool; inferred from busbw/algbw ≈ {}{}{}; {choose})", decimal::fixed(m, 3), if reducing { " and a reduction op" } else { "" }, if rooted { " and a root" } else { "" })
        }
        None => format!(
            "{} (assumed: the log names no tool and prints no bandwidths)",
            c.label()
        ),
    };
    (c, why)
}
/// The note for the header's `step:` value: nccl-tests prints
/// `step: 2(factor)` for sizes multiplied by 2 from row to row (its `-f`)
/// and `step: 1048576(bytes)` for sizes that grow by as many bytes (`-i`).
fn step_text(v: &str) -> String {
    if let Some(f) = v.strip_suffix("(factor)") {
        format!(
            "sizes grow by a factor of {f} from row to row (header “step: {v}”, nccl-tests' -f)"
        )
    } else if let Some(b) = v.strip_suffix("(bytes)") {
        format!("sizes grow by {b} B from row to row (header “step: {v}”, nccl-tests' -i)")
    } else {
        format!("header step: {v}")
    }
}
