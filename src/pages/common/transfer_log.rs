//! The transfers of one round as lines, shared by the ring and collectives
//! pages. Operands are printed in one order everywhere: the value sent, then
//! the receiver's value before, then the result
//! (`rank 3 → rank 0: chunk 3, 25 MB, 4 + 1 = 5`).

use crate::core::execute::{LogLine, Trace};
use crate::core::schedule::{Op, Round, Transfer};
use crate::core::units::format_bytes_short;
use crate::core::units::format_exact_or_approx;

/// Lines listed before "… and N more transfers".
pub const LOG_ROWS: usize = 16;

/// The values a transfer moved (first element of its range).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LogValues {
    /// Values not kept (large p: numbers only).
    Unknown,
    /// The range is empty (possible when n < p).
    Empty,
    /// The values of the first element.
    Known {
        /// The value sent.
        sent: f64,
        /// The receiver's value before the transfer.
        before: f64,
        /// The receiver's value after it (sum for a reduce, copy otherwise).
        after: f64,
    },
}

/// One transfer of the round.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    /// Sending rank.
    pub src: usize,
    /// Receiving rank.
    pub dst: usize,
    /// What is carried, e.g. `chunk 3` or `c2–3 (elements 8–15)`.
    pub what: String,
    /// Bytes carried.
    pub bytes: u64,
    /// Reduce (receiver adds) or copy (receiver overwrites).
    pub op: Op,
    /// The values moved.
    pub values: LogValues,
}

impl LogEntry {
    /// The line shown. With `name_op` the operation is named before the
    /// values (`…, 16 MB, reduce: 1 + 3 = 4`).
    pub fn text(&self, name_op: bool) -> String {
        let head = format!(
            "rank {} → rank {}: {}, {}",
            self.src,
            self.dst,
            self.what,
            format_bytes_short(self.bytes as f64)
        );
        let v = format_exact_or_approx;
        match (name_op, self.values, self.op) {
            (
                true,
                LogValues::Known {
                    sent,
                    before,
                    after,
                },
                Op::Reduce,
            ) => format!(
                "{head}, {}: {} + {} = {}",
                self.op.label(),
                v(sent),
                v(before),
                v(after)
            ),
            (true, LogValues::Known { sent, before, .. }, Op::Copy) => {
                format!(
                    "{head}, {}: {} replaces {}",
                    self.op.label(),
                    v(sent),
                    v(before)
                )
            }
            (true, _, _) => format!("{head}, {}", self.op.label()),
            (
                false,
                LogValues::Known {
                    sent,
                    before,
                    after,
                },
                Op::Reduce,
            ) => {
                format!("{head}, {} + {} = {}", v(sent), v(before), v(after))
            }
            (false, LogValues::Known { sent, before, .. }, Op::Copy) => {
                format!("{head}, copy {} (replaces {})", v(sent), v(before))
            }
            (false, LogValues::Empty, _) => format!("{head}, empty chunk"),
            (false, LogValues::Unknown, _) => format!("{head}, {}", self.op.label()),
        }
    }
}

/// The first [`LOG_ROWS`] transfers of round `step` (1-based) of an
/// executed trace, each described by `what`, with the values the trace
/// logged (none when it kept no states).
pub fn round_entries(
    trace: &Trace,
    step: usize,
    what: impl Fn(&Transfer) -> String,
) -> Vec<LogEntry> {
    let Some(round) = step
        .checked_sub(1)
        .and_then(|i| trace.schedule.rounds.get(i))
    else {
        return Vec::new();
    };
    entries_of(
        round,
        trace.schedule.elem_bytes,
        &trace.round_log(step - 1),
        what,
    )
}

/// The first [`LOG_ROWS`] transfers of `round`, each described by `what`,
/// with the values of `lines` (the round's log; empty when no states were
/// kept, which makes every value [`LogValues::Unknown`]).
pub fn entries_of(
    round: &Round,
    elem_bytes: u64,
    lines: &[LogLine],
    what: impl Fn(&Transfer) -> String,
) -> Vec<LogEntry> {
    round
        .transfers
        .iter()
        .take(LOG_ROWS)
        .enumerate()
        .map(|(i, t)| LogEntry {
            src: t.src,
            dst: t.dst,
            what: what(t),
            bytes: t.bytes(elem_bytes),
            op: t.op,
            values: match lines.get(i) {
                None => LogValues::Unknown,
                Some(l) => l.values.map_or(LogValues::Empty, |v| LogValues::Known {
                    sent: v.sent,
                    before: v.before,
                    after: v.after,
                }),
            },
        })
        .collect()
}
