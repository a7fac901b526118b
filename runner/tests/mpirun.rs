//! The built binary under `mpirun`: a verified run exits 0, a deliberately
//! broken schedule (`--break-reduce`) fails the self-check, bad arguments
//! exit 2 with one message from rank 0, and `--help`, `--list` and
//! `--version` work without `mpirun`. `scripts/setup.sh` installs Open MPI;
//! without `mpirun` these tests fail and say so (they do not pass unrun).

use std::process::{Command, Output};

#[path = "../../tests/support/trace_rows.rs"]
mod trace_rows;

const BIN: &str = env!("CARGO_BIN_EXE_collective-lab-run");

fn mpirun(p: usize, args: &[&str]) -> Output {
    let found = Command::new("mpirun").arg("--version").output().is_ok();
    assert!(
        found,
        "mpirun is not installed: run `. scripts/setup.sh` (it installs Open MPI)"
    );
    Command::new("mpirun")
        .args([
            "--oversubscribe",
            "--allow-run-as-root",
            "-n",
            &p.to_string(),
        ])
        .arg(BIN)
        .args(args)
        .output()
        .expect("mpirun starts")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn a_ring_at_three_ranks_verifies_at_sizes_that_do_not_divide() {
    // 28 B = 7 floats, 56 B = 14: neither divides by 3.
    let out = mpirun(3, &["--alg", "ring", "--sizes", "28B:56B", "--iters", "3"]);
    let so = text(&out.stdout);
    assert!(out.status.success(), "{so}\n{}", text(&out.stderr));
    let lines: Vec<&str> = so.lines().collect();
    assert_eq!(lines[0], "# collective-lab-run alg=ring p=3");
    // Rank 0 prints; the other two print nothing.
    assert_eq!(so.matches("# collective-lab-run alg=").count(), 1, "{so}");
    assert!(lines.iter().any(|l| l.starts_with("28 ")));
    assert!(lines.iter().any(|l| l.starts_with("56 ")));
    assert!(so.contains("all 2 sizes agree"), "{so}");
}

#[test]
fn a_broken_schedule_fails_the_self_check() {
    let args = [
        "--alg",
        "ring",
        "--sizes",
        "16B",
        "--iters",
        "2",
        "--break-reduce",
    ];
    let out = mpirun(2, &args);
    let so = text(&out.stdout);
    assert!(!out.status.success(), "a broken build passed:\n{so}");
    assert!(so.contains("WRONG at 1 of 1 sizes"), "{so}");
}

#[test]
fn a_broken_all_gather_fails_too() {
    let args = [
        "--alg",
        "ag",
        "--sizes",
        "24B",
        "--iters",
        "2",
        "--break-reduce",
    ];
    let out = mpirun(3, &args);
    assert!(!out.status.success(), "{}", text(&out.stdout));
}

#[test]
fn bad_arguments_exit_2_with_one_message() {
    for (p, args, why) in [
        (
            2,
            vec!["--alg", "nope", "--sizes", "8B"],
            "unknown algorithm “nope”",
        ),
        (
            2,
            vec!["--alg", "ring", "--sizes", "0B"],
            "greater than zero",
        ),
        (
            1,
            vec!["--alg", "ring", "--sizes", "8B"],
            "at least 2 ranks",
        ),
        (
            3,
            vec![
                "--alg",
                "multilane",
                "--sizes",
                "8B",
                "--ranks-per-node",
                "2",
            ],
            "multilane does not fit",
        ),
    ] {
        let out = mpirun(p, &args);
        let se = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {se}");
        assert_eq!(se.matches("collective-lab-run: ").count(), 1, "{se}");
        assert!(se.contains(why), "{se}");
        assert!(!se.contains("MPI_ABORT"), "{se}");
    }
}

#[test]
fn help_list_and_version_need_no_mpirun() {
    for (flag, want) in [
        ("--help", "usage: mpirun -n P collective-lab-run"),
        ("--list", "dbtree all-reduce flat NCCL_ALGO=Tree"),
        ("--version", "collective-lab-run 0.1.0"),
    ] {
        let out = Command::new(BIN).arg(flag).output().expect("runs");
        assert!(out.status.success(), "{flag}: {}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains(want),
            "{flag}: {}",
            text(&out.stdout)
        );
    }
    // printed once under mpirun (rank 0 by the launcher's environment)
    let so = text(&mpirun(3, &["--version"]).stdout);
    assert_eq!(so.matches("collective-lab-run 0.1.0").count(), 1, "{so}");
}

#[test]
fn a_trace_holds_every_ranks_rounds_as_chrome_events() {
    // Ring at p = 2 on 16 B: 2(p − 1) = 2 rounds; per rank and round one
    // recv post, one send post, one wait and one reduce (or copy): 8 events
    // per rank, 16 in all, each rank a process (pid = rank + 1) with a row
    // per kind, and a flow from each of the 4 sends to its reduce.
    let path = std::env::temp_dir().join(format!("clr-trace-{}.json", std::process::id()));
    let file = path.to_string_lossy().into_owned();
    let args = [
        "--alg", "ring", "--sizes", "16B", "--iters", "2", "--trace", &file,
    ];
    let out = mpirun(2, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json = std::fs::read_to_string(&path).expect("the trace file");
    let _ = std::fs::remove_file(&path);
    assert_eq!(trace_rows::partial_overlap(&json), None);
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(v["displayTimeUnit"], "ms");
    // the case, for the timeline view to model the same one
    assert_eq!(v["otherData"]["alg"], "ring");
    assert_eq!(v["otherData"]["p"], 2);
    assert_eq!(v["otherData"]["bytes"], 16);
    assert_eq!(v["otherData"]["segments"], 1);
    let all = v["traceEvents"].as_array().expect("traceEvents");
    let evs: Vec<_> = all.iter().filter(|e| e["ph"] == "X").collect();
    assert_eq!(evs.len(), 16);
    assert_eq!(all.iter().filter(|e| e["ph"] == "s").count(), 4);
    assert_eq!(all.iter().filter(|e| e["ph"] == "f").count(), 4);
    for rank in 0..2 {
        let mine: Vec<_> = evs.iter().filter(|e| e["pid"] == rank + 1).collect();
        let cats: Vec<&str> = mine.iter().filter_map(|e| e["cat"].as_str()).collect();
        for c in ["send", "recv", "wait", "reduce"] {
            assert_eq!(
                cats.iter().filter(|&&x| x == c).count(),
                2,
                "rank {rank} {c}"
            );
            // one row per kind
            let tids: std::collections::BTreeSet<_> = mine
                .iter()
                .filter(|e| e["cat"] == c)
                .filter_map(|e| e["tid"].as_u64())
                .collect();
            assert_eq!(tids.len(), 1, "rank {rank} {c}");
        }
        let peer = 1 - rank;
        let send = mine.iter().find(|e| e["cat"] == "send").expect("a send");
        assert_eq!(send["name"], format!("send → {peer}"));
        assert_eq!(send["args"]["peer"], peer);
        assert_eq!(send["args"]["bytes"], 8, "half of 16 B per round");
        assert!(mine
            .iter()
            .all(|e| e["ts"].as_f64().is_some_and(|t| t >= 0.0)));
    }
    let names: Vec<&str> = all
        .iter()
        .filter(|e| e["name"] == "process_name")
        .filter_map(|e| e["args"]["name"].as_str())
        .collect();
    assert_eq!(names.len(), 2);
    assert!(names[0].starts_with("rank 0"), "{names:?}");
}
