//! The ring all-reduce on the clock without its schedule: both modes'
//! totals for the ring view's numbers-only path (p above the drawn size,
//! up to p = 1024, 2 095 104 messages). The rounds are generated one at a
//! time ([`ring_all_reduce_rounds`]) and timed by [`run_rounds`] with no
//! event list; only per-rank finish, busy and waiting time are kept.

use super::run_rounds;

use super::clock::{Clock, ClockError, ClockOptions, Mode};
use crate::core::schedule::ring::ring_all_reduce_rounds;
use crate::core::topology::Topology;
use crate::core::units::format_time;

/// One mode's totals.
#[derive(Clone, Debug, PartialEq)]
pub struct ModeTotals {
    /// Dataflow or lock-step.
    pub mode: Mode,
    /// When the last rank finished, seconds (the ring always completes here:
    /// no rank is late, slow or failed).
    pub finish: f64,
    /// Waiting summed over ranks, rank-seconds ([`Clock::total_wait`]).
    pub total_wait: f64,
    /// Busy time summed over ranks, rank-seconds ([`Clock::total_busy`]).
    pub total_busy: f64,
}

impl ModeTotals {
    fn of(c: &Clock) -> Self {
        ModeTotals {
            mode: c.mode,
            finish: c.end,
            total_wait: c.total_wait(),
            total_busy: c.total_busy(),
        }
    }
}

/// The ring all-reduce of one case on both clocks.
#[derive(Clone, Debug, PartialEq)]
pub struct RingClock {
    /// Ranks.
    pub p: usize,
    /// Messages timed in each mode: 2(p − 1) rounds of p.
    pub messages: usize,
    /// The dataflow clock's totals.
    pub dataflow: ModeTotals,
    /// The lock-step clock's totals.
    pub lockstep: ModeTotals,
}

impl RingClock {
    /// The totals as seven numbers, the form in which the ring page's
    /// clock module (`modules/ringclock`) hands them over: messages per
    /// mode, then finish, waiting and busy time (seconds) of the dataflow
    /// clock, then the same of the lock-step clock.
    pub fn to_wire(&self) -> [f64; 7] {
        let (d, l) = (&self.dataflow, &self.lockstep);
        [
            self.messages as f64,
            d.finish,
            d.total_wait,
            d.total_busy,
            l.finish,
            l.total_wait,
            l.total_busy,
        ]
    }

    /// The totals of `p` ranks back from [`RingClock::to_wire`]'s numbers;
    /// `None` unless there are exactly seven, all finite and not negative,
    /// and the message count is a whole number.
    pub fn from_wire(p: usize, w: &[f64]) -> Option<RingClock> {
        let ok =
            w.len() == 7 && w.iter().all(|x| x.is_finite() && *x >= 0.0) && w[0].fract() == 0.0;
        ok.then(|| {
            let totals = |mode, i: usize| ModeTotals {
                mode,
                finish: w[i],
                total_wait: w[i + 1],
                total_busy: w[i + 2],
            };
            RingClock {
                p,
                messages: w[0] as usize,
                dataflow: totals(Mode::Dataflow, 1),
                lockstep: totals(Mode::LockStep, 4),
            }
        })
    }
}

/// Times the ring all-reduce of `n` elements of `elem_bytes` bytes on `p`
/// ranks of a flat topology (α seconds, β seconds per byte; one
/// full-duplex port per rank) in both modes, whole messages (k = 1).
///
/// # Errors
/// [`ClockError`] from [`run_rounds`] (never expected for `p ≥ 2`, `n ≥ 1`
/// and p ≤ 1024).
pub fn ring_clock(
    p: usize,
    n: u64,
    elem_bytes: u64,
    alpha: f64,
    beta: f64,
) -> Result<RingClock, ClockError> {
    let topo = Topology::flat(p, alpha, beta);
    let mut out = Vec::with_capacity(2);
    let mut messages = 0;
    for mode in [Mode::Dataflow, Mode::LockStep] {
        let opts = ClockOptions {
            keep_events: false,
            ..ClockOptions::new(mode)
        };
        let c = run_rounds(p, elem_bytes, ring_all_reduce_rounds(p, n), &topo, &opts)?;
        messages = c.message_count;
        out.push(ModeTotals::of(&c));
    }
    let lockstep = out.pop().ok_or(ClockError::Segments)?;
    let dataflow = out.pop().ok_or(ClockError::Segments)?;
    Ok(RingClock {
        p,
        messages,
        dataflow,
        lockstep,
    })
}

/// The totals in sentences: each mode's finish and waiting, and the
/// difference.
pub fn describe(c: &RingClock) -> Vec<String> {
    let (d, l) = (&c.dataflow, &c.lockstep);
    let diff = l.finish - d.finish;
    let same = diff.abs() <= 1e-12 + 1e-9 * l.finish.abs();
    vec![
        format!(
            "Dataflow finishes at {}, lock-step at {}: {}.",
            format_time(d.finish),
            format_time(l.finish),
            if same {
                "the same time (every rank sends one chunk and receives one per round, so no rank waits for a barrier)".to_string()
            } else if diff > 0.0 {
                format!("dataflow is {} earlier", format_time(diff))
            } else {
                format!("dataflow is {} later", format_time(-diff))
            }
        ),
        format!(
            "Waiting summed over the {} ranks: {} dataflow, {} lock-step.",
            c.p,
            format_time(d.total_wait),
            format_time(l.total_wait)
        ),
    ]
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn the_ring_at_p_1024_alpha_0_takes_2_p_minus_1_over_p_n_beta_in_both_modes() {
        // p = 1024, n = 1024 × 1000 f32 (4 096 000 B), β = 1 / 12.5 GB/s,
        // α = 0. Each of the 2(p − 1) = 2046 rounds moves a chunk of n/p =
        // 4000 B through every port, alone on it: 4000 × 0.08 ns = 320 ns.
        // Total 2046 × 320 ns = 654.72 µs = 2(p − 1)/p · n · β. Every rank
        // sends and receives all the time, in both modes: no waiting, and
        // busy p × 654.72 µs in all.
        let p = 1024;
        let beta = 1.0 / 12.5e9;
        let c = ring_clock(p, 1024 * 1000, 4, 0.0, beta).expect("runs");
        let want = 2.0 * 1023.0 / 1024.0 * 4_096_000.0 * beta;
        assert!((want - 654.72e-6).abs() < 1e-15);
        assert_eq!(c.messages, 2 * 1023 * 1024);
        for m in [&c.dataflow, &c.lockstep] {
            assert!((m.finish - want).abs() <= 1e-9 * want, "{m:?}");
            assert!(m.total_wait.abs() <= 1e-9 * want * p as f64, "{m:?}");
            assert!((m.total_busy - want * p as f64).abs() <= 1e-9 * want * p as f64);
        }
        assert_eq!(c.dataflow.mode, Mode::Dataflow);
        let text = describe(&c);
        assert!(
            text[0]
                .starts_with("Dataflow finishes at 654.7 µs, lock-step at 654.7 µs: the same time"),
            "{text:?}"
        );
    }

    #[test]
    fn the_totals_cross_to_the_module_and_back_unchanged() {
        // p = 96, α = 5 µs: 2 × 95 × 96 = 18 240 messages per mode; the
        // seven numbers give back the same totals, bit for bit.
        let c = ring_clock(96, 1_000_003, 4, 5e-6, 1e-10).expect("runs");
        let w = c.to_wire();
        assert_eq!(w[0], 18_240.0);
        assert_eq!(w[1], c.dataflow.finish);
        assert_eq!(w[6], c.lockstep.total_busy);
        assert_eq!(RingClock::from_wire(96, &w), Some(c));
        assert_eq!(RingClock::from_wire(96, &w[..6]), None);
        let mut bad = w;
        bad[2] = f64::NAN;
        assert_eq!(RingClock::from_wire(96, &bad), None);
        bad = w;
        bad[0] = 0.5;
        assert_eq!(RingClock::from_wire(96, &bad), None);
    }

    #[test]
    fn the_streamed_clock_is_the_clock_of_the_schedule() {
        // p = 96 (above the drawn size), 1 000 003 elements (chunks of
        // 10 417 or 10 418), α = 5 µs: the streamed rounds and the generated
        // schedule give the same clocks, bit for bit.
        use crate::core::collectives::Algorithm;
        use crate::core::timing::run;
        let topo = Topology::flat(96, 5e-6, 1e-10);
        let s = Algorithm::RING
            .generate_on(&topo, 1_000_003, 4)
            .expect("valid");
        let c = ring_clock(96, 1_000_003, 4, 5e-6, 1e-10).expect("runs");
        for (mode, got) in [(Mode::Dataflow, &c.dataflow), (Mode::LockStep, &c.lockstep)] {
            let o = ClockOptions {
                keep_events: false,
                ..ClockOptions::new(mode)
            };
            let want = run(&s, &topo, &o).expect("runs");
            assert_eq!(got, &ModeTotals::of(&want), "{mode:?}");
        }
    }
}
