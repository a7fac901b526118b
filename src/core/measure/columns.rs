//! The row loop shared by the column parsers that print one row per size
//! with a size, a time and optional min/max times and an iteration count
//! (OSU, UCC perftest, gloo's benchmark).

use super::log::Line;
use super::{printed, push_msg, row_size, rows_full, LineMessage, Printed, Row, RowSize};

/// Where a tool prints its values (token indices of a whitespace-split row).
pub(crate) struct Columns {
    /// Size token and bytes per unit (1 for bytes, 4 for float elements).
    pub size: (usize, f64),
    /// Time token and seconds per unit.
    pub time: (usize, f64),
    /// Min / max time tokens (same unit as the time).
    pub min: Option<usize>,
    /// Max time token.
    pub max: Option<usize>,
    /// Iterations (samples) token.
    pub iterations: Option<usize>,
    /// Number of columns the header names (a shorter row gets a message).
    pub width: usize,
    /// What the time is, for messages ("average latency", "p50 time").
    pub what: &'static str,
    /// Skip lines that start with a letter (UCC's `avg min max` sub-header)
    /// instead of reporting them.
    pub skip_words: bool,
}

/// Reads the rows below `lines[h]` (a header), skipping empty lines, `#`
/// comments and, with `skip_words`, lines that start with a letter (sub-headers
/// such as UCC's `avg min max`). A row without a positive size or time gets
/// a message and is skipped.
pub(crate) fn read_rows(lines: &[Line], h: usize, c: &Columns) -> (Vec<Row>, Vec<LineMessage>) {
    let mut msgs = Vec::new();
    let mut rows = Vec::new();
    for (n, l) in lines.iter().skip(h + 1) {
        let t = l.trim();
        if t.is_empty()
            || t.starts_with('#')
            || (c.skip_words && t.starts_with(|ch: char| ch.is_ascii_alphabetic()))
        {
            continue;
        }
        if rows_full(rows.len(), &mut msgs, *n) {
            break;
        }
        let toks: Vec<&str> = t.split_whitespace().collect();
        let get = |i: usize, m: f64| toks.get(i).and_then(|s| printed(s, m));
        let zero = "size 0 B: nothing to time; row skipped";
        let size = match row_size(get(c.size.0, c.size.1), &mut msgs, *n, zero) {
            RowSize::Positive(s) => Printed { half_ulp: 0.0, ..s },
            RowSize::Skipped => continue,
            RowSize::Unread => {
                push_msg(
                    &mut msgs,
                    *n,
                    "not a table row (expected a size first); skipped",
                );
                continue;
            }
        };
        let what = c.what;
        let time = match get(c.time.0, c.time.1) {
            Some(t) if t.value > 0.0 => t,
            Some(_) => {
                push_msg(
                    &mut msgs,
                    *n,
                    format!("{what} is not positive; row skipped"),
                );
                continue;
            }
            None if toks.len() <= c.time.0 => {
                push_msg(
                    &mut msgs,
                    *n,
                    format!("truncated line: no {what}; row skipped"),
                );
                continue;
            }
            None => {
                push_msg(
                    &mut msgs,
                    *n,
                    format!("{what} is not a number; row skipped"),
                );
                continue;
            }
        };
        if toks.len() < c.width {
            push_msg(
                &mut msgs,
                *n,
                format!("line ends early: {} of {} columns", toks.len(), c.width),
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
            min_time: c.min.and_then(|i| get(i, c.time.1)).map(|p| p.value),
            max_time: c.max.and_then(|i| get(i, c.time.1)).map(|p| p.value),
            iterations: c
                .iterations
                .and_then(|i| toks.get(i))
                .and_then(|s| s.parse().ok()),
        });
    }
    (rows, msgs)
}
