//! The importer's pipeline ([`import`]): clean the paste, split logs side
//! by side, detect each one's format, run its parser, annotate and check
//! it.

use super::log::{
    numbered_lines, push_msg, Format, Import, ImportError, ImportOptions, LineMessage,
    MAX_INPUT_BYTES,
};
use super::{annotate, detect, generic, nccl, osu};

/// Reads a pasted log: detects its format, parses it, and collects
/// line-numbered messages for the lines it could not use.
///
/// Input above [`MAX_INPUT_BYTES`] is cut (reported as a message on line 0);
/// control characters other than tab make a line unreadable (binary data).
///
/// # Errors
/// [`ImportError::Empty`] for an empty paste; [`ImportError::Unrecognised`]
/// when no table of a known format (see [`FORMATS`](crate::core::measure::log::FORMATS)) has a single readable row.
pub fn import(text: &str, opts: &ImportOptions) -> Result<Import, ImportError> {
    let mut cut_msg = None;
    let text = if text.len() > MAX_INPUT_BYTES {
        let mut end = MAX_INPUT_BYTES;
        while end > 0 && !text.is_char_boundary(end) {
            end -= 1;
        }
        cut_msg = Some(LineMessage {
            line: 0,
            reason: format!(
                "the paste is {} bytes; only the first {} bytes were read",
                text.len(),
                MAX_INPUT_BYTES
            ),
        });
        &text[..end]
    } else {
        text
    };
    if text.trim().is_empty() {
        return Err(ImportError::Empty);
    }
    let lines = numbered_lines(text);
    let mut messages: Vec<LineMessage> = cut_msg.into_iter().collect();
    // Clean each part once: `(name, cleaned lines, messages)`.
    let mut parts: Vec<(String, Vec<super::log::Line>, Vec<LineMessage>)> = Vec::new();
    let split = detect::split_side_by_side(&lines);
    if split.len() > 1 {
        for (name, part) in split {
            let (clean, msgs) = detect::clean_lines(&part);
            // Logs pasted one after the other, each side by side (the
            // runner's --baseline): each side splits at its annotations.
            let chunks = annotate::split(clean);
            let many = chunks.len() > 1;
            let mut msgs = Some(msgs);
            for (k, c) in chunks.into_iter().enumerate() {
                let part = if many {
                    format!("{name}, log {}", k + 1)
                } else {
                    name.clone()
                };
                parts.push((part, c, msgs.take().unwrap_or_default()));
            }
        }
        if !parts.iter().any(|(_, c, _)| detect::detect(c).is_some()) {
            // `|` was a column separator, not two logs side by side.
            parts.clear();
        }
    }
    if parts.is_empty() {
        let (clean, msgs) = detect::clean_lines(&lines);
        let chunks = annotate::split(clean);
        let many = chunks.len() > 1;
        let mut msgs = Some(msgs);
        for (k, c) in chunks.into_iter().enumerate() {
            let name = if many {
                format!("log {}", k + 1)
            } else {
                String::new()
            };
            parts.push((name, c, msgs.take().unwrap_or_default()));
        }
    }
    let mut logs = Vec::new();
    for (name, clean, mut msgs) in parts {
        let mut note = None;
        for (n, l) in &clean {
            let (a, errs) = annotate::parse(*n, l);
            if a.is_some() {
                for e in errs {
                    msgs.push(LineMessage {
                        line: *n,
                        reason: e,
                    });
                }
                note = a;
                break;
            }
        }
        let format = detect::detect(&clean);
        // Rows without a header that fit nccl-tests' layout are read as
        // nccl-tests rows. One call site of `nccl::parse` for both (two
        // kept it out of line: 3 KB more on the page).
        let headerless = if format.is_none() {
            nccl::headerless(&clean)
        } else {
            None
        };
        let (log, pmsgs) = match (format, headerless.as_deref()) {
            (Some(Format::NcclTests), _) | (None, Some(_)) => {
                let (mut log, m) = nccl::parse(headerless.as_deref().unwrap_or(&clean), opts);
                if let (Some(l), true) = (log.as_mut(), headerless.is_some()) {
                    l.notes.insert(0, nccl::HEADERLESS_NOTE.to_string());
                }
                (log, m)
            }
            (Some(Format::Osu), _) => osu::parse(&clean, opts),
            (Some(Format::Generic), _) => generic::parse(&clean, opts),
            // Recognised and named, not read (page size): see ucc.rs, gloo.rs.
            (Some(Format::Ucc | Format::Gloo), _) => (None, Vec::new()),
            (None, None) => {
                msgs.push(LineMessage {
                    line: 0,
                    reason: detect::no_header_reason(&clean),
                });
                (None, Vec::new())
            }
        };
        msgs.extend(pmsgs);
        let has_rows = log
            .as_ref()
            .is_some_and(|l| l.series.iter().any(|s| !s.rows.is_empty()));
        if let (Some(f), false) = (format, has_rows) {
            let hl = detect::header_line(&clean, f).unwrap_or(0);
            let reason = if matches!(f, Format::Ucc | Format::Gloo) {
                format!(
                    "this is {} output (table header on line {hl}), which this page does not read yet: paste its size and time columns under a header such as size(B) time(us)",
                    f.label()
                )
            } else {
                format!(
                    "a column header of {} (line {hl}) but no data row below it: paste the rows too",
                    f.label()
                )
            };
            msgs.push(LineMessage { line: 0, reason });
        }
        for m in msgs {
            push_msg(&mut messages, m.line, prefix_part(&name, &m.reason));
        }
        if let (Some(mut log), true) = (log, has_rows) {
            log.part = name.clone();
            log.annotation = note;
            logs.push(log);
        }
    }
    crate::core::order::sort_by_key(&mut messages, |m| m.line as u64);
    if logs.is_empty() {
        return Err(ImportError::Unrecognised { messages });
    }
    Ok(Import { logs, messages })
}

impl Import {
    /// True when some table of some log has a row from 1-based line `line`
    /// (the line was read, perhaps in part). A scan, not a sorted list: the
    /// messages are few, and one more sort instantiation costs the page
    /// more than the scan costs it time.
    pub fn line_read(&self, line: usize) -> bool {
        self.logs
            .iter()
            .flat_map(|l| &l.series)
            .any(|s| s.rows.iter().any(|r| r.line == line))
    }

    /// The messages about lines that gave no row at all (plus those about
    /// the whole paste, line 0), and those about lines read in part (an
    /// in-place group missing, extra columns): `(not read, read in part)`.
    pub fn split_messages(&self) -> (Vec<&LineMessage>, Vec<&LineMessage>) {
        self.messages
            .iter()
            .partition(|m| m.line == 0 || !self.line_read(m.line))
    }

    /// Number of distinct lines (line ≥ 1) that gave no row and have a
    /// message: the "lines not read" count.
    pub fn unread_lines(&self) -> usize {
        let mut lines: Vec<usize> = self
            .messages
            .iter()
            .filter(|m| m.line > 0 && !self.line_read(m.line))
            .map(|m| m.line)
            .collect();
        lines.dedup();
        lines.len()
    }
}

fn prefix_part(part: &str, reason: &str) -> String {
    if part.is_empty() {
        reason.to_string()
    } else if part.starts_with("log ") {
        format!("({part}) {reason}")
    } else {
        format!("({part} log) {reason}")
    }
}
