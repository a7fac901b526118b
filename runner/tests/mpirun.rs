//! The built binary under `mpirun`: a verified run exits 0, a deliberately
//! broken schedule (`--break-reduce`) fails the self-check, and bad
//! arguments exit 2 with one message from rank 0. Skipped, with a printed
//! reason, where `mpirun` is not installed.

use std::process::{Command, Output};

fn mpirun(p: usize, args: &[&str]) -> Option<Output> {
    let found = Command::new("mpirun").arg("--version").output().is_ok();
    if !found {
        eprintln!("skipped: mpirun is not installed (scripts/setup.sh installs Open MPI)");
        return None;
    }
    let out = Command::new("mpirun")
        .args([
            "--oversubscribe",
            "--allow-run-as-root",
            "-n",
            &p.to_string(),
        ])
        .arg(env!("CARGO_BIN_EXE_collective-lab-run"))
        .args(args)
        .output()
        .expect("mpirun starts");
    Some(out)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn a_ring_at_three_ranks_verifies_at_sizes_that_do_not_divide() {
    // 28 B = 7 floats, 56 B = 14: neither divides by 3.
    let Some(out) = mpirun(3, &["--alg", "ring", "--sizes", "28B:56B", "--iters", "3"]) else {
        return;
    };
    let so = text(&out.stdout);
    assert!(out.status.success(), "{so}\n{}", text(&out.stderr));
    let lines: Vec<&str> = so.lines().collect();
    assert_eq!(lines[0], "# collective-lab-run alg=ring p=3");
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
    let Some(out) = mpirun(2, &args) else {
        return;
    };
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
    let Some(out) = mpirun(3, &args) else {
        return;
    };
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
        let Some(out) = mpirun(p, &args) else {
            return;
        };
        let se = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {se}");
        assert_eq!(se.matches("collective-lab-run: ").count(), 1, "{se}");
        assert!(se.contains(why), "{se}");
        assert!(!se.contains("MPI_ABORT"), "{se}");
    }
}
