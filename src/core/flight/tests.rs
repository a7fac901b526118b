//! The dumps under `tests/fixtures/flight/` are real: PyTorch 2.15 on CPU,
//! 4 ranks with gloo (`gen.py` there), except the size set, named in its
//! test. Every expected value below was read off the files by hand
//! (`python -c "import pickle; ..."` and the JSON text).

use super::pickle::{read_pickle, PickleError};
use super::value::Value;
use super::*;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/flight");

/// The test's JSON reader (the page uses the browser's `JSON.parse`).
fn from_json(j: &serde_json::Value) -> Value {
    match j {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => n
            .as_i64()
            .map_or_else(|| Value::Float(n.as_f64().unwrap_or(f64::NAN)), Value::Int),
        serde_json::Value::String(s) => Value::Str(s.clone()),
        serde_json::Value::Array(a) => Value::List(a.iter().map(from_json).collect()),
        serde_json::Value::Object(o) => Value::Dict(
            o.iter()
                .map(|(k, v)| (Value::Str(k.clone()), from_json(v)))
                .collect(),
        ),
    }
}

fn json_set(set: &str) -> Vec<Dump> {
    (0..4)
        .map(|r| {
            let s = std::fs::read_to_string(format!("{DIR}/{set}/json_rank_{r}.json"))
                .expect("fixture");
            let v = from_json(&serde_json::from_str(&s).expect("fixture"));
            read_dump(&v, r).expect("fixture")
        })
        .collect()
}

fn pickle_set(set: &str) -> Vec<Dump> {
    (0..4)
        .map(|r| {
            let name = format!("rank_{r}");
            let b = std::fs::read(format!("{DIR}/{set}/{name}")).expect("fixture");
            read_dump(
                &read_pickle(&b).expect("fixture"),
                rank_of_name(&name).expect("fixture"),
            )
            .expect("fixture")
        })
        .collect()
}

#[test]
fn the_pickle_and_the_json_of_one_dump_read_the_same() {
    let p = pickle_set("skip");
    let j = json_set("skip");
    for (a, b) in p.iter().zip(&j) {
        assert_eq!(a.entries, b.entries, "rank {}", a.rank);
        assert_eq!(a.version, "2.10");
    }
    // Rank 0: 5 all_reduce on the default group, 5 on expert_parallel,
    // all_gather, broadcast, then the all_reduce of 4096 floats rank 3 skipped.
    assert_eq!(p[0].entries.len(), 13);
    assert_eq!(p[3].entries.len(), 7);
    let last = &p[0].entries[12];
    assert_eq!(
        (last.pg.as_str(), last.pg_desc.as_str()),
        ("0", "default_pg")
    );
    assert_eq!(
        (last.seq, last.op.as_str(), last.backend.as_str()),
        (8, "all_reduce", "gloo")
    );
    assert_eq!(last.sizes, vec![vec![4096]]);
    assert_eq!(last.dtypes, vec!["Float".to_string()]);
    assert_eq!(last.bytes(), Some(16_384));
    assert_eq!(last.state, State::Scheduled);
    assert_eq!(last.started_ns, None);
    let ep = &p[0].entries[1];
    assert_eq!(
        (ep.pg_desc.as_str(), ep.dtypes[0].as_str(), ep.bytes()),
        ("expert_parallel", "BFloat16", Some(512))
    );
    assert_eq!(p[0].last_completed.get("0"), Some(&7));
    assert_eq!(p[0].last_completed.get("1"), Some(&5));
}

#[test]
fn the_rank_that_skipped_a_collective_is_named() {
    let a = analyse(&pickle_set("skip"));
    assert_eq!(a.ranks, vec![0, 1, 2, 3]);
    let g = &a.groups[0];
    assert_eq!((g.name.as_str(), g.desc.as_str()), ("0", "default_pg"));
    assert_eq!(g.ranks, vec![0, 1, 2, 3]);
    let (e, missing) = g.stuck.as_ref().expect("fixture");
    assert_eq!(missing, &vec![3]);
    assert_eq!(
        (e.seq, e.op.as_str(), e.elements()),
        (8, "all_reduce", 4096)
    );
    assert!(g.mismatches.is_empty());
    assert!(g.timing_off);
    assert!(!g.wrapped);
    let lasts: Vec<i64> = g
        .members
        .iter()
        .map(|m| m.last.as_ref().expect("fixture").seq)
        .collect();
    assert_eq!(lasts, vec![8, 8, 8, 7]);
    // expert_parallel: ranks 0 and 1 (from their entries), both at #5.
    let ep = &a.groups[1];
    assert_eq!(
        (ep.desc.as_str(), ep.ranks.clone()),
        ("expert_parallel", vec![0, 1])
    );
    assert!(!ep.ranks_from_config);
    assert!(ep.stuck.is_none());
}

#[test]
fn a_healthy_set_has_no_stuck_group() {
    let a = analyse(&json_set("ok"));
    assert_eq!(a.groups.len(), 2);
    assert!(a
        .groups
        .iter()
        .all(|g| g.stuck.is_none() && g.mismatches.is_empty()));
    let lasts: Vec<i64> = a.groups[0]
        .members
        .iter()
        .map(|m| m.last.as_ref().expect("fixture").seq)
        .collect();
    assert_eq!(lasts, vec![7, 7, 7, 7]);
}

/// The size set is the skip set's JSON with rank 3 given all_reduce #8 at
/// 2048 floats (gloo aborts a real size mismatch before any dump is
/// written: "Received data size doesn't match expected size").
#[test]
fn a_size_mismatch_is_reported_as_one() {
    let a = analyse(&json_set("size"));
    let g = &a.groups[0];
    assert!(g.stuck.is_none());
    assert_eq!(g.mismatches.len(), 1);
    let m = &g.mismatches[0];
    assert_eq!(
        (m.seq, m.kind, m.reference, m.rank),
        (8, MismatchKind::Size, 0, 3)
    );
    assert_eq!(m.expected.sizes, vec![vec![4096]]);
    assert_eq!(m.found.sizes, vec![vec![2048]]);
}

#[test]
fn a_missing_dump_is_named_and_the_rest_still_answers() {
    let mut d = pickle_set("skip");
    d.remove(1);
    let a = analyse(&d);
    let g = &a.groups[0];
    assert_eq!(g.ranks, vec![0, 2, 3]); // no pg_config for the default group: the loaded ranks
    assert_eq!(g.stuck.as_ref().expect("fixture").1, vec![3]);
    assert_eq!(a.groups[1].ranks, vec![0]);
}

#[test]
fn ranks_come_from_the_names_trailing_digits() {
    assert_eq!(rank_of_name("rank_12"), Some(12));
    assert_eq!(rank_of_name("dumps/nccl_trace_rank_3.json"), Some(3));
    assert_eq!(rank_of_name("trace.pkl"), None);
    assert_eq!(rank_of_name("rank_1234567"), None);
}

#[test]
fn bad_pickles_say_why_and_never_panic() {
    let b = std::fs::read(format!("{DIR}/skip/rank_0")).expect("fixture");
    assert_eq!(read_pickle(&[]), Err(PickleError::Empty));
    assert_eq!(read_pickle(b"{\"a\": 1}"), Err(PickleError::NotPickle));
    for cut in [3, 100, b.len() / 2, b.len() - 1] {
        assert!(read_pickle(&b[..cut]).is_err(), "cut at {cut}");
    }
    assert_eq!(read_pickle(&b[..b.len() - 1]), Err(PickleError::Truncated));
    // os.system via GLOBAL + REDUCE: refused at the GLOBAL, byte 2.
    let evil = b"\x80\x02cos\nsystem\nX\x02\x00\x00\x00lsR.";
    assert_eq!(
        read_pickle(evil),
        Err(PickleError::Refused {
            opcode: b'c',
            name: "GLOBAL",
            at: 2
        })
    );
    // Every single-byte corruption gives a value or an error, never a panic.
    for i in 0..b.len() {
        let mut c = b.clone();
        c[i] ^= 0x5a;
        let _ = read_pickle(&c).map(|v| read_dump(&v, 0));
    }
    // A negative LONG1 and a float.
    assert_eq!(read_pickle(b"\x80\x02\x8a\x01\xff."), Ok(Value::Int(-1)));
    assert_eq!(
        read_pickle(b"\x80\x02G?\xf8\x00\x00\x00\x00\x00\x00."),
        Ok(Value::Float(1.5))
    );
}

#[test]
fn old_and_foreign_dumps_are_refused_with_their_version() {
    let v = Value::Dict(vec![
        (Value::Str("version".into()), Value::Str("2.1".into())),
        (Value::Str("entries".into()), Value::List(vec![])),
    ]);
    assert_eq!(read_dump(&v, 0), Err(DumpError::Version("2.1".into())));
    assert_eq!(read_dump(&Value::List(vec![]), 0), Err(DumpError::NotADump));
}
