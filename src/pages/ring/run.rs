//! What the ring page shows, from one of two executions of the same ring
//! all-reduce: a checkpointed [`Trace`](crate::core::execute::Trace) with contributor sets when the ring
//! is drawn (p ≤ [`MAX_DRAWN_P`]), or above that a [`Streamed`] run that
//! executes the rounds one at a time on real values and never holds the
//! whole schedule (2 million transfers at p = 1024). Both give the same
//! numbers (tested in the core); this type answers the view's questions
//! from either. Above [`MAX_DRAWN_P`] the byte counters come first, counted
//! from the rounds without values ([`count_streamed`]); the values are
//! executed once, when a step first shows them (the last round, the check
//! and the mean).

use std::cell::OnceCell;

use crate::core::collectives::narrate::{goal_of, narrate, round_sentence};
use crate::core::collectives::{flat, round_title_of, Algorithm};
use crate::core::execute::{
    chunk_grid, count_streamed, default_init, execute_streamed, ChunkGrid, Mismatch, StreamCounts,
    Streamed, Verification,
};
use crate::core::schedule::chunk_range;
use crate::core::schedule::ring::{
    ring_all_reduce_position, ring_all_reduce_round, ring_all_reduce_rounds,
};
use crate::core::schedule::Computation;
use crate::core::schedule::Transfer;
use crate::core::timing::{executed_time, explain, explain_counted};
use crate::pages::common::shared::Shared;
use crate::pages::common::trace::{checkpointed_collective, SharedTrace};
use crate::pages::common::transfer_log::{entries_of, round_entries, LogEntry};
use crate::params::ring::{CHUNK_GRID_MAX_P, RING_MAX_P};
use crate::params::ring::{ELEM_BYTES, MAX_DRAWN_P};

/// An executed ring all-reduce (compared by identity).
#[derive(Clone, PartialEq)]
pub enum RingRun {
    /// Drawn: every state can be rebuilt, values are logged.
    Drawn(SharedTrace),
    /// Numbers only: counters, and the final values and the verification
    /// once a step needs them.
    Numbers(Shared<NumbersRun>),
}

/// The numbers-only run: the counters of the ring's rounds, and its
/// [`Streamed`] execution on real values, run on first use.
pub struct NumbersRun {
    /// The bytes per rank and round, counted from the transfers.
    pub counts: StreamCounts,
    values: OnceCell<Streamed>,
}

impl NumbersRun {
    /// Round `i` (0-based) of the ring that was counted, regenerated
    /// alone (the byte totals between checkpoints replay a few rounds).
    fn round_at(&self, i: usize) -> Option<crate::core::schedule::Round> {
        ring_all_reduce_round(self.counts.p, self.counts.n, i).map(|(round, _)| round)
    }

    /// The run on real values, if it has been executed.
    pub fn executed(&self) -> Option<&Streamed> {
        self.values.get()
    }

    /// The run on real values (executed on the first call).
    pub fn values(&self) -> &Streamed {
        let StreamCounts { p, n, .. } = self.counts;
        self.values.get_or_init(|| {
            let cuts: Vec<u64> = (0..p).map(|c| chunk_range(n, p, c).start).collect();
            execute_streamed(
                p,
                n,
                ELEM_BYTES,
                &cuts,
                ring_all_reduce_rounds(p, n),
                &default_init,
            )
            .unwrap_or_else(|_| failed_run(&self.counts))
        })
    }
}

/// A run that could not execute (never expected: the same rounds were
/// counted first): no values, and a verification that fails.
fn failed_run(c: &StreamCounts) -> Streamed {
    Streamed {
        counts: c.clone(),
        segments: Vec::new(),
        initial: Vec::new(),
        last: Vec::new(),
        expected: Vec::new(),
        verification: Verification {
            mismatches: vec![Mismatch {
                rank: 0,
                range: 0..c.n,
                expected: f64::NAN,
                got: f64::NAN,
            }],
            double_counts: Vec::new(),
        },
    }
}

impl RingRun {
    /// Executes the ring all-reduce of `elements` f32 elements on `p` ranks:
    /// checkpointed when drawn, streamed above [`MAX_DRAWN_P`]. `None` when
    /// the schedule cannot be built (p < 2 or no elements).
    pub fn execute(p: usize, elements: u64) -> Option<RingRun> {
        if p <= MAX_DRAWN_P {
            RingRun::drawn(p, elements)
        } else {
            RingRun::numbers(p, elements)
        }
    }

    /// The drawn run at any p: the whole schedule executed with
    /// contributor sets, checkpointed (what [`RingRun::execute`] does up to
    /// [`MAX_DRAWN_P`]; the tests' slow oracle above it).
    pub fn drawn(p: usize, elements: u64) -> Option<RingRun> {
        checkpointed_collective(Algorithm::RING, &flat(p), elements).map(RingRun::Drawn)
    }

    /// The numbers-only run at any p: the rounds counted one at a time,
    /// the values streamed on first use (what [`RingRun::execute`] does
    /// above [`MAX_DRAWN_P`]).
    pub fn numbers(p: usize, elements: u64) -> Option<RingRun> {
        if p < 2 || elements == 0 {
            return None;
        }
        count_streamed(p, elements, ELEM_BYTES, ring_all_reduce_rounds(p, elements))
            .ok()
            .map(|counts| {
                RingRun::Numbers(Shared::new(NumbersRun {
                    counts,
                    values: OnceCell::new(),
                }))
            })
    }

    /// The contributor counts of every rank's chunks and each round's
    /// changes ([`chunk_grid`]) of the ring that ran, for the chunk grid
    /// drawn when `RING_MAX_P < p ≤ CHUNK_GRID_MAX_P`; `None` otherwise.
    /// The drawn trace's own schedule, or (numbers only) the same ring
    /// rounds the streamed run executed, regenerated one at a time.
    pub fn chunk_grid(&self) -> Option<ChunkGrid> {
        let (p, n) = (self.p(), self.n());
        if p <= RING_MAX_P || p > CHUNK_GRID_MAX_P {
            return None;
        }
        match self {
            RingRun::Drawn(t) => chunk_grid(p, n, &t.schedule.rounds).ok(),
            RingRun::Numbers(_) => chunk_grid(p, n, ring_all_reduce_rounds(p, n)).ok(),
        }
    }

    /// The numbers-only run whose values step `step` shows (the last
    /// round and the mean step: the check, the sum and the mean) and that
    /// has not executed them yet; `None` for a drawn run, whose values ran
    /// with it, and for earlier steps, which show counters only.
    pub fn values_to_run(&self, step: usize) -> Option<Shared<NumbersRun>> {
        match self {
            RingRun::Numbers(s) if step >= self.rounds() && s.executed().is_none() => {
                Some(s.clone())
            }
            _ => None,
        }
    }

    /// The drawn trace, when there is one.
    pub fn trace(&self) -> Option<&SharedTrace> {
        match self {
            RingRun::Drawn(t) => Some(t),
            RingRun::Numbers(_) => None,
        }
    }

    /// Number of ranks.
    pub fn p(&self) -> usize {
        match self {
            RingRun::Drawn(t) => t.schedule.p,
            RingRun::Numbers(s) => s.counts.p,
        }
    }

    /// Tensor length, elements.
    pub fn n(&self) -> u64 {
        match self {
            RingRun::Drawn(t) => t.schedule.n,
            RingRun::Numbers(s) => s.counts.n,
        }
    }

    /// Number of rounds, 2(p − 1).
    pub fn rounds(&self) -> usize {
        match self {
            RingRun::Drawn(t) => t.num_rounds(),
            RingRun::Numbers(s) => s.counts.num_rounds(),
        }
    }

    /// The check of the final buffers.
    pub fn verification(&self) -> &Verification {
        match self {
            RingRun::Drawn(t) => &t.verification,
            RingRun::Numbers(s) => &s.values().verification,
        }
    }

    /// Each rank's input value (of its first element).
    pub fn inputs(&self) -> Vec<f64> {
        let first = |rows: &[Vec<f64>]| -> Vec<f64> {
            rows.iter()
                .map(|row| row.first().copied().unwrap_or(0.0))
                .collect()
        };
        match self {
            RingRun::Drawn(t) => t.state_at(0).map(|s| first(&s.values)).unwrap_or_default(),
            RingRun::Numbers(s) => first(&s.values().initial),
        }
    }

    /// The expected sum (of the first element).
    pub fn sum(&self) -> f64 {
        let expected = match self {
            RingRun::Drawn(t) => &t.expected,
            RingRun::Numbers(s) => &s.values().expected,
        };
        expected.first().copied().unwrap_or(0.0)
    }

    /// The mean step's value, as the core computed it (final buffers ÷ p).
    pub fn mean(&self) -> f64 {
        let means = match self {
            RingRun::Drawn(t) => t.final_mean(),
            RingRun::Numbers(s) => s.values().final_mean(),
        };
        means
            .first()
            .and_then(|row| row.first().copied())
            .unwrap_or(0.0)
    }

    /// Label of round `i` (0-based), e.g. "reduce-scatter, round 2 of 3".
    pub fn round_label(&self, i: usize) -> String {
        match self {
            RingRun::Drawn(t) => t.schedule.round_label(i),
            RingRun::Numbers(s) => ring_all_reduce_round(s.counts.p, s.counts.n, i)
                .map(|(_, label)| label)
                .unwrap_or_default(),
        }
    }

    /// The narration after `rounds_done` rounds: the registry's one
    /// narration of a round ([`narrate`], [`round_sentence`]) of the ring
    /// all-reduce.
    pub fn narrate(&self, rounds_done: usize) -> String {
        let ring = Algorithm::RING;
        match self {
            RingRun::Drawn(t) => narrate(ring, t, rounds_done),
            RingRun::Numbers(s) => {
                let c = &s.counts;
                let (p, rounds) = (c.p, c.num_rounds());
                let Some(i) = rounds_done.checked_sub(1) else {
                    return goal_of(ring, p, &Computation::AllReduce, false);
                };
                let (Some((round, _)), Some(at)) = (
                    ring_all_reduce_round(p, c.n, i),
                    ring_all_reduce_position(p, i),
                ) else {
                    return String::new();
                };
                // the verdict once the values have run (never runs them)
                let done = (rounds_done == rounds)
                    .then(|| s.executed().map(|v| v.verification.ok()))
                    .flatten();
                let title = round_title_of(ring, round.phase, at, "");
                round_sentence(ring, p, &round, &title, c.elem_bytes, None, done)
            }
        }
    }

    /// Bytes each rank has sent after `rounds` rounds.
    pub fn sent_after(&self, rounds: usize) -> Vec<u64> {
        match self {
            RingRun::Drawn(t) => t.sent_after(rounds),
            RingRun::Numbers(s) => s.counts.sent_after(rounds, |i| s.round_at(i)),
        }
    }

    /// Bytes each rank has received after `rounds` rounds.
    pub fn recv_after(&self, rounds: usize) -> Vec<u64> {
        match self {
            RingRun::Drawn(t) => t.recv_after(rounds),
            RingRun::Numbers(s) => s.counts.recv_after(rounds, |i| s.round_at(i)),
        }
    }

    /// Number of transfers in round `k` (1-based; 0 when out of range).
    pub fn transfers_in(&self, k: usize) -> usize {
        let Some(i) = k.checked_sub(1) else {
            return 0;
        };
        match self {
            RingRun::Drawn(t) => t.schedule.rounds.get(i).map_or(0, |r| r.transfers.len()),
            RingRun::Numbers(s) => s.counts.transfers.get(i).copied().unwrap_or(0),
        }
    }

    /// The transfer log of round `step` (1-based), each transfer described by `what`.
    pub fn entries(&self, step: usize, what: impl Fn(&Transfer) -> String) -> Vec<LogEntry> {
        match self {
            RingRun::Drawn(t) => round_entries(t, step, what),
            RingRun::Numbers(s) => step
                .checked_sub(1)
                .and_then(|i| s.round_at(i))
                .map(|round| entries_of(&round, s.counts.elem_bytes, &[], what))
                .unwrap_or_default(),
        }
    }

    /// The ring's α–β time, seconds, and its explanation
    /// ([`executed_time`], [`explain`]).
    pub fn time(&self, alpha: f64, beta: f64) -> (f64, String) {
        match self {
            RingRun::Drawn(t) => (
                executed_time(&t.schedule, alpha, beta),
                explain(&t.schedule, alpha, beta),
            ),
            RingRun::Numbers(s) => (
                s.counts.executed_time(alpha, beta),
                explain_counted(&s.counts.round_max_bytes, &s.counts.transfers, alpha, beta),
            ),
        }
    }
}
