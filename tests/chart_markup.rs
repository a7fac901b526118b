//! Markup injection (issue 14): every chart SVG is inserted into the page with
//! `Html::from_html_unchecked`, so it must be well-formed XML made only of
//! SVG elements, with no `on*` attribute, whatever text it carries.
//!
//! The app's charts take no caller-supplied text today (their labels come
//! from the core's enums and numbers); plotters escapes `<`, `>`, `&`, `"`
//! and `'` in every text it writes. [`hostile_labels_are_escaped`] pins that
//! down on the path every chart takes (the app's SVG backend, then
//! [`finish_svg`]), with hostile text in the caption, both axis descriptions
//! and a series name, including the sentinel colours `finish_svg` rewrites.
//! The other tests draw every chart of the app (cost, gossip, sgd, topology,
//! measure) and check the same rules; the topology and measure charts also
//! with hostile series labels and captions (their labels can come from a
//! pasted log).
#![cfg(not(target_arch = "wasm32"))]

use collective_lab::core::consensus::{GossipRun, GraphKind, InitPattern, WeightRule};
use collective_lab::core::cost::CostParams;
use collective_lab::params::sgd::SgdParams;
use collective_lab::plot::SvgBackend;
use collective_lab::plot::{self, finish_svg, FG};
use plotters::prelude::*;

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// The SVG elements a chart may contain.
const SVG_VOCABULARY: &[&str] = &[
    "svg",
    "g",
    "defs",
    "title",
    "desc",
    "rect",
    "line",
    "polyline",
    "polygon",
    "path",
    "circle",
    "ellipse",
    "text",
    "tspan",
    "clipPath",
    "linearGradient",
    "stop",
    "pattern",
    "use",
];

/// Text that would run script if it reached the page unescaped.
const PAYLOADS: &[&str] = &[
    "<img src=x onerror=alert(1)>",
    "a < b > c & d \" e ' f",
    "</text></svg><script>alert(1)</script>",
    "\"><foreignObject><body onload=alert(1)></foreignObject>",
    "&lt;already escaped&gt; &amp; #010203 rgb(4,5,6) <svg ",
    "\u{202E}evil\u{202C} שלום",
];

/// Checks that `svg` is one well-formed SVG document using only
/// [`SVG_VOCABULARY`], with no event-handler attribute and no `javascript:`
/// link; returns the concatenated text content.
fn check_svg(name: &str, svg: &str) -> String {
    let doc = roxmltree::Document::parse(svg)
        .unwrap_or_else(|e| panic!("{name}: not well-formed XML: {e}\n{svg:.400}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{name}: root is not <svg>");
    let mut text = String::new();
    for node in root.descendants() {
        if node.is_text() {
            text.push_str(node.text().unwrap_or(""));
            continue;
        }
        if !node.is_element() {
            continue;
        }
        let tag = node.tag_name();
        assert!(
            SVG_VOCABULARY.contains(&tag.name()),
            "{name}: element <{}> is not SVG vocabulary",
            tag.name()
        );
        assert!(
            matches!(tag.namespace(), None | Some(SVG_NS)),
            "{name}: element <{}> in namespace {:?}",
            tag.name(),
            tag.namespace()
        );
        for a in node.attributes() {
            let key = a.name().to_ascii_lowercase();
            assert!(!key.starts_with("on"), "{name}: event attribute {key}");
            assert!(
                !a.value().to_ascii_lowercase().contains("javascript:"),
                "{name}: javascript: in {key}"
            );
        }
    }
    text
}

/// A line chart drawn like every chart of the app, with `label` as caption,
/// axis descriptions and series name.
fn chart_with_label(label: &str) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SvgBackend::with_string(&mut svg, (480, 320)).into_drawing_area();
        let mut chart = ChartBuilder::on(&root)
            .caption(label, ("sans-serif", 14).into_font().color(&FG))
            .margin(8)
            .x_label_area_size(32)
            .y_label_area_size(40)
            .build_cartesian_2d(0.0..1.0, 0.0..1.0)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(label)
            .y_desc(label)
            .label_style(("sans-serif", 12).into_font().color(&FG))
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new([(0.0, 0.0), (1.0, 1.0)], &PALETTE_0))
            .map_err(|e| e.to_string())?
            .label(label)
            .legend(|(x, y)| PathElement::new([(x, y), (x + 12, y)], PALETTE_0));
        chart
            .configure_series_labels()
            .label_font(("sans-serif", 12).into_font().color(&FG))
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(finish_svg(svg))
}

const PALETTE_0: RGBColor = plot::PALETTE[0];

#[test]
fn hostile_labels_are_escaped() {
    for payload in PAYLOADS {
        let svg = chart_with_label(payload).expect("chart draws");
        let text = check_svg(payload, &svg);
        // The payload is shown as text, unchanged (caption, two axis
        // descriptions, legend), not interpreted as markup.
        assert!(
            text.matches(payload.trim()).count() >= 4,
            "{payload:?} should appear 4 times as text; text was {text:?}"
        );
        assert!(!svg.contains("<img"), "{payload}: raw <img");
        assert!(!svg.contains("<script"), "{payload}: raw <script");
    }
}

#[test]
fn a_broken_svg_is_caught() {
    // The checker itself must fail on what it is meant to catch.
    for bad in [
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><img src=\"x\"/></svg>",
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect onclick=\"alert(1)\"/></svg>",
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>a < b</text></svg>",
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><foreignObject/></svg>",
    ] {
        let caught = std::panic::catch_unwind(|| check_svg("bad", bad)).is_err();
        assert!(caught, "not caught: {bad}");
    }
}

#[test]
fn cost_charts_are_clean_svg() {
    let c = CostParams::course_example();
    for (name, svg) in [
        ("time vs size", plot::cost::draw_time_vs_size(16, c, 8192.0)),
        ("time vs p", plot::cost::draw_time_vs_p(8192.0, c, 16)),
        ("winner map", plot::cost::draw_winner_map(c, 8192.0, 16)),
    ] {
        check_svg(name, &svg.expect("course example draws"));
    }
}

#[test]
fn gossip_charts_are_clean_svg() {
    let run = GossipRun::new(
        GraphKind::Ring,
        4,
        0,
        WeightRule::Uniform,
        &InitPattern::List(vec![0.0, 3.0, 6.0, 9.0]),
        20,
        100.0,
    )
    .expect("the course's ring");
    let eig = plot::gossip::draw_eigenvalues(&run.spectrum).expect("draws");
    check_svg("eigenvalues", &eig);
    let dis =
        plot::gossip::draw_disagreement(&run.rounds, 2, run.spectrum.bound_guaranteed, run.factor)
            .expect("draws");
    check_svg("disagreement", &dis);
}

#[test]
fn sgd_charts_are_clean_svg() {
    let params = SgdParams::default();
    let (_, _, lab) = params.lab_setup().run().expect("the default run");
    let step = params.step.min(params.steps);
    for (name, svg) in [
        ("loss", plot::sgd::draw_loss(&lab, step)),
        ("consensus", plot::sgd::draw_consensus(&lab, step)),
        ("loss vs bytes", plot::sgd::draw_loss_vs_bytes(&lab, step)),
        ("trajectories", plot::sgd::draw_trajectories(&lab, step)),
    ] {
        check_svg(name, &svg.expect("default run draws"));
    }
    let o = params.objective().expect("default table");
    check_svg(
        "sample weights",
        &plot::sgd::draw_sample_weights(&o).expect("draws"),
    );
}

#[test]
fn topology_charts_with_hostile_labels_are_clean_svg() {
    use collective_lab::plot::topology::{draw_time_vs_gpus, draw_time_vs_size, Line};
    for payload in PAYLOADS {
        let lines = [
            Line {
                label: (*payload).to_string(),
                points: vec![(1.0, 2e-3), (2.0, 1.5e-3), (4.0, 1e-3)],
            },
            Line {
                label: "flat ring".into(),
                points: vec![(1.0, 3e-3), (2.0, 3e-3), (4.0, 3e-3)],
            },
        ];
        for (name, svg) in [
            ("time vs gpus", draw_time_vs_gpus(&lines, payload)),
            ("time vs size", draw_time_vs_size(&lines, payload)),
        ] {
            let svg = svg.expect("draws");
            let text = check_svg(name, &svg);
            // caption and legend entry, shown as text
            assert!(
                text.matches(payload.trim()).count() >= 2,
                "{name}: {payload:?} should appear as text; text was {text:?}"
            );
            assert!(
                !svg.contains("<img") && !svg.contains("<script"),
                "{name}: {payload}"
            );
        }
    }
}

#[test]
fn measure_charts_with_hostile_labels_are_clean_svg() {
    use collective_lab::plot::measure::{draw_bandwidths, draw_time, label, Points};
    for payload in PAYLOADS {
        let times: Vec<Points> = vec![(
            (*payload).to_string(),
            vec![(1024.0, 2e-5), (1_048_576.0, 1e-4), (1_073_741_824.0, 0.09)],
        )];
        let bw: Vec<Points> = vec![(
            (*payload).to_string(),
            vec![
                (1024.0, 5e7),
                (1_048_576.0, 1e10),
                (1_073_741_824.0, 1.2e10),
            ],
        )];
        let shown = label(payload);
        for (name, svg) in [
            ("time", draw_time(&times, None)),
            ("bandwidths", draw_bandwidths(&bw, &bw, Some(12.5e9))),
        ] {
            let svg = svg.expect("draws");
            let text = check_svg(name, &svg);
            assert!(
                text.contains(shown.trim()),
                "{name}: the series label {shown:?} should appear as text; text was {text:?}"
            );
            assert!(
                !svg.contains("<img") && !svg.contains("<script"),
                "{name}: {payload}"
            );
        }
    }
}

#[test]
fn measure_charts_of_every_log_fixture_are_clean_svg() {
    use collective_lab::core::measure::analysis::{analyse, Settings};
    use collective_lab::plot::measure::{draw_time, Points};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/logs");
    let mut drawn = 0;
    for entry in std::fs::read_dir(dir).expect("fixtures").flatten() {
        let Ok(text) = std::fs::read_to_string(entry.path()) else {
            continue;
        };
        let a = analyse(&text, &Settings::default());
        let (Ok(imp), Some(la)) = (&a.import, &a.log) else {
            continue;
        };
        let Some(log) = imp.logs.get(la.index) else {
            continue;
        };
        let times: Vec<Points> = log
            .series
            .iter()
            .map(|s| {
                (
                    s.label.clone(),
                    s.rows
                        .iter()
                        .map(|r| (r.size.value, r.time.value))
                        .collect(),
                )
            })
            .collect();
        check_svg(
            "measured time",
            &draw_time(&times, la.curves.as_ref()).expect("draws"),
        );
        drawn += 1;
    }
    assert!(drawn >= 8, "{drawn} fixtures drawn");
}
