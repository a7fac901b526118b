//! In-browser timings (not a test: nothing here asserts a time). Runs the
//! same pure functions the views call, in this browser's WebAssembly engine,
//! and prints the median of each with `console_log!`; one case mounts the
//! ring view at p = 64 and times a step from key press to updated DOM.
//!
//! The file name does not match `--test 'browser*'`, so CI does not run it.
//! Run it with `bash scripts/bench-browser.sh` (release profile, the shipped
//! `opt-level = "z"`), which passes `--nocapture` so the figures are printed.
#![cfg(target_arch = "wasm32")]

mod common;

use std::hint::black_box;

use collective_lab::core::collectives::compare::{log_sizes, sweep_sizes};
use collective_lab::core::consensus::{
    mixing_matrix, spectrum, GossipRun, Graph, GraphKind, InitPattern, WeightRule,
};
use collective_lab::core::cost::CostParams;
use collective_lab::core::execute::{
    chunk_grid, count_streamed, default_init, execute_checkpointed, execute_owned, ExecOptions,
};
use collective_lab::core::schedule::ring::{ring_all_reduce_rounds, ring_all_reduce_schedule};
use collective_lab::params::gossip::GossipParams;
use collective_lab::params::sgd::SgdParams;
use collective_lab::params::Query;
use collective_lab::plot::cost::{draw_time_vs_p, draw_time_vs_size, draw_winner_map};
use collective_lab::plot::gossip::{draw_disagreement, draw_eigenvalues};
use collective_lab::plot::sgd::{draw_consensus, draw_loss, draw_loss_vs_bytes, draw_trajectories};
use common::Mounted;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Prints one figure: the median of `samples` (ms per call).
fn report(label: &str, samples: Vec<f64>) {
    let runs = samples.len();
    console_log!(
        "{label:<72} {:>10.4} ms  (median of {runs})",
        median(samples)
    );
}

/// Times `inner` back-to-back calls of `f`, `runs` times, and prints the
/// median time of one call (batches for work shorter than the browser's
/// timer resolution, coarsened to 0.1 ms without cross-origin isolation).
fn time_batch(label: &str, runs: usize, inner: usize, mut f: impl FnMut()) {
    let inner = inner.max(1);
    let samples = (0..runs)
        .map(|_| {
            let t0 = now();
            for _ in 0..inner {
                f();
            }
            (now() - t0) / inner as f64
        })
        .collect();
    report(label, samples);
}

fn time_it(label: &str, runs: usize, f: impl FnMut()) {
    time_batch(label, runs, 1, f);
}

#[wasm_bindgen_test]
fn measure() {
    use collective_lab::core::measure::analysis::{analyse, Settings};
    use collective_lab::core::measure::synthetic::{generate, Spec};
    let text = generate(&Spec::benchmark_log());
    let s = Settings::default();
    time_it("measure: parse + check + fit a 10,000-row log", 5, || {
        black_box(analyse(&text, &s));
    });
}

#[wasm_bindgen_test]
fn ring_and_cost() {
    time_it("ring p=64: build + execute schedule (64 MB)", 5, || {
        let s = ring_all_reduce_schedule(64, 64_000_000 / 4, 4).ok();
        let t =
            s.and_then(|s| execute_owned(s, &default_init, ExecOptions { keep_states: true }).ok());
        black_box(t);
    });
    if let Some(t) = ring_all_reduce_schedule(64, 64_000_000 / 4, 4)
        .ok()
        .and_then(|s| execute_checkpointed(s, &default_init, 8).ok())
    {
        let mut k = 0;
        time_batch(
            "ring p=64: one step's core calls (narrate, round log, counters)",
            9,
            20,
            || {
                k = k % 126 + 1;
                black_box((
                    collective_lab::core::collectives::narrate::narrate(
                        collective_lab::core::collectives::Algorithm::RING,
                        &t,
                        k,
                    ),
                    t.round_log(k - 1),
                    t.sent_after(k),
                ));
            },
        );
    }
    time_it(
        "ring p=256: chunk grid (contributor changes per round)",
        5,
        || {
            black_box(chunk_grid(256, 16_000_000, ring_all_reduce_rounds(256, 16_000_000)).ok());
        },
    );
    time_it(
        "ring p=1024: byte counts without values (count_streamed)",
        5,
        || {
            black_box(
                count_streamed(
                    1024,
                    16_000_000,
                    4,
                    ring_all_reduce_rounds(1024, 16_000_000),
                )
                .ok(),
            );
        },
    );
    let c = CostParams::course_example();
    let sizes = log_sizes(1.0, 4.0 * 1_073_741_824.0, 1000);
    time_batch("cost: sweep 1000 sizes × 5 algorithms", 9, 200, || {
        black_box(sweep_sizes(16, &sizes, c));
    });
    time_it("cost: chart time vs size", 5, || {
        black_box(draw_time_vs_size(16, c, 8192.0).ok());
    });
    time_it("cost: chart time vs p", 5, || {
        black_box(draw_time_vs_p(8192.0, c, 16).ok());
    });
    time_it("cost: chart winner map", 5, || {
        black_box(draw_winner_map(c, 8192.0, 16).ok());
    });
}

#[wasm_bindgen_test]
fn gossip() {
    let cases = [
        (
            "gossip spectrum: random p=256, Metropolis (dense eigenvalues)",
            GraphKind::Random,
            256,
            WeightRule::Metropolis,
        ),
        (
            "gossip spectrum: ring p=1024, uniform (circulant)",
            GraphKind::Ring,
            1024,
            WeightRule::Uniform,
        ),
        (
            "gossip spectrum: torus 32×32, uniform (circulant)",
            GraphKind::Torus { rows: 32, cols: 32 },
            1024,
            WeightRule::Uniform,
        ),
    ];
    for (label, kind, p, rule) in cases {
        let Ok(g) = Graph::new(kind, p, 1) else {
            console_log!("{label}: could not build the graph");
            continue;
        };
        let Ok(w) = mixing_matrix(&g, rule) else {
            console_log!("{label}: could not build W");
            continue;
        };
        time_it(label, 5, || {
            black_box(spectrum(&g, &w).ok());
        });
    }
    // What the view computes at p = 1024 for every graph it offers (its
    // default weights), and the view itself mounted (compute + render).
    for (graph, rule) in GOSSIP_P1024 {
        let (q, errs) = GossipParams::from_query(
            &Query::parse(&format!(
                "graph={graph}&p=1024&weights={rule}&init=random:2"
            )),
            &GossipParams::default(),
        );
        if !errs.is_empty() {
            console_log!("gossip {graph} {rule}: bad parameters");
            continue;
        }
        time_it(
            &format!("gossip view computation p=1024: {graph}, {rule} (run + horizon)"),
            3,
            || {
                black_box(q.run_fast(0).ok().map(|mut r| {
                    let h = r.suggested_horizon();
                    r.extend_to(h);
                    r
                }));
            },
        );
        if let Ok(mut r) = q.run_fast(0) {
            let h = r.suggested_horizon();
            r.extend_to(h);
            time_it(
                &format!("gossip charts p=1024: {graph}, {rule} (eigenvalues + disagreement SVG)"),
                3,
                || {
                    black_box((
                        draw_eigenvalues(&r.spectrum).ok(),
                        draw_disagreement(&r.rounds, 0, r.spectrum.bound_guaranteed, 100.0).ok(),
                    ));
                },
            );
        }
    }
    time_it(
        "gossip view computation: ring p=1024 (W, checks, spectrum, 200 rounds)",
        3,
        || {
            black_box(
                GossipRun::new(
                    GraphKind::Ring,
                    1024,
                    1,
                    WeightRule::Uniform,
                    &InitPattern::Random(2),
                    200,
                    100.0,
                )
                .ok(),
            );
        },
    );
}

/// Every graph the gossip view offers, at p = 1024: (graph, weights).
const GOSSIP_P1024: [(&str, &str); 15] = [
    ("ring", "uniform"),
    ("ring", "metropolis"),
    ("path", "uniform"),
    ("path", "metropolis"),
    ("star", "uniform"),
    ("star", "metropolis"),
    ("complete", "uniform"),
    ("complete", "metropolis"),
    ("complete", "lazy"),
    ("torus", "uniform"),
    ("hypercube", "uniform"),
    ("exp", "uniform"),
    ("exp", "exp"),
    ("random", "uniform"),
    ("random", "metropolis"),
];

/// The gossip view mounted at p = 1024 for every graph (and the default
/// p = 4 ring): from mounting to the rendered DOM (compute + render, no
/// download), the part of "ready" this build controls.
#[wasm_bindgen_test]
async fn gossip_view_mount() {
    let mut cases: Vec<String> = vec!["view=gossip&embed=1".into()];
    cases.extend(
        GOSSIP_P1024.iter().map(|(g, w)| {
            format!("view=gossip&graph={g}&p=1024&weights={w}&init=random:2&embed=1")
        }),
    );
    // one unmeasured mount first, so the first case does not pay the warm-up
    drop(Mounted::new("view=gossip&embed=1").await);
    for query in cases {
        let mut samples = Vec::new();
        for _ in 0..3 {
            let t0 = now();
            let app = Mounted::new(&query).await;
            black_box(app.root.get_bounding_client_rect());
            samples.push(now() - t0);
            drop(app);
        }
        report(&format!("gossip view mounted: {query}"), samples);
    }
}

#[wasm_bindgen_test]
fn sgd() {
    let big = SgdParams {
        shards: (1..=16).map(|k| 50 * k).collect(),
        losses: vec![0.5; 16],
        d: 10,
        steps: 200,
        ..SgdParams::default()
    };
    time_it("sgd m=16 d=10: 200 steps × 3 strategies", 5, || {
        black_box(big.lab_setup().run().ok());
    });
    if let Ok((_, _, lab)) = SgdParams::default().lab_setup().run() {
        time_it("sgd default: 4 step charts (SVG)", 5, || {
            black_box((
                draw_loss(&lab, 100).ok(),
                draw_consensus(&lab, 100).ok(),
                draw_loss_vs_bytes(&lab, 100).ok(),
                draw_trajectories(&lab, 100).ok(),
            ));
        });
    }
}

/// Times 40 steps of the ring view at `query` (key press → DOM updated and
/// laid out, so the time includes style and layout but not the paint).
async fn ring_steps(query: &str, label: &str) {
    let app = Mounted::new(query).await;
    let mut samples = Vec::new();
    for _ in 0..40 {
        let t0 = now();
        app.key("ArrowRight").await;
        // Read layout so the time includes it.
        black_box(app.root.get_bounding_client_rect());
        samples.push(now() - t0);
    }
    report(label, samples);
}

#[wasm_bindgen_test]
async fn ring_view_step() {
    ring_steps(
        "view=ring&p=64&size=64MB&embed=1",
        "ring view: one step at p=64 (key press → DOM updated)",
    )
    .await;
    ring_steps(
        "view=ring&p=256&size=64MB&embed=1",
        "ring view: one step at p=256 (key press → DOM updated)",
    )
    .await;
}

/// Mounts `query` five times and prints the median time from mounting to
/// laid-out DOM (computation + first render).
async fn mount_times(query: &str, label: &str) {
    let mut samples = Vec::new();
    for _ in 0..5 {
        let t0 = now();
        let app = Mounted::new(query).await;
        black_box(app.root.get_bounding_client_rect());
        samples.push(now() - t0);
    }
    report(label, samples);
}

#[wasm_bindgen_test]
async fn ring_view_ready() {
    for (query, label) in [
        (
            "view=ring&p=1024&size=64MB&embed=1",
            "ring view: mount at p=1024 (computation + first render)",
        ),
        (
            "view=ring&p=256&size=64MB&embed=1",
            "ring view: mount at p=256 (computation + first render)",
        ),
        (
            "view=collectives&alg=rab&p=64&size=64MB&embed=1",
            "collectives view: mount Rabenseifner at p=64",
        ),
    ] {
        mount_times(query, label).await;
    }
}

/// The computation each view runs before it can draw, at its largest
/// parameters (what `use_deferred` moves after the first paint), so the
/// estimates of `core::work` can be set against real times.
#[wasm_bindgen_test]
fn view_work() {
    use collective_lab::core::collectives::summary_table_on;
    use collective_lab::core::cost::CostParams;
    use collective_lab::pages::common::trace::collective_trace;
    use collective_lab::pages::ring::run::RingRun;
    use collective_lab::pages::topology::run_for;
    use collective_lab::params::collectives::CollectivesParams;
    use collective_lab::params::gossip::GossipParams;
    use collective_lab::params::topology::TopologyParams;
    use collective_lab::params::Query;
    for p in [64, 256, 512, 1024] {
        time_it(&format!("work: ring p={p}, 64 MB"), 3, || {
            black_box(RingRun::execute(p, 16_000_000));
        });
    }
    for p in [16, 64] {
        let q = Query::parse(&format!("view=collectives&alg=rab&p={p}&size=64MB"));
        let (c, _) = CollectivesParams::from_query(&q, &CollectivesParams::default());
        let topo = c.topology();
        time_it(&format!("work: collectives rab p={p} trace"), 3, || {
            black_box(collective_trace(c.alg, &topo, 64_000_000));
        });
        time_it(&format!("work: collectives p={p} summary table"), 3, || {
            black_box(summary_table_on(&topo, 16_000_000, 4, CostParams::course_example()).ok());
        });
    }
    for q in [
        "nodes=8&gpus=8",
        "nodes=16&gpus=16",
        "nodes=16&gpus=16&alg=flat",
        "nodes=16&gpus=16&alg=multilane&lanes=4",
        "nodes=16&gpus=16&alg=rat&racks=4",
    ] {
        let (t, _) = TopologyParams::from_query(&Query::parse(q), &TopologyParams::default());
        time_it(&format!("work: topology {q}"), 3, || {
            black_box(run_for(&t).ok());
        });
    }
    let shards32: Vec<String> = (0..32).map(|k| (400 + 100 * k).to_string()).collect();
    for q in [
        String::from("steps=1000"),
        format!("shards={}&d=10&steps=1000", shards32.join(",")),
        format!("shards={}&d=10&steps=1000&batch=0", shards32.join(",")),
    ] {
        let (s, _) = SgdParams::from_query(&Query::parse(&q), &SgdParams::default());
        time_it(&format!("work: sgd {}", &q[..q.len().min(40)]), 3, || {
            black_box(s.lab_setup().run().ok());
        });
    }
    for q in [
        "graph=random&p=256",
        "graph=ring&p=1024",
        "graph=path&p=1024",
        "graph=star&p=1024",
        "graph=complete&p=1024",
        "graph=torus&p=1024",
        "graph=hypercube&p=1024",
        "graph=exp&p=1024",
        "graph=random&p=1024",
    ] {
        let (g, _) = GossipParams::from_query(&Query::parse(q), &GossipParams::default());
        time_it(&format!("work: gossip {q} (run to the horizon)"), 3, || {
            black_box(g.run_fast(0).ok().map(|mut r| {
                let h = r.suggested_horizon();
                r.extend_to(h);
                r
            }));
        });
    }
    for p in [1024, 65_536] {
        let c = CostParams::course_example();
        time_it(&format!("work: cost p={p}, 3 charts (64 MiB)"), 3, || {
            black_box((
                draw_time_vs_size(p, c, 67_108_864.0).ok(),
                draw_time_vs_p(67_108_864.0, c, p).ok(),
                draw_winner_map(c, 67_108_864.0, p).ok(),
            ));
        });
    }
}

/// The timeline view at p = 64 (ring, 64 MB, k = 1): what its first render
/// computes, part by part, and the whole mount (computation + first render;
/// the segment sweep runs later, in slices).
#[wasm_bindgen_test]
async fn timeline_parts() {
    use collective_lab::core::collectives::Algorithm;
    use collective_lab::core::timing::clock::{ClockOptions, Mode};
    use collective_lab::core::timing::gantt::{event_times, gantt};
    use collective_lab::core::timing::run;
    use collective_lab::core::topology::Topology;
    let topo = Topology::flat(64, 0.0, 1.0 / 12.5e9);
    let s = Algorithm::RING
        .generate_on(&topo, 16_000_000, 4)
        .expect("ring");
    time_it("timeline p=64: ring schedule", 5, || {
        black_box(Algorithm::RING.generate_on(&topo, 16_000_000, 4).ok());
    });
    for mode in [Mode::Dataflow, Mode::LockStep] {
        let o = ClockOptions::new(mode);
        time_it(
            &format!("timeline p=64: {} clock with events", mode.key()),
            5,
            || {
                black_box(run(&s, &topo, &o).ok());
            },
        );
        let c = run(&s, &topo, &o).expect("runs");
        time_it(&format!("timeline p=64: {} gantt", mode.key()), 5, || {
            black_box(gantt(&c));
        });
        time_it(
            &format!("timeline p=64: {} event times", mode.key()),
            5,
            || {
                black_box(event_times(&c));
            },
        );
    }
    for (query, label) in [
        (
            "view=timeline&alg=ring&p=64&size=64MB&embed=1",
            "timeline view: mount at p=64",
        ),
        (
            "view=timeline&alg=ring&p=4&size=64MB&embed=1",
            "timeline view: mount at p=4",
        ),
        ("view=ring&p=4&size=64MB&embed=1", "ring view: mount at p=4"),
    ] {
        mount_times(query, label).await;
    }
}
