//! Charts of the `sgd` view: excess global loss and consensus distance
//! against the step for the three strategies, excess loss against bytes sent
//! per worker, the 2-D parameter trajectories (d = 2) with both optima marked,
//! and the calculator's sample weights n_k/N as bars.
//!
//! Every chart takes what the core computed ([`Lab`], [`Objective`]) and only
//! draws it. Losses are shown as the excess F(w) − F★ over the lowest
//! reachable global loss F★ = F(w★_sample), on a log scale.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::SvgBackend;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{
    err, exp_tick, finish_svg, fixed2_tick, font, frame, int_tick, key, mesh, plot_height,
    top_for_legend, Axis, Legend, FG, GRID, PALETTE,
};
use crate::core::sgd::Strategy;
use crate::core::sgd::{Lab, Objective, StrategyTrace};
use crate::core::units::decimal;
/// Old name of [`crate::core::units::format_bytes_tick`].
pub use crate::core::units::format_bytes_tick as fmt_bytes;

/// Series colour of each strategy (all-reduce blue, D-PSGD vermillion,
/// local green).
pub fn strategy_colour(s: Strategy) -> RGBColor {
    match s {
        Strategy::AllReduce => PALETTE[5],
        Strategy::Gossip => PALETTE[3],
        Strategy::Local => PALETTE[2],
    }
}

/// Colour of the sample-weighted optimum marker.
pub const SAMPLE_OPT_COLOUR: RGBColor = PALETTE[0];
/// Colour of the equal-worker optimum marker.
pub const EQUAL_OPT_COLOUR: RGBColor = PALETTE[4];

const W: u32 = 640;
const H: u32 = 320;
/// Height of the x label area of every chart here, px.
const X_LABELS_PX: u32 = 36;

/// Log axis range [lo, hi] covering the positive finite values, with values
/// ≤ 0 drawn at `lo` (the floor, 10⁻¹² of the largest value at the lowest).
/// The top leaves the upper band free for a legend of `legend_lines`
/// series ([`top_for_legend`] in the plotting area of a [`step_chart`]).
fn log_range(values: impl Iterator<Item = f64>, legend_lines: usize) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for v in values.filter(|v| v.is_finite() && *v > 0.0) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if hi <= 0.0 {
        return None;
    }
    let lo = lo.max(hi * 1e-12) * 0.5;
    Some((
        lo,
        top_for_legend(
            lo,
            hi * 1.5,
            legend_lines,
            plot_height(H, X_LABELS_PX),
            true,
        ),
    ))
}

fn message(svg: &mut String, text: &str) -> Result<(), String> {
    let root = SvgBackend::with_string(svg, (W, 80)).into_drawing_area();
    root.draw(&Text::new(text.to_string(), (20, 35), font(15)))
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}

/// Which layer of a step chart to draw ([`super::stack`] joins them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// What does not move with the step: the frame, the mesh and the
    /// series. Drawn once per run.
    Base,
    /// What the step at index `.0` moves, with the legend drawn over it:
    /// a transparent SVG of the same size and coordinates as the base.
    Marks(usize),
}

/// The frame of a chart against the step: x = step t from 0 to `t_max`, y
/// on a log scale from `lo` to `hi`, described as `y_desc`; the mesh and
/// its labels only on the [`Layer::Base`].
fn step_chart<'a, 'b>(
    root: &'a DrawingArea<SvgBackend<'b>, Shift>,
    t_max: f64,
    (lo, hi): (f64, f64),
    y_desc: &str,
    layer: Layer,
) -> Result<StepChart<'a, 'b>, String> {
    let mut chart = frame(root, X_LABELS_PX, 64)
        .build_cartesian_2d(Axis::lin(0.0, t_max), Axis::log(lo, hi))
        .map_err(err)?;
    if layer != Layer::Base {
        return Ok(chart);
    }
    mesh(&mut chart, 13, 13)
        .x_desc("step t")
        .y_desc(y_desc)
        .y_label_formatter(&exp_tick)
        .x_label_formatter(&int_tick)
        .draw()
        .map_err(err)?;
    Ok(chart)
}

/// A chart against the step, with a log-scale y axis.
type StepChart<'a, 'b> = ChartContext<'a, SvgBackend<'b>, Cartesian2d<Axis, Axis>>;

/// The last step of the longest trace (at least 1): the right end of the
/// step axis.
fn last_step(lab: &Lab) -> f64 {
    lab.last_step().max(1) as f64
}

/// Ends a chart against the step: a vertical line at `current` (at most
/// `t_max`) from `lo` to `hi`, then the legend `keys` at the upper right.
fn current_step<'a, 'b: 'a>(
    chart: &mut ChartContext<'a, SvgBackend<'b>, Cartesian2d<Axis, Axis>>,
    keys: &Legend<'b, SvgBackend<'b>>,
    current: usize,
    t_max: f64,
    (lo, hi): (f64, f64),
) -> Result<(), String> {
    let c = (current as f64).min(t_max);
    chart
        .draw_series(LineSeries::new([(c, lo), (c, hi)], FG.stroke_width(1)))
        .map_err(err)?;
    keys.draw(chart, SeriesLabelPosition::UpperRight)
}

fn excess(v: f64, opt: f64) -> f64 {
    v - opt
}

/// Excess global loss F(w̄_t) − F★ at the average model against the step t,
/// for the three strategies (log scale). Dashed, same colour: the mean over
/// workers of F(w_k,t) − F★ at the local models (it coincides with the
/// average's curve for all-reduce). Dotted grey: the excess of the
/// equal-worker optimum, F(w★_equal) − F★, where uniform D-PSGD levels off.
/// A vertical line marks `current`.
///
/// # Errors
/// A message when plotters fails; a chart with a note when nothing is positive.
pub fn draw_loss(lab: &Lab, current: usize) -> Result<String, String> {
    Ok(super::stack(
        &draw_loss_layer(lab, Layer::Base)?,
        &draw_loss_layer(lab, Layer::Marks(current))?,
    ))
}

/// One [`Layer`] of [`draw_loss`]: the curves, or the step's line and the
/// legend (`""` when the chart is only a note).
///
/// # Errors
/// As [`draw_loss`].
pub fn draw_loss_layer(lab: &Lab, layer: Layer) -> Result<String, String> {
    let opt = lab.optimal_loss;
    let eq_gap = excess(lab.equal_worker_loss, opt);
    let mean_local = |t: &StrategyTrace| -> Vec<f64> {
        t.steps
            .iter()
            .map(|s| {
                let n = s.loss_at_local.len().max(1) as f64;
                s.loss_at_local.iter().sum::<f64>() / n - opt
            })
            .collect()
    };
    let all = lab
        .traces
        .iter()
        .flat_map(|t| t.steps.iter().map(move |s| excess(s.loss_at_average, opt)))
        .chain(lab.traces.iter().flat_map(mean_local))
        .chain(std::iter::once(eq_gap));
    let mut svg = String::new();
    let draws_eq_gap = eq_gap > 0.0;
    let legend_lines = lab.traces.len() + usize::from(draws_eq_gap);
    let Some((lo, hi)) = log_range(all, legend_lines) else {
        return note(layer, "Every model sits at the optimum: nothing to plot.");
    };
    let t_max = last_step(lab);
    let clamp = |v: f64| {
        if v.is_finite() {
            crate::core::units::clamp(v, lo, hi)
        } else {
            hi
        }
    };
    let base = layer == Layer::Base;
    {
        let root = SvgBackend::with_string(&mut svg, (W, H)).into_drawing_area();
        let mut keys = Legend::default();
        let mut chart = step_chart(
            &root,
            t_max,
            (lo, hi),
            "F(w) − F★ (global loss above optimum)",
            layer,
        )?;
        if draws_eq_gap {
            if base {
                chart
                    .draw_series(DashedLineSeries::new(
                        [(0.0, clamp(eq_gap)), (t_max, clamp(eq_gap))],
                        2,
                        4,
                        FG.mix(0.6).stroke_width(1),
                    ))
                    .map_err(err)?;
            }
            keys.add(
                "excess loss of the equal-worker optimum",
                key(GRID.stroke_width(1)),
            );
        }
        for t in &lab.traces {
            let c = strategy_colour(t.strategy);
            keys.add(
                format!("{} at w̄", t.strategy.label()),
                key(c.stroke_width(2)),
            );
            if !base {
                continue;
            }
            let pts: Vec<(f64, f64)> = t
                .steps
                .iter()
                .map(|s| (s.step as f64, clamp(excess(s.loss_at_average, opt))))
                .collect();
            chart
                .draw_series(LineSeries::new(pts, c.stroke_width(2)))
                .map_err(err)?;
            if t.strategy != Strategy::AllReduce {
                let local: Vec<(f64, f64)> = t
                    .steps
                    .iter()
                    .zip(mean_local(t))
                    .map(|(s, v)| (s.step as f64, clamp(v)))
                    .collect();
                chart
                    .draw_series(DashedLineSeries::new(local, 5, 3, c.stroke_width(1)))
                    .map_err(err)?;
            }
        }
        if let Layer::Marks(current) = layer {
            current_step(&mut chart, &keys, current, t_max, (lo, hi))?;
        }
        root.present().map_err(err)?;
    }
    Ok(finish_svg(svg))
}

/// The note a chart shows instead when there is nothing to plot, on the
/// [`Layer::Base`]; the marks layer is then empty (`""`).
fn note(layer: Layer, text: &str) -> Result<String, String> {
    if layer != Layer::Base {
        return Ok(String::new());
    }
    let mut svg = String::new();
    message(&mut svg, text)?;
    Ok(finish_svg(svg))
}

/// Consensus distance (1/m) Σ ‖w_k − w̄‖² against the step (log scale).
/// All-reduce SGD's distance is exactly 0; it is drawn as a flat line on the
/// floor and says so in the legend.
///
/// # Errors
/// A message when plotters fails.
pub fn draw_consensus(lab: &Lab, current: usize) -> Result<String, String> {
    Ok(super::stack(
        &draw_consensus_layer(lab, Layer::Base)?,
        &draw_consensus_layer(lab, Layer::Marks(current))?,
    ))
}

/// One [`Layer`] of [`draw_consensus`].
///
/// # Errors
/// As [`draw_consensus`].
pub fn draw_consensus_layer(lab: &Lab, layer: Layer) -> Result<String, String> {
    let all = lab
        .traces
        .iter()
        .flat_map(|t| t.steps.iter().map(|s| s.consensus_distance));
    let mut svg = String::new();
    let Some((lo, hi)) = log_range(all, lab.traces.len()) else {
        return note(
            layer,
            "Consensus distance is exactly 0 for every strategy: all models are equal.",
        );
    };
    let t_max = last_step(lab);
    {
        let root = SvgBackend::with_string(&mut svg, (W, H)).into_drawing_area();
        let mut keys = Legend::default();
        let mut chart = step_chart(&root, t_max, (lo, hi), "(1/m) Σ‖w_k − w̄‖²", layer)?;
        for t in &lab.traces {
            let c = strategy_colour(t.strategy);
            let zero = t.steps.iter().all(|s| s.consensus_distance == 0.0);
            let label = if zero {
                format!("{}: exactly 0 (drawn on the floor)", t.strategy.label())
            } else {
                t.strategy.label().to_string()
            };
            keys.add(label, key(c.stroke_width(2)));
            if layer != Layer::Base {
                continue;
            }
            let pts: Vec<(f64, f64)> = t
                .steps
                .iter()
                .map(|s| {
                    let v = s.consensus_distance;
                    (
                        s.step as f64,
                        if v > 0.0 && v.is_finite() {
                            crate::core::units::clamp(v, lo, hi)
                        } else {
                            lo
                        },
                    )
                })
                .collect();
            chart
                .draw_series(LineSeries::new(pts, c.stroke_width(2)))
                .map_err(err)?;
        }
        if let Layer::Marks(current) = layer {
            current_step(&mut chart, &keys, current, t_max, (lo, hi))?;
        }
        root.present().map_err(err)?;
    }
    Ok(finish_svg(svg))
}

/// Excess global loss at the average model against the cumulative bytes sent
/// by the busiest worker (ring all-reduce 2(p−1)/p·d·4 B per step; gossip
/// deg·d·4 B per step). Local SGD sends nothing: its points stack on x = 0.
/// A dot marks each strategy's state at `current`.
///
/// # Errors
/// A message when plotters fails.
pub fn draw_loss_vs_bytes(lab: &Lab, current: usize) -> Result<String, String> {
    Ok(super::stack(
        &draw_loss_vs_bytes_layer(lab, Layer::Base)?,
        &draw_loss_vs_bytes_layer(lab, Layer::Marks(current))?,
    ))
}

/// One [`Layer`] of [`draw_loss_vs_bytes`]: the curves, or the step's dots
/// and the legend.
///
/// # Errors
/// As [`draw_loss_vs_bytes`].
pub fn draw_loss_vs_bytes_layer(lab: &Lab, layer: Layer) -> Result<String, String> {
    let opt = lab.optimal_loss;
    let all = lab
        .traces
        .iter()
        .flat_map(|t| t.steps.iter().map(move |s| s.loss_at_average - opt));
    let mut svg = String::new();
    let Some((lo, hi)) = log_range(all, lab.traces.len()) else {
        return note(layer, "Every model sits at the optimum: nothing to plot.");
    };
    let b_max = lab
        .traces
        .iter()
        .filter_map(StrategyTrace::last)
        .map(|s| s.max_bytes_sent())
        .fold(0.0, f64::max)
        .max(1.0);
    let clamp = |v: f64| {
        if v.is_finite() {
            crate::core::units::clamp(v, lo, hi)
        } else {
            hi
        }
    };
    {
        let root = SvgBackend::with_string(&mut svg, (W, H)).into_drawing_area();
        let mut keys = Legend::default();
        let mut chart = frame(&root, X_LABELS_PX, 64)
            .build_cartesian_2d(Axis::lin(-0.02 * b_max, b_max * 1.02), Axis::log(lo, hi))
            .map_err(err)?;
        match layer {
            Layer::Base => {
                mesh(&mut chart, 13, 13)
                    .x_desc("bytes sent by the busiest worker (cumulative)")
                    .y_desc("F(w̄) − F★")
                    .y_label_formatter(&exp_tick)
                    .x_label_formatter(&|v| fmt_bytes(*v))
                    .draw()
                    .map_err(err)?;
                for t in &lab.traces {
                    let pts: Vec<(f64, f64)> = t
                        .steps
                        .iter()
                        .map(|s| (s.max_bytes_sent(), clamp(s.loss_at_average - opt)))
                        .collect();
                    let style = strategy_colour(t.strategy).stroke_width(2);
                    chart
                        .draw_series(LineSeries::new(pts, style))
                        .map_err(err)?;
                }
            }
            Layer::Marks(current) => {
                for t in &lab.traces {
                    let c = strategy_colour(t.strategy);
                    keys.add(t.strategy.label(), key(c.stroke_width(2)));
                    let at = current.min(t.steps.len().saturating_sub(1));
                    if let Some(s) = t.steps.get(at) {
                        chart
                            .draw_series([Circle::new(
                                (s.max_bytes_sent(), clamp(s.loss_at_average - opt)),
                                5,
                                c.filled(),
                            )])
                            .map_err(err)?;
                    }
                }
                keys.draw(&chart, SeriesLabelPosition::UpperRight)?;
            }
        }
        root.present().map_err(err)?;
    }
    Ok(finish_svg(svg))
}

/// The parameter plane (d = 2 only): the path of the average model w̄ for
/// each strategy up to step `current` (thick), each worker's own path for
/// D-PSGD and local SGD (thin, translucent), the common start w⁰ (ring), the
/// local optima argmin L_k (small dots, labelled k+1), the sample-weighted
/// optimum (filled diamond-ish cross) and the equal-worker optimum (filled
/// triangle).
///
/// # Errors
/// A message when d ≠ 2 or plotters fails.
pub fn draw_trajectories(lab: &Lab, current: usize) -> Result<String, String> {
    let d = lab.sample_weighted_optimum.len();
    if d != 2 {
        return Err(format!(
            "the parameter picture needs d = 2 (this run has d = {d})"
        ));
    }
    let mut xs: Vec<f64> = Vec::new();
    let mut ys: Vec<f64> = Vec::new();
    let mut add = |w: &[f64]| {
        if w.len() == 2 && w[0].is_finite() && w[1].is_finite() {
            xs.push(w[0]);
            ys.push(w[1]);
        }
    };
    add(&lab.sample_weighted_optimum);
    add(&lab.equal_worker_optimum);
    for w in lab.local_optima.iter().flatten() {
        add(w);
    }
    for t in &lab.traces {
        for s in &t.steps {
            for w in &s.models {
                add(w);
            }
        }
    }
    let span = |v: &[f64]| {
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !lo.is_finite() || !hi.is_finite() {
            return (-1.0, 1.0);
        }
        let pad = ((hi - lo) * 0.08).max(1e-3);
        (lo - pad, hi + pad)
    };
    let (x0, x1) = span(&xs);
    let (y0, y1) = span(&ys);
    let mut svg = String::new();
    {
        let root = SvgBackend::with_string(&mut svg, (W, 440)).into_drawing_area();
        draw_plane(&root, lab, current, (x0, x1), (y0, y1))?;
        root.present().map_err(err)?;
    }
    Ok(finish_svg(svg))
}

fn draw_plane(
    root: &DrawingArea<SvgBackend<'_>, Shift>,
    lab: &Lab,
    current: usize,
    xr: (f64, f64),
    yr: (f64, f64),
) -> Result<(), String> {
    let mut keys = Legend::default();
    let mut chart = frame(root, X_LABELS_PX, 56)
        .build_cartesian_2d(Axis::lin(xr.0, xr.1), Axis::lin(yr.0, yr.1))
        .map_err(err)?;
    mesh(&mut chart, 13, 13)
        .x_desc("w₁")
        .y_desc("w₂")
        .x_label_formatter(&fixed2_tick)
        .y_label_formatter(&fixed2_tick)
        .draw()
        .map_err(err)?;
    let pt = |w: &[f64]| (w[0], w[1]);
    // per-worker paths (thin) for the strategies whose models differ
    for t in &lab.traces {
        let c = strategy_colour(t.strategy);
        let upto = current.min(t.steps.len().saturating_sub(1));
        let m = t.steps.first().map_or(0, |s| s.models.len());
        if t.strategy != Strategy::AllReduce {
            for k in 0..m {
                let path: Vec<(f64, f64)> =
                    t.steps[..=upto].iter().map(|s| pt(&s.models[k])).collect();
                chart
                    .draw_series(LineSeries::new(path, c.mix(0.35).stroke_width(1)))
                    .map_err(err)?;
            }
        }
    }
    // average-model paths (thick) and the current position
    for t in &lab.traces {
        let c = strategy_colour(t.strategy);
        let upto = current.min(t.steps.len().saturating_sub(1));
        let path: Vec<(f64, f64)> = t.steps[..=upto].iter().map(|s| pt(&s.average)).collect();
        let last = path.last().copied();
        chart
            .draw_series(LineSeries::new(path, c.stroke_width(3)))
            .map_err(err)?;
        keys.add(
            format!("{}: w̄ path", t.strategy.label()),
            key(c.stroke_width(3)),
        );
        if let Some(p) = last {
            chart
                .draw_series([Circle::new(p, 6, c.filled())])
                .map_err(err)?;
        }
        if t.strategy != Strategy::AllReduce {
            if let Some(s) = t.steps.get(upto) {
                chart
                    .draw_series(
                        s.models
                            .iter()
                            .map(|w| Circle::new(pt(w), 3, c.stroke_width(1))),
                    )
                    .map_err(err)?;
            }
        }
    }
    // the start
    if let Some(s) = lab.traces.first().and_then(|t| t.steps.first()) {
        chart
            .draw_series([Circle::new(pt(&s.average), 6, FG.stroke_width(2))])
            .map_err(err)?;
        chart
            .draw_series([
                EmptyElement::at(pt(&s.average)) + Text::new("start w⁰", (8, 4), font(12))
            ])
            .map_err(err)?;
    }
    // local optima
    for (k, w) in lab.local_optima.iter().enumerate() {
        if let Some(w) = w {
            chart
                .draw_series([Circle::new(pt(w), 3, FG.filled())])
                .map_err(err)?;
            chart
                .draw_series([EmptyElement::at(pt(w))
                    + Text::new(format!("shard {}", k + 1), (6, -14), font(11))])
                .map_err(err)?;
        }
    }
    // the two optima
    let ws = pt(&lab.sample_weighted_optimum);
    chart
        .draw_series([Cross::new(ws, 9, SAMPLE_OPT_COLOUR.stroke_width(3))])
        .map_err(err)?;
    keys.add("optimum of Σ (n_k/N) L_k (sample-weighted)", |(x, y)| {
        Cross::new((x + 9, y), 6, SAMPLE_OPT_COLOUR.stroke_width(3))
    });
    let we = pt(&lab.equal_worker_optimum);
    chart
        .draw_series([EmptyElement::at(we) + super::triangle(9, EQUAL_OPT_COLOUR.filled())])
        .map_err(err)?;
    keys.add("optimum of (1/m) Σ L_k (equal-worker)", |(x, y)| {
        EmptyElement::at((x + 9, y)) + super::triangle(6, EQUAL_OPT_COLOUR.filled())
    });
    keys.draw(&chart, SeriesLabelPosition::UpperLeft)?;
    Ok(())
}

/// Bars of the sample weights n_k/N per shard, with the plain-average weight
/// 1/m as a dashed line: bars below the line are over-weighted by a plain
/// mean, bars above it under-weighted.
///
/// # Errors
/// A message when plotters fails.
pub fn draw_sample_weights(o: &Objective) -> Result<String, String> {
    let m = o.weights.len();
    let mut svg = String::new();
    if m == 0 {
        message(&mut svg, "No shards.")?;
        return Ok(finish_svg(svg));
    }
    let plain = 1.0 / m as f64;
    let top = o.weights.iter().copied().fold(plain, f64::max) * 1.15;
    {
        let root = SvgBackend::with_string(&mut svg, (W, 240)).into_drawing_area();
        let mut keys = Legend::default();
        let mut chart = frame(&root, X_LABELS_PX, 56)
            .build_cartesian_2d(Axis::lin(-0.5, m as f64 - 0.5), Axis::lin(0.0, top))
            .map_err(err)?;
        mesh(&mut chart, 13, 13)
            .disable_x_mesh()
            .x_desc("shard k")
            .y_desc("weight")
            .x_labels(m.min(32))
            .x_label_formatter(&|v| {
                let k = v.round();
                if (v - k).abs() < 1e-6 && k >= 0.0 {
                    format!("{}", k as usize + 1)
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&fixed2_tick)
            .draw()
            .map_err(err)?;
        let c = PALETTE[5];
        chart
            .draw_series(o.weights.iter().enumerate().map(|(k, &w)| {
                Rectangle::new([(k as f64 - 0.35, 0.0), (k as f64 + 0.35, w)], c.filled())
            }))
            .map_err(err)?;
        keys.add("n_k / N (sample weight)", move |(x, y)| {
            Rectangle::new([(x, y - 5), (x + 14, y + 5)], c.filled())
        });
        if m <= 16 {
            chart
                .draw_series(o.weights.iter().enumerate().map(|(k, &w)| {
                    Text::new(
                        decimal::fixed(w, 3),
                        (k as f64, w + top * 0.02),
                        font(12).pos(Pos::new(HPos::Center, VPos::Bottom)),
                    )
                }))
                .map_err(err)?;
        }
        let pc = PALETTE[3];
        chart
            .draw_series(DashedLineSeries::new(
                [(-0.5, plain), (m as f64 - 0.5, plain)],
                6,
                4,
                pc.stroke_width(2),
            ))
            .map_err(err)?;
        keys.add(
            format!("1/m = {} (plain average)", decimal::fixed(plain, 3)),
            key(pc.stroke_width(2)),
        );
        keys.draw(&chart, SeriesLabelPosition::UpperRight)?;
        root.present().map_err(err)?;
    }
    Ok(finish_svg(svg))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sgd::train::complete_uniform_mixing;
    use crate::core::sgd::{objective, run_lab, Problem, ProblemConfig, TrainConfig};
    use crate::plot::stack;

    fn lab(d: usize) -> Lab {
        let p = Problem::generate(&ProblemConfig {
            d,
            ..ProblemConfig::default()
        })
        .expect("valid");
        run_lab(
            &p,
            &complete_uniform_mixing(3),
            &TrainConfig {
                steps: 60,
                ..TrainConfig::default()
            },
        )
        .expect("valid")
    }

    fn is_svg(s: &str) -> bool {
        s.starts_with("<svg") && s.trim_end().ends_with("</svg>") && s.contains("class=\"chart\"")
    }

    #[test]
    fn step_charts_render_with_legends() {
        let l = lab(2);
        let loss = draw_loss(&l, 30).expect("renders");
        assert!(is_svg(&loss));
        assert!(loss.contains("all-reduce SGD at w̄"));
        assert!(loss.contains("equal-worker optimum"));
        assert!(!loss.contains("#010203"), "sentinel colour replaced");
        let cons = draw_consensus(&l, 30).expect("renders");
        assert!(is_svg(&cons));
        assert!(cons.contains("exactly 0"));
        assert!(cons.contains("D-PSGD (gossip)"));
        let bytes = draw_loss_vs_bytes(&l, 60).expect("renders");
        assert!(is_svg(&bytes));
        assert!(bytes.contains("busiest worker"));
    }

    #[test]
    fn a_step_moves_only_the_marks_layer() {
        let l = lab(2);
        let base = draw_loss_layer(&l, Layer::Base).expect("renders");
        let at_10 = draw_loss_layer(&l, Layer::Marks(10)).expect("renders");
        let at_30 = draw_loss_layer(&l, Layer::Marks(30)).expect("renders");
        // the axes and curves are in the base; the legend is with the marks
        assert!(base.contains("step t") && !at_10.contains("step t"));
        assert!(at_10.contains("all-reduce SGD at w̄") && !base.contains("all-reduce SGD at w̄"));
        assert_ne!(at_10, at_30);
        assert_eq!(stack(&base, &at_30), draw_loss(&l, 30).expect("renders"));
        // the dots of the bytes chart move; its curves do not
        let b = draw_loss_vs_bytes_layer(&l, Layer::Base).expect("renders");
        let dots = draw_loss_vs_bytes_layer(&l, Layer::Marks(5)).expect("renders");
        assert_eq!(b.matches("<circle").count(), 0);
        assert_eq!(dots.matches("<circle").count(), 3);
    }

    #[test]
    fn trajectory_needs_d2_and_marks_both_optima() {
        let l = lab(2);
        let t = draw_trajectories(&l, 10).expect("d = 2 renders");
        assert!(is_svg(&t));
        assert!(t.contains("sample-weighted") && t.contains("equal-worker"));
        assert!(t.contains("start w⁰"));
        let e = draw_trajectories(&lab(3), 10).expect_err("d = 3 has no picture");
        assert!(e.contains("d = 2"));
        // current beyond the end is clamped, not a panic
        assert!(draw_trajectories(&l, 10_000).is_ok());
    }

    #[test]
    fn sample_weight_bars_show_the_values() {
        let o = objective(&[600, 300, 100], &[0.2, 0.5, 0.9]).expect("valid");
        let s = draw_sample_weights(&o).expect("renders");
        assert!(is_svg(&s));
        assert!(s.contains("0.600") && s.contains("0.300") && s.contains("0.100"));
        assert!(s.contains("1/m = 0.333"));
    }

    #[test]
    fn bytes_format_with_decimal_prefixes() {
        assert_eq!(fmt_bytes(0.0), "0 B");
        assert_eq!(fmt_bytes(750.0), "750 B");
        assert_eq!(fmt_bytes(1500.0), "1.5 kB");
        assert_eq!(fmt_bytes(2.0e6), "2.0 MB");
    }
}
