//! The measure view's importer reads what the runner prints: captured
//! output of `collective-lab-run` on this repository's build machine
//! (`tests/fixtures/*.txt`, `mpirun --oversubscribe -n P` on 2 cores), run
//! through `collective_lab::core::measure::import` and its row checks.

use collective_lab::core::measure::checks::check;
use collective_lab::core::measure::{import, CollectiveKind, Format, ImportOptions, Log};

fn read(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn logs(name: &str) -> Vec<Log> {
    let text = read(name);
    let imp = import(&text, &ImportOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        imp.messages.is_empty(),
        "{name}: the importer complained: {:?}",
        imp.messages
    );
    imp.logs
}

/// Sizes doubling from `from`, `count` of them.
fn doubling(from: f64, count: usize) -> Vec<f64> {
    (0..count).map(|k| from * f64::from(1u32 << k)).collect()
}

#[test]
fn osu_output_reads_as_an_osu_all_reduce_log_of_four_ranks() {
    // --sizes 4B:64KiB: 2² … 2¹⁶ B, 15 sizes, 20 iterations each.
    let logs = logs("osu_ring_p4.txt");
    assert_eq!(logs.len(), 1);
    let log = &logs[0];
    assert_eq!(log.format, Format::Osu);
    assert_eq!(log.collective, CollectiveKind::AllReduce);
    assert!(log.collective_note.contains("from the title"));
    assert_eq!(log.stated_p.as_ref().map(|r| r.p), Some(4));
    let rows = &log.series[0].rows;
    let sizes: Vec<f64> = rows.iter().map(|r| r.size.value).collect();
    assert_eq!(sizes, doubling(4.0, 15));
    for r in rows {
        assert_eq!(r.iterations, Some(20));
        let (min, max) = (r.min_time.expect("min"), r.max_time.expect("max"));
        // OSU's columns are rounded to 0.01 µs each: min ≤ avg ≤ max holds
        // within that.
        assert!(min <= r.time.value + 1e-8 && r.time.value <= max + 1e-8);
    }
}

#[test]
fn osu_output_with_the_baseline_reads_as_two_logs_side_by_side() {
    // --sizes 28B:7KiB at p = 3: 28 · 2⁰ … 28 · 2⁸, 9 sizes that p does
    // not divide (7 · 2ᵏ elements); ours on the left, MPI_Allreduce right.
    let logs = logs("osu_rab_p3_baseline.txt");
    assert_eq!(logs.len(), 2);
    assert_eq!(
        (logs[0].part.as_str(), logs[1].part.as_str()),
        ("left", "right")
    );
    assert!(logs[0].title.contains("collective-lab-run rab"));
    assert!(logs[1].title.contains("MPI_Allreduce"));
    for log in &logs {
        assert_eq!(log.format, Format::Osu);
        assert_eq!(log.collective, CollectiveKind::AllReduce);
        assert_eq!(log.stated_p.as_ref().map(|r| r.p), Some(3));
        let sizes: Vec<f64> = log.series[0].rows.iter().map(|r| r.size.value).collect();
        assert_eq!(sizes, doubling(28.0, 9));
    }
}

#[test]
fn nccl_output_with_the_baseline_reads_as_two_series_that_check() {
    // --sizes 8B:1MiB: 2³ … 2²⁰ B, 18 sizes; two groups, "ring" and
    // "MPI_Allreduce"; p = 4 from the four rank lines.
    let logs = logs("nccl_ring_p4_baseline.txt");
    assert_eq!(logs.len(), 1);
    let log = &logs[0];
    assert_eq!(log.format, Format::NcclTests);
    assert_eq!(log.collective, CollectiveKind::AllReduce);
    assert!(log.collective_note.contains("all_reduce_perf"));
    assert_eq!(log.stated_p.as_ref().map(|r| r.p), Some(4));
    let labels: Vec<&str> = log.series.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, vec!["ring", "MPI_Allreduce"]);
    for s in &log.series {
        let sizes: Vec<f64> = s.rows.iter().map(|r| r.size.value).collect();
        assert_eq!(sizes, doubling(8.0, 18));
    }
    assert!(log.series[0].rows.iter().all(|r| r.wrong == Some(0.0)));
    assert!(log.series[1].rows.iter().all(|r| r.wrong.is_none()), "N/A");
    let c = check(log, 4, None, None);
    assert_eq!(c.flagged, 0, "{:?}", c.rows);
    let avg = c.avg.expect("the # Avg bus bandwidth trailer");
    assert!(avg.matches, "{}", avg.note);
    assert_eq!(avg.count, 36);
}

#[test]
fn nccl_output_of_a_reduce_scatter_reads_as_one() {
    // --sizes 20B:20KiB at p = 5: 20 · 2⁰ … 20 · 2¹⁰ B, 11 sizes.
    let logs = logs("nccl_rs_p5.txt");
    let log = &logs[0];
    assert_eq!(log.collective, CollectiveKind::ReduceScatter);
    assert_eq!(log.stated_p.as_ref().map(|r| r.p), Some(5));
    assert_eq!(log.series.len(), 1);
    assert_eq!(log.series[0].label, "rs");
    assert_eq!(log.series[0].rows.len(), 11);
    let c = check(log, 5, None, None);
    assert_eq!(c.flagged, 0, "{:?}", c.rows);
    assert!(c.avg.is_some_and(|a| a.matches));
}

#[test]
fn the_annotation_line_names_the_algorithm_and_p_of_each_runner_log() {
    use collective_lab::core::collectives::Algorithm;
    use collective_lab::core::measure::analysis::{analyse, Settings};
    use collective_lab::core::measure::RankSource;
    for (name, alg, p) in [
        ("osu_ring_p4.txt", Algorithm::RING, 4),
        ("nccl_ring_p4_baseline.txt", Algorithm::RING, 4),
        ("nccl_rs_p5.txt", Algorithm::RS, 5),
        ("osu_rab_p3_baseline.txt", Algorithm::RAB, 3),
    ] {
        let a = analyse(&read(name), &Settings::default());
        let s = &a.logs[0];
        assert_eq!(s.p.p, p, "{name}");
        assert_eq!(s.p.source, RankSource::Annotation { line: 1 }, "{name}");
        let c = s.comparison.clone().expect("annotated").expect("compared");
        assert_eq!(c.alg, alg, "{name}");
        assert_eq!(c.factors, alg.factors(p), "{name}");
        // One log (or a side-by-side pair whose right half, MPI's own
        // all-reduce, carries no annotation): no joint fit.
        assert!(a.joint.is_empty(), "{name}");
    }
}
