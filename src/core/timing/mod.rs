//! Time: the one home of every timing rule.
//!
//! - [`resources`]: the ports, NIC lanes and rack core that messages share;
//! - [`lockstep`]: every round starts when the last rank is ready, the rule
//!   of every closed form (Hockney 1994's α + bytes·β per message, the
//!   round lasting as long as its slowest message);
//! - [`dataflow`]: per-rank clocks without a barrier, fair sharing of
//!   resources, segments (pipelining), late, slow and failed ranks;
//! - [`clock`]: the two modes' shared entry point ([`run`]) and
//!   output (per-rank finish, busy and waiting time, messages, critical
//!   path, whether the collective completes);
//! - [`trace`]: the clock as CSV and as Chrome trace-event JSON;
//! - [`measured`]: a measured Chrome trace (the MPI runner's `--trace`)
//!   checked and drawn as the model's Gantt chart, beside its clock;
//! - [`traffic`]: the byte counters per link class, NIC and rack core;
//! - [`ring_clock`]: the ring all-reduce's totals on both clocks from
//!   rounds generated one at a time (the ring view above the drawn size).
//!
//! This module itself holds the flat topology's executed time of a
//! schedule and its written-out explanation. Each round costs the maximum
//! over its transfers of `α + bytes·β` (all transfers of a round run at
//! once, each rank sending and receiving through its own port), plus
//! `bytes·γ` for a reduce when γ > 0. Empty transfers (possible when
//! `n < p`) still pay α. The closed forms in [`crate::core::cost`] must
//! agree with this for the schedules they describe; tests hold the two
//! together.

pub mod clock;
pub mod dataflow;
pub mod engine;
#[cfg(all(test, not(target_arch = "wasm32")))]
pub(crate) mod fixtures;
pub mod gantt;
pub mod lockstep;
pub mod measured;
pub mod resources;
pub mod ring_clock;
pub mod story;
pub mod trace;
pub mod traffic;

pub use self::engine::{run, run_rounds, start_dataflow};
pub use self::lockstep::RoundGroup;
use self::lockstep::{round_times_on, rounds_breakdown, rounds_time};
use self::resources::Network;
use super::cost::CostParams;
use super::schedule::Schedule;
use super::topology::Topology;
use super::units::{format_beta, format_decimal, format_time};

/// The time of every round of `schedule` on the flat topology, seconds:
/// each round costs the maximum over its transfers of `α + bytes·β`
/// (+ `bytes·γ` for a `Reduce`, the reduction compute cost), where the
/// bytes are those on the transfer's busier port when a rank sends or
/// receives several messages in one round ([`lockstep`]). A zero-byte
/// transfer (possible when `n < p`) is still a message and pays α; a round
/// without transfers costs 0.
pub fn executed_round_times(schedule: &Schedule, c: CostParams) -> Vec<f64> {
    let topo = Topology::flat(schedule.p, c.alpha, c.beta);
    round_times_on(schedule, &Network::new(&topo, &[]), c.gamma)
}

/// Total α–β(–γ) time of the schedule, seconds: the sum of
/// [`executed_round_times`].
pub fn executed_time_with(schedule: &Schedule, c: CostParams) -> f64 {
    executed_round_times(schedule, c).iter().sum()
}

/// Total α–β time (γ = 0), seconds. `alpha` is the per-message start-up
/// latency in seconds and `beta` the transfer time in seconds per byte.
/// Equal to [`crate::core::collectives::ring_all_reduce_time`] and
/// [`crate::core::collectives::naive_root_all_reduce_time`] when `p` divides `n`.
pub fn executed_time(schedule: &Schedule, alpha: f64, beta: f64) -> f64 {
    executed_time_with(schedule, CostParams::new(alpha, beta))
}

/// The rounds of `schedule` grouped by largest message size, in first-seen
/// order, so the time can be written as `Σ count × (α + bytes·β)`.
pub fn breakdown(schedule: &Schedule) -> Vec<RoundGroup> {
    let mut groups: Vec<RoundGroup> = Vec::new();
    for r in &schedule.rounds {
        let bytes = r
            .transfers
            .iter()
            .map(|t| t.bytes(schedule.elem_bytes))
            .max()
            .unwrap_or(0);
        match groups.iter_mut().find(|g| g.bytes == bytes) {
            Some(g) => g.count += 1,
            None => groups.push(RoundGroup { count: 1, bytes }),
        }
    }
    groups
}

/// The executed time written out with numbers and units, e.g.
/// `"6 rounds × (0 s + 25 MB × 0.08 ns/B) = 12.00 ms"`; unequal rounds are
/// summed group by group.
pub fn explain(schedule: &Schedule, alpha: f64, beta: f64) -> String {
    explain_groups(
        &breakdown(schedule),
        &format_time(executed_time(schedule, alpha, beta)),
        alpha,
        beta,
    )
}

/// [`explain`] ending in `shown_total` instead of [`format_time`] of the
/// executed time: for a view that prints the executed time the way it
/// prints a value compared with it
/// ([`crate::core::collectives::ShownTimes`]), so both read the same digits.
pub fn explain_shown(schedule: &Schedule, alpha: f64, beta: f64, shown_total: &str) -> String {
    explain_groups(&breakdown(schedule), shown_total, alpha, beta)
}

/// [`explain`] of a schedule known only by the largest message
/// (`round_max_bytes[i]`, bytes) and message count (`transfers[i]`) of each
/// round, as [`crate::core::execute::Counts`] and
/// [`crate::core::execute::Streamed`] keep them (a
/// run that never held its whole schedule); the same text, since their
/// breakdown and time equal [`breakdown`] and [`executed_time`] of the
/// schedule counted.
pub fn explain_counted(
    round_max_bytes: &[u64],
    transfers: &[usize],
    alpha: f64,
    beta: f64,
) -> String {
    explain_groups(
        &rounds_breakdown(round_max_bytes),
        &format_time(rounds_time(round_max_bytes, transfers, alpha, beta)),
        alpha,
        beta,
    )
}

fn explain_groups(groups: &[RoundGroup], total: &str, alpha: f64, beta: f64) -> String {
    let terms: Vec<String> = groups
        .iter()
        .map(|g| {
            format!(
                "{} round{} × ({} + {} × {})",
                g.count,
                if g.count == 1 { "" } else { "s" },
                format_time(alpha),
                format_decimal(g.bytes as f64),
                format_beta(beta)
            )
        })
        .collect();
    format!("{} = {total}", terms.join(" + "))
}

/// Bytes each rank sends in a ring all-reduce of `n_bytes` over `p` ranks
/// when chunks are equal: `2(p − 1)/p · n` (Patarasuk & Yuan 2009), and the
/// substitution written out: `"2(p − 1)/p · n = 2 × 3/4 × 100 MB = 150 MB"`.
pub fn ring_bytes_per_rank(p: usize, n_bytes: f64) -> (f64, String) {
    let v = 2.0 * (p as f64 - 1.0) / p as f64 * n_bytes;
    (
        v,
        format!(
            "2(p − 1)/p · n = 2 × {}/{} × {} = {}",
            p - 1,
            p,
            format_decimal(n_bytes),
            format_decimal(v)
        ),
    )
}

/// The ring all-reduce volume per rank in either accounting convention:
/// bytes sent only (`2(p − 1)/p · n`), or sent plus received, which is twice
/// that because every rank receives exactly as much as it sends.
pub fn ring_bytes_counted(p: usize, n_bytes: f64, sent_and_received: bool) -> f64 {
    let (sent, _) = ring_bytes_per_rank(p, n_bytes);
    if sent_and_received {
        2.0 * sent
    } else {
        sent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::collectives::naive_root_schedule;
    use crate::core::schedule::ring::ring_all_reduce_schedule;

    #[test]
    fn explain_counted_is_explain_of_the_schedule() {
        use crate::core::execute::count_only;
        use crate::core::schedule::ring::ring_all_reduce_schedule;
        for (p, n) in [(4, 100_000_000 / 4), (5, 17), (64, 1000)] {
            let s = ring_all_reduce_schedule(p, n, 4).expect("valid");
            let c = count_only(&s).expect("counts");
            for (a, b) in [(0.0, 8e-11), (5e-6, 1e-9)] {
                assert_eq!(
                    explain_counted(&c.round_max_bytes, &c.transfers, a, b),
                    explain(&s, a, b)
                );
            }
        }
        let s = ring_all_reduce_schedule(4, 25_000_000, 4).expect("valid");
        let c = count_only(&s).expect("counts");
        assert_eq!(
            explain_counted(&c.round_max_bytes, &c.transfers, 0.0, 8e-11),
            "6 rounds × (0 s + 25 MB × 0.08 ns/B) = 12.00 ms"
        );
    }

    #[test]
    fn course_ring_vs_naive_at_12_5_gb_per_s() {
        // p = 4, 100 MB, β = 1/12.5e9 s/B, α = 0: ring 6 × 2 ms = 12 ms,
        // naive root 6 × 8 ms = 48 ms.
        let beta = 1.0 / 12.5e9;
        let ring = ring_all_reduce_schedule(4, 100_000_000, 1).expect("valid");
        let naive = naive_root_schedule(4, 100_000_000, 1).expect("valid");
        assert!((executed_time(&ring, 0.0, beta) - 0.012).abs() < 1e-12);
        assert!((executed_time(&naive, 0.0, beta) - 0.048).abs() < 1e-12);
        assert_eq!(
            breakdown(&ring),
            vec![RoundGroup {
                count: 6,
                bytes: 25_000_000
            }]
        );
        // α adds once per round: 6 rounds × 5 µs.
        assert!((executed_time(&ring, 5e-6, beta) - 0.012_030).abs() < 1e-12);
        assert_eq!(
            explain(&ring, 0.0, beta),
            "6 rounds × (0 s + 25 MB × 0.08 ns/B) = 12.00 ms"
        );
        assert_eq!(
            explain(&naive, 0.0, beta),
            "6 rounds × (0 s + 100 MB × 0.08 ns/B) = 48.00 ms"
        );
        let (v, text) = ring_bytes_per_rank(4, 100e6);
        assert_eq!(v, 150e6);
        assert_eq!(text, "2(p − 1)/p · n = 2 × 3/4 × 100 MB = 150 MB");
        assert_eq!(ring_bytes_counted(4, 100e6, false), 150e6);
        assert_eq!(ring_bytes_counted(4, 100e6, true), 300e6);
        // …and the executed ring agrees: each rank received what it sent.
        let t = crate::core::execute::execute(
            &ring,
            &crate::core::execute::default_init,
            Default::default(),
        )
        .expect("runs");
        assert_eq!(
            (t.sent_after(6)[0] + t.recv_after(6)[0]) as f64,
            ring_bytes_counted(4, 100e6, true)
        );
    }

    #[test]
    fn unequal_chunks_cost_the_largest_message() {
        // 10 bytes over 4 ranks: chunks 3,3,2,2; every ring round has a 3-byte message.
        let ring = ring_all_reduce_schedule(4, 10, 1).expect("valid");
        assert_eq!(breakdown(&ring), vec![RoundGroup { count: 6, bytes: 3 }]);
        assert!((executed_time(&ring, 1.0, 1.0) - 6.0 * 4.0).abs() < 1e-12);
    }
}
