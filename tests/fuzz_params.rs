//! Input fuzzing of every view's URL parameter parser (issue 14).
//!
//! For each parser in [`PARSERS`], [`CASES`] generated and mutated queries go
//! through [`Query::parse`] (so percent-encoding, `+`, repeated keys and
//! undecodable bytes are exercised) and then `from_query`, from the defaults
//! and from the previous good state. Each case must give a valid state or
//! typed errors that name one of the parser's keys, never a panic; the state
//! must survive the canonical round trip (`to_pairs` → parse → the same
//! pairs, no errors); and every state that parses is fed, with a bounded size, into
//! the core computation its view runs, which must not panic either.
//!
//! The generator is a seeded SplitMix64, so a failure names a reproducible
//! input. `FUZZ_CASES=n` changes the number of cases per parser (default
//! 10,000); `FUZZ_SLOW=1` prints every case that takes over 200 ms. To add a parser, add a row to
//! [`PARSERS`]: its keys, a few good values per key, and a `compute` function
//! that runs the view's core computation on a bounded copy of the state.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashSet;
use std::fmt::Debug;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

use collective_lab::core::collectives::compare::{
    all_allreduce, best_at, best_intervals, crossover_calculation,
};
use collective_lab::core::collectives::naive_root_schedule;
use collective_lab::core::collectives::{summary_table_on, Algorithm};
use collective_lab::core::cost::nccl::nccl_bandwidths;
use collective_lab::core::cost::CostParams;
use collective_lab::core::execute::{default_init, execute, ExecOptions};
use collective_lab::core::measure::analysis::{analyse, Settings};
use collective_lab::core::measure::{BwKind, CollectiveKind, ImportError, Model, MAX_INPUT_BYTES};
use collective_lab::core::practice::{check, check_choice, questions, Answer};
use collective_lab::core::schedule::ring::ring_all_reduce_schedule;
use collective_lab::core::sgd::narrate::{
    compare_step, narrate_step, over_weighting_line, trap_line,
};
use collective_lab::core::sgd::Strategy;
use collective_lab::core::timing::{
    executed_time, explain, ring_bytes_counted, ring_bytes_per_rank,
};
use collective_lab::core::topology_view::view_model::layout;
use collective_lab::core::topology_view::{row, run as topo_run, sweep_gpus, sweep_sizes};
use collective_lab::export::series::xy_series;
use collective_lab::params::collectives::CollectivesParams;
use collective_lab::params::cost::CostViewParams;
use collective_lab::params::embed::Embed;
use collective_lab::params::gossip::GossipParams;
use collective_lab::params::practice::PracticeParams;
use collective_lab::params::ring::{Accounting, RingParams, ELEM_BYTES};
use collective_lab::params::sgd::SgdParams;
use collective_lab::params::step::StepParams;
use collective_lab::params::timeline::TimelineParams;
use collective_lab::params::topology::{TopologyParams, KEYS as TOPOLOGY_KEYS};
use collective_lab::params::{encode, Query, ViewParams};
use collective_lab::plot;

/// Generated queries per parser (the issue asks for at least 10,000).
const CASES: usize = 10_000;
/// One case in `HEAVY_EVERY` also draws the view's charts (plotters is the
/// slow part of a debug build).
const HEAVY_EVERY: usize = 50;
/// The base state chains from case to case (as in the app) for this many
/// cases, then starts again from the defaults.
const RESTART_EVERY: usize = 4;
/// Largest p fed into the schedule executors and the consensus core.
const MAX_COMPUTED_P: usize = 16;

// ---------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------

/// SplitMix64 (Steele, Lea & Flood 2014): small, seeded, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// Numbers that break naive parsers.
const NASTY_NUMBERS: &[&str] = &[
    "0",
    "-0",
    "+0",
    "1",
    "-1",
    "2",
    "3",
    "4",
    "7",
    "8",
    "64",
    "65",
    "1000",
    "1024",
    "1025",
    "65536",
    "65537",
    "1e308",
    "-1e308",
    "1e309",
    "1e-308",
    "5e-324",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "Infinity",
    "+5",
    "0.5",
    ".5",
    "5.",
    "1e3",
    "1E3",
    "0x10",
    "1_000",
    "1,5",
    "١٢",
    "１２",
    "4294967296",
    "4294967297",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "00000008",
    "0.1",
    "1e-9",
    "-1e-9",
    "2.5",
    "12.5",
    "100",
    "1000000000000",
    "1000000000001",
];

/// Text that is not a number.
const NASTY_TEXT: &[&str] = &[
    "",
    " ",
    "  \t",
    "abc",
    "ring",
    "RING",
    "Ring",
    "tree",
    "rd",
    "rab",
    "hier",
    "true",
    "false",
    "yes",
    "no",
    "on",
    "off",
    "full",
    "FULL",
    "linear",
    "random",
    "course",
    "drill",
    "שלום",
    "\u{202E}8\u{202C}",
    "مرحبا",
    "\u{200B}",
    "\u{FEFF}4",
    "🙂",
    "a\u{0}b",
    "%",
    "%%",
    "%zz",
    "\"",
    "'",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "&amp;",
    "..",
    ",",
    ",,",
    ";",
    "=",
    "==",
    "&",
    "+",
    "-",
    "e",
    "E5",
    "ｐ",
    "ǅ",
];

/// Every unit the unit parsers know of, and some they do not.
const UNITS: &[&str] = &[
    "B", "kB", "KB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB", "b", "kb", "Kb", "Mb",
    "Gb", "Tb", "bit", "bits", "byte", "bytes", "B/s", "kB/s", "MB/s", "GB/s", "GiB/s", "b/s",
    "bps", "kbps", "Mbps", "Gbps", "Gb/s", "Tb/s", "Mbit/s", "Gbit/s", "s", "sec", "ms", "us",
    "µs", "μs", "ns", "ps", "min", "h", "ns/B", "us/B", "ps/B", "s/B", "ms/MB", "ns/byte", "s/GB",
    "parsecs", "%", "x",
];

/// Puts each letter in a random case: `mIb/S`.
fn random_case(r: &mut Rng, s: &str) -> String {
    s.chars()
        .map(|c| {
            if r.chance(50) {
                c.to_uppercase().collect::<String>()
            } else {
                c.to_lowercase().collect::<String>()
            }
        })
        .collect()
}

fn number(r: &mut Rng) -> String {
    match r.below(6) {
        0 => r.pick(NASTY_NUMBERS).to_string(),
        1 => (r.below(40)).to_string(),
        2 => format!("{}", r.next() as i64),
        3 => format!("{}", f64::from_bits(r.next())),
        4 => format!("{:.3}", (r.below(100_000) as f64) / 100.0),
        _ => format!("{}e{}", r.below(10), r.below(40) as i64 - 20),
    }
}

fn with_unit(r: &mut Rng) -> String {
    let sep = *r.pick(&["", "", " ", "  ", "\u{00A0}", "\u{2009}"]);
    let n = number(r);
    let unit = r.clone_pick(UNITS);
    format!("{n}{sep}{}", random_case(r, unit))
}

impl Rng {
    fn clone_pick(&mut self, xs: &[&'static str]) -> &'static str {
        xs[self.below(xs.len())]
    }
}

fn list(r: &mut Rng) -> String {
    let len = match r.below(100) {
        0 => 10_000,
        1..=4 => 0,
        5..=40 => 1 + r.below(4),
        _ => r.below(40),
    };
    let sep = *r.pick(&[",", ",", ",", ", ", ";", " ", ",,"]);
    let mut items: Vec<String> = (0..len)
        .map(|_| {
            if r.chance(85) {
                r.below(200).to_string()
            } else {
                number(r)
            }
        })
        .collect();
    if r.chance(10) {
        items.push(String::new());
    }
    items.join(sep)
}

/// A value for a key: the parser's own good values, mutated or not, or
/// anything else.
fn value(r: &mut Rng, good: &[&str]) -> String {
    match r.below(10) {
        0..=2 if !good.is_empty() => r.pick(good).to_string(),
        3 if !good.is_empty() => {
            let g = r.clone_pick_str(good);
            mutate(r, g)
        }
        4 => number(r),
        5 => with_unit(r),
        6 => list(r),
        7 => r.pick(NASTY_TEXT).to_string(),
        8 if !good.is_empty() => {
            let g = r.clone_pick_str(good);
            random_case(r, g)
        }
        _ => {
            let n = r.below(12);
            (0..n)
                .map(|_| char::from_u32(r.below(0x3000) as u32).unwrap_or('?'))
                .collect()
        }
    }
}

impl Rng {
    fn clone_pick_str<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

/// Deletes, inserts, duplicates or swaps characters.
fn mutate(r: &mut Rng, s: &str) -> String {
    let mut cs: Vec<char> = s.chars().collect();
    for _ in 0..=r.below(3) {
        let i = r.below(cs.len() + 1);
        match r.below(4) {
            0 if i < cs.len() => {
                cs.remove(i);
            }
            1 => cs.insert(
                i,
                *r.pick(&['0', '9', '.', '-', 'e', ',', ' ', '%', 'µ', '\u{202E}']),
            ),
            2 if i < cs.len() => {
                let c = cs[i];
                cs.insert(i, c);
            }
            _ => {
                if i + 1 < cs.len() {
                    cs.swap(i, i + 1);
                }
            }
        }
    }
    cs.into_iter().collect()
}

/// One raw query string for a parser.
fn query_string(r: &mut Rng, spec: &Spec) -> String {
    let keys = spec.keys;
    let mut pairs: Vec<(String, String)> = Vec::new();
    for _ in 0..r.below(8) {
        let key = match r.below(10) {
            0 => r.pick(NASTY_TEXT).to_string(),
            1 => {
                let k = r.clone_pick(keys);
                random_case(r, k)
            }
            2 => format!(" {} ", r.clone_pick(keys)),
            3 => "view".to_string(),
            _ => r.clone_pick(keys).to_string(),
        };
        let good = spec.good_values(&key);
        let v = value(r, good);
        pairs.push((key, v));
        if r.chance(15) {
            // a repeated key: the last one wins
            let (k, _) = pairs[r.below(pairs.len())].clone();
            let good = spec.good_values(&k);
            let v = value(r, good);
            pairs.push((k, v));
        }
    }
    match r.below(10) {
        // percent-encoded, as a browser writes it
        0..=5 => {
            let refs: Vec<(&str, String)> =
                pairs.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
            let s = encode(&refs);
            if r.chance(20) {
                format!("?{s}")
            } else {
                s
            }
        }
        // typed by hand into the address bar: raw characters
        6..=8 => pairs
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&"),
        // damaged encodings
        _ => {
            let raw: String = pairs.iter().map(|(k, v)| format!("{k}={v}&")).collect();
            let junk = *r.pick(&[
                "%FF%FE",
                "%",
                "%z",
                "&&==&",
                "%E2%80%AE",
                "+%2B+",
                "%00",
                "=&=",
            ]);
            mutate(r, &format!("{raw}{junk}"))
        }
    }
}

// ---------------------------------------------------------------------------
// The table of parsers
// ---------------------------------------------------------------------------

/// One view's parser under test.
struct Spec {
    view: &'static str,
    /// Every URL key the parser reads; an error must name one of these.
    keys: &'static [&'static str],
    /// Good values per key, to build near-valid queries.
    good: &'static [(&'static str, &'static [&'static str])],
    /// Parses one query and checks it; `Err` describes a failure.
    run: fn(&Query, &Spec, &mut Ctx) -> Result<(), String>,
}

impl Spec {
    /// The listed good values of `key`, and for `alg` the registry's keys
    /// ([`registry_algs`]), so a new algorithm needs no line here.
    fn good_values(&self, key: &str) -> &'static [&'static str] {
        let listed = self
            .good
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(&[][..], |(_, v)| *v);
        if key != "alg" {
            return listed;
        }
        static ALGS: OnceLock<Vec<(&'static str, &'static [&'static str])>> = OnceLock::new();
        let per_view = ALGS.get_or_init(|| {
            PARSERS
                .iter()
                .filter_map(|s| {
                    let mut keys = registry_algs(s.view)?;
                    let extra = s.good.iter().find(|(k, _)| *k == "alg");
                    keys.extend(extra.map_or(&[][..], |(_, v)| *v));
                    Some((s.view, &*Vec::leak(keys)))
                })
                .collect()
        });
        per_view
            .iter()
            .find(|(v, _)| *v == self.view)
            .map_or(listed, |(_, keys)| *keys)
    }
}

/// The good `alg` values a view takes from the registry: every key for the
/// collectives and timeline views, the compared all-reduces for the cost view.
fn registry_algs(view: &str) -> Option<Vec<&'static str>> {
    match view {
        "collectives" | "timeline" => Some(Algorithm::all().map(|a| a.key()).collect()),
        "cost" => Some(Algorithm::compared().iter().map(|a| a.key()).collect()),
        _ => None,
    }
}

/// State kept across the cases of one parser.
#[derive(Default)]
struct Ctx {
    /// The previous good state, used as the base of the next parse (the app
    /// parses a new URL or a typed field on top of the last good state).
    last: Option<Box<dyn std::any::Any>>,
    /// Bounded states already computed (debug builds are slow).
    computed: HashSet<String>,
    /// Whether this case also draws the charts.
    heavy: bool,
    /// Counters for the report.
    parsed_clean: usize,
    with_errors: usize,
    computed_count: usize,
}

/// The checks every parser gets: no panic, errors name a key, the state
/// round-trips, and the bounded state runs through `compute`.
fn run_view<P: ViewParams + Debug>(
    q: &Query,
    spec: &Spec,
    ctx: &mut Ctx,
    compute: fn(&P, bool),
) -> Result<(), String> {
    let base: P = ctx
        .last
        .as_ref()
        .and_then(|b| b.downcast_ref::<P>())
        .cloned()
        .unwrap_or_default();
    for from in [P::default(), base] {
        let (state, errs) = catch_unwind(AssertUnwindSafe(|| P::from_query(q, &from)))
            .map_err(|_| "from_query panicked".to_string())?;
        for e in &errs {
            if !spec.keys.contains(&e.field) {
                return Err(format!(
                    "error names unknown field {:?}: {}",
                    e.field, e.message
                ));
            }
            if e.message.trim().is_empty() {
                return Err(format!("empty message for field {}", e.field));
            }
        }
        if errs.is_empty() {
            ctx.parsed_clean += 1;
        } else {
            ctx.with_errors += 1;
        }
        // The canonical form parses back to the same state, without errors.
        let pairs = state.to_pairs();
        let again = Query::parse(&encode(&pairs));
        let (back, errs2) = catch_unwind(AssertUnwindSafe(|| P::from_query(&again, &P::default())))
            .map_err(|_| format!("round trip of {pairs:?} panicked"))?;
        if !errs2.is_empty() {
            return Err(format!("canonical pairs {pairs:?} give errors {errs2:?}"));
        }
        // (Compared as URLs: a field the URL leaves out, e.g. `gpus` for a
        // flat algorithm or `seed` for the course set, may differ.)
        if back.to_pairs() != pairs {
            return Err(format!(
                "round trip changed the URL:\n  {pairs:?}\n→ {:?}",
                back.to_pairs()
            ));
        }
        // The computation the view runs, once per distinct state.
        let key = format!("{state:?}");
        if ctx.heavy || ctx.computed.insert(key) {
            ctx.computed_count += 1;
            let heavy = ctx.heavy;
            let t = std::time::Instant::now();
            catch_unwind(AssertUnwindSafe(|| compute(&state, heavy)))
                .map_err(|_| format!("the view's computation panicked on {state:?}"))?;
            if std::env::var("FUZZ_SLOW").is_ok() && t.elapsed().as_millis() > 200 {
                eprintln!("slow compute {:?}: {state:?}", t.elapsed());
            }
        }
        ctx.last = Some(Box::new(state));
    }
    Ok(())
}

// --- ring -------------------------------------------------------------------

fn ring_compute(s: &RingParams, _heavy: bool) {
    let _ = s.last_step();
    let p = s.p.min(MAX_COMPUTED_P);
    let n = s.size.value / ELEM_BYTES;
    let n_bytes = s.size.value as f64;
    let (alpha, beta) = (s.alpha.value, s.bw.value.beta());
    if let Ok(schedule) = ring_all_reduce_schedule(p, n, ELEM_BYTES) {
        let _ = execute(&schedule, &default_init, ExecOptions { keep_states: true });
        let _ = executed_time(&schedule, alpha, beta);
        let _ = explain(&schedule, alpha, beta);
    }
    if let Ok(naive) = naive_root_schedule(p, n, ELEM_BYTES) {
        let _ = executed_time(&naive, alpha, beta);
        let _ = explain(&naive, alpha, beta);
    }
    let _ = ring_bytes_per_rank(s.p, n_bytes);
    let _ = ring_bytes_counted(s.p, n_bytes, s.count == Accounting::SentAndReceived);
}

fn ring_run(q: &Query, spec: &Spec, ctx: &mut Ctx) -> Result<(), String> {
    run_view::<RingParams>(q, spec, ctx, ring_compute)
}

// --- collectives --------------------------------------------------------------

fn collectives_compute(s: &CollectivesParams, _heavy: bool) {
    let _ = s.last_step();
    let mut b = s.clone();
    b.p = b.p.min(MAX_COMPUTED_P);
    let topo = b.topology();
    let n = b.elements().max(1);
    let c = CostParams::new(b.alpha.value, b.bw.value.beta());
    if let Ok(schedule) = b.alg.generate_on(&topo, n, ELEM_BYTES) {
        let _ = execute(&schedule, &default_init, ExecOptions { keep_states: true });
        let _ = explain(&schedule, c.alpha, c.beta);
        let _ = b
            .alg
            .closed_form_on(&topo, schedule.total_bytes() as f64, c);
    }
    let _ = summary_table_on(&topo, n, ELEM_BYTES, c);
}

fn collectives_run(q: &Query, spec: &Spec, ctx: &mut Ctx) -> Result<(), String> {
    run_view::<CollectivesParams>(q, spec, ctx, collectives_compute)
}

// --- cost ---------------------------------------------------------------------

fn cost_compute(s: &CostViewParams, heavy: bool) {
    let (p, n, m) = (s.p, s.n_bytes(), s.model());
    let table = all_allreduce(p, n, m);
    let winner = best_at(p, n, m);
    let intervals = best_intervals(p, m);
    for w in intervals.windows(2) {
        let _ = crossover_calculation(w[0].best, w[1].best, p, m);
    }
    for (_, f) in &table {
        let _ = nccl_bandwidths(n, f.time, p);
    }
    let _ = winner;
    if heavy {
        let _ = plot::cost::draw_time_vs_size(p, m, n);
        let _ = plot::cost::draw_time_vs_p(n, m, p);
        let _ = plot::cost::draw_winner_map(m, n, p);
    }
}

fn cost_run(q: &Query, spec: &Spec, ctx: &mut Ctx) -> Result<(), String> {
    run_view::<CostViewParams>(q, spec, ctx, cost_compute)
}

// --- gossip -------------------------------------------------------------------

/// The same state with at most [`MAX_COMPUTED_P`] nodes, made by the parser
/// itself (it refits the torus shape, the weight rule and the initial values).
fn bounded_gossip(s: &GossipParams) -> GossipParams {
    if s.p <= MAX_COMPUTED_P {
        return s.clone();
    }
    GossipParams::from_query(&Query::parse("p=16&rows=4&cols=4"), s).0
}

fn gossip_compute(s: &GossipParams, heavy: bool) {
    let b = bounded_gossip(s);
    let Ok(mut run) = b.run(0) else { return };
    let h = run.suggested_horizon();
    run.extend_to(h.max(b.round));
    let _ = run.all_reduce_contrast();
    if heavy {
        let _ = plot::gossip::draw_eigenvalues(&run.spectrum);
        let shown = &run.rounds[..=b.round.min(run.rounds.len() - 1)];
        let _ = plot::gossip::draw_disagreement(
            shown,
            b.round,
            run.spectrum.bound_guaranteed,
            run.factor,
        );
    }
}

fn gossip_run(q: &Query, spec: &Spec, ctx: &mut Ctx) -> Result<(), String> {
    run_view::<GossipParams>(q, spec, ctx, gossip_compute)
}

// --- sgd ----------------------------------------------------------------------

fn sgd_compute(s: &SgdParams, heavy: bool) {
    if let Ok(o) = s.objective() {
        let _ = over_weighting_line(&o, &s.losses);
        if heavy {
            let _ = plot::sgd::draw_sample_weights(&o);
        }
    }
    // Bounded training: at most 16 samples per shard and 8 steps (empty
    // shards stay empty: training must refuse them with a message).
    let mut b = s.clone();
    for n in &mut b.shards {
        *n = (*n).min(16);
    }
    b.steps = b.steps.min(8);
    b.step = b.step.min(b.steps);
    let Ok((_, _, lab)) = b.lab_setup().run() else {
        return;
    };
    for strategy in Strategy::ALL {
        let _ = narrate_step(&lab, strategy, b.step, "batch");
    }
    let _ = compare_step(&lab, b.step);
    let _ = trap_line(&lab);
    if heavy {
        let _ = plot::sgd::draw_loss(&lab, b.step);
        let _ = plot::sgd::draw_consensus(&lab, b.step);
        let _ = plot::sgd::draw_loss_vs_bytes(&lab, b.step);
        let _ = plot::sgd::draw_trajectories(&lab, b.step);
    }
}

fn sgd_run(q: &Query, spec: &Spec, ctx: &mut Ctx) -> Result<(), String> {
    run_view::<SgdParams>(q, spec, ctx, sgd_compute)
}

// --- practice -----------------------------------------------------------------

/// Answers a student might type.
const TYPED: &[&str] = &[
    "",
    "0",
    "1.2375",
    "150 MB",
    "150MB",
    "1e308",
    "NaN",
    "-inf",
    "≈ 0.5",
    "½",
    "1/3",
    "7 µs",
    "<b>",
    "שלום",
    "1,5",
    "12.5 GB/s",
    "0.08 ns/B",
    "1e-400",
    "99999999999999999999 GiB",
];

fn practice_compute(s: &PracticeParams, _heavy: bool) {
    let qs = questions(s.set, s.template, s.seed);
    if let Some(k) = s.number {
        assert!(
            (1..=qs.len()).contains(&k),
            "question {k} of {} accepted",
            qs.len()
        );
    }
    for q in &qs {
        match &q.answer {
            Answer::Numeric(ns) => {
                for n in ns {
                    for t in TYPED {
                        let _ = check(n, t);
                    }
                }
            }
            Answer::Choice(opts) => {
                for i in [0, 1, opts.len(), usize::MAX] {
                    let _ = check_choice(opts, i);
                }
            }
        }
    }
}

fn practice_run(q: &Query, spec: &Spec, ctx: &mut Ctx) -> Result<(), String> {
    run_view::<PracticeParams>(q, spec, ctx, practice_compute)
}

// --- topology -------------------------------------------------------------------

/// Most elements executed per rank by the topology fuzz (real buffers).
const MAX_TOPO_ELEMENTS: u64 = 1024;

/// The state with at most [`MAX_COMPUTED_P`] ranks and [`MAX_TOPO_ELEMENTS`]
/// elements (set through the view's own field setter, so it stays valid).
fn bounded_topology(s: &TopologyParams) -> TopologyParams {
    let mut b = s.clone();
    if b.p() > MAX_COMPUTED_P {
        let _ = b.set_field("groups", "");
        let _ = b.set_field("racks", "1");
        let _ = b.set_field("nodes", "2");
        let _ = b.set_field("gpus", "4");
    }
    if b.elements() > MAX_TOPO_ELEMENTS {
        let _ = b.set_field("size", "4KB");
    }
    b
}

fn topology_compute(s: &TopologyParams, heavy: bool) {
    let b = bounded_topology(s);
    assert!(
        b.p() <= MAX_COMPUTED_P && b.elements() <= MAX_TOPO_ELEMENTS,
        "bounded: {b:?}"
    );
    let Ok(topo) = b.topology() else { return };
    let n = b.elements();
    let _ = topo_run(b.alg.topology_info().key, &topo, n, ELEM_BYTES);
    let _ = layout(&b.node_sizes(), topo.racks(), topo.lanes(), false);
    let _ = layout(&b.node_sizes(), topo.racks(), topo.lanes(), true);
    if heavy {
        for a in collective_lab::core::collectives::Algorithm::on_topologies() {
            let _ = row(a.topology_info().key, &topo, n, ELEM_BYTES);
        }
        // The two sweep charts and their data tables, as the view draws them.
        let lines = |series: Vec<collective_lab::core::topology_view::Series>| -> Vec<plot::topology::Line> {
            series
                .into_iter()
                .map(|s| plot::topology::Line {
                    label: s.label.to_string(),
                    points: s.points.iter().map(|p| (p.x, p.time)).collect(),
                })
                .collect()
        };
        if let Ok(g) = sweep_gpus(&topo, n, ELEM_BYTES, 8, true) {
            let l = lines(g);
            let _ = plot::topology::draw_time_vs_gpus(&l, "t");
            let pts: Vec<(String, Vec<(f64, f64)>)> =
                l.into_iter().map(|l| (l.label, l.points)).collect();
            let _ = xy_series("t", "GPUs per node", "time (s)", &pts).to_csv();
        }
        if let Ok(z) = sweep_sizes(&topo, &[1024, 4096], ELEM_BYTES) {
            let _ = plot::topology::draw_time_vs_size(&lines(z), "t");
        }
    }
}

fn topology_run(q: &Query, spec: &Spec, ctx: &mut Ctx) -> Result<(), String> {
    run_view::<TopologyParams>(q, spec, ctx, topology_compute)
}

// --- embed: show= and autoheight=, read for every view's panels ------------

/// Every view's panel names (what `show=` takes).
const PANEL_LISTS: &[&[&str]] = &[
    collective_lab::params::ring::PANELS,
    collective_lab::params::collectives::PANELS,
    collective_lab::params::cost::PANELS,
    collective_lab::params::gossip::PANELS,
    collective_lab::params::sgd::PANELS,
    collective_lab::params::topology::PANELS,
    collective_lab::params::practice::PANELS,
    collective_lab::params::measure::PANELS,
    collective_lab::params::timeline::PANELS,
    collective_lab::params::step::PANELS,
];

/// `show` and `autoheight` read against every view's panels: no panic,
/// errors name a key (a `show` message lists the view's panels), the
/// canonical pairs read back to the same state, and the view's own parser
/// (the ring's) is not disturbed by them.
fn embed_run(q: &Query, spec: &Spec, ctx: &mut Ctx) -> Result<(), String> {
    for panels in PANEL_LISTS {
        let (e, errs) = catch_unwind(AssertUnwindSafe(|| Embed::from_query(q, panels)))
            .map_err(|_| "Embed::from_query panicked".to_string())?;
        for err in &errs {
            if !spec.keys.contains(&err.field) {
                return Err(format!("error names unknown field {:?}", err.field));
            }
            if err.field == "show" && !err.message.contains(&panels.join(", ")) {
                return Err(format!("show message lists no panels: {}", err.message));
            }
        }
        if errs.iter().any(|e| e.field == "show") && e.chosen() {
            return Err("a bad show= still chose panels".into());
        }
        if !panels.iter().any(|p| e.shows(p)) {
            return Err("no panel is shown".into());
        }
        if errs.is_empty() {
            ctx.parsed_clean += 1;
        } else {
            ctx.with_errors += 1;
        }
        let pairs = e.to_pairs();
        let again = Query::parse(&encode(&pairs));
        let (back, errs2) = Embed::from_query(&again, panels);
        if !errs2.is_empty() || back != e {
            return Err(format!("round trip of {pairs:?} gave {back:?}, {errs2:?}"));
        }
    }
    let (_, ring_errs) = RingParams::from_query(q, &RingParams::default());
    if ring_errs
        .iter()
        .any(|e| e.field == "show" || e.field == "autoheight")
    {
        return Err("the ring parser reads show or autoheight".into());
    }
    ctx.computed_count += 1;
    Ok(())
}

// --- timeline -------------------------------------------------------------------

fn timeline_compute(s: &TimelineParams, heavy: bool) {
    use collective_lab::core::collectives::pipelining as pipeline;
    use collective_lab::core::timing::{self as timing, clock, gantt, story};
    let mut b = s.clone();
    if b.p > MAX_COMPUTED_P || b.shape.as_ref().is_some_and(|t| t.p() > MAX_COMPUTED_P) {
        return;
    }
    b.segments = b.segments.min(4);
    let topo = b.topology();
    let n = b.elements().clamp(1, 4096);
    let faults = b.faults();
    let Ok(schedule) = b.alg.generate_on(&topo, n, ELEM_BYTES) else {
        return;
    };
    let mut clocks = Vec::new();
    for mode in b.mode.modes() {
        let opts = clock::ClockOptions {
            segments: b.segments,
            gamma: b.gamma.value,
            faults: faults.clone(),
            ..clock::ClockOptions::new(mode)
        };
        let Ok(c) = timing::run(&schedule, &topo, &opts) else {
            continue;
        };
        let g = gantt::gantt(&c);
        assert!(g.rows.len() <= gantt::MAX_ROWS);
        let times = gantt::event_times(&c);
        let k = gantt::nearest(&times, b.t.value);
        let _ = gantt::narrate(&gantt::moment(&c, times.get(k).copied().unwrap_or(0.0)));
        let _ = story::failure(&c);
        let _ = story::totals(&c, b.alg.collective(), (n * ELEM_BYTES) as f64, None);
        clocks.push(c);
    }
    if let [df, ls] = clocks.as_slice() {
        let _ = story::contrast(df, ls, &faults);
    }
    if heavy {
        let case = pipeline::Case {
            topo: &topo,
            n,
            elem_bytes: ELEM_BYTES,
            gamma: b.gamma.value,
            faults: &faults,
        };
        let _ = pipeline::sweep(b.alg, &case);
    }
}

fn timeline_run(q: &Query, spec: &Spec, ctx: &mut Ctx) -> Result<(), String> {
    run_view::<TimelineParams>(q, spec, ctx, timeline_compute)
}

// --- step -----------------------------------------------------------------------

fn step_compute(s: &StepParams, heavy: bool) {
    use collective_lab::core::step::{report, strategies, trace};
    let mut b = s.clone();
    if b.p > MAX_COMPUTED_P {
        b.p = MAX_COMPUTED_P;
        b.straggler = None;
        b.fail = None;
    }
    b.layers = b.layers.min(8);
    if b.params.value.len() > 1 {
        b.params.value.truncate(1);
    }
    if b.bwd.value.len() > 1 {
        b.bwd.value.truncate(1);
    }
    let Ok(case) = b.case() else { return };
    let Ok(r) = report::report(&case) else { return };
    let _ = trace::chrome_trace(&r.run);
    // the mode shown (ZeRO-2, FSDP, or DDP with the reason it cannot run)
    let (shown, _) = r.shown_or_ddp();
    let _ = trace::chrome_trace(shown.run);
    let _ =
        collective_lab::plot::step::timeline_svg(shown.run, None, shown.run.step_time, shown.mode);
    assert!(r.memory.zero3 <= r.memory.zero2 && r.memory.zero2 <= r.memory.zero1);
    assert!(r.memory.zero1 <= r.memory.ddp);
    let _ = (
        r.run.exposed(),
        r.run.hidden_share(),
        r.gossip_straggler_step(),
    );
    if heavy {
        let mut net = case.net.clone();
        let _ = strategies::tune(&case.model, &mut net, &case.opts);
    }
}

fn step_run(q: &Query, spec: &Spec, ctx: &mut Ctx) -> Result<(), String> {
    run_view::<StepParams>(q, spec, ctx, step_compute)
}

/// Every view's URL parser (the measure view has no URL parameters: its
/// pasted logs and typed settings are fuzzed by [`fuzz_measure_import`]).
const PARSERS: &[Spec] = &[
    Spec {
        view: "step",
        keys: &[
            "alg",
            "p",
            "bw",
            "alpha",
            "layers",
            "params",
            "dtype",
            "fwd",
            "bwd",
            "first",
            "bucket",
            "overlap",
            "samples",
            "mode",
            "optim",
            "graph",
            "h",
            "straggler",
            "fail",
            "ckpt",
            "restart",
            "target",
            "shards",
            "losses",
            "iid",
            "lr",
            "decay",
            "steps",
            "batch",
            "seed",
            "d",
            "weights",
        ],
        good: &[
            ("alg", &["ring", "tree", "rd", "rab", "rs", "naive"]),
            ("p", &["2", "8", "16", "256"]),
            ("bw", &["12.5GB/s", "100Gb/s"]),
            ("alpha", &["0us", "20us"]),
            ("layers", &["1", "4", "100", "1000"]),
            (
                "params",
                &["25M", "1M", "1.5B", "1M,4M", "25MB", "-1", "7b"],
            ),
            ("dtype", &["fp32", "bf16", "fp16"]),
            ("fwd", &["0ms", "25ms"]),
            ("bwd", &["10ms", "0.5ms", "1ms,2ms"]),
            ("first", &["1MiB", "25", "0"]),
            ("bucket", &["25MiB", "32", "0", "1TiB"]),
            ("overlap", &["0", "1"]),
            ("samples", &["32", "-"]),
            (
                "mode",
                &["allreduce", "gossip", "local", "zero2", "fsdp", "ZeRO-3"],
            ),
            ("optim", &["12", "0", "8", "-1", "1e9", "1001"]),
            ("graph", &["ring", "complete", "hypercube", "path", "star"]),
            ("h", &["1", "4", "never"]),
            ("straggler", &["3:0.5", "99:0.5", "0:1", "-"]),
            ("fail", &["3@25", "3@-1", "0@1", "-"]),
            ("ckpt", &["10", "0"]),
            ("restart", &["30s", "-"]),
            ("target", &["0.05", "-"]),
            ("shards", &["600,300,100", "1,1,1,1,1,1,1,1"]),
            ("losses", &["0.2,0.5,0.9"]),
            ("steps", &["10", "100"]),
        ],
        run: step_run,
    },
    Spec {
        view: "timeline",
        keys: &[
            "alg",
            "p",
            "size",
            "bw",
            "alpha",
            "gamma",
            "nodes",
            "gpus",
            "groups",
            "racks",
            "intra_bw",
            "intra_alpha",
            "inter_bw",
            "inter_alpha",
            "core_bw",
            "lanes",
            "segments",
            "late",
            "slow",
            "fail",
            "mode",
            "t",
        ],
        good: &[
            // and every registry key ([`registry_algs`])
            ("alg", &["flat"]),
            ("p", &["2", "4", "8", "16", "256"]),
            ("size", &["100MB", "4B", "64KiB"]),
            ("bw", &["12.5GB/s", "100Gb/s"]),
            ("alpha", &["0us", "5us"]),
            ("gamma", &["0.01ns/B", "0"]),
            ("nodes", &["1", "2", "4"]),
            ("gpus", &["1", "2", "4"]),
            ("groups", &["2,3", "1,1"]),
            ("racks", &["1", "2"]),
            ("lanes", &["1", "2"]),
            ("intra_bw", &["300GB/s"]),
            ("inter_bw", &["12.5GB/s"]),
            ("segments", &["1", "2", "8", "0", "1024"]),
            (
                "late",
                &["2:5ms", "0:1us,1:2ms", "9:1ms", "-", "1:1ms,1:2ms"],
            ),
            ("slow", &["1:0.5", "1:2", "0:1", "none"]),
            ("fail", &["2@3ms", "0@0s", "3@1ms,1@2ms", "9@1ms"]),
            ("mode", &["both", "dataflow", "lockstep"]),
            ("t", &["0ms", "5ms", "1s", "-1ms"]),
        ],
        run: timeline_run,
    },
    Spec {
        view: "ring",
        keys: &["p", "size", "step", "bw", "alpha", "mean", "count"],
        good: &[
            ("p", &["2", "4", "8", "1024"]),
            ("size", &["100MB", "4B", "8KiB", "64MiB", "1TB"]),
            ("step", &["0", "3", "6", "7"]),
            ("bw", &["12.5GB/s", "100Gb/s", "1B/s"]),
            ("alpha", &["0us", "5us", "1s", "2ms"]),
            ("mean", &["1", "0"]),
            ("count", &["sent", "both"]),
        ],
        run: ring_run,
    },
    Spec {
        view: "collectives",
        keys: &["alg", "p", "size", "step", "bw", "alpha", "gpus"],
        good: &[
            ("p", &["2", "3", "6", "8", "12", "64"]),
            ("size", &["64MB", "4B", "12B", "8KiB"]),
            ("step", &["0", "3", "6", "100"]),
            ("bw", &["12.5GB/s", "100Gb/s"]),
            ("alpha", &["0us", "5us"]),
            ("gpus", &["1", "2", "3", "4", "8"]),
        ],
        run: collectives_run,
    },
    Spec {
        view: "cost",
        keys: &["preset", "p", "alpha", "bw", "beta", "size", "gamma", "alg"],
        good: &[
            ("preset", &["seed", "nvlink", "ib400", "ethernet"]),
            ("p", &["2", "16", "1024", "65536"]),
            ("alpha", &["5us", "0s", "1s"]),
            ("bw", &["100Gb/s", "12.5GB/s"]),
            ("beta", &["0.08ns/B", "1s/B"]),
            ("size", &["8KiB", "1B", "1TiB", "100MB"]),
            ("gamma", &["0.01ns/B", "0"]),
        ],
        run: cost_run,
    },
    Spec {
        view: "gossip",
        keys: &[
            "graph", "seed", "p", "rows", "cols", "weights", "init", "target", "round",
        ],
        good: &[
            (
                "graph",
                &[
                    "ring",
                    "path",
                    "star",
                    "complete",
                    "torus",
                    "hypercube",
                    "exponential",
                    "random",
                ],
            ),
            ("seed", &["0", "1", "42"]),
            ("p", &["2", "4", "6", "8", "16", "64"]),
            ("rows", &["1", "2", "4"]),
            ("cols", &["1", "2", "4"]),
            (
                "weights",
                &["uniform", "mh", "metropolis", "exponential", "lazy"],
            ),
            ("init", &["0,3,6,9", "linear", "random", "1,2", "0,0,0,0"]),
            ("target", &["100", "10", "1.5", "1"]),
            ("round", &["0", "2", "1000"]),
        ],
        run: gossip_run,
    },
    Spec {
        view: "sgd",
        keys: &[
            "shards", "losses", "mode", "iid", "steps", "step", "graph", "weights", "lr", "decay",
            "batch", "seed", "d", "h",
        ],
        good: &[
            (
                "shards",
                &["5,3", "600,300,100", "0,8", "1", "100000,100000"],
            ),
            ("losses", &["1.2,1.3", "0.2,0.5,0.9", "0,0", "1"]),
            ("mode", &["allreduce", "gossip", "local"]),
            ("iid", &["0", "1"]),
            ("steps", &["1", "100", "1000"]),
            ("step", &["0", "5", "100"]),
            (
                "graph",
                &[
                    "ring",
                    "star",
                    "complete",
                    "hypercube",
                    "exponential",
                    "random",
                ],
            ),
            ("weights", &["uniform", "mh", "exponential"]),
            ("lr", &["0.1", "10", "1e-9"]),
            ("decay", &["0", "0.5", "10"]),
            ("batch", &["1", "full", "10000"]),
            ("seed", &["0", "7"]),
            ("h", &["1", "4", "never", "0", "1001"]),
            ("d", &["1", "2", "10"]),
        ],
        run: sgd_run,
    },
    Spec {
        view: "practice",
        keys: &["set", "q", "seed", "reveal"],
        good: &[
            ("set", &["course", "drill"]),
            (
                "q",
                &[
                    "1",
                    "5",
                    "8",
                    "loss",
                    "dsgd",
                    "ring-rounds",
                    "ring-bytes",
                    "recursive",
                    "time",
                    "crossover",
                    "rho",
                    "busbw",
                ],
            ),
            ("seed", &["0", "1", "42", "1000000000000"]),
            ("reveal", &["1", "0"]),
        ],
        run: practice_run,
    },
    Spec {
        view: "topology",
        keys: &TOPOLOGY_KEYS,
        good: &[
            (
                "alg",
                &["flat", "hier", "hier_rd", "multilane", "rat", "flex"],
            ),
            ("nodes", &["1", "2", "4", "64"]),
            ("gpus", &["1", "2", "4", "8"]),
            ("groups", &["2,3", "1,4,2", "8", ""]),
            ("racks", &["1", "2", "4"]),
            ("size", &["64MB", "4KB", "1GB", "12B"]),
            ("n", &["1024", "16", "3"]),
            ("intra_bw", &["300GB/s", "100Gb/s"]),
            ("intra_alpha", &["1us", "0us"]),
            ("inter_bw", &["12.5GB/s", "1B/s"]),
            ("inter_alpha", &["5us", "1s"]),
            ("core_bw", &["25GB/s", "400Gb/s"]),
            ("lanes", &["1", "2", "4"]),
            ("step", &["0", "1", "5", "100"]),
        ],
        run: topology_run,
    },
    Spec {
        view: "embed",
        keys: &["show", "autoheight"],
        good: &[
            (
                "show",
                &[
                    "picture,steps",
                    "picture,steps,counters",
                    "steps,picture",
                    "title",
                    "Controls, check",
                    "crossovers,size-chart",
                    "graph,heatmap",
                    "questions",
                    "input,fit",
                    "picture,,steps",
                    "nosuch",
                ],
            ),
            ("autoheight", &["0", "1", "off", "yes"]),
        ],
        run: embed_run,
    },
];

/// Runs [`CASES`] queries through one parser; panics with the first failing
/// input (seed and case number reproduce it).
fn fuzz(view: &str, seed: u64) {
    let spec = PARSERS
        .iter()
        .find(|s| s.view == view)
        .unwrap_or_else(|| panic!("no parser {view}"));
    let mut r = Rng(seed);
    let mut ctx = Ctx::default();
    let mut failures = Vec::new();
    // `FUZZ_CASES=n` runs fewer or more cases (the default is the 10,000).
    let cases = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CASES);
    for case in 0..cases {
        let raw = query_string(&mut r, spec);
        let q = Query::parse(&raw);
        ctx.heavy = case % HEAVY_EVERY == 0;
        if case % RESTART_EVERY == 0 {
            // back to the defaults now and then, so one huge state (gossip
            // p = 1024 builds a dense 1024 × 1024 W in every parse) does not
            // slow down every following case
            ctx.last = None;
        }
        // `run` catches panics itself; this outer guard also catches a panic
        // in the checks (reported the same way).
        let t = std::time::Instant::now();
        let res = catch_unwind(AssertUnwindSafe(|| (spec.run)(&q, spec, &mut ctx)))
            .unwrap_or_else(|_| Err("panic outside the guarded calls".into()));
        if std::env::var("FUZZ_SLOW").is_ok() && t.elapsed().as_millis() > 200 {
            let shown: String = raw.chars().take(200).collect();
            eprintln!("slow case {case} {:?}: {shown:?}", t.elapsed());
        }
        if let Err(msg) = res {
            let shown: String = raw.chars().take(300).collect();
            failures.push(format!(
                "{view} case {case} (seed {seed}): {msg}\n  input: {shown:?}"
            ));
            if failures.len() >= 5 {
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The generator must reach both outcomes, or the test proves little.
    assert!(
        ctx.parsed_clean > cases / 20 && ctx.with_errors > cases / 20,
        "{view}: {} clean parses, {} with errors out of {} — the generator is off",
        ctx.parsed_clean,
        ctx.with_errors,
        2 * cases
    );
    assert!(ctx.computed_count > 0);
}

#[test]
fn fuzz_ring() {
    fuzz("ring", 1);
}

#[test]
fn fuzz_collectives() {
    fuzz("collectives", 2);
}

#[test]
fn fuzz_cost() {
    fuzz("cost", 3);
}

#[test]
fn fuzz_gossip() {
    fuzz("gossip", 4);
}

#[test]
fn fuzz_sgd() {
    fuzz("sgd", 5);
}

#[test]
fn fuzz_practice() {
    fuzz("practice", 6);
}

#[test]
fn fuzz_topology() {
    fuzz("topology", 9);
}

#[test]
fn fuzz_embed() {
    fuzz("embed", 10);
}

#[test]
fn fuzz_timeline() {
    fuzz("timeline", 10);
}

#[test]
fn fuzz_step() {
    fuzz("step", 11);
}

/// Issue 36: the sharded modes and `optim` from the URL.
#[test]
fn step_sharded_urls() {
    use collective_lab::core::step::report::report;
    use collective_lab::core::step::Sharding;
    let parse = |q: &str| StepParams::from_query(&Query::parse(q), &StepParams::default());
    for (q, field) in [
        ("mode=zero9", "mode"),
        ("optim=-1", "optim"),
        ("optim=NaN", "optim"),
        ("optim=12GB", "optim"),
        ("mode=fsdp2", "mode"),
    ] {
        let (p, e) = parse(q);
        assert_eq!(e.len(), 1, "{q}: {e:?}");
        assert_eq!(e[0].field, field, "{q}");
        assert_eq!(p, StepParams::default(), "{q} keeps the defaults");
    }
    // every flat all-reduce with every mode: a step or a reason, never a panic
    for alg in ["ring", "tree", "ptree", "dbtree", "rd", "rab", "naive"] {
        for mode in ["allreduce", "zero2", "fsdp"] {
            for p in ["2", "3", "6", "8"] {
                let q = format!("alg={alg}&mode={mode}&p={p}&layers=3&params=1M,2M,3M&bwd=1ms&fwd=3ms&straggler=1:0.5");
                let (s, e) = parse(&q);
                assert!(e.is_empty(), "{q}: {e:?}");
                let r = report(&s.case().expect("case")).expect("DDP runs");
                let halves = matches!(alg, "ring" | "rab");
                assert_eq!(r.shown().is_ok(), halves || mode == "allreduce", "{q}");
                if halves {
                    // FSDP sends 3 collectives' worth per layer, DDP 2
                    let f = r.run_of(Sharding::Fsdp).expect("fsdp");
                    assert!(f.bytes_sent > r.run.bytes_sent, "{q}");
                    assert!(f.step_time >= f.compute_time, "{q}");
                }
            }
        }
    }
}

#[test]
fn every_parser_is_in_the_table() {
    let views: Vec<&str> = PARSERS.iter().map(|s| s.view).collect();
    assert_eq!(
        views,
        [
            "step",
            "timeline",
            "ring",
            "collectives",
            "cost",
            "gossip",
            "sgd",
            "practice",
            "topology",
            "embed"
        ]
    );
    for s in PARSERS {
        for (k, _) in s.good {
            assert!(
                s.keys.contains(k),
                "{}: good values for unknown key {k}",
                s.view
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Typed fields: the per-field parsers the views call when a student types
// ---------------------------------------------------------------------------

/// A typed-field parser: its name and a check that returns the error's field
/// name (or `None` when the text was accepted).
type FieldParser = (&'static str, fn(&str) -> Option<&'static str>);

fn field_of<T>(r: Result<T, collective_lab::params::FieldError>) -> Option<&'static str> {
    r.err().map(|e| e.field)
}

/// Every typed field of the views, with the field name its errors must carry.
const FIELDS: &[(FieldParser, &str)] = {
    use collective_lab::params::{collectives as c, cost, fields, gossip as g, ring, sgd, step};
    &[
        (
            ("ring size", |s| field_of(ring::parse_tensor_size(s))),
            "size",
        ),
        (
            ("bw (every view)", |s| field_of(fields::bandwidth("bw", s))),
            "bw",
        ),
        (
            ("alpha (every view)", |s| {
                field_of(fields::alpha("alpha", s))
            }),
            "alpha",
        ),
        (("collectives alg", |s| field_of(c::parse_alg(s))), "alg"),
        (
            ("collectives gpus", |s| field_of(c::parse_gpus(s, 12))),
            "gpus",
        ),
        (("cost bw", |s| field_of(cost::parse_bw(s))), "bw"),
        (
            ("cost beta", |s| {
                field_of(cost::parse_per_byte("beta", s, false))
            }),
            "beta",
        ),
        (
            ("cost gamma", |s| {
                field_of(cost::parse_per_byte("gamma", s, true))
            }),
            "gamma",
        ),
        (
            ("cost size", |s| field_of(cost::parse_message_size(s))),
            "size",
        ),
        (("cost alg", |s| field_of(cost::parse_alg(s))), "alg"),
        (
            ("gossip weights", |s| field_of(g::parse_weights(s))),
            "weights",
        ),
        (("gossip init", |s| field_of(g::parse_init(s))), "init"),
        (
            ("gossip target", |s| field_of(g::parse_target(s))),
            "target",
        ),
        (
            ("gossip graph", |s| field_of(g::GraphChoice::parse(s))),
            "graph",
        ),
        (("sgd shards", |s| field_of(sgd::parse_shards(s))), "shards"),
        (("step optim", |s| field_of(step::parse_optim(s))), "optim"),
        (("step mode", |s| field_of(step::parse_mode(s))), "mode"),
        (("sgd losses", |s| field_of(sgd::parse_losses(s))), "losses"),
    ]
};

#[test]
fn every_unit_in_every_case() {
    use collective_lab::core::units::{parse_bandwidth, parse_beta, parse_size, parse_time};
    let mut r = Rng(8);
    for unit in UNITS {
        let mut spellings = vec![unit.to_string(), unit.to_lowercase(), unit.to_uppercase()];
        spellings.extend((0..4).map(|_| random_case(&mut r, unit)));
        for spelled in &spellings {
            for n in ["1", "0.5", "12.5", "1e308", "-0", "NaN", "inf", ""] {
                for sep in ["", " "] {
                    let text = format!("{n}{sep}{spelled}");
                    for ((name, parse), field) in FIELDS {
                        let got = catch_unwind(AssertUnwindSafe(|| parse(&text)))
                            .unwrap_or_else(|_| panic!("{name} panicked on {text:?}"));
                        if let Some(f) = got {
                            assert_eq!(f, *field, "{name}: error names {f} for {text:?}");
                        }
                    }
                    catch_unwind(AssertUnwindSafe(|| {
                        let _ = parse_size(&text);
                        let _ = parse_time(&text);
                        let _ = parse_bandwidth(&text);
                        let _ = parse_beta(&text);
                    }))
                    .unwrap_or_else(|_| panic!("a unit parser panicked on {text:?}"));
                }
            }
        }
    }
    // Spot checks that case is handled as the units mean it: bytes and bits
    // differ by case (B vs b), prefixes do not.
    assert_eq!(parse_size("8KiB").map(|s| s.bytes), Ok(8192));
    assert_eq!(parse_time("5us"), parse_time("5 µs"));
}

#[test]
fn fuzz_typed_fields() {
    use collective_lab::core::practice::parse_answer;
    use collective_lab::core::units::{parse_bandwidth, parse_beta, parse_size, parse_time};
    let mut r = Rng(7);
    let all_good: Vec<&str> = PARSERS
        .iter()
        .flat_map(|s| s.good.iter().flat_map(|(_, v)| v.iter().copied()))
        .collect();
    for case in 0..CASES {
        let text = value(&mut r, &all_good);
        for ((name, parse), field) in FIELDS {
            let got = catch_unwind(AssertUnwindSafe(|| parse(&text)))
                .unwrap_or_else(|_| panic!("{name} panicked on {text:?} (case {case})"));
            if let Some(f) = got {
                assert_eq!(f, *field, "{name}: error names {f} for {text:?}");
            }
        }
        // The unit parsers under them, and the practice view's answer box.
        catch_unwind(AssertUnwindSafe(|| {
            let _ = parse_size(&text);
            let _ = parse_time(&text);
            let _ = parse_bandwidth(&text);
            let _ = parse_beta(&text);
            let _ = parse_answer(&text);
        }))
        .unwrap_or_else(|_| panic!("a unit parser panicked on {text:?} (case {case})"));
    }
}

// ---------------------------------------------------------------------------
// The harness itself must catch what it is meant to catch
// ---------------------------------------------------------------------------

/// A parser that panics on `boom`, names a wrong field on `wrong`, and
/// yields a state whose computation panics on `late`.
#[derive(Clone, Debug, Default, PartialEq)]
struct Faulty(u8);

impl ViewParams for Faulty {
    fn from_query(q: &Query, base: &Self) -> (Self, Vec<collective_lab::params::FieldError>) {
        if q.get("boom").is_some() {
            panic!("boom");
        }
        if q.get("wrong").is_some() {
            return (
                base.clone(),
                vec![collective_lab::params::FieldError::new("nope", "bad")],
            );
        }
        (Faulty(u8::from(q.get("late").is_some())), Vec::new())
    }
    fn to_pairs(&self) -> Vec<(&'static str, String)> {
        if self.0 == 1 {
            vec![("late", "1".into())]
        } else {
            Vec::new()
        }
    }
}

fn faulty_compute(s: &Faulty, _heavy: bool) {
    assert_eq!(s.0, 0, "late panic");
}

fn faulty_run(q: &Query, spec: &Spec, ctx: &mut Ctx) -> Result<(), String> {
    run_view::<Faulty>(q, spec, ctx, faulty_compute)
}

#[test]
fn the_harness_reports_panics_and_unnamed_fields() {
    let spec = Spec {
        view: "faulty",
        keys: &["boom", "wrong", "late"],
        good: &[],
        run: faulty_run,
    };
    for (q, expected) in [
        ("boom=1", "from_query panicked"),
        ("wrong=1", "unknown field"),
        ("late=1", "computation panicked"),
    ] {
        let mut ctx = Ctx::default();
        let got = (spec.run)(&Query::parse(q), &spec, &mut ctx);
        match got {
            Err(msg) => assert!(msg.contains(expected), "{q}: {msg}"),
            Ok(()) => panic!("{q} was not reported"),
        }
    }
    let mut ctx = Ctx::default();
    assert_eq!((spec.run)(&Query::parse("x=1"), &spec, &mut ctx), Ok(()));
}

// ---------------------------------------------------------------------------
// The measure view: pasted logs and the typed settings
// ---------------------------------------------------------------------------

/// The log fixtures the measure view's tests use (real and hand-written).
fn log_fixtures() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/logs");
    let mut out: Vec<String> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter(|e| !e.file_name().to_string_lossy().ends_with(".md"))
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Largest paste fed to the pipeline (debug builds fit slowly); the core
/// itself cuts at [`MAX_INPUT_BYTES`].
const MAX_FUZZ_PASTE: usize = 64 * 1024;

/// A pasted log: a fixture with lines dropped, duplicated, shuffled or with
/// tokens replaced by nasty numbers, units and text; or pure junk; or a
/// 10,000-row generated table.
fn paste(r: &mut Rng, fixtures: &[String]) -> String {
    let base = if fixtures.is_empty() {
        String::new()
    } else {
        r.pick(fixtures).clone()
    };
    match r.below(10) {
        0 => value(r, &["1", "1024 0.5", "size,time\n1,2"]),
        2 if r.chance(50) => {
            // several logs one after another, each under an annotation line
            // (valid, unknown or broken alg= and p=)
            let mut t = String::new();
            for _ in 0..2 + r.below(2) {
                let alg = *r.pick(&[
                    "ring", "rd", "rab", "tree", "ptree", "dbtree", "rh", "warp", "",
                ]);
                let p = *r.pick(&["2", "4", "3", "0", "1e9", "-1", "x"]);
                let word = if r.chance(50) {
                    "collective-lab-run "
                } else {
                    ""
                };
                t += &format!("# {word}alg={alg} p={p}\n");
                if !fixtures.is_empty() {
                    t += r.pick(fixtures).as_str();
                }
                t.push('\n');
            }
            t
        }
        1 => {
            // a long generic table (size, time) with random values
            // (one in 500 is a 10,000-row list; fitting it is slow in a debug build)
            let rows = if r.below(500) == 0 {
                10_000
            } else {
                1 + r.below(200)
            };
            let mut t = String::from("size(B),time(us)\n");
            for i in 0..rows {
                t += &format!("{},{}\n", 1u64 << (i % 40), number(r));
            }
            t
        }
        _ => {
            let mut lines: Vec<String> = base.lines().map(str::to_string).collect();
            for _ in 0..1 + r.below(6) {
                if lines.is_empty() {
                    break;
                }
                let i = r.below(lines.len());
                match r.below(6) {
                    0 => {
                        lines.remove(i);
                    }
                    1 => {
                        let l = lines[i].clone();
                        lines.insert(i, l);
                    }
                    2 => {
                        let j = r.below(lines.len());
                        lines.swap(i, j);
                    }
                    3 => lines[i] = mutate(r, &lines[i]),
                    _ => {
                        // replace one whitespace-separated token
                        let mut toks: Vec<String> =
                            lines[i].split_whitespace().map(str::to_string).collect();
                        if !toks.is_empty() {
                            let k = r.below(toks.len());
                            toks[k] = match r.below(3) {
                                0 => r.pick(NASTY_NUMBERS).to_string(),
                                1 => with_unit(r),
                                _ => r.pick(NASTY_TEXT).to_string(),
                            };
                        }
                        lines[i] = toks.join(if r.chance(50) { " " } else { "\t" });
                    }
                }
            }
            lines.join(if r.chance(10) { "\r\n" } else { "\n" })
        }
    }
}

/// Random settings, as a student could set them in the view's fields.
fn settings(r: &mut Rng) -> Settings {
    let mut s = Settings::default();
    let unit = |r: &mut Rng| -> Option<String> {
        match r.below(4) {
            0 => None,
            1 => Some(r.pick(UNITS).to_string()),
            2 => {
                let u = *r.pick(UNITS);
                Some(random_case(r, u))
            }
            _ => Some(r.pick(NASTY_TEXT).to_string()),
        }
    };
    s.import.size_unit = unit(r);
    s.import.time_unit = unit(r);
    s.import.bw_kind = *r.pick(&[None, Some(BwKind::Alg), Some(BwKind::Bus)]);
    let colls = CollectiveKind::MENU;
    s.import.collective = if r.chance(50) {
        None
    } else {
        Some(*r.pick(&colls))
    };
    // The typed fields go through the same checks as the view's reducer
    // (p 2..=1,000,000; a bandwidth; sizes): only values it accepts reach here.
    s.user_p = if r.chance(50) {
        None
    } else {
        Some(2 + r.below(1_000_000 - 1))
    };
    s.line_rate = collective_lab::core::units::parse_bandwidth(&with_unit(r))
        .ok()
        .map(|b| b.bytes_per_second);
    let models = Model::all();
    s.model = *r.pick(&models);
    s.breaks = r.below(3);
    let size = |r: &mut Rng| {
        collective_lab::core::units::parse_size(&with_unit(r))
            .ok()
            .map(|b| b.bytes as f64)
    };
    s.min_size = size(r).unwrap_or(0.0);
    s.max_size = size(r).unwrap_or(f64::INFINITY);
    s.log = r.below(3);
    s.series = r.below(3);
    s
}

#[test]
fn fuzz_measure_import() {
    let fixtures = log_fixtures();
    assert!(fixtures.len() >= 10, "the log fixtures are there");
    let mut r = Rng(10);
    let cases = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CASES);
    let (mut imported, mut refused) = (0usize, 0usize);
    for case in 0..cases {
        let mut text = paste(&mut r, &fixtures);
        if text.len() > MAX_FUZZ_PASTE {
            let mut end = MAX_FUZZ_PASTE;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
        }
        assert!(text.len() <= MAX_INPUT_BYTES);
        let s = settings(&mut r);
        if std::env::var("FUZZ_TRACE").is_ok() {
            eprintln!("measure case {case}: {} bytes, {s:?}\n{text:?}", text.len());
        }
        let t = std::time::Instant::now();
        let a = catch_unwind(AssertUnwindSafe(|| analyse(&text, &s))).unwrap_or_else(|_| {
            panic!(
                "analyse panicked (case {case}) on {:?} with {s:?}",
                text.chars().take(300).collect::<String>()
            )
        });
        if std::env::var("FUZZ_SLOW").is_ok() && t.elapsed().as_millis() > 200 {
            eprintln!(
                "slow measure case {case} {:?}: {} bytes, {s:?}",
                t.elapsed(),
                text.len()
            );
        }
        let lines = text.lines().count();
        match &a.import {
            Ok(imp) => {
                imported += 1;
                // Every message names a line of the paste (0 = the whole paste).
                for m in &imp.messages {
                    assert!(
                        m.line <= lines,
                        "case {case}: message on line {} of {lines}",
                        m.line
                    );
                    assert!(!m.reason.trim().is_empty(), "case {case}: empty message");
                }
            }
            Err(e) => {
                refused += 1;
                assert!(
                    !e.to_string().trim().is_empty(),
                    "case {case}: empty import error"
                );
                if let ImportError::Unrecognised { messages } = e {
                    assert!(messages
                        .iter()
                        .all(|m| m.line <= lines && !m.reason.trim().is_empty()));
                }
            }
        }
        // Joint fits give finite, positive β and γ ≥ 0.
        for f in a.joint.iter().flatten() {
            assert!(
                f.alpha.is_finite() && f.beta > 0.0 && f.gamma >= 0.0,
                "case {case}: {f:?}"
            );
        }
        // Every state that analyses is drawn and exported, as the view does.
        if case % HEAVY_EVERY == 0 {
            if let (Ok(imp), Some(la)) = (&a.import, &a.log) {
                catch_unwind(AssertUnwindSafe(|| {
                    if let Some(log) = imp.logs.get(la.index) {
                        let times = log.time_points();
                        let _ = plot::measure::draw_time(&times, la.curves.as_ref());
                        let _ = xy_series("t", "size (B)", "time (s)", &times).to_csv();
                    }
                    let _ = a.table_csv_url();
                    let _ = a.fit_csv_url();
                }))
                .unwrap_or_else(|_| panic!("drawing or exporting panicked (case {case})"));
            }
        }
    }
    assert!(
        imported > cases / 20 && refused > cases / 20,
        "{imported} imported, {refused} refused: the generator is off"
    );
}
