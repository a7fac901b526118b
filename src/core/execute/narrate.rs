//! Words for an executed round: its transfer log with the values added
//! ([`LogLine`]) and the share of elements that hold the complete sum
//! ([`complete_share`]). The sentence that narrates a round is
//! `crate::core::collectives::narrate::round_sentence`, one for every view.

use std::ops::Range;

use super::Trace;
use crate::core::schedule::Op;

/// One line of a round's transfer log: who sends what to whom, and for a reduce
/// the values added (`4 + 1 = 5`). Values are those of the first element of the
/// range (every element of a chunk shares them under
/// [`default_init`](super::default_init)); `None` when the range is empty.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    /// Sending rank.
    pub src: usize,
    /// Receiving rank.
    pub dst: usize,
    /// Chunk index, when the range is a ring chunk.
    pub chunk: Option<usize>,
    /// Element range moved.
    pub range: Range<u64>,
    /// Bytes moved.
    pub bytes: u64,
    /// Reduce or copy.
    pub op: Op,
    /// The values of the first element, `None` when the range is empty.
    pub values: Option<LogValues>,
}

/// The values one transfer-log line shows: `before + sent = after` for a
/// reduce, `sent` replacing `before` for a copy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogValues {
    /// The value the sender sends.
    pub sent: f64,
    /// The receiver's value before the round.
    pub before: f64,
    /// The receiver's value after the round.
    pub after: f64,
}

impl Trace {
    /// The transfer log of round `round` (0-based); empty when out of range or
    /// when per-round states were not kept.
    pub fn round_log(&self, round: usize) -> Vec<LogLine> {
        let (Some(sr), Some(before), Some(after)) = (
            self.schedule.rounds.get(round),
            self.state_at(round),
            self.state_at(round + 1),
        ) else {
            return Vec::new();
        };
        sr.transfers
            .iter()
            .map(|t| {
                let seg = self.segments_in(&t.range).start;
                let values = (t.range.start < t.range.end).then(|| LogValues {
                    sent: before.values[t.src][seg],
                    before: before.values[t.dst][seg],
                    after: after.values[t.dst][seg],
                });
                LogLine {
                    src: t.src,
                    dst: t.dst,
                    chunk: t.chunk,
                    range: t.range.clone(),
                    bytes: t.bytes(self.schedule.elem_bytes),
                    op: t.op,
                    values,
                }
            })
            .collect()
    }

    /// Fraction of (rank, element) slots that hold the complete reduction
    /// after `rounds` rounds, weighted by element count; `None` when the state
    /// was not kept.
    pub fn complete_fraction(&self, rounds: usize) -> Option<f64> {
        let st = self.state_at(rounds)?;
        if st.contributors.is_empty() {
            return None;
        }
        let p = self.schedule.p;
        let mut full = 0u64;
        for row in &st.contributors {
            for (si, c) in row.iter().enumerate() {
                if c.len() == p {
                    full += self.segments[si].end - self.segments[si].start;
                }
            }
        }
        Some(full as f64 / (self.schedule.n as f64 * p as f64))
    }

    /// " After it, 75% of all rank-held elements hold the complete sum." after
    /// `rounds` rounds ([`Trace::complete_fraction`]), with a leading space;
    /// empty when the state was not kept.
    pub fn complete_sentence(&self, rounds: usize) -> String {
        complete_sentence(self.complete_fraction(rounds))
    }
}

/// " After it, 75% of all rank-held elements hold the complete sum." for a
/// complete fraction of 0.75, with a leading space; empty when unknown. The
/// percentage is exact when it is ("12.5%" at 1/8) and marked "≈" when not
/// ("≈ 33.33%" at 1/3).
pub(super) fn complete_sentence(complete: Option<f64>) -> String {
    complete
        .map(|f| format!(" After it, {}", complete_share(f)))
        .unwrap_or_default()
}

/// "12.5% of all rank-held elements hold the complete sum." for a complete
/// fraction `f` (0.125): the percentage exact, or marked "≈" when it is not.
pub(crate) fn complete_share(f: f64) -> String {
    format!(
        "{}% of all rank-held elements hold the complete sum.",
        crate::core::units::format_exact_or_approx(f * 100.0)
    )
}
