//! The timeline's sentences and numbers about whole clocks: the lock-step
//! against dataflow contrast, the failure report, and the per-rank summary
//! with algbw and busbw (nccl-tests' definitions).

use super::clock::{Clock, Faults, Outcome};
use crate::core::cost::nccl::{algbw, busbw_factor, nccl_tests_size, CollectiveKind};
use crate::core::units::format_time;

/// The ranks the critical path passes through (senders and receivers of
/// its messages), sorted.
pub fn critical_ranks(clock: &Clock) -> Vec<usize> {
    let mut v: Vec<usize> = clock
        .messages
        .iter()
        .filter(|m| m.critical)
        .flat_map(|m| [m.src, m.dst])
        .collect();
    crate::core::order::sort_usize(&mut v);
    v.dedup();
    v
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 + 1e-6 * a.abs().max(b.abs())
}

fn ranks_text(r: &[usize]) -> String {
    let v: Vec<String> = r.iter().map(usize::to_string).collect();
    match v.len() {
        1 => format!("rank {}", v[0]),
        _ => format!("ranks {}", v.join(", ")),
    }
}

/// Lock-step (`ls`) against dataflow (`df`): the two totals and their
/// difference, and, when the finish is the same but the waiting differs,
/// why.
pub fn contrast(df: &Clock, ls: &Clock, faults: &Faults) -> Vec<String> {
    if !df.completes() || !ls.completes() {
        return vec!["At least one mode does not complete: see the failure panel.".into()];
    }
    let d = ls.end - df.end;
    let mut out = vec![format!(
        "Dataflow {} against lock-step {}: {}.",
        format_time(df.end),
        format_time(ls.end),
        if same(df.end, ls.end) {
            "the same finish".to_string()
        } else if d > 0.0 {
            format!("dataflow finishes {} earlier", format_time(d))
        } else {
            format!("dataflow finishes {} later", format_time(-d))
        }
    )];
    let (wd, wl) = (df.total_wait(), ls.total_wait());
    out.push(format!(
        "Waiting summed over ranks: {} dataflow, {} lock-step.",
        format_time(wd),
        format_time(wl)
    ));
    if same(df.end, ls.end) && !same(wd, wl) {
        let late: Vec<usize> = faults.late.iter().map(|&(r, _)| r).collect();
        let slow: Vec<usize> = faults.slow.iter().map(|&(r, _)| r).collect();
        let who = if !late.is_empty() {
            format!("the late {}", ranks_text(&late))
        } else if !slow.is_empty() {
            format!("the slow {}", ranks_text(&slow))
        } else {
            "the slowest rank".to_string()
        };
        let crit = critical_ranks(df);
        let named: Vec<usize> = late
            .iter()
            .chain(&slow)
            .copied()
            .filter(|r| crit.contains(r))
            .collect();
        let chain = if named.is_empty() {
            "but the critical path still fixes the finish".to_string()
        } else {
            format!(
                "but the dependency chain (critical path) still passes through {}",
                ranks_text(&named)
            )
        };
        out.push(format!(
            "Why the same finish with less waiting: lock-step's barrier makes every rank wait for {who} up front; \
             dataflow lets the ranks that do not need it yet work, so they wait {} less in total, {chain}.",
            format_time(wl - wd)
        ));
    }
    out
}

/// The failure report of a stalled clock: the headline, who failed when,
/// who waits for whom, and who finished. Empty when the clock completes.
pub fn failure(clock: &Clock) -> Vec<String> {
    let Outcome::Stalled { at, blocked } = &clock.outcome else {
        return Vec::new();
    };
    let mut out = vec!["The collective does not complete.".to_string()];
    let failed: Vec<String> = clock
        .failed()
        .iter()
        .map(|(r, t)| format!("rank {r} fails at {}", format_time(*t)))
        .collect();
    if !failed.is_empty() {
        out.push(format!(
            "{}; nothing more moves after {}.",
            crate::core::units::capitalise(&failed.join(", ")),
            format_time(*at)
        ));
    }
    for b in blocked {
        let whom: Vec<String> = b.waits_for.iter().map(usize::to_string).collect();
        out.push(format!(
            "Rank {} is stuck in round {} (piece {}) waiting for rank{} {}.",
            b.rank,
            b.round + 1,
            b.piece + 1,
            if whom.len() > 1 { "s" } else { "" },
            whom.join(" and ")
        ));
    }
    let done: Vec<usize> = (0..clock.p)
        .filter(|&r| clock.ranks[r].finish.is_some())
        .collect();
    out.push(if done.is_empty() {
        "No rank holds the result.".to_string()
    } else {
        format!(
            "Only {} finished; the others hold no result.",
            ranks_text(&done)
        )
    });
    out
}

/// The whole-clock numbers of the summary.
#[derive(Clone, Debug, PartialEq)]
pub struct Totals {
    /// When the last rank finished, seconds (`None`: stalled).
    pub time: Option<f64>,
    /// nccl-tests' algbw = size / time, bytes per second (size as nccl-tests
    /// counts it: [`nccl_tests_size`], one rank's row for an all-to-all).
    pub algbw: Option<f64>,
    /// busbw = algbw × the algorithm's busbw factor, bytes per second.
    pub busbw: Option<f64>,
    /// Waiting summed over ranks, rank-seconds.
    pub wait: f64,
    /// The straggler's cost: waiting beyond the fault-free case, rank-seconds
    /// (`None` without a baseline, and when the clock stalls: a run that
    /// never finishes has no waiting to compare).
    pub extra_wait: Option<f64>,
}

/// See [`Totals`]; `collective` is the one the clocked schedule computes
/// (it sets the busbw factor) and `baseline` the same case without faults.
pub fn totals(
    clock: &Clock,
    collective: CollectiveKind,
    bytes: f64,
    baseline: Option<&Clock>,
) -> Totals {
    let time = clock.completes().then_some(clock.end);
    let a = time.map(|t| algbw(nccl_tests_size(collective, bytes, clock.p), t));
    Totals {
        time,
        algbw: a,
        busbw: a.map(|a| a * busbw_factor(collective, clock.p)),
        wait: clock.total_wait(),
        extra_wait: baseline
            .filter(|_| clock.completes())
            .map(|b| clock.extra_wait(b)),
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::core::timing::clock::Mode;

    fn ring4(mode: Mode, faults: &Faults) -> Clock {
        crate::core::timing::fixtures::ring4(mode, faults)
    }

    #[test]
    fn the_late_ring_says_why_the_finish_is_the_same() {
        let late = Faults {
            late: vec![(2, 5e-3)],
            ..Faults::default()
        };
        let (df, ls) = (ring4(Mode::Dataflow, &late), ring4(Mode::LockStep, &late));
        let text = contrast(&df, &ls, &late);
        assert_eq!(
            text[0],
            "Dataflow 17.00 ms against lock-step 17.00 ms: the same finish."
        );
        assert_eq!(
            text[1],
            "Waiting summed over ranks: 11.00 ms dataflow, 15.00 ms lock-step."
        );
        assert!(
            text[2].contains("wait for the late rank 2 up front"),
            "{}",
            text[2]
        );
        assert!(text[2].contains("4.000 ms less"), "{}", text[2]);
        assert!(
            text[2].contains("still passes through rank 2"),
            "{}",
            text[2]
        );
        let base = ring4(Mode::Dataflow, &Faults::default());
        let t = totals(&df, CollectiveKind::AllReduce, 100e6, Some(&base));
        assert!((t.time.expect("done") - 17e-3).abs() < 1e-12);
        assert!((t.algbw.expect("bw") - 100e6 / 17e-3).abs() < 1e-3);
        // busbw = algbw × 2(p − 1)/p = × 1.5
        assert!((t.busbw.expect("bw") - 1.5 * 100e6 / 17e-3).abs() < 1e-3);
        assert!((t.extra_wait.expect("cost") - 11e-3).abs() < 1e-12);
    }

    #[test]
    fn the_failed_ring_reports_no_result() {
        let fail = Faults {
            fail: vec![(2, 3e-3)],
            ..Faults::default()
        };
        let c = ring4(Mode::Dataflow, &fail);
        let f = failure(&c);
        assert_eq!(f[0], "The collective does not complete.");
        assert_eq!(
            f[1],
            "Rank 2 fails at 3.000 ms; nothing more moves after 4.000 ms."
        );
        assert!(
            f.contains(&"Rank 1 is stuck in round 2 (piece 1) waiting for rank 2.".to_string()),
            "{f:?}"
        );
        // Rank 0 waits for two ranks: "ranks", plural.
        assert!(
            f.contains(
                &"Rank 0 is stuck in round 3 (piece 1) waiting for ranks 1 and 3.".to_string()
            ),
            "{f:?}"
        );
        assert_eq!(
            f.last().map(String::as_str),
            Some("No rank holds the result.")
        );
        let t = totals(&c, CollectiveKind::AllReduce, 100e6, None);
        assert_eq!((t.time, t.algbw), (None, None));
        // A stalled run has no straggler's cost, even beside its baseline:
        // its waiting stops at the stall (lock-step's came out negative).
        for mode in [Mode::Dataflow, Mode::LockStep] {
            let base = ring4(mode, &Faults::default());
            let t = totals(
                &ring4(mode, &fail),
                CollectiveKind::AllReduce,
                100e6,
                Some(&base),
            );
            assert_eq!((t.time, t.extra_wait), (None, None), "{mode:?}");
        }
        assert!(failure(&ring4(Mode::Dataflow, &Faults::default())).is_empty());
    }
}
