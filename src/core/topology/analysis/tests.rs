use super::*;

#[test]
fn smoke_course_cases() {
    let t = example_topology(vec![2, 3], 1, 1).expect("valid");
    let r = run("flex", &t, 12, 4).expect("runs");
    assert!(r.verified);
    let c = flex_counts(&r, &t).expect("counts");
    eprintln!("{c:?}");
    let t = example_topology(vec![4, 4], 2, 1).expect("valid");
    let cc = core_crossing(&t, 8, 1).expect("runs");
    eprintln!("{cc:?}");
    for a in algorithms() {
        let t = example_topology(vec![4, 4, 4, 4], 2, 2).expect("valid");
        let r = run(a.key, &t, 1000, 4).expect("runs");
        eprintln!(
            "{} {} {:?} {:?} {}",
            a.key, r.time, r.closed_form, r.lower_bound, r.verified
        );
        eprintln!("{:?}", r.titles);
    }
}
