//! Format detection and line clean-up shared by the parsers: launcher
//! prefixes (`[1,0]<stdout>:`, `0: `), two logs side by side separated by
//! `|`, and lines holding binary data.

use super::generic;
use super::log::{push_msg, Format, Line, LineMessage, Log, Series};
use super::model::CollectiveKind;
use super::osu::is_osu_header;

/// Splits a paste of two logs side by side (`left | right` on each line)
/// into `("left", …)` and `("right", …)`. Side by side means: most non-empty lines hold exactly one
/// `|`, not at the start of the line (a Markdown table starts with `|`).
/// Empty when the paste is not side by side.
pub fn split_side_by_side(lines: &[(usize, &str)]) -> Vec<(String, Vec<Line>)> {
    let non_empty = lines.iter().filter(|(_, l)| !l.trim().is_empty()).count();
    let split = lines
        .iter()
        .filter(|(_, l)| l.matches('|').count() == 1 && !l.trim_start().starts_with('|'))
        .count();
    if non_empty < 2 || split * 2 < non_empty {
        return Vec::new();
    }
    let mut left = Vec::new();
    let mut right = Vec::new();
    for &(n, l) in lines {
        match l.split_once('|') {
            Some((a, b)) => {
                left.push((n, a.to_string()));
                right.push((n, b.to_string()));
            }
            None => left.push((n, l.to_string())),
        }
    }
    vec![("left".into(), left), ("right".into(), right)]
}

/// Strips an MPI launcher's prefix: Open MPI `--tag-output`
/// (`[1,0]<stdout>:`), Slurm `--label` (`0: `).
pub fn strip_launcher_prefix(line: &str) -> &str {
    let t = line.trim_start();
    if let Some(rest) = t.strip_prefix('[') {
        if let Some(close) = rest.find(']') {
            let inside = &rest[..close];
            let after = &rest[close + 1..];
            let ids = !inside.is_empty() && inside.chars().all(|c| c.is_ascii_digit() || c == ',');
            if ids {
                for tag in ["<stdout>:", "<stderr>:", "<stddiag>:"] {
                    if let Some(r) = after.strip_prefix(tag) {
                        return r;
                    }
                }
            }
        }
    }
    if let Some((head, rest)) = t.split_once(": ") {
        if !head.is_empty() && head.len() <= 6 && head.chars().all(|c| c.is_ascii_digit()) {
            return rest;
        }
    }
    line
}

/// Removes launcher prefixes and drops lines holding binary data (control
/// characters other than tab and carriage return, or U+FFFD from a
/// non-UTF-8 file), reporting each dropped line.
pub fn clean_lines<S: AsRef<str>>(lines: &[(usize, S)]) -> (Vec<Line>, Vec<LineMessage>) {
    let mut out = Vec::with_capacity(lines.len());
    let mut msgs = Vec::new();
    for (n, l) in lines {
        let l = l.as_ref();
        // Fast path: printable ASCII (plus tab and CR) needs no char decoding.
        let bad = if l.is_ascii() {
            l.bytes()
                .find(|&b| (b < 0x20 && b != b'\t' && b != b'\r') || b == 0x7f)
                .map(char::from)
        } else {
            l.chars()
                .find(|&c| (c.is_control() && c != '\t' && c != '\r') || c == '\u{FFFD}')
        };
        if let Some(c) = bad {
            push_msg(
                &mut msgs,
                *n,
                format!(
                    "binary data (character U+{:04X}); line skipped",
                    u32::from(c)
                ),
            );
            continue;
        }
        out.push((*n, strip_launcher_prefix(l).trim_end().to_string()));
    }
    (out, msgs)
}

/// True when `line` is a nccl-tests column header (`size … time algbw busbw`).
pub fn is_nccl_header(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    l.trim_start().starts_with('#')
        && l.contains("size")
        && l.contains("algbw")
        && l.contains("busbw")
}

/// The format of a cleaned paste, or `None` when no known header is found.
pub fn detect(lines: &[Line]) -> Option<Format> {
    if lines.iter().any(|(_, l)| is_nccl_header(l)) {
        return Some(Format::NcclTests);
    }
    if lines.iter().any(|(_, l)| is_osu_header(l)) {
        return Some(Format::Osu);
    }
    if lines.iter().any(|(_, l)| super::ucc::is_ucc_header(l)) {
        return Some(Format::Ucc);
    }
    if lines.iter().any(|(_, l)| super::gloo::is_gloo_header(l)) {
        return Some(Format::Gloo);
    }
    generic::find_header(lines).map(|_| Format::Generic)
}

/// The 1-based line number of the column header of format `f` in `lines`.
pub fn header_line(lines: &[Line], f: Format) -> Option<usize> {
    let pos = match f {
        Format::NcclTests => lines.iter().position(|(_, l)| is_nccl_header(l)),
        Format::Osu => lines.iter().position(|(_, l)| is_osu_header(l)),
        Format::Ucc => lines.iter().position(|(_, l)| super::ucc::is_ucc_header(l)),
        Format::Gloo => lines
            .iter()
            .position(|(_, l)| super::gloo::is_gloo_header(l)),
        Format::Generic => generic::find_header(lines),
    };
    pos.map(|i| lines[i].0)
}

/// Why a paste with no known header was not read: rows with no header (the
/// lines that start with a number, when they do not fit nccl-tests'
/// layout), or no table at all.
pub fn no_header_reason(lines: &[Line]) -> String {
    let rows: Vec<usize> = lines
        .iter()
        .filter(|(_, l)| {
            let t = l.trim_start();
            t.starts_with(|c: char| c.is_ascii_digit()) && t.split_whitespace().count() >= 2
        })
        .map(|(n, _)| *n)
        .collect();
    match rows.first() {
        Some(first) => format!(
            "{} line{} look like data rows (first: line {first}) but have no column header we read, and do not fit nccl-tests' layout: paste the header too, or name the columns (size(B), time(us)). We read {}",
            rows.len(),
            if rows.len() == 1 { "" } else { "s" },
            super::FORMATS
        ),
        None => format!("no header of a known format was found. We read {}", super::FORMATS),
    }
}

/// The first integer after `key` in `tokens` (`-np 24`, `-np=24`,
/// `--nproc_per_node=8`).
fn int_after(tokens: &[&str], keys: &[&str]) -> Option<usize> {
    for (i, t) in tokens.iter().enumerate() {
        for k in keys {
            if t == k {
                if let Some(v) = tokens.get(i + 1).and_then(|v| v.parse().ok()) {
                    return Some(v);
                }
            } else if let Some(v) = t.strip_prefix(k).and_then(|r| r.strip_prefix('=')) {
                if let Ok(v) = v.parse() {
                    return Some(v);
                }
            }
        }
    }
    None
}

/// A launcher's rank count on one line: `mpirun|mpiexec -np N` (or `-n N`),
/// `srun -n N` / `--ntasks N`, `torchrun --nproc_per_node N [--nnodes M]`.
pub fn launcher_ranks(line: &str) -> Option<usize> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let has = |w: &str| tokens.iter().any(|t| t.ends_with(w));
    let p = if has("mpirun") || has("mpiexec") || has("srun") || has("aprun") {
        int_after(&tokens, &["-np", "-n", "--np", "--ntasks"])
    } else if has("torchrun") || line.contains("torch.distributed") {
        int_after(&tokens, &["--nproc_per_node", "--nproc-per-node"])
            .map(|n| n * int_after(&tokens, &["--nnodes"]).unwrap_or(1))
    } else {
        None
    };
    p.filter(|&p| p >= 1)
}

/// `nranks N` (or `nranks=N`, `nranks: N`) on a line.
pub fn nranks_field(line: &str) -> Option<usize> {
    let l = line.to_ascii_lowercase();
    let i = l.find("nranks")?;
    let rest = l[i + 6..].trim_start_matches([' ', '=', ':', '\t']);
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok().filter(|&p| p >= 1)
}

/// Rank counts a log states: `(stated, comment_hint)`. `stated` comes from an
/// `nranks` field or a launcher command on an uncommented line (times
/// `per_process`, e.g. nccl-tests' nThread·nGpus); a launcher mentioned only
/// in a `#` comment is returned as a hint `(p, line)` for cross-checking.
pub fn stated_ranks(
    lines: &[Line],
    per_process: usize,
) -> (Option<super::RankCount>, Option<(usize, usize)>) {
    use super::{RankCount, RankSource};
    let mut stated = None;
    let mut hint = None;
    for (n, l) in lines {
        if l.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
            continue; // a data row
        }
        if stated.is_none() {
            if let Some(p) = nranks_field(l) {
                stated = Some(RankCount {
                    p,
                    source: RankSource::NRanks { line: *n },
                    note: format!("p = {p} from the nranks field on line {n}"),
                });
                continue;
            }
        }
        if let Some(np) = launcher_ranks(l) {
            let p = np.saturating_mul(per_process.max(1));
            if l.trim_start().starts_with('#') {
                hint.get_or_insert((p, *n));
            } else if stated.is_none() {
                let times = if per_process > 1 {
                    format!(" × {per_process} (nThread·nGpus)")
                } else {
                    String::new()
                };
                stated = Some(RankCount {
                    p,
                    source: RankSource::Launcher { line: *n },
                    note: format!(
                        "p = {p} from the launcher command on line {n} ({np} processes{times})"
                    ),
                });
            }
        }
    }
    (stated, hint)
}

impl Log {
    /// A log of one table read by a column parser (OSU or generic columns):
    /// no side-by-side part and no printed average; the rank count as
    /// [`stated_ranks`] finds it in `lines` (one rank per line).
    pub(crate) fn one_table(
        format: Format,
        (collective, collective_note): (CollectiveKind, String),
        series: Series,
        lines: &[Line],
        title: String,
        notes: Vec<String>,
    ) -> Log {
        let (stated_p, comment_p) = stated_ranks(lines, 1);
        Log {
            format,
            part: String::new(),
            collective,
            collective_note,
            series: vec![series],
            stated_p,
            comment_p,
            avg_busbw: None,
            title,
            notes,
            annotation: None,
        }
    }
}
