//! Tests on real logs pasted in public issues and pull requests
//! (`tests/fixtures/logs/real-*.txt`, each with its source URL on line 1;
//! `tests/fixtures/logs/README.md` lists what each must give). Every value
//! below is derived by hand from the printed digits, as the comments show.

use super::analysis::{analyse, model_for, Analysis, Settings};
use super::fit::FitError;
use super::*;

use super::tests::fixture;

fn run(text: &str) -> Analysis {
    analyse(text, &Settings::default())
}

fn first_log(a: &Analysis) -> &Log {
    &a.import.as_ref().expect("imports").logs[0]
}

#[test]
fn p_undetermined_lists_the_range_that_fits_the_printed_digits() {
    // NVIDIA/nccl#527, rows only. Each row allows p ∈ [2/(2−r_lo), 2/(2−r_hi)]
    // with r = busbw / (size / time) over the printed ±0.005 GB/s:
    // - 131072 B in 406.8 µs: algbw 0.32221 GB/s; busbw 0.62 → r ∈
    //   [0.615, 0.625] / 0.32221 = [1.9087, 1.9397] → p ∈ [21.9, 33.1];
    // - 32768 B in-place 382.1 µs: 0.085758 GB/s; 0.17 → r ∈ [1.9240, 2.04]
    //   → p ≥ 26.3 (no upper bound, r > 2 is possible in the interval);
    // the other rows are wider. So p ∈ [26.3, 33.1]: p = 27 … 33.
    let a = run(fixture!("real-nccl-527-ec2-rows-only-error-col.txt"));
    let la = a.log.as_ref().expect("a log");
    assert_eq!(
        la.resolved.p.source,
        RankSource::Undetermined {
            lo: 27,
            hi: Some(33)
        }
    );
    assert!(la.resolved.p.note.contains("every p from 27 to 33 fits"));
    assert!(la.resolved.p.note.contains("Set the rank count p"));
    assert!(matches!(la.fit, Err(FitError::RankCountUnknown(_))));
    // The user sets p = 32 (4 nodes × 8 GPUs): the fit appears.
    let s = Settings {
        user_p: Some(32),
        ..Settings::default()
    };
    let b = analyse(fixture!("real-nccl-527-ec2-rows-only-error-col.txt"), &s);
    let lb = b.log.as_ref().expect("a log");
    assert_eq!(lb.resolved.p.source, RankSource::User);
    assert!(lb.fit.is_ok());
    assert_eq!(lb.checks.flagged, 0);
}

#[test]
fn busbw_printed_as_zero_still_bounds_p() {
    // NVIDIA/nccl-tests#150: every busbw is 0.00, i.e. in [0, 0.005] GB/s.
    // 64 B in 19.36 µs: algbw 0.0033058 GB/s, so r ≤ 0.005 / 0.0033058 =
    // 1.5125 → p ≤ 2/(2 − 1.5125) = 4.10; in-place 19.07 µs: 0.0033560,
    // r ≤ 1.4899 → p ≤ 3.92. Smaller sizes allow r > 2 (no bound). So
    // p ∈ {2, 3} (the run had 2 ranks); before, these rows were dropped and
    // p = 8 was assumed.
    let a = run(fixture!("real-nccl-tests-150-2rank-small-sizes.txt"));
    let la = a.log.as_ref().expect("a log");
    assert_eq!(
        la.resolved.p.source,
        RankSource::Undetermined { lo: 2, hi: Some(3) }
    );
    assert_eq!(la.checks.flagged, 0);
}

#[test]
fn a_ratio_above_two_is_impossible_for_an_all_reduce() {
    // One row whose busbw / algbw = 2.50 / 1.00 lies above 2: 2(p−1)/p < 2
    // for every p, so no p fits and the page asks for p.
    let text = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n\
        1000000        250000     float     sum      -1   1000.0    1.00    2.50      0   1000.0    1.00    2.50      0\n";
    let a = run(text);
    let la = a.log.as_ref().expect("a log");
    assert!(matches!(
        la.resolved.p.source,
        RankSource::Undetermined { lo: 2, hi: None }
    ));
    assert!(
        la.resolved.p.note.contains("above 2"),
        "{}",
        la.resolved.p.note
    );
}

#[test]
fn headerless_nccl_rows_are_read_and_p_inferred() {
    // deepseek-ai/DeepEP#303: units line and rows, no column header.
    // 9 rows × 2 groups. p: 1024 B in 16.38 µs → algbw 0.062515 GB/s,
    // busbw 0.11 → r ∈ [1.6796, 1.8396] → p ∈ [6.25, 12.5]; in-place
    // 15.71 µs → 0.065182, r ∈ [1.6109, 1.7643] → p ∈ [5.14, 8.49];
    // 512 B in 16.26 µs → 0.031488, busbw 0.06 → r ≥ 1.7467 → p ≥ 7.90.
    // Only p = 8 fits (one H20 node of 8 GPUs).
    let a = run(fixture!("real-nccl-tests-deepep303-h20-rows-only.txt"));
    let l = first_log(&a);
    assert_eq!(l.format, Format::NcclTests);
    assert_eq!(l.notes[0], nccl::HEADERLESS_NOTE);
    assert_eq!(
        l.series.iter().map(|s| s.rows.len()).collect::<Vec<_>>(),
        [9, 9]
    );
    let la = a.log.as_ref().expect("a log");
    assert_eq!(
        (la.resolved.p.p, &la.resolved.p.source),
        (8, &RankSource::Inferred)
    );
    assert_eq!(la.checks.flagged, 0);
    assert_eq!(l.title, "", "a units line is not a title");

    // kvcache-ai/Mooncake#3484: 11 rows with redop and root. 33554432 B in
    // 195.40 µs → algbw 171.72 GB/s (printed 171.72); busbw 300.51 / 171.72
    // = 1.75 = 2(p−1)/p → p = 8.
    let a = run(fixture!("real-mooncake-3484-allreduce-rows-only.txt"));
    let la = a.log.as_ref().expect("a log");
    assert_eq!(first_log(&a).series[0].rows.len(), 11);
    assert_eq!((la.resolved.p.p, la.checks.flagged), (8, 0));
    // The source line names all_reduce_perf but is not the tool's output:
    // the collective is inferred from busbw / algbw, not taken from line 1.
    assert!(first_log(&a).collective_note.contains("inferred"));

    // NVIDIA/nccl#527: the old layout (no root, an `error` column of floats).
    let a = run(fixture!("real-nccl-527-ec2-rows-only-error-col.txt"));
    assert_eq!(first_log(&a).series[1].rows.len(), 12);
}

#[test]
fn headerless_rccl_broadcast_takes_the_tool_from_the_trailer() {
    // ROCm/rccl#2075: rows, then "# Collective test concluded:
    // broadcast_perf" (line 16): broadcast, busbw = algbw, no p from the
    // ratio (factor 1), p = 8 assumed. The ring model has no closed form for
    // broadcast, so the default model is the binomial tree.
    // The trailer 3.41227 GB/s is the mean over the whole run; the 20 values
    // shown average (6.10 + … + 7.16)/20 ≈ 6.9: a partial table.
    let a = run(fixture!("real-rccl-2075-broadcast-rows-only.txt"));
    let l = first_log(&a);
    assert_eq!(l.collective, CollectiveKind::Broadcast);
    assert!(l.collective_note.contains("line 16"));
    assert_eq!(l.title, "", "the trailer is not a title");
    let la = a.log.as_ref().expect("a log");
    assert_eq!(la.resolved.p.source, RankSource::Assumed);
    let f = la.fit.as_ref().expect("a fit under the tree model");
    assert_eq!(f.options.model, Model::Tree);
    assert!(f.notes[0].contains("no closed form for broadcast"));
    assert!(la.checks.avg.as_ref().is_some_and(|a| !a.matches));
}

#[test]
fn rejections_say_why() {
    // NVIDIA/nccl-tests#107: two column headers, no row.
    let e = run(fixture!("real-nccl-tests-107-header-no-rows.txt")).import;
    let Err(ImportError::Unrecognised { messages }) = e else {
        panic!("rejected")
    };
    // the first column header is on line 12 of the fixture
    assert!(
        messages[0]
            .reason
            .starts_with("a column header of nccl-tests (line 12) but no data row below it"),
        "{messages:?}"
    );
    // pytorch/gloo#158: a hand-made table "size NCCL gloo" — 9 rows
    // (lines 3–11) with no header we read and not nccl-tests' layout.
    let e = run(fixture!("real-gloo-158-size-ms-table.txt")).import;
    let Err(ImportError::Unrecognised { messages }) = e else {
        panic!("rejected")
    };
    assert!(
        messages[0]
            .reason
            .starts_with("9 lines look like data rows (first: line 3) but have no column header"),
        "{messages:?}"
    );
}

#[test]
fn titles_only_when_the_log_has_one() {
    // The 72-rank log's first comment lines are a source note and a
    // `# Rank 71 …` line: neither is a title.
    assert_eq!(
        first_log(&run(fixture!("nccl-tests-allreduce-72rank-5rows.txt"))).title,
        ""
    );
    assert_eq!(
        first_log(&run(fixture!("real-rccl-hpc-ai-envs-30-mi300x.txt"))).title,
        ""
    );
    // Generic columns: the first `#` comment above the header, unless it is
    // a source note (the torch fixture's line 1).
    assert_eq!(
        first_log(&run(fixture!(
            "torch-bench-allreduce-8rank-busbw-decimal-MB.txt"
        )))
        .title,
        ""
    );
    assert_eq!(
        first_log(&run("# my cluster, run 3
size(B),time(us)
8,10
16,11
"))
        .title,
        "my cluster, run 3"
    );
    // OSU prints one.
    assert_eq!(
        first_log(&run(fixture!("real-osu-reduce-ompi-12318-np192.txt"))).title,
        "OSU MPI-CUDA Reduce Latency Test v7.3"
    );
    // nccl-tests ≥ 2.13 prints "# Collective test starting: …".
    let t = "# Collective test starting: all_reduce_perf\n# nThread 1 nGpus 1\n\
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n\
        4096          1024     float     sum      -1    84.36    0.05    0.08      0    85.20    0.05    0.08      0\n";
    assert_eq!(
        first_log(&run(t)).title,
        "Collective test starting: all_reduce_perf"
    );
}

#[test]
fn lines_read_in_part_are_not_counted_as_not_read() {
    // microsoft/mscclpp#117: only the in-place group is printed. Each of the
    // 3 rows (lines 8–10) has 6 of 10 columns: read into "in-place", with a
    // message that the out-of-place values are missing. 0 lines not read.
    let a = run(fixture!("real-mscclpp-117-inplace-only.txt"));
    let imp = a.import.as_ref().expect("imports");
    assert_eq!(imp.logs[0].series[0].label, "in-place");
    assert_eq!(imp.logs[0].series[0].rows.len(), 3);
    assert_eq!(imp.messages.len(), 3);
    assert_eq!(imp.unread_lines(), 0);
    let (unread, partial) = imp.split_messages();
    assert_eq!((unread.len(), partial.len()), (0, 3));
    // A line that gives no row still counts: one bad row appended.
    let text = format!("{}  oops\n", fixture!("real-mscclpp-117-inplace-only.txt"));
    let a = run(&text);
    assert_eq!(a.import.as_ref().expect("imports").unread_lines(), 1);
}

#[test]
fn a_reduce_log_is_fitted_under_a_model_that_has_a_closed_form() {
    // open-mpi/ompi#12318: osu_reduce at p = 192 (mpirun -np 192). The
    // default ring model has no closed form for reduce; the binomial tree
    // (⌈log2 192⌉ = 8 start-ups) does.
    assert_eq!(
        model_for(Model::Ring, CollectiveKind::Reduce, 192),
        Model::Tree
    );
    assert_eq!(
        model_for(Model::Ring, CollectiveKind::AllReduce, 192),
        Model::Ring
    );
    let a = run(fixture!("real-osu-reduce-ompi-12318-np192.txt"));
    let la = a.log.as_ref().expect("a log");
    assert_eq!(la.resolved.p.p, 192);
    let f = la.fit.as_ref().expect("a fit");
    assert_eq!(f.options.model, Model::Tree);
    assert_eq!(f.factors.0, 8.0);
    // A flat latency-only log (52.65–55.48 µs over 1 B – 1 KiB) that the
    // line fits to ~1 %: no "does not explain" warning, although R² of
    // log T is below 0.9 (log T barely varies) …
    assert!(f.r2_log < 0.9);
    assert!(f.median_rel() <= 0.01, "{}", f.median_rel());
    assert_eq!(f.poor_fit_warning(), None);
    // … and α is measured here (intercept ≈ the 1 B time), not extrapolated.
    assert_eq!(f.alpha_extrapolated_warning(), None);
    // 8·α ≈ 53 µs: α ≈ 6.6 µs.
    assert!((f.alpha * 8.0 - 53e-6).abs() < 1.5e-6, "{}", f.alpha);
}

#[test]
fn alpha_from_sizes_of_512_mib_and_up_is_called_extrapolated() {
    // coreweave/nccl-tests#43, 72 ranks, 512 MiB to 8 GiB. Ring: 2(p−1) =
    // 142 start-ups. At 512 MiB the fitted time is ≈ 1828 µs (printed
    // 1806.7 and 1835.9) while 142·α ≈ 606 µs: a third, so the β term
    // dominates and α is an intercept far below the measured sizes.
    let a = run(fixture!("nccl-tests-allreduce-72rank-5rows.txt"));
    let f = a
        .log
        .as_ref()
        .expect("a log")
        .fit
        .as_ref()
        .expect("a fit")
        .clone();
    let w = f.alpha_extrapolated_warning().expect("a warning");
    assert!(w.contains("536,870,912 B"), "{w}");
    let share = f.segments[0].intercept / f.segments[0].time(f.segments[0].from);
    assert!((0.25..0.5).contains(&share), "{share}");
    // A log from 32 KiB (Mooncake#3484): 14·α ≈ 18.9 µs of ≈ 18.7 µs — α is
    // measured, no warning.
    let a = run(fixture!("real-mooncake-3484-allreduce-rows-only.txt"));
    let f = a
        .log
        .as_ref()
        .expect("a log")
        .fit
        .as_ref()
        .expect("a fit")
        .clone();
    assert_eq!(f.alpha_extrapolated_warning(), None);
}

/// The rejection message of `text` (line 0).
fn rejection(text: &str) -> String {
    match run(text).import {
        Err(ImportError::Unrecognised { messages }) => messages[0].reason.clone(),
        other => panic!("not rejected: {other:?}"),
    }
}

#[test]
fn ucc_perftest_and_gloo_are_named_in_the_rejection() {
    // openucx/ucc#166 and #223: the table header `Count  Size  Time, us` is
    // on line 7 and line 14 of the fixtures.
    let m = rejection(fixture!("real-ucc-perftest-166-allreduce.txt"));
    assert!(
        m.starts_with("this is UCC perftest output (table header on line 7), which this page does not read yet"),
        "{m}"
    );
    let m = rejection(fixture!("real-ucc-perftest-223-alltoall-bw.txt"));
    assert!(
        m.contains("UCC perftest output (table header on line 14)"),
        "{m}"
    );
    // pytorch/gloo#248 (header on line 6) and #122 (line 2).
    let m = rejection(fixture!("real-gloo-248-ring-chunked-40g.txt"));
    assert!(
        m.contains("gloo benchmark output (table header on line 6)"),
        "{m}"
    );
    let m = rejection(fixture!("real-gloo-122-halving-doubling-ec2.txt"));
    assert!(
        m.contains("gloo benchmark output (table header on line 2)"),
        "{m}"
    );
}

#[test]
fn rccl_single_row_with_rank_lines() {
    // crickett-hpe/hpc-ai-envs#30: 8 rank lines (Rank 7 on line 13) → p = 8;
    // 8388608 B in 91.10 µs → algbw 92.08 GB/s, busbw × 1.75 = 161.14: not
    // flagged. One size: no fit.
    let a = run(fixture!("real-rccl-hpc-ai-envs-30-mi300x.txt"));
    let la = a.log.as_ref().expect("a log");
    assert_eq!(la.resolved.p.source, RankSource::RankLines { line: 13 });
    assert_eq!(la.checks.flagged, 0);
    assert!(la.fit.is_err());
}

#[test]
fn alltoall_perf_without_a_tool_name_is_read_and_checked() {
    // NVIDIA/nccl-tests#314: alltoall_perf on 8 H20-3e, pasted from
    // "# Using devices", 3 rows (1, 2 and 4 MiB). Rank 7 is on line 10 → p = 8.
    // busbw = algbw·(p−1)/p = algbw·0.875 for all-gather and all-to-all alike:
    // - 1048576 B / 58.14 µs = 18.035 GB/s (printed 18.04); ·0.875 = 15.781
    //   (printed 15.78);
    // - 2097152 B / 58.94 µs = 35.581 GB/s; ·0.875 = 31.133 against 31.14,
    //   inside the printed digits (58.935 µs gives 31.136);
    // - 4194304 B / 59.35 µs = 70.671 GB/s; ·0.875 = 61.837 (61.84);
    // - in place: 18.120 → 15.855 (15.85), 36.096 → 31.584 (31.58),
    //   70.814 → 61.962 (61.96).
    // No row is flagged, read as all-gather or as all-to-all.
    let a = run(fixture!("real-nccl-tests-314-h20-alltoall.txt"));
    let la = a.log.as_ref().expect("a log");
    let l = first_log(&a);
    assert_eq!(l.collective, CollectiveKind::AllGather);
    assert!(
        l.collective_note.contains("all-gather or all-to-all")
            && l.collective_note.contains("choose all-to-all"),
        "{}",
        l.collective_note
    );
    assert_eq!(la.resolved.p.source, RankSource::RankLines { line: 10 });
    assert_eq!(la.resolved.p.p, 8);
    assert_eq!(l.series.iter().map(|s| s.rows.len()).sum::<usize>(), 6);
    assert_eq!(la.checks.flagged, 0);
    let s = Settings {
        import: ImportOptions {
            collective: Some(CollectiveKind::AllToAll),
            ..ImportOptions::default()
        },
        ..Settings::default()
    };
    let b = analyse(fixture!("real-nccl-tests-314-h20-alltoall.txt"), &s);
    assert_eq!(first_log(&b).collective, CollectiveKind::AllToAll);
    let lb = b.log.as_ref().expect("a log");
    assert_eq!(lb.checks.flagged, 0);
    // No model here has an all-to-all closed form yet: the fit says so.
    assert!(matches!(lb.fit, Err(FitError::NoModel(_))));
}
