//! Words for an executed round: its transfer log with the values added
//! ([`LogLine`]) and the sentence that narrates it ([`narrate_round`]).

use std::ops::Range;

use super::Trace;
use crate::core::schedule::{Op, Phase, Round};
use crate::core::units::format_decimal;

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

    /// A sentence on what the schedule does at `step` (0 = before any round,
    /// `k` = the `k`-th round just ran), with the facts taken from the trace.
    pub fn narrate(&self, step: usize) -> String {
        let s = &self.schedule;
        if step == 0 {
            return narrate_round(s.p, None, "", s.elem_bytes, None, None);
        }
        let Some(round) = s.rounds.get(step - 1) else {
            return String::new();
        };
        let done = (step == s.rounds.len()).then(|| self.verification.ok());
        narrate_round(
            s.p,
            Some(round),
            &s.round_label(step - 1),
            s.elem_bytes,
            self.complete_fraction(step),
            done,
        )
    }
}

/// The sentence of [`Trace::narrate`] from its parts, so a run that never holds
/// its whole schedule ([`execute_streamed`](super::execute_streamed)) narrates
/// the same way: `round` just ran (`None`: before round 1), labelled `label`;
/// `complete` is the fraction of rank-held elements holding the complete sum
/// after it, when known; `done` is `Some(verified)` after the last round.
pub fn narrate_round(
    p: usize,
    round: Option<&Round>,
    label: &str,
    elem_bytes: u64,
    complete: Option<f64>,
    done: Option<bool>,
) -> String {
    let Some(round) = round else {
        return format!(
            "Before any transfer each of the {p} ranks holds only its own tensor. \
             The goal: every rank ends with the element-wise sum of all {p}."
        );
    };
    let k = round.transfers.len();
    let max_bytes = round.largest_bytes(elem_bytes);
    let what = match (round.phase, round.transfers.first().map(|t| t.op)) {
        (Phase::ReduceScatter, _) => {
            "each rank sends one chunk to its partner, which adds it to its own copy of that chunk"
        }
        (Phase::AllGather, _) => {
            "each rank passes on a fully reduced chunk; the receiver copies it over its stale copy (no addition)"
        }
        (Phase::Exchange, _) => "partners swap buffers and each adds what it received",
        (Phase::Reduce, _) => "partial sums flow towards the root, which adds them",
        (Phase::Broadcast, _) => "the finished sum is copied outwards from the root",
        (Phase::FoldIn, _) => {
            "extra ranks hand their whole tensor to a partner inside the power-of-two subset"
        }
        (Phase::FoldOut, _) => "the result is copied back to the extra ranks",
        (Phase::NodeReduce, _) => "inside each node, partial sums flow towards the node's leader, which adds them",
        (Phase::LeaderReduceScatter | Phase::LeaderAllGather | Phase::LeaderExchange, _) => {
            "the node leaders all-reduce among themselves"
        }
        (Phase::NodeBroadcast, _) => "inside each node, the finished sum is copied outwards from the leader",
    };
    let progress = complete_sentence(complete);
    let done = match done {
        Some(true) => " Done: the result is verified on every rank.",
        Some(false) => " Done, but the result does NOT match the element-wise sum.",
        None => "",
    };
    format!(
        "{}: {what}. {k} transfer{} run at once, the largest {}.{progress}{done}",
        capitalise(label),
        if k == 1 { "" } else { "s" },
        format_decimal(max_bytes as f64)
    )
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

/// `s` with its first letter in upper case. Every label starts with an
/// ASCII letter, so ASCII upper-casing is enough and keeps the Unicode case
/// tables out of the wasm binaries.
pub(super) fn capitalise(s: &str) -> String {
    let mut out = s.to_string();
    if let Some(first) = out.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    out
}
