//! Generic CSV or whitespace columns with a header naming the size and the
//! time, units taken from the header (`size(MB)`, `time [us]`, `lat_usec`)
//! or chosen by the user. A bandwidth column may be named algbw or busbw;
//! a plain `bw` column is decided from the numbers by [`super::checks`].

use super::log::Line;
use super::{
    printed, push_msg, rows_full, BwKind, CollectiveKind, Format, ImportOptions, LineMessage, Log,
    Row, Series,
};
use super::{row_size, RowSize};
use crate::core::units::{parse_bandwidth, parse_size, parse_time};

/// How a header line separates its columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sep {
    /// Commas (CSV).
    Comma,
    /// Tabs.
    Tab,
    /// `|` (a Markdown table).
    Pipe,
    /// Runs of spaces.
    Space,
}

impl Sep {
    fn of(line: &str) -> Sep {
        if line.contains(',') {
            Sep::Comma
        } else if line.contains('\t') {
            Sep::Tab
        } else if line.contains('|') {
            Sep::Pipe
        } else {
            Sep::Space
        }
    }

    /// Splits a line into trimmed cells.
    pub fn split(self, line: &str) -> Vec<String> {
        let cells: Vec<&str> = match self {
            Sep::Comma => line.split(',').collect(),
            Sep::Tab => line.split('\t').collect(),
            Sep::Pipe => line.trim().trim_matches('|').split('|').collect(),
            Sep::Space => line.split_whitespace().collect(),
        };
        cells
            .into_iter()
            .map(|c| c.trim().trim_matches('"').to_string())
            .collect()
    }
}

/// Role of a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Size,
    Time,
    MinTime,
    MaxTime,
    Bw(Option<BwKind>),
    Other,
}

fn name_role(name: &str) -> Role {
    let n = name.to_ascii_lowercase();
    let (base, _) = split_unit(&n);
    let b = base.as_str();
    if b.contains("bw") || b.contains("bandwidth") || b.contains("throughput") {
        let kind = if b.contains("bus") {
            Some(BwKind::Bus)
        } else if b.contains("alg") {
            Some(BwKind::Alg)
        } else {
            None
        };
        return Role::Bw(kind);
    }
    if b.contains("size")
        || b.contains("bytes")
        || b == "n"
        || b.starts_with("msg")
        || b.starts_with("message")
    {
        return Role::Size;
    }
    let timeish = b.contains("time")
        || b.contains("lat")
        || b.contains("dur")
        || b.starts_with('t') && unit_is_time(&n);
    if timeish || unit_is_time(&n) {
        if b.contains("min") {
            return Role::MinTime;
        }
        if b.contains("max") {
            return Role::MaxTime;
        }
        return Role::Time;
    }
    Role::Other
}

fn unit_is_time(name: &str) -> bool {
    split_unit(name).1.is_some_and(|u| time_scale(&u).is_some())
}

/// Splits `size(MB)` / `time [us]` / `lat_usec` into a base name and unit.
fn split_unit(name: &str) -> (String, Option<String>) {
    if let Some(i) = name.find(['(', '[']) {
        let unit = name[i + 1..]
            .trim_end_matches([')', ']'])
            .trim()
            .to_string();
        return (
            name[..i].trim().to_string(),
            Some(unit).filter(|u| !u.is_empty()),
        );
    }
    if let Some((b, u)) = name.rsplit_once('_') {
        if time_scale(u).is_some() || size_scale(u).is_some() || bw_scale(u).is_some() {
            return (b.to_string(), Some(u.to_string()));
        }
    }
    (name.to_string(), None)
}

/// Seconds per unit of a time unit (`us`, `usec`, `µs`, `ms`, `s`, `sec`, `ns`).
pub fn time_scale(u: &str) -> Option<f64> {
    let u = u.trim().to_ascii_lowercase();
    let norm = match u.as_str() {
        "usec" | "usecs" | "microseconds" => "us",
        "msec" | "msecs" | "milliseconds" => "ms",
        "nsec" | "nsecs" | "nanoseconds" => "ns",
        "sec" | "secs" | "seconds" => "s",
        other => other,
    };
    parse_time(&format!("1{norm}")).ok().filter(|v| *v > 0.0)
}

/// Bytes per unit of a size unit (`B`, `bytes`, `kB`, `MB`, `MiB`, `GB` …).
pub fn size_scale(u: &str) -> Option<f64> {
    let t = u.trim();
    match t.to_ascii_lowercase().as_str() {
        "b" | "byte" | "bytes" => return Some(1.0),
        "kb" => return Some(1e3),
        _ => {}
    }
    parse_size(&format!("1{t}")).ok().map(|s| s.bytes as f64)
}

/// Bytes per second per unit of a bandwidth unit (`GB/s`, `GB/sec`, `Gb/s`).
pub fn bw_scale(u: &str) -> Option<f64> {
    parse_bandwidth(&format!("1{}", u.trim()))
        .ok()
        .map(|b| b.bytes_per_second)
}

/// Finds a generic header: the first line that names a size column and a
/// time column. Returns its index in `lines`.
pub fn find_header(lines: &[Line]) -> Option<usize> {
    let limit = lines.len().min(5000);
    (0..limit).find(|&i| {
        let t = lines[i].1.trim_start().trim_start_matches('#');
        let sep = Sep::of(t);
        let cells = sep.split(t);
        let roles: Vec<Role> = cells.iter().map(|c| name_role(c)).collect();
        let (Some(si), Some(ti)) = (
            roles.iter().position(|r| *r == Role::Size),
            roles.iter().position(|r| *r == Role::Time),
        ) else {
            return false;
        };
        if cells
            .iter()
            .any(|c| printed(c, 1.0).is_some() || c.len() > 40)
        {
            return false;
        }
        // The next data line must have numbers in the size and time columns.
        lines[i + 1..]
            .iter()
            .map(|(_, l)| l.trim())
            .find(|l| {
                !l.is_empty() && !l.starts_with('#') && !l.chars().all(|c| "|-: ".contains(c))
            })
            .is_some_and(|l| {
                let d = sep.split(l);
                d.get(si)
                    .is_some_and(|c| crate::core::units::decimal::parse(c).is_some())
                    && d.get(ti)
                        .is_some_and(|c| crate::core::units::decimal::parse(c).is_some())
            })
    })
}

/// Parses generic columns (see the module docs).
// A table parser that reads its cases top to bottom, line by line; it
// predates the `too_many_lines` limit of clippy.toml and is the measure
// view's to split.
#[allow(clippy::too_many_lines)]
pub fn parse(lines: &[Line], opts: &ImportOptions) -> (Option<Log>, Vec<LineMessage>) {
    let mut msgs = Vec::new();
    let Some(h) = find_header(lines) else {
        return (None, msgs);
    };
    let header = lines[h].1.trim_start().trim_start_matches('#').to_string();
    let sep = Sep::of(&header);
    let names = sep.split(&header);
    let roles: Vec<Role> = names.iter().map(|c| name_role(c)).collect();
    let mut notes = Vec::new();
    let unit_of = |i: usize| split_unit(&names[i]).1;
    let first = |want: fn(&Role) -> bool| roles.iter().position(want);
    let size_i = first(|r| *r == Role::Size).unwrap_or(0);
    // Prefer an average time column.
    let time_i = roles
        .iter()
        .enumerate()
        .filter(|(_, r)| **r == Role::Time)
        .map(|(i, _)| i)
        .max_by_key(|&i| {
            let n = names[i].to_ascii_lowercase();
            n.contains("avg") || n.contains("mean")
        })
        .unwrap_or(0);
    let min_i = first(|r| *r == Role::MinTime);
    let max_i = first(|r| *r == Role::MaxTime);
    let bws: Vec<usize> = roles
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r, Role::Bw(_)))
        .map(|(i, _)| i)
        .collect();
    let time_name = names[time_i].to_ascii_lowercase();
    let time_tag = if time_name.contains("avg") {
        "avg"
    } else if time_name.contains("min") {
        "min"
    } else {
        ""
    };
    let bw_i = bws.iter().copied().max_by_key(|&i| {
        let n = names[i].to_ascii_lowercase();
        (
            !time_tag.is_empty() && n.contains(time_tag),
            n.contains("avg"),
        )
    });

    // Units.
    let size_unit = opts.size_unit.clone().or_else(|| unit_of(size_i));
    let size_mul = match size_unit.as_deref().map(|u| (u, size_scale(u))) {
        Some((_, Some(s))) => {
            if s >= 1e3 && (s.log10().fract().abs() < 1e-9) {
                notes.push(format!(
                    "size column “{}” read in decimal units: 1 {} = {} B (if the script means binary units, choose MiB)",
                    names[size_i],
                    size_unit.clone().unwrap_or_default(),
                    crate::core::units::decimal::shortest(s)
                ));
            }
            s
        }
        Some((u, None)) => {
            push_msg(
                &mut msgs,
                lines[h].0,
                format!("size unit “{u}” not understood; bytes assumed (choose a unit)"),
            );
            1.0
        }
        None => {
            notes.push(format!(
                "size column “{}” has no unit: bytes assumed",
                names[size_i]
            ));
            1.0
        }
    };
    let time_unit = opts.time_unit.clone().or_else(|| unit_of(time_i));
    let time_mul = match time_unit.as_deref().map(|u| (u, time_scale(u))) {
        Some((_, Some(s))) => s,
        Some((u, None)) => {
            push_msg(
                &mut msgs,
                lines[h].0,
                format!("time unit “{u}” not understood; µs assumed (choose a unit)"),
            );
            1e-6
        }
        None => {
            notes.push(format!(
                "time column “{}” has no unit: µs assumed",
                names[time_i]
            ));
            1e-6
        }
    };
    let bw_mul = bw_i.map(|i| match unit_of(i).as_deref().and_then(bw_scale) {
        Some(s) => s,
        None => {
            notes.push(format!(
                "bandwidth column “{}” has no unit we read: GB/s assumed",
                names[i]
            ));
            1e9
        }
    });
    let bw_kind = bw_i.and_then(|i| match roles[i] {
        Role::Bw(k) => k.or(opts.bw_kind),
        _ => None,
    });
    notes.push(format!(
        "columns: size = “{}”, time = “{}”{}",
        names[size_i],
        names[time_i],
        bw_i.map(|i| format!(", bandwidth = “{}”", names[i]))
            .unwrap_or_default()
    ));

    let mut rows = Vec::new();
    for (n, l) in lines.iter().skip(h + 1) {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') || t.chars().all(|c| "|-: ".contains(c)) {
            continue;
        }
        if rows_full(rows.len(), &mut msgs, *n) {
            break;
        }
        let cells = sep.split(t);
        let get = |i: usize, mul: f64| cells.get(i).and_then(|c| printed(c, mul));
        if cells.len() < names.len() {
            let last = lines.last().map(|(k, _)| k) == Some(n);
            let why = if last {
                "truncated last line"
            } else {
                "line ends early"
            };
            push_msg(
                &mut msgs,
                *n,
                format!("{why}: {} of {} columns", cells.len(), names.len()),
            );
            if cells.len() <= size_i.max(time_i) {
                continue;
            }
        }
        let zero = "size 0: nothing to time; row skipped";
        let size = match row_size(get(size_i, size_mul), &mut msgs, *n, zero) {
            RowSize::Positive(s) => s,
            RowSize::Skipped => continue,
            RowSize::Unread => {
                let c = cells.get(size_i).cloned().unwrap_or_default();
                push_msg(
                    &mut msgs,
                    *n,
                    format!(
                        "size “{}” is not a number; row skipped",
                        c.chars().take(24).collect::<String>()
                    ),
                );
                continue;
            }
        };
        let time = match get(time_i, time_mul) {
            Some(t) if t.value > 0.0 => t,
            Some(_) => {
                push_msg(&mut msgs, *n, "time is not positive; row skipped");
                continue;
            }
            None => {
                let c = cells.get(time_i).cloned().unwrap_or_default();
                push_msg(
                    &mut msgs,
                    *n,
                    format!(
                        "time “{}” is not a number; row skipped",
                        c.chars().take(24).collect::<String>()
                    ),
                );
                continue;
            }
        };
        let bw = bw_i.zip(bw_mul).and_then(|(i, m)| get(i, m));
        let (algbw, busbw, bw_unknown) = match bw_kind {
            Some(BwKind::Alg) => (bw, None, None),
            Some(BwKind::Bus) => (None, bw, None),
            None => (None, None, bw),
        };
        rows.push(Row {
            line: *n,
            size,
            time,
            algbw,
            busbw,
            bw_unknown,
            wrong: None,
            min_time: min_i.and_then(|i| get(i, time_mul)).map(|p| p.value),
            max_time: max_i.and_then(|i| get(i, time_mul)).map(|p| p.value),
            iterations: None,
        });
    }
    // A title: the first `#` comment above the header, unless it is a
    // `# source:` note (the header itself is not a title).
    let title = lines[..h]
        .iter()
        .map(|(_, l)| l.trim_start())
        .filter(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim())
        .find(|b| !b.is_empty())
        .filter(|b| !b.to_ascii_lowercase().starts_with("source:"))
        .unwrap_or_default()
        .to_string();
    let collective = opts.collective.unwrap_or(CollectiveKind::AllReduce);
    let collective_note = match opts.collective {
        Some(c) => format!("{} (chosen by you)", c.label()),
        None => "all-reduce (assumed: generic columns do not name the collective; choose another if needed)".into(),
    };
    let series = Series {
        label: format!("times from column {}", names[time_i]),
        rows,
    };
    let collective = (collective, collective_note);
    let log = Log::one_table(Format::Generic, collective, series, lines, title, notes);
    (Some(log), msgs)
}
