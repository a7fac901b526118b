//! Charts of the `topology` view: executed time of every topology
//! algorithm against GPUs per node ([`draw_time_vs_gpus`]) and against
//! message size ([`draw_time_vs_size`]). The points come from the core's
//! sweeps (schedules executed on the topology); the charts only draw them.
//! Each line has its own colour *and* marker shape, so lines differ
//! without colour. Text goes in as it is: plotters' SVG backend escapes
//! `<`, `>`, `&` and quotes in every text it writes (a test checks it).

use plotters::prelude::*;

use super::SvgBackend;

use super::{
    err, finish_svg, frame, int_tick, mesh, plot_height, titled, top_for_legend, Axis, Legend,
    CAPTION_PX, PALETTE,
};
use crate::core::units::{format_decimal, format_time};

/// Chart size in SVG pixels (scaled to the container by [`finish_svg`]).
pub const SIZE: (u32, u32) = (760, 400);

/// Height of the x label area, px.
const X_LABELS_PX: u32 = 40;

/// One line: its label and `(x, time in seconds)` points.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Legend label (plain text; plotters escapes it in the SVG).
    pub label: String,
    /// Points, x ascending.
    pub points: Vec<(f64, f64)>,
}

fn time_tick(v: &f64) -> String {
    format_time(*v)
}

/// Time against GPUs per node (linear x), one line per algorithm.
///
/// # Errors
/// A message when there is nothing finite and positive to plot, or when
/// plotters fails.
pub fn draw_time_vs_gpus(lines: &[Line], caption: &str) -> Result<String, String> {
    draw(lines, caption, "GPUs per node", false)
}

/// Time against message size (log–log), one line per algorithm.
///
/// # Errors
/// As [`draw_time_vs_gpus`].
pub fn draw_time_vs_size(lines: &[Line], caption: &str) -> Result<String, String> {
    draw(lines, caption, "message size (bytes, log scale)", true)
}

fn draw(lines: &[Line], caption: &str, x_desc: &str, log_x: bool) -> Result<String, String> {
    let pts = || {
        lines
            .iter()
            .flat_map(|l| l.points.iter().copied())
            .filter(|(x, t)| x.is_finite() && t.is_finite() && *t > 0.0 && *x > 0.0)
    };
    let (x_lo, x_hi) = pts().fold((f64::INFINITY, 0.0f64), |(lo, hi), (x, _)| {
        (lo.min(x), hi.max(x))
    });
    let (t_lo, t_hi) = pts().fold((f64::INFINITY, 0.0f64), |(lo, hi), (_, t)| {
        (lo.min(t), hi.max(t))
    });
    if !(x_lo.is_finite() && t_lo.is_finite() && t_hi > 0.0) {
        return Err("no finite, positive times to plot".into());
    }
    let x_hi = if x_hi > x_lo { x_hi } else { x_lo + 1.0 };
    // the legend sits above the lines, in the area under the caption band
    let plot_px = plot_height(SIZE.1.saturating_sub(CAPTION_PX), X_LABELS_PX);
    let y_lo = t_lo * 0.7;
    let y_hi = top_for_legend(y_lo, t_hi * 1.15, lines.len(), plot_px, true);
    // one axis type for both charts: plotters' chart code is compiled once
    let x_axis = if log_x {
        Axis::log(x_lo, x_hi)
    } else {
        Axis::lin(x_lo, x_hi)
    };
    let size_tick = |v: &f64| format_decimal(*v);
    let x_tick: &dyn Fn(&f64) -> String = if log_x { &size_tick } else { &int_tick };
    let mut svg = String::new();
    {
        let root = SvgBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let mut keys = Legend::default();
        let area = titled(&root, caption)?;
        let mut chart = frame(&area, X_LABELS_PX, 76)
            .build_cartesian_2d(x_axis, Axis::log(y_lo, y_hi))
            .map_err(err)?;
        mesh(&mut chart, 12, 13)
            .x_desc(x_desc)
            .y_desc("executed time (log scale)")
            .x_label_formatter(x_tick)
            .y_label_formatter(&time_tick)
            .draw()
            .map_err(err)?;
        for (i, l) in lines.iter().enumerate() {
            let col = PALETTE[i % PALETTE.len()];
            let pts: Vec<(f64, f64)> = l
                .points
                .iter()
                .copied()
                .filter(|(x, t)| x.is_finite() && t.is_finite() && *t > 0.0 && *x > 0.0)
                .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), col.stroke_width(2)))
                .map_err(err)?;
            keys.add(l.label.as_str(), move |(x, y)| {
                EmptyElement::at((x + 9, y))
                    + PathElement::new([(-9, 0), (9, 0)], col.stroke_width(2))
                    + marker(i, col)
            });
            chart
                .draw_series(
                    pts.into_iter()
                        .map(|pt| EmptyElement::at(pt) + marker(i, col)),
                )
                .map_err(err)?;
        }
        keys.draw(&chart, SeriesLabelPosition::UpperLeft)?;
        root.present().map_err(err)?;
    }
    Ok(finish_svg(svg))
}

/// A marker shape per line index: circle, triangle, square, cross, diamond-ish.
fn marker<DB: DrawingBackend>(i: usize, col: RGBColor) -> DynElement<'static, DB, (i32, i32)> {
    let style = col.filled();
    match i % 5 {
        0 => Circle::new((0, 0), 4, style).into_dyn(),
        1 => super::triangle(5, style).into_dyn(),
        2 => Rectangle::new([(-4, -4), (4, 4)], style).into_dyn(),
        3 => Cross::new((0, 0), 4, col.stroke_width(2)).into_dyn(),
        _ => Circle::new((0, 0), 4, col.stroke_width(2)).into_dyn(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines() -> Vec<Line> {
        vec![
            Line {
                label: "flat ring".into(),
                points: vec![(1.0, 2e-3), (2.0, 3e-3), (4.0, 5e-3)],
            },
            Line {
                label: "a < b & c".into(),
                points: vec![(1.0, 2e-3), (2.0, 1e-3), (4.0, 5e-4)],
            },
        ]
    }

    #[test]
    fn draws_both_charts_with_escaped_labels() {
        let svg = draw_time_vs_gpus(&lines(), "time vs GPUs").expect("chart");
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("flat ring"));
        // Escaped exactly once (by plotters): no raw "<", no "&amp;lt;".
        assert!(svg.contains("a &lt; b &amp; c"), "label escaped");
        assert!(!svg.contains("a < b") && !svg.contains("&amp;lt;"));
        let svg = draw_time_vs_size(&lines(), "time vs size").expect("chart");
        assert!(svg.contains("chart"));
    }

    #[test]
    fn nothing_to_plot_is_an_error() {
        assert!(draw_time_vs_gpus(&[], "x").is_err());
        let zero = [Line {
            label: "z".into(),
            points: vec![(1.0, 0.0)],
        }];
        assert!(draw_time_vs_size(&zero, "x").is_err());
    }
}
