//! The trace page's words.

use super::{case_line, finish, ratio};
use crate::core::units::format_binary;
use crate::params::timeline::TimelineParams;
use crate::params::trace::TraceParams;

#[test]
fn the_model_case_line_links_to_the_timeline() {
    let line = case_line(&TraceParams(TimelineParams::default()));
    assert!(line.contains(", p = 4, "), "{line}");
    assert!(
        line.contains(&format!(
            "{}, 1 segment, dataflow clock.",
            format_binary(100e6)
        )),
        "{line}"
    );
    assert!(line.contains("<a href=\"?view=timeline&amp;"), "{line}");
}

#[test]
fn ratios_and_finishing_times() {
    assert_eq!(ratio(Some(1.25)), "1.25×");
    assert_eq!(ratio(None), "—");
    assert_eq!(finish(None), "does not finish");
}

mod profile {
    use crate::core::profiler::{
        match_ranks, read_profile, CommArgs, DistInfo, ProfEvent, RawProfile,
    };
    use crate::core::step::buckets::assign;
    use crate::pages::trace::profile::{
        answer, chart, matched_rows, rank_for, step_link, step_rows, Loaded,
    };
    use crate::params::step::StepParams;
    use crate::params::Query;

    /// One gloo all-reduce of 1,024 floats at `ts` µs lasting `dur` µs,
    /// inside a 1 ms ProfilerStep#1, with compute on the main thread
    /// over [0, 300) µs.
    fn rank(r: usize, ts: f64, dur: f64) -> Loaded {
        let ev = |name: &str, cat: &str, ts: f64, dur: f64, tid: &str, args: CommArgs| ProfEvent {
            ph: "X".into(),
            name: name.into(),
            cat: cat.into(),
            ts,
            dur,
            tid: tid.into(),
            args,
        };
        let ar = CommArgs {
            input_dims: Some(vec![1024.0]),
            input_type: Some("float".into()),
            ..CommArgs::default()
        };
        let raw = RawProfile {
            events: vec![
                ev(
                    "ProfilerStep#1",
                    "user_annotation",
                    0.0,
                    1000.0,
                    "1",
                    CommArgs::default(),
                ),
                ev("aten::mm", "cpu_op", 0.0, 300.0, "1", CommArgs::default()),
                ev("gloo:all_reduce", "user_annotation", ts, dur, "2", ar),
            ],
            dist: DistInfo {
                world_size: Some(2),
                ..DistInfo::default()
            },
        };
        let p = read_profile(&raw).expect("one collective");
        Loaded {
            file: format!("trace_{r}.json.gz"),
            rank: rank_for(&p, &format!("trace_{r}.json.gz"), 9),
            profile: p,
        }
    }

    #[test]
    fn the_answer_names_the_last_rank_and_the_exposed_share() {
        // Rank 0 starts at 200 µs and runs 600 µs (100 µs under compute);
        // rank 1 starts at 500 µs: spread 300 µs, rank 1 last.
        let set = vec![rank(0, 200.0, 600.0), rank(1, 500.0, 300.0)];
        assert_eq!((set[0].rank, set[1].rank), (0, 1));
        let pairs: Vec<_> = set.iter().map(|l| (l.rank, &l.profile)).collect();
        let m = match_ranks(&pairs);
        let a = answer(&set, &m);
        assert_eq!(a[0], "Rank 1 arrived last at 1 of 1 matched collectives; the widest spread of start times is 300.0 µs (group 0 #1, all-reduce, rank 1 last).");
        assert_eq!(a[1], "Rank 0: 600.0 µs of communication in 1 step (1.000 ms in all), 500.0 µs of it exposed (83 %).");
        assert_eq!(matched_rows(&m)[0][2], "4 KiB");
        assert_eq!(step_rows(&set)[1][6], "300.0 µs (100 %)");
        let (bars, axis) = chart(&set, &m);
        assert!((axis - 600e-6).abs() < 1e-12);
        assert_eq!((bars[1].x0, bars[1].x1), (0.5, 1.0));
        // Rank 0 waits 300 µs of its 600: from 0 to half the axis.
        assert_eq!(bars.len(), 3);
        assert!(bars[2].wait && bars[2].row == 0);
        assert_eq!((bars[2].x0, bars[2].x1), (0.0, 0.5));
    }

    #[test]
    fn the_step_link_carries_the_buckets_in_launch_order() {
        // Step [0, 1000) µs; compute [0, 400) on the main thread, backward
        // from 100 µs; all-reduces of 300 floats at 250 µs (100 µs long) and
        // 100 floats at 400 µs: forward 100 µs, backward 150 µs before each
        // launch; busbw of the larger = 1,200 B / 100 µs × 2·1/2 = 12 MB/s.
        let ev = |name: &str, cat: &str, ts: f64, dur: f64, tid: &str, n: Option<f64>| ProfEvent {
            ph: "X".into(),
            name: name.into(),
            cat: cat.into(),
            ts,
            dur,
            tid: tid.into(),
            args: CommArgs {
                input_dims: n.map(|n| vec![n]),
                input_type: n.map(|_| "float".into()),
                ..CommArgs::default()
            },
        };
        let raw = RawProfile {
            events: vec![
                ev("ProfilerStep#1", "user_annotation", 0.0, 1000.0, "1", None),
                ev("aten::mm", "cpu_op", 0.0, 100.0, "1", None),
                ev(
                    "autograd::engine::evaluate_function: MmBackward0",
                    "cpu_op",
                    100.0,
                    300.0,
                    "1",
                    None,
                ),
                ev(
                    "gloo:all_reduce",
                    "user_annotation",
                    250.0,
                    100.0,
                    "2",
                    Some(300.0),
                ),
                ev(
                    "gloo:all_reduce",
                    "user_annotation",
                    400.0,
                    200.0,
                    "2",
                    Some(100.0),
                ),
            ],
            dist: DistInfo {
                world_size: Some(2),
                rank: Some(0),
                ..DistInfo::default()
            },
        };
        let p = read_profile(&raw).expect("two all-reduces");
        let l = Loaded {
            file: "t.json".into(),
            rank: 0,
            profile: p,
        };
        let (q, text) = step_link(&l).expect("a case");
        assert_eq!(
            q,
            "view=step&p=2&layers=2&params=100%2C300&dtype=fp32&bucket=1B&first=1B&fwd=0.1ms&bwd=0.15ms%2C0.15ms&alpha=0us&measured=1ms%2C0.2ms&bw=12MB%2Fs"
        );
        assert!(
            text.contains("Measured: the step 1.000 ms, its exposed communication 200.0 µs"),
            "{text}"
        );
        assert!(text.starts_with("Rank 0's ProfilerStep#1: 2 buckets of 300, 100 fp32 elements in launch order, p = 2"), "{text}");
        // The step view reads it back: layers in forward order, and DDP's
        // assignment (backward order, caps of 1 B) gives the trace's buckets.
        let (sp, errs) = StepParams::from_query(&Query::parse(&q), &StepParams::default());
        assert!(errs.is_empty(), "{errs:?}");
        let m = sp.model().expect("a model");
        assert_eq!((sp.p, m.params.clone()), (2, vec![100, 300]));
        assert!((m.fwd - 100e-6).abs() < 1e-12 && (m.bwd[0] - 150e-6).abs() < 1e-12);
        assert!((sp.bw.value.bytes_per_second - 12e6).abs() < 1e-6);
        // the measured step, 1 ms with 0.2 ms exposed, beside the model
        let mv = sp.measured.as_ref().expect("measured").value.clone();
        assert!((mv[0] - 1e-3).abs() < 1e-15 && (mv[1] - 0.2e-3).abs() < 1e-15);
        let ready: Vec<u64> = m.params.iter().rev().map(|n| n * 4).collect();
        let b = assign(&ready, sp.first.value, sp.bucket.value);
        assert_eq!(
            b.iter().map(|x| x.bytes / 4).collect::<Vec<_>>(),
            [300, 100]
        );
    }

    #[test]
    fn progress_and_cut_tables_in_words() {
        use crate::pages::trace::profile::{more_line, progress_line};
        assert_eq!(
            progress_line("a.json.gz", 0.456, 188_743_680.0, false),
            "Reading a.json.gz: 46 % of 180 MiB"
        );
        assert_eq!(
            progress_line("a.json.gz", 1.0, 188_743_680.0, true),
            "Parsing a.json.gz (180 MiB)…"
        );
        assert_eq!(more_line(200), None);
        assert_eq!(
            more_line(6440).as_deref(),
            Some("Showing the first 200 of 6,440 rows.")
        );
    }
}
