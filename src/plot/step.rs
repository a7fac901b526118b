//! Charts of the `step` view: the step on the clock ([`timeline_svg`], SVG
//! written directly, one row per stream), the bucket tuner
//! ([`draw_tuner`], plotters) and loss against wall-clock seconds
//! ([`draw_quality`], plotters). Everything drawn comes from the core.

use std::fmt::Write;

use plotters::prelude::*;

use super::SvgBackend;

use super::{
    err, esc, finish_svg, frame, key, mesh, plot_height, titled, top_for_legend, Axis, Legend,
    CAPTION_PX, PALETTE,
};
use crate::core::step::spans::{BucketSpan, CommKind, ComputeSpan, StepRun};
use crate::core::step::strategies::Tuner;
use crate::core::step::Sharding;
use crate::core::units::decimal;
use crate::core::units::{format_binary, format_decimal, format_number, format_time, tick_step};

/// Chart size in SVG pixels.
pub const SIZE: (u32, u32) = (760, 360);

/// Left edge of the bars, px.
const LEFT: f64 = 150.0;
/// Width of the timeline chart, px.
const WIDTH: f64 = 760.0;
/// Height of a row, px.
const ROW: f64 = 44.0;

/// Fill of a bar by its class (inline, so a downloaded SVG keeps its
/// colours): forward grey-green (FSDP's layers in two shades), backward
/// orange in two shades, buckets blue in two shades; the sharded modes'
/// all-gathers before forward sky blue, before backward blue, of the
/// updated parameters yellow, and reduce-scatters reddish purple (Okabe &
/// Ito 2008).
fn fill(class: &str) -> &'static str {
    if class == "st-fwd alt" {
        "#7CCBB3"
    } else if class.starts_with("st-fwd") {
        "#009E73"
    } else if class == "st-bwd alt" {
        "#F5C46B"
    } else if class.starts_with("st-bwd") {
        "#E69F00"
    } else if class.starts_with("st-rs") {
        "#CC79A7"
    } else if class.starts_with("st-agp") {
        "#F0E442"
    } else if class.ends_with(" c1") || class.starts_with("st-agf") {
        "#56B4E9"
    } else {
        "#0072B2"
    }
}

/// The class, bar label and legend text of a span of the communication
/// stream; `k` is its place on the stream.
fn comm_look(b: &BucketSpan, k: usize) -> (String, String) {
    let layers = if b.layers.len() == 1 {
        format!("{}", b.layers[0] + 1)
    } else {
        let lo = b.layers.iter().min().map_or(0, |i| i + 1);
        let hi = b.layers.iter().max().map_or(0, |i| i + 1);
        format!(" {lo}–{hi}")
    };
    match b.kind {
        CommKind::AllReduce => (
            format!("st-ar c{}", k % 2),
            format!("B{} · {}", k + 1, format_decimal(b.bytes as f64)),
        ),
        CommKind::ReduceScatter => ("st-rs".into(), format!("RS{layers}")),
        CommKind::GatherForward => ("st-agf".into(), format!("AG{layers}")),
        CommKind::GatherBackward => ("st-agb".into(), format!("AG{layers}")),
        CommKind::GatherParams => (
            "st-agp".into(),
            format!("AG{layers} · {}", format_decimal(b.bytes as f64)),
        ),
    }
}

/// The legend of a sharded step: one swatch per kind of bar it has, in
/// rows of at most the chart's width (about 7 px a character).
fn legend(run: &StepRun) -> Vec<(&'static str, &'static str, f64, f64)> {
    let mut items: Vec<(&str, &str)> = vec![("st-fwd", "forward"), ("st-bwd", "backward")];
    for (kind, class) in [
        (CommKind::GatherForward, "st-agf"),
        (CommKind::GatherBackward, "st-agb"),
        (CommKind::ReduceScatter, "st-rs"),
        (CommKind::GatherParams, "st-agp"),
    ] {
        if run.buckets.iter().any(|b| b.kind == kind) {
            items.push((class, kind.label()));
        }
    }
    let (mut x, mut y) = (LEFT, 0.0);
    let mut out = Vec::with_capacity(items.len());
    for (class, text) in items {
        let w = 19.0 + 7.0 * text.chars().count() as f64 + 18.0;
        if x > LEFT && x + w > WIDTH {
            x = LEFT;
            y += LEGEND_ROW;
        }
        out.push((class, text, x, y));
        x += w;
    }
    out
}

/// Height of a legend row, px.
const LEGEND_ROW: f64 = 22.0;

fn draw_legend(out: &mut String, items: &[(&str, &str, f64, f64)], top: f64) {
    out.push_str("<g class=\"st-legend\">");
    for &(class, text, x, y) in items {
        let _ = write!(out, "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" rx=\"2\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text>", decimal::fixed(x, 0), decimal::fixed(top + y, 0), fill(class), decimal::fixed(x + 19.0, 0), decimal::fixed(top + y + 11.0, 0), esc(text));
    }
    out.push_str("</g>");
}

fn bar(out: &mut String, x0: f64, x1: f64, y: f64, class: &str, label: &str, title: &str) {
    let w = (x1 - x0).max(0.5);
    let _ = write!(out, "<g class=\"{class}\"><title>{}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"2\" fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"0.6\"/>", esc(title), decimal::fixed(x0, 2), decimal::fixed(y, 2), decimal::fixed(w, 2), decimal::fixed(ROW - 14.0, 0), fill(class));
    // a label only where about 6.5 px a character fits
    if !label.is_empty() && w > 6.5 * label.chars().count() as f64 + 4.0 {
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{}\">{}</text>",
            decimal::fixed(x0 + w / 2.0, 2),
            decimal::fixed(y + (ROW - 14.0) / 2.0 + 4.0, 2),
            if fill(class) == "#0072B2" {
                "#ffffff"
            } else {
                "#111111"
            },
            esc(label)
        );
    }
    out.push_str("</g>");
}

fn compute_row(out: &mut String, spans: &[ComputeSpan], y: f64, sx: &dyn Fn(f64) -> f64) {
    for s in spans {
        let (class, label, title) = match (s.layer, s.forward) {
            (None, _) => ("st-fwd", "forward".to_string(), "forward pass".to_string()),
            (Some(i), true) => (
                if i % 2 == 0 { "st-fwd" } else { "st-fwd alt" },
                format!("{}", i + 1),
                format!("forward, layer {}", i + 1),
            ),
            (Some(i), false) => (
                if i % 2 == 0 { "st-bwd" } else { "st-bwd alt" },
                format!("{}", i + 1),
                format!("backward, layer {}", i + 1),
            ),
        };
        let title = format!("{title}: {} – {}", format_time(s.start), format_time(s.end));
        bar(out, sx(s.start), sx(s.end), y, class, &label, &title);
    }
}

/// The step on the clock: the compute stream (the straggler's, labelled,
/// when there is one), the other ranks' compute, and the communication
/// stream with one bar per bucket, labelled with its layers and bytes (the
/// bar's title holds when it was ready, started and ended). The x axis is
/// time in the units of [`format_time`]; `end` is the axis end, seconds
/// (at least the step time). A sharded `mode`'s step (ZeRO-2, FSDP) has
/// its all-gathers and reduce-scatters in their own colours and a legend
/// below the axis.
pub fn timeline_svg(
    run: &StepRun,
    straggler: Option<(usize, f64)>,
    end: f64,
    mode: Sharding,
) -> String {
    let end = end.max(run.step_time).max(1e-12);
    let rows = if run.others.is_some() { 3.0 } else { 2.0 };
    let keys = if mode == Sharding::Ddp {
        Vec::new()
    } else {
        legend(run)
    };
    let legend_h = keys.last().map_or(0.0, |k| k.3 + LEGEND_ROW + 4.0);
    let height = 30.0 + rows * ROW + 34.0 + legend_h;
    let (w, h) = (decimal::shortest(WIDTH), decimal::shortest(height));
    let plot_w = WIDTH - LEFT - 16.0;
    let sx = move |t: f64| LEFT + t / end * plot_w;
    let what = match mode {
        Sharding::Ddp => "step".to_string(),
        m => format!("{} step", m.label()),
    };
    let title = format!(
        "One {what}: {} (compute {}, exposed communication {})",
        format_time(run.step_time),
        format_time(run.compute_time),
        format_time(run.exposed())
    );
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart step-timeline\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\" fill=\"currentColor\" role=\"img\" aria-label=\"{title}\">"
    );
    let _ = write!(
        out,
        "<text x=\"{}\" y=\"18\" text-anchor=\"middle\" font-size=\"15\">{title}</text>",
        decimal::fixed(WIDTH / 2.0, 0)
    );
    let mut y = 30.0;
    let label_row = |out: &mut String, y: f64, text: &str| {
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            decimal::fixed(LEFT - 8.0, 0),
            decimal::fixed(y + (ROW - 14.0) / 2.0 + 4.0, 2),
            esc(text)
        );
    };
    let first = match straggler {
        Some((r, f)) => format!(
            "rank {r} compute (×{})",
            crate::core::units::decimal::shortest(f)
        ),
        None => "compute".into(),
    };
    label_row(&mut out, y, &first);
    compute_row(&mut out, &run.compute, y, &sx);
    y += ROW;
    if let Some(o) = &run.others {
        label_row(&mut out, y, "other ranks' compute");
        compute_row(&mut out, o, y, &sx);
        y += ROW;
    }
    label_row(&mut out, y, "communication");
    for (k, b) in run.buckets.iter().enumerate() {
        let (class, label) = comm_look(b, k);
        let title = if b.kind == CommKind::AllReduce {
            format!(
                "bucket {} ({}, {}): ready {}, all-reduce {} – {}",
                k + 1,
                b.label(),
                format_decimal(b.bytes as f64),
                format_time(b.ready),
                format_time(b.start),
                format_time(b.end)
            )
        } else {
            format!(
                "{}, {} ({}): issued {}, runs {} – {}",
                b.kind.label(),
                b.label(),
                format_decimal(b.bytes as f64),
                format_time(b.ready),
                format_time(b.start),
                format_time(b.end)
            )
        };
        bar(&mut out, sx(b.start), sx(b.end), y, &class, &label, &title);
        let _ = write!(out, "<line class=\"st-ready\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"currentColor\" stroke-width=\"1.5\"/>", decimal::fixed(sx(b.ready), 2), decimal::fixed(sx(b.ready), 2), decimal::fixed(y - 3.0, 2), decimal::fixed(y + ROW - 11.0, 2));
    }
    y += ROW;
    // the time axis
    let _ = write!(
        out,
        "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"currentColor\"/>",
        decimal::shortest(LEFT),
        decimal::fixed(LEFT + plot_w, 2),
        decimal::fixed(y, 2),
        decimal::fixed(y, 2)
    );
    let step = tick_step(end);
    let mut t = 0.0;
    while t <= end * (1.0 + 1e-9) {
        let x = sx(t);
        let _ = write!(out, "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"currentColor\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", decimal::fixed(x, 2), decimal::fixed(x, 2), decimal::fixed(y, 2), decimal::fixed(y + 5.0, 2), decimal::fixed(x, 2), decimal::fixed(y + 19.0, 2), format_time(t));
        t += step;
    }
    let x = sx(run.step_time);
    let _ = write!(out, "<line class=\"st-end\" x1=\"{}\" x2=\"{}\" y1=\"26\" y2=\"{}\" stroke=\"#D55E00\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/>", decimal::fixed(x, 2), decimal::fixed(x, 2), decimal::fixed(y, 2));
    if !keys.is_empty() {
        draw_legend(&mut out, &keys, y + 30.0);
    }
    out.push_str("</svg>");
    out
}

/// The tuner: step time against the bucket cap (log x, MiB), the best cap
/// and DDP's default marked.
///
/// # Errors
/// A message when there are no points or plotters fails.
pub fn draw_tuner(t: &Tuner) -> Result<String, String> {
    let pts: Vec<(f64, f64)> = t
        .points
        .iter()
        .map(|p| (p.cap as f64 / 1_048_576.0, p.step_time))
        .collect();
    let (lo, hi) = pts.iter().fold((f64::INFINITY, 0.0f64), |(a, b), p| {
        (a.min(p.1), b.max(p.1))
    });
    if pts.is_empty() || !lo.is_finite() {
        return Err("no step times to plot".into());
    }
    let pad = ((hi - lo) * 0.1).max(hi * 0.02).max(1e-9);
    let plot_px = plot_height(SIZE.1.saturating_sub(CAPTION_PX), 40);
    let y_lo = (lo - pad).max(0.0);
    let y_hi = top_for_legend(y_lo, hi + pad, 3, plot_px, false);
    let best = pts[t.best];
    let def = pts[t.default];
    let mut svg = String::new();
    {
        let root = SvgBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let area = titled(&root, "Step time against the bucket cap")?;
        let mut chart = frame(&area, 40, 76)
            .build_cartesian_2d(Axis::log(0.7, 1500.0), Axis::lin(y_lo, y_hi))
            .map_err(err)?;
        mesh(&mut chart, 12, 13)
            .x_desc("bucket cap (MiB, log scale)")
            .y_desc("step time")
            .x_label_formatter(&|v: &f64| decimal::fixed(*v, 0))
            .y_label_formatter(&|v: &f64| format_time(*v))
            .draw()
            .map_err(err)?;
        let mut keys = Legend::default();
        let c0 = PALETTE[5];
        chart
            .draw_series(LineSeries::new(pts.clone(), c0.stroke_width(2)))
            .map_err(err)?;
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, c0.filled())))
            .map_err(err)?;
        keys.add("step time", key(c0.stroke_width(2)));
        let cb = PALETTE[2];
        chart
            .draw_series([Circle::new(best, 8, cb.stroke_width(3))])
            .map_err(err)?;
        keys.add(
            format!(
                "best: {} MiB, {}",
                crate::core::units::decimal::shortest(best.0),
                format_time(best.1)
            ),
            move |(x, y)| Circle::new((x + 9, y), 6, cb.stroke_width(3)),
        );
        let cd = PALETTE[3];
        chart
            .draw_series([EmptyElement::at(def) + super::triangle(8, cd.filled())])
            .map_err(err)?;
        keys.add(
            format!("DDP default: 25 MiB, {}", format_time(def.1)),
            move |(x, y)| EmptyElement::at((x + 9, y)) + super::triangle(6, cd.filled()),
        );
        keys.draw(&chart, SeriesLabelPosition::UpperLeft)?;
        root.present().map_err(err)?;
    }
    Ok(finish_svg(svg))
}

/// One line of the time-to-quality chart.
#[derive(Clone, Debug, PartialEq)]
pub struct QualityLine {
    /// Its label.
    pub label: String,
    /// `(seconds, loss)` points.
    pub points: Vec<(f64, f64)>,
}

/// Loss (log scale) against wall-clock seconds, one line per strategy,
/// the target as a dashed line.
///
/// # Errors
/// A message when there is nothing positive to plot or plotters fails.
pub fn draw_quality(lines: &[QualityLine], target: Option<f64>) -> Result<String, String> {
    let ok = |&(t, l): &(f64, f64)| t.is_finite() && l.is_finite() && l > 0.0 && t >= 0.0;
    let all = || {
        lines
            .iter()
            .flat_map(|l| l.points.iter().copied())
            .filter(ok)
    };
    let x_hi = all().map(|p| p.0).fold(0.0f64, f64::max);
    let (lo, hi) = all().fold((f64::INFINITY, 0.0f64), |(a, b), p| {
        (a.min(p.1), b.max(p.1))
    });
    if !(lo.is_finite() && hi > 0.0 && x_hi > 0.0) {
        return Err("no losses to plot".into());
    }
    let lo = target.filter(|t| *t > 0.0).map_or(lo, |t| lo.min(t)) * 0.8;
    let plot_px = plot_height(SIZE.1.saturating_sub(CAPTION_PX), 40);
    let y_hi = top_for_legend(lo, hi * 1.2, lines.len() + 1, plot_px, true);
    let mut svg = String::new();
    {
        let root = SvgBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let area = titled(&root, "Loss against wall-clock time")?;
        let mut chart = frame(&area, 40, 76)
            .build_cartesian_2d(Axis::lin(0.0, x_hi * 1.02), Axis::log(lo, y_hi))
            .map_err(err)?;
        mesh(&mut chart, 12, 13)
            .x_desc("wall-clock time")
            .y_desc("global loss at the average model (log scale)")
            .x_label_formatter(&|v: &f64| format_time(*v))
            .y_label_formatter(&|v: &f64| decimal::fixed(*v, 3))
            .draw()
            .map_err(err)?;
        let mut keys = Legend::default();
        for (i, l) in lines.iter().enumerate() {
            let c = PALETTE[i % PALETTE.len()];
            let pts: Vec<(f64, f64)> = l.points.iter().copied().filter(ok).collect();
            chart
                .draw_series(LineSeries::new(pts, c.stroke_width(2)))
                .map_err(err)?;
            keys.add(l.label.as_str(), key(c.stroke_width(2)));
        }
        if let Some(t) = target.filter(|t| *t > 0.0) {
            chart
                .draw_series(DashedLineSeries::new(
                    [(0.0, t), (x_hi * 1.02, t)],
                    6,
                    4,
                    super::FG.stroke_width(1),
                ))
                .map_err(err)?;
            keys.add(
                format!("target {}", format_number(t)),
                key(super::FG.stroke_width(1)),
            );
        }
        keys.draw(&chart, SeriesLabelPosition::UpperRight)?;
        root.present().map_err(err)?;
    }
    Ok(finish_svg(svg))
}

/// "25 MiB" for a cap in bytes.
pub fn cap_label(bytes: u64) -> String {
    format_binary(bytes as f64)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::core::collectives::Algorithm;
    use crate::core::step::strategies::{default_options, tune};
    use crate::core::step::{time_step, Dtype, Network, StepModel, StepOptions};
    use crate::core::topology::Topology;

    fn case_b() -> (StepModel, Network) {
        (
            StepModel {
                params: vec![1_000_000; 100],
                dtype: Dtype::Fp32,
                fwd: 0.025,
                bwd: vec![0.0005; 100],
            },
            Network::new(Algorithm::RING, Topology::flat(16, 20e-6, 8e-11), 0.0),
        )
    }

    #[test]
    fn timeline_has_a_bar_per_bucket_and_layer() {
        let (m, mut n) = case_b();
        let run = time_step(&m, &mut n, &default_options()).expect("runs");
        let svg = timeline_svg(&run, None, run.step_time, Sharding::Ddp);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert_eq!(svg.matches("class=\"st-ar").count(), 16);
        assert_eq!(svg.matches("class=\"st-bwd").count(), 100);
        assert!(svg.contains("bucket 2 (layers 93–99, 28 MB)"));
        let doc = roxmltree::Document::parse(&svg).expect("well-formed");
        // The chart's accessible name is its title line.
        let name = doc
            .root_element()
            .attribute("aria-label")
            .unwrap_or_default();
        assert!(
            name.starts_with("One step: ") && name.contains("exposed communication"),
            "{name}"
        );
    }

    #[test]
    fn a_sharded_step_has_its_collectives_in_their_colours_and_a_legend() {
        // Issue 36's case S as FSDP: 4 all-gathers before forward, 4 before
        // backward, 4 reduce-scatters (core/step/tests.rs derives the times).
        let model = StepModel {
            params: vec![25_000_000; 4],
            dtype: Dtype::Bf16,
            fwd: 0.020,
            bwd: vec![0.010; 4],
        };
        let mut net = Network::new(Algorithm::RING, Topology::flat(8, 0.0, 8e-11), 0.0);
        let opts = StepOptions {
            sharding: Sharding::Fsdp,
            ..default_options()
        };
        let run = time_step(&model, &mut net, &opts).expect("runs");
        let svg = timeline_svg(&run, None, run.step_time, Sharding::Fsdp);
        for class in ["st-agf", "st-agb", "st-rs"] {
            assert_eq!(
                svg.matches(&format!("class=\"{class}\"")).count(),
                4,
                "{class}"
            );
        }
        assert_eq!(svg.matches("class=\"st-ar").count(), 0);
        assert!(svg.contains("aria-label=\"One FSDP (ZeRO-3) step: 70.50 ms (compute 60.00 ms, exposed communication 10.50 ms)\""));
        assert!(svg.contains("all-gather before backward, layer 4 (50 MB): issued 23.50 ms, runs 23.50 ms – 27.00 ms"));
        // forward layer by layer, then backward
        assert!(svg.contains("forward, layer 2: 8.500 ms – 13.50 ms"));
        let doc = roxmltree::Document::parse(&svg).expect("well-formed");
        let legend: Vec<&str> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("st-legend"))
            .flat_map(|g| {
                g.descendants()
                    .filter(|n| n.is_text())
                    .filter_map(|n| n.text())
            })
            .collect();
        assert_eq!(
            legend,
            [
                "forward",
                "backward",
                "all-gather before forward",
                "all-gather before backward",
                "reduce-scatter"
            ]
        );
        // and the DDP chart has no legend
        let ddp = time_step(&model, &mut net, &default_options()).expect("runs");
        assert!(!timeline_svg(&ddp, None, ddp.step_time, Sharding::Ddp).contains("st-legend"));
    }

    #[test]
    fn tuner_and_quality_charts_draw() {
        let (m, mut n) = case_b();
        let t = tune(&m, &mut n, &default_options()).expect("runs");
        let svg = draw_tuner(&t).expect("chart");
        assert!(svg.contains("best: 32 MiB, 96.00 ms"), "{svg}");
        assert!(svg.contains("DDP default: 25 MiB, 97.40 ms"));
        let q = [QualityLine {
            label: "a".into(),
            points: vec![(0.0, 1.0), (1.0, 0.5)],
        }];
        assert!(draw_quality(&q, Some(0.6)).is_ok());
        assert!(draw_quality(&[], None).is_err());
    }
}
