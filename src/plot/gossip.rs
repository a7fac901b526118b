//! Charts of the `gossip` view: the disagreement norm against the round on a
//! log scale with the ρ^r bound, and the eigenvalues of W with ρ and the
//! spectral gap marked.

use plotters::prelude::*;

use super::SvgBackend;

use super::{
    err, exp_tick, finish_svg, font, frame, int_tick, key, mesh, plot_height, top_for_legend, Axis,
    Legend, FG, PALETTE,
};
use crate::core::consensus::{RoundState, Spectrum};
use crate::core::units::decimal;
use crate::core::units::equation;
use crate::core::units::format::{format_number, format_rate, format_small};

/// Height of the disagreement chart, px.
const H: u32 = 320;
/// Height of its x label area, px.
const X_LABELS_PX: u32 = 36;

/// Log-scale plot of ‖x_r − x̄1‖₂ against r (points and line), the line
/// ρ^r‖x_0 − x̄1‖₂ (dashed; labelled a bound only when `bound_guaranteed`),
/// the target level ‖x_0 − x̄1‖₂/F (dotted, when `factor` > 1) and the
/// current round (vertical line). Zero norms (exact consensus) are drawn at
/// 10⁻¹⁵ of the initial norm, the bottom of the chart.
///
/// # Errors
/// A message when there are no rounds or plotters fails.
pub fn draw_disagreement(
    rounds: &[RoundState],
    current: usize,
    bound_guaranteed: bool,
    factor: f64,
) -> Result<String, String> {
    let first = rounds.first().ok_or("no rounds to plot")?;
    let d0 = first.disagreement;
    let mut svg = String::new();
    {
        let root = SvgBackend::with_string(&mut svg, (640, H)).into_drawing_area();
        if d0 <= 0.0 || !d0.is_finite() {
            root.draw(&Text::new(
                "The initial values are already equal: nothing to mix.",
                (40, 150),
                font(16),
            ))
            .map_err(err)?;
            root.present().map_err(err)?;
            drop(root);
            return Ok(finish_svg(svg));
        }
        let mut keys = Legend::default();
        let floor = d0 * 1e-15;
        let clamp = |v: f64| if v.is_finite() { v.max(floor) } else { floor };
        let lowest = rounds
            .iter()
            .flat_map(|s| std::iter::once(s.disagreement).chain(s.bound))
            .map(clamp)
            .fold(d0, f64::min)
            .min(if factor > 1.0 { d0 / factor } else { d0 });
        let y_lo = (lowest * 0.5).max(floor);
        // the legend (bound, target, measured) sits above the lines
        let (has_bound, has_target) = (first.bound.is_some(), factor > 1.0 && factor.is_finite());
        let keys_n = 1 + usize::from(has_bound) + usize::from(has_target);
        let y_hi = top_for_legend(y_lo, d0 * 1.15, keys_n, plot_height(H, X_LABELS_PX), true);
        let r_max = rounds.last().map_or(1, |s| s.r).max(1);
        let mut chart = frame(&root, X_LABELS_PX, 64)
            .build_cartesian_2d(Axis::lin(0.0, r_max as f64), Axis::log(y_lo, y_hi))
            .map_err(err)?;
        mesh(&mut chart, 13, 13)
            .x_desc("round r")
            .y_desc("‖x_r − x̄1‖₂")
            .y_label_formatter(&exp_tick)
            .x_label_formatter(&int_tick)
            .draw()
            .map_err(err)?;
        let bound_colour = PALETTE[3];
        if has_bound {
            let pts: Vec<(f64, f64)> = rounds
                .iter()
                .filter_map(|s| s.bound.map(|b| (s.r as f64, clamp(b))))
                .collect();
            chart
                .draw_series(DashedLineSeries::new(
                    pts,
                    6,
                    4,
                    bound_colour.stroke_width(2),
                ))
                .map_err(err)?;
            keys.add(
                if bound_guaranteed {
                    "ρ^r·‖x₀ − x̄1‖₂ (bound)"
                } else {
                    "ρ^r·‖x₀ − x̄1‖₂ (rate only, not a bound here)"
                },
                key(bound_colour.stroke_width(2)),
            );
        }
        if has_target {
            let t = d0 / factor;
            chart
                .draw_series(DashedLineSeries::new(
                    [(0.0, t), (r_max as f64, t)],
                    2,
                    4,
                    PALETTE[2].stroke_width(1),
                ))
                .map_err(err)?;
            keys.add(
                format!("target: initial / {}", format_number(factor)),
                key(PALETTE[2].stroke_width(1)),
            );
        }
        let measured: Vec<(f64, f64)> = rounds
            .iter()
            .map(|s| (s.r as f64, clamp(s.disagreement)))
            .collect();
        let colour = PALETTE[5];
        chart
            .draw_series(LineSeries::new(measured.clone(), colour.stroke_width(2)))
            .map_err(err)?;
        keys.add("measured ‖x_r − x̄1‖₂", key(colour.stroke_width(2)));
        if rounds.len() <= 200 {
            chart
                .draw_series(measured.iter().map(|&p| Circle::new(p, 3, colour.filled())))
                .map_err(err)?;
        }
        let c = current.min(r_max) as f64;
        chart
            .draw_series(LineSeries::new([(c, y_lo), (c, y_hi)], FG.stroke_width(1)))
            .map_err(err)?;
        keys.draw(&chart, SeriesLabelPosition::UpperRight)?;
        root.present().map_err(err)?;
    }
    Ok(finish_svg(svg))
}

/// The eigenvalues of W with ρ and the spectral gap 1 − ρ marked.
///
/// Real spectrum (symmetric or reversible W): the eigenvalues as points on
/// the real line from −1 to 1, the band (ρ, 1) shaded as the gap, dashed
/// lines at ±ρ and multiplicities written above repeated values (when there
/// are at most 32 distinct values). Complex spectrum (directed W): the
/// complex plane with the unit circle and the circle of radius ρ.
///
/// # Errors
/// A message when the spectrum is empty or plotters fails.
pub fn draw_eigenvalues(spectrum: &Spectrum) -> Result<String, String> {
    if spectrum.eigenvalues.is_empty() {
        return Err("no eigenvalues to plot".into());
    }
    if spectrum.real {
        draw_real_line(spectrum)
    } else {
        draw_complex_plane(spectrum)
    }
}

/// Axis tick text with one decimal and no "−0.0".
fn axis_label(v: &f64) -> String {
    let t = decimal::fixed(*v, 1);
    if t == "-0.0" || t == "0.0" {
        "0".into()
    } else {
        t
    }
}

fn draw_real_line(s: &Spectrum) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SvgBackend::with_string(&mut svg, (640, 200)).into_drawing_area();
        let mut chart = frame(&root, 36, 0)
            .build_cartesian_2d(Axis::lin(-1.1, 1.1), Axis::lin(-1.0, 2.2))
            .map_err(err)?;
        mesh(&mut chart, 13, 13)
            .disable_y_mesh()
            .disable_y_axis()
            .x_desc("eigenvalue λ of W")
            .x_label_formatter(&axis_label)
            .draw()
            .map_err(err)?;
        let rho = crate::core::units::clamp(s.rho, 0.0, 1.0);
        chart
            .draw_series([Rectangle::new(
                [(rho, -0.6), (1.0, 0.6)],
                PALETTE[2].mix(0.25).filled(),
            )])
            .map_err(err)?;
        for x in [rho, -rho] {
            chart
                .draw_series(DashedLineSeries::new(
                    [(x, -0.8), (x, 1.2)],
                    5,
                    3,
                    PALETTE[3].stroke_width(2),
                ))
                .map_err(err)?;
        }
        chart
            .draw_series(LineSeries::new(
                [(-1.0, 0.0), (1.0, 0.0)],
                FG.stroke_width(1),
            ))
            .map_err(err)?;
        let font = font(13);
        chart
            .draw_series([
                Text::new(equation("ρ", &format_rate(s.rho)), (rho, 1.9), font.clone()),
                Text::new(
                    equation("gap 1 − ρ", &format_small(s.gap)),
                    ((rho + 1.0) / 2.0 - 0.2, 1.4),
                    font.clone(),
                ),
            ])
            .map_err(err)?;
        // group equal eigenvalues
        let mut groups: Vec<(f64, usize)> = Vec::new();
        for e in &s.eigenvalues {
            match groups.last_mut() {
                Some(g) if (g.0 - e.re).abs() <= 1e-9 => g.1 += 1,
                _ => groups.push((e.re, 1)),
            }
        }
        chart
            .draw_series(
                groups
                    .iter()
                    .map(|&(x, _)| Circle::new((x, 0.0), 5, PALETTE[5].filled())),
            )
            .map_err(err)?;
        if groups.len() <= 32 {
            chart
                .draw_series(
                    groups
                        .iter()
                        .filter(|g| g.1 > 1)
                        .map(|&(x, m)| Text::new(format!("×{m}"), (x + 0.02, 0.75), font.clone())),
                )
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(finish_svg(svg))
}

fn draw_complex_plane(s: &Spectrum) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SvgBackend::with_string(&mut svg, (440, 440)).into_drawing_area();
        let mut keys = Legend::default();
        let mut chart = frame(&root, 36, 44)
            .build_cartesian_2d(Axis::lin(-1.15, 1.15), Axis::lin(-1.15, 1.15))
            .map_err(err)?;
        mesh(&mut chart, 13, 13)
            .x_desc("Re λ")
            .y_desc("Im λ")
            .x_label_formatter(&axis_label)
            .y_label_formatter(&axis_label)
            .draw()
            .map_err(err)?;
        let circle = |r: f64| {
            (0..=180).map(move |k| {
                let a = std::f64::consts::TAU * f64::from(k) / 180.0;
                (r * a.cos(), r * a.sin())
            })
        };
        chart
            .draw_series(LineSeries::new(circle(1.0), FG.stroke_width(1)))
            .map_err(err)?;
        keys.add("unit circle", key(FG.stroke_width(1)));
        let rho = crate::core::units::clamp(s.rho, 0.0, 1.0);
        let pts: Vec<(f64, f64)> = circle(rho).collect();
        chart
            .draw_series(DashedLineSeries::new(pts, 5, 3, PALETTE[3].stroke_width(2)))
            .map_err(err)?;
        keys.add(
            format!(
                "|λ| = ρ = {} (gap {})",
                format_number(s.rho),
                format_number(s.gap)
            ),
            key(PALETTE[3].stroke_width(2)),
        );
        chart
            .draw_series(
                s.eigenvalues
                    .iter()
                    .map(|e| Circle::new((e.re, e.im), 4, PALETTE[5].filled())),
            )
            .map_err(err)?;
        keys.add("eigenvalues of W", |(x, y)| {
            Circle::new((x + 9, y), 4, PALETTE[5].filled())
        });
        keys.draw(&chart, SeriesLabelPosition::LowerLeft)?;
        root.present().map_err(err)?;
    }
    Ok(finish_svg(svg))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::consensus::{GossipRun, GraphKind, InitPattern, WeightRule};

    fn run(kind: GraphKind, p: usize, rule: WeightRule, rounds: usize) -> GossipRun {
        GossipRun::new(kind, p, 1, rule, &InitPattern::Linear, rounds, 100.0).expect("run")
    }

    #[test]
    fn disagreement_plot_labels_the_bound() {
        let r = run(GraphKind::Ring, 4, WeightRule::Uniform, 8);
        let svg = draw_disagreement(&r.rounds, 2, r.spectrum.bound_guaranteed, 100.0).expect("svg");
        assert!(svg.starts_with("<svg class=\"chart\""));
        assert!(svg.contains("(bound)") && svg.contains("initial / 100"));
        assert!(svg.contains("round r") && svg.contains("currentColor"));
        // star + uniform: ρ is only a rate
        let s = run(GraphKind::Star, 6, WeightRule::Uniform, 8);
        let svg = draw_disagreement(&s.rounds, 0, s.spectrum.bound_guaranteed, 100.0).expect("svg");
        assert!(svg.contains("not a bound"));
    }

    #[test]
    fn exact_consensus_and_equal_values_do_not_break_the_plot() {
        // complete graph, uniform: ρ = 0 and the norm is exactly 0 after one round
        let r = run(GraphKind::Complete, 5, WeightRule::Uniform, 4);
        assert!(draw_disagreement(&r.rounds, 1, true, 100.0).is_ok());
        let flat = GossipRun::new(
            GraphKind::Ring,
            3,
            1,
            WeightRule::Uniform,
            &InitPattern::List(vec![2.0; 3]),
            2,
            100.0,
        )
        .expect("run");
        let svg = draw_disagreement(&flat.rounds, 0, true, 100.0).expect("svg");
        assert!(svg.contains("already equal"));
        assert!(draw_disagreement(&[], 0, true, 100.0).is_err());
    }

    #[test]
    fn eigenvalue_plots_real_and_complex() {
        let r = run(GraphKind::Ring, 8, WeightRule::Uniform, 1);
        let svg = draw_eigenvalues(&r.spectrum).expect("svg");
        assert!(svg.contains("ρ ≈ 0.8047") && svg.contains("gap 1 − ρ ≈ 0.1953"));
        // ring p=8 eigenvalues come in pairs: ×2 labels
        assert!(svg.contains("×2"));
        let e = run(GraphKind::Exponential, 8, WeightRule::Exponential, 1);
        assert!(!e.spectrum.real);
        let svg = draw_eigenvalues(&e.spectrum).expect("svg");
        assert!(svg.contains("unit circle") && svg.contains("Im λ"));
    }
}
