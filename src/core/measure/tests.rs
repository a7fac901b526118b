//! Native tests of the log import, checks and fit, on the real logs in
//! `tests/fixtures/logs/` (sources in their headers) and hand-written ones.

use super::checks::{check, resolve, Checks, Resolved};
use super::fit::{fit, FitOptions};
use super::synthetic::{generate, Sizes, Spec};
use super::*;

/// The text of `tests/fixtures/logs/<name>` (also used by `tests_real`).
macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/logs/",
            $name
        ))
    };
}
pub(super) use fixture;

fn load(text: &str) -> (Import, Vec<(Resolved, Checks)>) {
    let imp = import(text, &ImportOptions::default()).expect("imports");
    let rc = imp
        .logs
        .iter()
        .map(|l| {
            let r = resolve(l, None);
            let c = check(l, r.p.p, r.unknown_bw, None);
            (r, c)
        })
        .collect();
    (imp, rc)
}

/// The log's `# Avg bus bandwidth` line was found and matches the rows.
fn assert_avg_matches(c: &Checks) {
    assert!(c.avg.as_ref().is_some_and(|a| a.matches), "{:?}", c.avg);
}

/// `(size, time)` of every row of the log's first table, SI units.
fn points(l: &Log) -> Vec<(f64, f64)> {
    l.series[0]
        .rows
        .iter()
        .map(|r| (r.size.value, r.time.value))
        .collect()
}

fn rows(l: &Log) -> Vec<usize> {
    l.series.iter().map(|s| s.rows.len()).collect()
}

#[test]
fn nccl_72_ranks_five_rows_avg_matches() {
    let (imp, rc) = load(fixture!("nccl-tests-allreduce-72rank-5rows.txt"));
    assert_eq!(imp.logs.len(), 1);
    let l = &imp.logs[0];
    assert_eq!(l.format, Format::NcclTests);
    assert_eq!(l.collective, CollectiveKind::AllReduce);
    assert_eq!(rows(l), vec![5, 5]);
    let (r, c) = &rc[0];
    assert_eq!(r.p.p, 72);
    assert_eq!(r.p.source, RankSource::RankLines { line: 3 });
    assert_eq!(c.flagged, 0, "{:?}", c.rows);
    let avg = c.avg.as_ref().expect("avg line");
    assert_eq!(avg.count, 10);
    // (586.06+681.17+757.78+839.16+834.57+576.74+724.06+773.62+835.32+846.82)/10 = 745.530
    assert!(
        (avg.recomputed - 745.530e9).abs() < 1e6,
        "{}",
        avg.recomputed
    );
    assert!(avg.matches);
    assert!(imp.messages.is_empty(), "{:?}", imp.messages);
    // 536870912 B / 1806.7 µs = 297.16 GB/s.
    assert!((c.rows[0][0].algbw - 297.155e9).abs() < 0.01e9);
}

#[test]
fn nccl_24_ranks_inferred_from_ratio() {
    let (imp, rc) = load(fixture!("nccl-tests-allreduce-24rank-linear-step.txt"));
    let l = &imp.logs[0];
    assert_eq!(rows(l), vec![6, 6]);
    let (r, c) = &rc[0];
    assert_eq!(r.p.p, 24);
    assert_eq!(r.p.source, RankSource::Inferred);
    assert!(
        r.p.note.contains("inferred from busbw / algbw"),
        "{}",
        r.p.note
    );
    assert!(
        r.p.note
            .contains("agrees with the command in the comment on line 3"),
        "{}",
        r.p.note
    );
    assert_eq!(c.flagged, 0, "{:?}", c.rows);
    assert!(
        l.notes
            .iter()
            .any(|n| n.contains("step linearly by 1048576 B")),
        "{:?}",
        l.notes
    );
    // The trailer covers all ~128 rows of the run; the 12 values shown
    // average (95.75+95.67+96.42+96.45+95.77+95.74+95.92+96.47+96.33+95.50+96.69+95.94)/12 = 96.0542.
    let avg = c.avg.as_ref().expect("avg");
    assert_eq!(avg.count, 12);
    assert!((avg.recomputed - 96.0541667e9).abs() < 1e5);
    assert!(!avg.matches);
    assert!(avg.note.contains("partial"));
}

#[test]
fn torch_bench_busbw_in_decimal_mb() {
    let (imp, rc) = load(fixture!("torch-bench-allreduce-8rank-busbw-decimal-MB.txt"));
    let l = &imp.logs[0];
    assert_eq!(l.format, Format::Generic);
    assert_eq!(rows(l), vec![10]);
    let (r, c) = &rc[0];
    assert_eq!(r.unknown_bw, Some(BwKind::Bus), "{:?}", r.bw_note);
    assert_eq!(r.p.p, 8);
    assert_eq!(r.p.source, RankSource::Inferred);
    assert_eq!(c.flagged, 0, "{:?}", c.rows);
    // 1.00 MB in 121.5 µs: algbw 8.23 GB/s, busbw 14.4 GB/s at p = 8.
    let last = &c.rows[0][9];
    assert!((last.algbw - 8.2305e9).abs() < 0.001e9);
    assert!((last.busbw - 14.403e9).abs() < 0.001e9);
    assert!(l.notes.iter().any(|n| n.contains("decimal")));
    let row = &l.series[0].rows[9];
    assert_eq!(row.size.value, 1e6);
    assert_eq!(row.min_time, Some(116.5e-6));
}

#[test]
fn allgather_with_launcher_prefix_and_error_column() {
    let (imp, rc) = load(fixture!("nccl-allgather-8rank-tagged.txt"));
    let l = &imp.logs[0];
    assert_eq!(l.collective, CollectiveKind::AllGather);
    assert_eq!(rows(l), vec![4, 4]);
    let (r, c) = &rc[0];
    assert_eq!(r.p.p, 8);
    assert_eq!(c.flagged, 0, "{:?}", c.rows);
    assert_avg_matches(c);
    // The header's "step: 2(factor)" is nccl-tests' -f 2, said in words.
    assert!(
        l.notes.iter().any(|n| n
            == "sizes grow by a factor of 2 from row to row (header “step: 2(factor)”, nccl-tests' -f)"),
        "{:?}",
        l.notes
    );
}

#[test]
fn reduce_scatter_flags_mixup_and_wrong() {
    let (imp, rc) = load(fixture!("nccl-reducescatter-16rank-flagged.txt"));
    assert_eq!(imp.logs[0].collective, CollectiveKind::ReduceScatter);
    let (r, c) = &rc[0];
    assert_eq!(r.p.p, 16);
    assert_eq!(r.p.source, RankSource::Launcher { line: 2 });
    assert_eq!(c.flagged, 2);
    assert!(
        c.rows[0][2].flags[0].contains("busbw printed 18.51 GB/s"),
        "{:?}",
        c.rows[0][2].flags
    );
    assert!(c.rows[1][3].flags[0].contains("#wrong = 3"));
    assert_eq!((c.rows[0][2].line, c.rows[1][3].line), (10, 11));
    assert_avg_matches(c);
}

#[test]
fn broadcast_and_alltoall() {
    let (imp, rc) = load(fixture!("nccl-broadcast-4rank.txt"));
    assert_eq!(imp.logs[0].collective, CollectiveKind::Broadcast);
    assert_eq!(rc[0].0.p.p, 4);
    assert_eq!(rows(&imp.logs[0]), vec![8, 8]);
    assert_eq!(rc[0].1.flagged, 0);
    assert_avg_matches(&rc[0].1);
    let (imp, rc) = load(fixture!("nccl-alltoall-8rank-nranks.txt"));
    assert_eq!(imp.logs[0].collective, CollectiveKind::AllToAll);
    assert_eq!(rc[0].0.p.p, 8);
    assert!(matches!(rc[0].0.p.source, RankSource::NRanks { line: 3 }));
    assert_eq!(rows(&imp.logs[0]), vec![6, 6]);
    assert_eq!(rc[0].1.flagged, 0);
}

#[test]
fn side_by_side_gives_two_logs() {
    let (imp, rc) = load(fixture!("nccl-side-by-side-8rank.txt"));
    assert_eq!(imp.logs.len(), 2);
    assert_eq!(imp.logs[0].part, "left");
    assert_eq!(imp.logs[1].part, "right");
    for ((r, c), l) in rc.iter().zip(&imp.logs) {
        assert_eq!(rows(l), vec![9, 9]);
        assert_eq!(r.p.p, 8, "{}", r.p.note);
        assert_eq!(c.flagged, 0);
        assert_avg_matches(c);
    }
}

#[test]
fn osu_plain_and_full() {
    let (imp, rc) = load(fixture!("osu-allreduce.txt"));
    let l = &imp.logs[0];
    assert_eq!(l.format, Format::Osu);
    assert_eq!(l.collective, CollectiveKind::AllReduce);
    assert_eq!(rows(l), vec![21]);
    assert_eq!(rc[0].0.p.source, RankSource::Assumed);
    // 2·log₂16·3 µs = 24 µs at 1 B.
    assert_eq!(l.series[0].rows[0].time.value, 24.0e-6);
    let (imp, rc) = load(fixture!("osu-allreduce-full-np32.txt"));
    let l = &imp.logs[0];
    assert_eq!(rows(l), vec![21]);
    assert_eq!(rc[0].0.p.p, 32);
    let r0 = &l.series[0].rows[0];
    assert_eq!(r0.iterations, Some(1000));
    assert!((r0.min_time.unwrap_or(0.0) - 27.0e-6).abs() < 1e-9);
    // The tree model fits the tree-made times: α = 3 µs, β = 0.1 ns/B.
    let pts = points(l);
    let f = fit(
        &pts,
        FitOptions {
            model: Model::Tree,
            collective: CollectiveKind::AllReduce,
            p: 32,
            min_size: 0.0,
            max_size: f64::INFINITY,
            breaks: 0,
        },
    )
    .expect("fit");
    assert!((f.alpha / 3e-6 - 1.0).abs() < 0.01, "{}", f.alpha);
    assert!((f.beta / 0.1e-9 - 1.0).abs() < 0.01, "{}", f.beta);
}

#[test]
fn generic_csv_units_from_header() {
    let (imp, rc) = load(fixture!("generic-csv-kib-ms-algbw.csv"));
    let l = &imp.logs[0];
    assert_eq!(rows(l), vec![12]);
    assert_eq!(l.series[0].rows[1].size.value, 4096.0);
    assert!(l.series[0].rows[0].algbw.is_some());
    assert_eq!(rc[0].1.flagged, 0, "{:?}", rc[0].1.rows);
    assert_eq!(rc[0].0.p.source, RankSource::Assumed);
}

#[test]
fn line_rate_flags_busbw_with_explanation() {
    let imp = import(
        fixture!("nccl-tests-allreduce-72rank-5rows.txt"),
        &ImportOptions::default(),
    )
    .expect("imports");
    let c = check(&imp.logs[0], 72, None, Some(450e9));
    // Every row but none is below 450 GB/s: all 10 values exceed it.
    assert_eq!(c.flagged, 10);
    let note = c.line_rate_note.expect("note");
    assert!(note.contains("846.8 GB/s"), "{note}");
    assert!(note.contains("SHARP"));
}

#[test]
fn empty_and_unrecognised_name_the_formats() {
    assert_eq!(
        import("  \n ", &ImportOptions::default()),
        Err(ImportError::Empty)
    );
    let e =
        import("hello world\nthis is not a log", &ImportOptions::default()).expect_err("nothing");
    assert!(e.to_string().contains("nccl-tests"));
    assert!(e.to_string().contains("OSU"));
    match e {
        ImportError::Unrecognised { messages } => assert!(!messages.is_empty()),
        ImportError::Empty => panic!("not empty"),
    }
}

#[test]
fn bad_rows_are_reported_with_line_numbers() {
    let text = "# Size       Avg Latency(us)\n4 1.0\n8 -2.0\n0 1.0\n16 NaN\nabc 3\n32 4.0\n64";
    let imp = import(text, &ImportOptions::default()).expect("imports");
    assert_eq!(imp.logs[0].series[0].rows.len(), 2);
    let lines: Vec<usize> = imp.messages.iter().map(|m| m.line).collect();
    assert_eq!(lines, vec![3, 4, 5, 6, 8]);
    assert!(imp.messages[4].reason.contains("truncated"));
}

fn round_trip(model: Model, outliers: usize) {
    for (p, seed) in [(16usize, 11u64), (8, 12), (64, 13)] {
        let spec = Spec {
            model,
            p,
            alpha: 5e-6,
            beta: 0.08e-9,
            noise: 0.01,
            outliers,
            seed,
            sizes: Sizes::Doubling {
                min: 8,
                max: 1 << 30,
            },
        };
        let text = generate(&spec);
        let (imp, rc) = load(&text);
        let l = &imp.logs[0];
        assert_eq!(rc[0].0.p.p, p);
        let pts = points(l);
        let f = fit(
            &pts,
            FitOptions {
                model,
                collective: CollectiveKind::AllReduce,
                p,
                min_size: 0.0,
                max_size: f64::INFINITY,
                breaks: 0,
            },
        )
        .expect("fit");
        let ea = (f.alpha / spec.alpha - 1.0).abs();
        let eb = (f.beta / spec.beta - 1.0).abs();
        assert!(
            ea < 0.05,
            "{model:?} p={p} outliers={outliers}: α {} (err {ea})",
            f.alpha
        );
        assert!(
            eb < 0.02,
            "{model:?} p={p} outliers={outliers}: β {} (err {eb})",
            f.beta
        );
    }
}

#[test]
fn round_trip_every_model_with_noise() {
    for m in Model::all() {
        round_trip(m, 0);
    }
}

#[test]
fn round_trip_every_model_with_three_outliers() {
    for m in Model::all() {
        round_trip(m, 3);
    }
}

#[test]
fn piecewise_fit_finds_a_protocol_switch() {
    // α = 2 µs, β = 0.1 ns/B below 64 KiB; α = 20 µs, β = 0.05 ns/B above.
    let pts: Vec<(f64, f64)> = (3..30)
        .map(|k| {
            let n = f64::from(1u32 << k) * if k % 2 == 0 { 1.0 } else { 1.5 };
            let (a, b) = if n < 65536.0 {
                (2e-6, 0.1e-9)
            } else {
                (20e-6, 0.05e-9)
            };
            (n, 30.0 * a + 1.875 * n * b)
        })
        .collect();
    let o = FitOptions {
        model: Model::Ring,
        collective: CollectiveKind::AllReduce,
        p: 16,
        min_size: 0.0,
        max_size: f64::INFINITY,
        breaks: 1,
    };
    let f = fit(&pts, o).expect("fit");
    assert_eq!(f.segments.len(), 2);
    assert_eq!(f.suggested.0, 1);
    assert!((f.segments[0].alpha / 2e-6 - 1.0).abs() < 1e-6);
    assert!((f.segments[1].beta / 0.05e-9 - 1.0).abs() < 1e-6);
    assert_eq!(f.segments[1].from, 65536.0);
}

#[test]
fn side_by_side_splits_only_single_bars() {
    let md = "| size | time(us) |\n|---|---|\n| 8 | 1.0 |\n| 16 | 2.0 |\n| 32 | 3.0 |";
    let imp = import(md, &ImportOptions::default()).expect("markdown table");
    assert_eq!(imp.logs.len(), 1);
    assert_eq!(imp.logs[0].series[0].rows.len(), 3);
    let bars = "size | time(us)\n8 | 1.0\n16 | 2.0\n32 | 3.0";
    let imp = import(bars, &ImportOptions::default()).expect("bar-separated columns");
    assert_eq!(imp.logs.len(), 1);
    assert_eq!(imp.logs[0].part, "");
    assert_eq!(imp.logs[0].series[0].rows.len(), 3);
}

#[test]
fn printed_precision() {
    let p = printed("2560.7", 1e-6).expect("number");
    assert!((p.half_ulp - 0.05e-6).abs() < 1e-15);
    let p = printed("10094", 1.0).expect("number");
    assert_eq!(p.half_ulp, 0.5);
    let p = printed("1.5e+03", 1.0).expect("number");
    assert_eq!(p.value, 1500.0);
    assert_eq!(p.half_ulp, 50.0);
    assert!(printed("NaN", 1.0).is_none());
    assert!(printed("inf", 1.0).is_none());
}

#[cfg(not(target_arch = "wasm32"))]
mod prop {
    use super::super::*;
    use proptest::prelude::*;

    fn no_panic(text: &str) {
        match import(text, &ImportOptions::default()) {
            Ok(imp) => {
                for m in &imp.messages {
                    assert!(!m.reason.is_empty());
                }
                for l in &imp.logs {
                    let r = checks::resolve(l, None);
                    let _ = checks::check(l, r.p.p, r.unknown_bw, Some(1e9));
                    let pts = super::points(l);
                    for m in Model::all() {
                        let _ = fit::fit(
                            &pts,
                            fit::FitOptions {
                                model: m,
                                collective: l.collective,
                                p: r.p.p,
                                min_size: 0.0,
                                max_size: f64::INFINITY,
                                breaks: 2,
                            },
                        );
                    }
                }
            }
            Err(ImportError::Unrecognised { .. }) | Err(ImportError::Empty) => {}
        }
    }

    const NCCL_HEAD: &str = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n";

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn binary_garbage(bytes in proptest::collection::vec(any::<u8>(), 0..4000)) {
            let text = String::from_utf8_lossy(&bytes);
            no_panic(&text);
            let with_head = format!("{NCCL_HEAD}{text}");
            if let Ok(imp) = import(&with_head, &ImportOptions::default()) {
                prop_assert!(imp.messages.iter().all(|m| m.line >= 1));
            }
        }

        #[test]
        fn malformed_rows_get_line_numbers(
            size in prop_oneof![Just("0".to_string()), Just("-8".to_string()), Just("NaN".to_string()), "[0-9]{1,12}"],
            time in prop_oneof![Just("-1.0".to_string()), Just("0".to_string()), Just("NaN".to_string()), Just("inf".to_string()), "[0-9]{1,6}\\.[0-9]{1,2}"],
            cut in 0usize..120,
        ) {
            let row = format!("{size} 2 float sum -1 {time} 1.00 1.75 0 {time} 1.00 1.75 0");
            let good = "1024 256 float sum -1 10.00 0.10 0.18 0 10.00 0.10 0.18 0";
            let row: String = row.chars().take(cut.max(1)).collect();
            let text = format!("{NCCL_HEAD}{good}\n{row}");
            let imp = import(&text, &ImportOptions::default()).expect("the good row imports");
            let rows: usize = imp.logs[0].series.iter().map(|s| s.rows.len()).sum();
            // Row 3 is either fully read (2 values) or reported on line 3.
            prop_assert!(rows == 4 || imp.messages.iter().any(|m| m.line == 3), "{:?}", imp.messages);
            no_panic(&text);
        }

        #[test]
        fn header_without_rows(head in prop_oneof![Just(NCCL_HEAD.to_string()), Just("# Size  Avg Latency(us)\n".to_string()), Just("size(MB),time(us)\n".to_string())]) {
            let e = import(&head, &ImportOptions::default());
            let ok = matches!(e, Err(ImportError::Unrecognised { .. }));
            prop_assert!(ok);
        }
    }

    #[test]
    fn ten_megabytes_of_text() {
        let line = "lorem ipsum 12 34 dolor sit amet, consectetur\n";
        let text = line.repeat(10 * 1024 * 1024 / line.len() + 1);
        assert!(text.len() >= 10 * 1024 * 1024);
        no_panic(&text);
        let mut big = String::from("# Size  Avg Latency(us)\n");
        while big.len() < 10 * 1024 * 1024 {
            big += "1024 3.5\n";
        }
        let imp = import(&big, &ImportOptions::default()).expect("imports");
        assert!(imp.logs[0].series[0].rows.len() <= MAX_ROWS);
        assert!(imp.messages.iter().any(|m| m.reason.contains("more than")));
    }
}

#[test]
fn analysis_hands_off_to_the_cost_view_and_exports_csv() {
    use super::analysis::{analyse, Settings};
    let spec = Spec {
        model: Model::Ring,
        p: 16,
        alpha: 5e-6,
        beta: 0.08e-9,
        noise: 0.0,
        outliers: 0,
        seed: 1,
        sizes: Sizes::Doubling {
            min: 8,
            max: 1 << 30,
        },
    };
    let a = analyse(&generate(&spec), &Settings::default());
    let table_url = a.table_csv_url().expect("table csv");
    assert!(a.fit_csv_url().is_some_and(|u| u.contains("model%2Cring")));
    let la = a.log.expect("analysed");
    let f = la.fit.as_ref().expect("fit");
    // Printed times are rounded (0.01 µs at 150 µs), so α and β come back to < 0.1 %.
    assert!((f.alpha / 5e-6 - 1.0).abs() < 1e-3, "{}", f.alpha);
    assert!((f.beta / 0.08e-9 - 1.0).abs() < 1e-3, "{}", f.beta);
    let url = la.handoff.expect("handoff").url;
    assert!(url.starts_with("?view=cost&p=16&alpha=5."), "{url}");
    assert!(url.ends_with("GB/s") && url.contains("&bw=12."), "{url}");
    // The cost view's own parsers accept both values.
    let q: Vec<(String, String)> = form_urlencoded::parse(url.trim_start_matches('?').as_bytes())
        .into_owned()
        .collect();
    let get = |k: &str| {
        q.iter()
            .find(|(kk, _)| kk == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    assert!(crate::params::fields::alpha("alpha", &get("alpha")).is_ok());
    assert!(crate::params::cost::parse_bw(&get("bw")).is_ok());
    assert!(table_url.starts_with("data:text/csv;charset=utf-8,series%2Cline%2Csize_bytes"));
    let csv = export::fit_csv(f);
    assert!(csv.contains("model,ring,\ncollective,allreduce,\np,16,ranks\n"));
    assert_eq!(csv.lines().filter(|l| l.starts_with("8,")).count(), 1);
}

#[test]
fn csv_fields_with_commas_are_quoted() {
    let text = "#   out,of,place  in-place\n#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n    1024   256  float sum -1  10.00  0.10  0.18  0  10.00  0.10  0.18  0\n";
    let (imp, rc) = load(text);
    let csv = export::table_csv(&imp.logs[0], &rc[0].1);
    assert!(csv.contains("\n\"out,of,place\",3,1024,"), "{csv}");
}

#[test]
fn a_huge_nthread_in_the_header_is_not_an_overflow() {
    // From the input fuzz: nThread × nGpus overflowed usize (a panic in wasm).
    let text = "# nThread 9223372036854775807 nGpus 4 minBytes 1024 maxBytes 2048 step: 2(factor) warmup iters: 5 iters: 20\n\
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n\
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n\
        1024           256     float     sum      -1    10.00    0.10    0.19      0    10.00    0.10    0.19      0\n";
    let got = std::panic::catch_unwind(|| super::import(text, &super::ImportOptions::default()));
    assert!(got.is_ok(), "no panic");
}

#[test]
fn every_example_fitted_under_its_own_model_recovers_alpha_and_bandwidth() {
    use super::analysis::{analyse, Settings};
    for ex in synthetic::examples() {
        let s = Settings {
            model: ex.model(),
            ..Settings::default()
        };
        let a = analyse(&ex.text(), &s);
        let f = a
            .log
            .and_then(|l| l.fit.ok())
            .unwrap_or_else(|| panic!("{}: no fit", ex.key));
        let (alpha, bw) = (ex.spec.alpha, 1.0 / ex.spec.beta);
        assert!(
            (f.alpha - alpha).abs() / alpha < 0.05,
            "{}: α {} vs {}",
            ex.key,
            f.alpha,
            alpha
        );
        assert!(
            (1.0 / f.beta - bw).abs() / bw < 0.03,
            "{}: bw {} vs {}",
            ex.key,
            1.0 / f.beta,
            bw
        );
    }
    // The titles name these numbers: recursive doubling α = 2 µs, 50 GB/s.
    let rd = synthetic::example("rd").expect("rd");
    assert_eq!(rd.model(), Model::RecursiveDoubling);
    assert_eq!((rd.spec.alpha, 1.0 / rd.spec.beta), (2e-6, 50e9));
}

#[test]
fn an_unknown_example_names_the_keys() {
    assert_eq!(
        synthetic::example("bogus").map(|e| e.key),
        Err("example must be one of ring, rd, outliers, tree (got “bogus”)".to_string())
    );
    assert_eq!(synthetic::example(" tree ").map(|e| e.key), Ok("tree"));
}

#[test]
fn a_poor_fit_says_the_model_does_not_explain_the_data() {
    use super::analysis::{analyse, Settings};
    let text = fixture!("torch-bench-allreduce-8rank-busbw-decimal-MB.txt");
    let a = analyse(text, &Settings::default());
    let l = &a.import.as_ref().expect("import").logs[0];
    assert_eq!(l.series[0].label, "times from column tavg(usec)");
    let la = a.log.expect("log");
    let f = la.fit.expect("fit");
    // 10 rows of 0.1–1 MB whose times fall with the size: β = 0, R² < 0.
    assert_eq!(f.beta, 0.0);
    assert!(f.r2_log < 0.0, "{}", f.r2_log);
    let w = f.poor_fit_warning().expect("a warning");
    assert!(
        w.starts_with("The ring α–β model does not explain these data (R² of log T is "),
        "{w}"
    );
    assert!(w.contains("β = 0"), "{w}");
    assert!(la.handoff.is_none());
    // A good fit has no warning.
    let ring = synthetic::example("ring").expect("ring");
    let g = analyse(&ring.text(), &Settings::default())
        .log
        .and_then(|l| l.fit.ok())
        .expect("fit");
    assert_eq!(g.poor_fit_warning(), None);
}

/// An all_reduce_perf table (out-of-place = in-place) with the rows
/// `(size B, time as printed µs, algbw, busbw)`, p = 8 from `nGpus 8`.
fn nccl_allreduce_8(rows: &[(u64, &str, &str, &str)]) -> String {
    let mut s = String::from(
        "# nThread 1 nGpus 8 minBytes 1024 maxBytes 268435456 step: 4(factor) warmup iters: 5 iters: 20\n\
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n\
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n",
    );
    for &(n, t, a, b) in rows {
        s += &format!(
            "{n:>12} {:>13}     float     sum      -1  {t:>7}  {a:>6}  {b:>6}      0  {t:>7}  {a:>6}  {b:>6}      0\n",
            n / 4
        );
    }
    s
}

#[test]
fn a_straight_line_up_to_the_printed_digits_suggests_no_breakpoint() {
    use super::analysis::{analyse, Settings};
    // Ring all-reduce, p = 8, α = 10 µs, 20 GB/s: start-ups 2(p−1) = 14 and
    // byte factor 2(p−1)/p = 1.75, so t(n) = 140 µs + 1.75·n / (20 000 B/µs)
    // = 140 µs + 0.0875 ns·n. Sizes 1 KiB·4^k, k = 0..9, printed the way
    // nccl-tests prints times (2 decimals below 100 µs, 1 below 10 ms, 0
    // above; half-units h = 0.005, 0.05, 0.5 µs):
    //   1024 B: 140.0896 → 140.1   (rounding e = +0.0104 µs)
    //   4096 B: 140.3584 → 140.4   (+0.0416)
    //  16384 B: 141.4336 → 141.4   (−0.0336)
    //  65536 B: 145.7344 → 145.7   (−0.0344)
    // 262144 B: 162.9376 → 162.9   (−0.0376)
    //   1 MiB:  231.7504 → 231.8   (+0.0496)
    //   4 MiB:  507.0016 → 507.0   (−0.0016)
    //  16 MiB: 1608.0064 → 1608.0  (−0.0064)
    //  64 MiB: 6012.0256 → 6012.0  (−0.0256)
    // 256 MiB: 23628.1024 → 23628  (−0.1024)
    // Every |e| ≤ h, so the one-line SSE of relative residuals is at most
    // Σ (h/t)² = 3·(0.05/~140.6)² + (0.05/145.7)² + (0.05/162.9)²
    // + (0.05/231.8)² + … ≈ 6.49e-7: no residual below that is evidence.
    // Before the floor, SSE = 2.99e-7 (one line) vs 5.78e-8 (three) made the
    // BIC pick 2 breaks: 10·ln(2.99e-7 / 5.78e-8) = 16.4 > 6·ln 10 = 13.8.
    // from 256 KiB on, the line's rows (the switch below shares them)
    let large = [
        (262144, "162.9", "1.61", "2.82"),
        (1048576, "231.8", "4.52", "7.92"),
        (4194304, "507.0", "8.27", "14.48"),
        (16777216, "1608.0", "10.43", "18.26"),
        (67108864, "6012.0", "11.16", "19.53"),
        (268435456, "23628", "11.36", "19.88"),
    ];
    let with_large = |small: [(u64, &'static str, &'static str, &'static str); 4]| {
        nccl_allreduce_8(&[&small[..], &large[..]].concat())
    };
    let line = with_large([
        (1024, "140.1", "0.01", "0.01"),
        (4096, "140.4", "0.03", "0.05"),
        (16384, "141.4", "0.12", "0.20"),
        (65536, "145.7", "0.45", "0.79"),
    ]);
    let f = analyse(&line, &Settings::default())
        .log
        .and_then(|l| l.fit.ok())
        .expect("fit");
    assert_eq!(f.options.p, 8);
    assert_eq!(f.suggested, (0, vec![]));
    assert!((f.alpha / 10e-6 - 1.0).abs() < 1e-3, "α {}", f.alpha);
    assert!(
        (1.0 / f.beta / 20e9 - 1.0).abs() < 1e-3,
        "bw {}",
        1.0 / f.beta
    );
    // The same line with exact (unprinted) times: no breakpoint either.
    let exact: Vec<(f64, f64)> = (0..10)
        .map(|k| {
            let n = 1024.0 * 4f64.powi(k);
            (n, 140e-6 + 0.0875e-9 * n)
        })
        .collect();
    let o = FitOptions {
        model: Model::Ring,
        collective: CollectiveKind::AllReduce,
        p: 8,
        min_size: 0.0,
        max_size: f64::INFINITY,
        breaks: 0,
    };
    assert_eq!(fit(&exact, o).expect("fit").suggested, (0, vec![]));

    // A genuine switch: up to 64 KiB α = 2 µs and 10 GB/s, so t = 28 µs +
    // 1.75·n / (10 000 B/µs): 28.1792 → 28.18, 28.7168 → 28.72,
    // 30.8672 → 30.87, 39.4688 → 39.47; from 256 KiB on the line above.
    // One line through both cannot fit (at 1 KiB the large-size line gives
    // 140.09 µs for a measured 28.18, a relative residual of −80 %), far above
    // the rounding bound Σ (h/t)² ≈ 2.56e-7, so one break at 256 KiB.
    let switch = with_large([
        (1024, "28.18", "0.04", "0.06"),
        (4096, "28.72", "0.14", "0.25"),
        (16384, "30.87", "0.53", "0.93"),
        (65536, "39.47", "1.66", "2.91"),
    ]);
    let g = analyse(&switch, &Settings::default())
        .log
        .and_then(|l| l.fit.ok())
        .expect("fit");
    assert_eq!(g.suggested, (1, vec![262144.0]));
}
