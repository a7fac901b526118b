//! Charts of the `measure` view (log–log, nccl-tests style):
//! - [`draw_time`]: measured time against size, the fitted model, the other
//!   models' predictions at the fitted α and β, breakpoints and crossovers;
//! - [`draw_bandwidths`]: algbw and busbw against size, with an optional line
//!   rate.
//!
//! Series labels come from the pasted log. They are clipped to printable
//! characters by [`label`], and plotters-svg 0.3.7 escapes `< > & " '` in
//! every text node and attribute it writes (`SvgBackend::escape_and_push`),
//! so no text from a log becomes markup; `tests` check this.

use plotters::prelude::*;

use super::SvgBackend;

use super::{err, finish_svg, font, frame, key, mesh, titled, Axis, Legend, FG, PALETTE};
use crate::core::measure::fit::Curves;
use crate::core::measure::Model;
use crate::core::units::decimal;
use crate::core::units::{format_bandwidth, format_decimal, format_time};

/// Chart size in SVG pixels.
pub const SIZE: (u32, u32) = (760, 420);

pub use crate::core::measure::Points;

/// A label from a log, reduced to at most 40 printable characters.
pub fn label(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).take(40).collect()
}

fn model_colour(m: Model) -> RGBColor {
    let i = Model::all().iter().position(|x| *x == m).unwrap_or(0);
    PALETTE[(i + 1) % PALETTE.len()]
}

fn bounds<'a>(it: impl Iterator<Item = &'a (f64, f64)>) -> Option<(f64, f64, f64, f64)> {
    let mut b = (f64::INFINITY, 0.0f64, f64::INFINITY, 0.0f64);
    let mut any = false;
    for &(x, y) in it {
        if x > 0.0 && y > 0.0 && x.is_finite() && y.is_finite() {
            b = (b.0.min(x), b.1.max(x), b.2.min(y), b.3.max(y));
            any = true;
        }
    }
    any.then_some(b)
}

/// Most powers of ten a log axis may span: plotters lays out the ticks of
/// every decade, so a pasted log with values from 1e-267 to 1e162 froze
/// the page (found by `tests/fuzz_params.rs`).
pub const MAX_DECADES: f64 = 40.0;

/// An error when `lo..hi` spans more than [`MAX_DECADES`] powers of ten.
fn check_span(what: &str, lo: f64, hi: f64) -> Result<(), String> {
    if hi.log10() - lo.log10() > MAX_DECADES {
        Err(format!(
            "the {what} span more than {} powers of ten ({} to {}); check the units of the log",
            decimal::shortest(MAX_DECADES),
            decimal::shortest_exp(lo),
            decimal::shortest_exp(hi)
        ))
    } else {
        Ok(())
    }
}

/// Most tick labels on an axis.
pub const MAX_TICKS: usize = 10;

/// Tick positions of a log axis over `lo..hi` (both > 0): 1, 2 and 5 times
/// the powers of ten when that gives 3 to `max` ticks, every 1–9 times a
/// power of ten on a range narrower than that (so a one-decade axis still
/// gets several labelled ticks), else powers of ten, every second, third …
/// decade when there are more than `max`. plotters' own log ticks put 9·10ᵏ
/// next to 10ᵏ⁺¹ and 10ᵏ⁺¹ twice, so the labels overlapped.
pub fn log_ticks(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return Vec::new();
    }
    let (e0, e1) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let ticks = |mantissas: &[f64], step: i32| -> Vec<f64> {
        let mut v = Vec::new();
        let mut e = e0;
        while e <= e1 {
            for m in mantissas {
                let x = m * 10f64.powi(e);
                if x >= lo && x <= hi {
                    v.push(x);
                }
            }
            e += step;
        }
        v
    };
    let v = ticks(&[1.0, 2.0, 5.0], 1);
    if v.len() > max {
        let mut step = 1;
        loop {
            let v = ticks(&[1.0], step);
            if v.len() <= max.max(2) {
                return v;
            }
            step += 1;
        }
    }
    if v.len() >= 3 {
        return v;
    }
    let v = ticks(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0], 1);
    if v.len() <= max {
        v
    } else {
        ticks(&[1.0, 2.0, 5.0], 1)
    }
}

/// `lo..hi` as a log axis with the ticks of [`log_ticks`].
fn log_axis(lo: f64, hi: f64) -> Axis {
    Axis::log_at(lo, hi, log_ticks(lo, hi, MAX_TICKS))
}

fn time_tick(v: &f64) -> String {
    format_time(*v)
}

fn size_tick(v: &f64) -> String {
    format_decimal(*v)
}

/// Log–log chart of measured time against size (one marker series per
/// table), the fitted model (solid), every model at the fitted α and β
/// (dashed), breakpoints (dotted verticals) and crossovers (labelled rings).
///
/// # Errors
/// A message when there is no positive point to plot or plotters fails.
pub fn draw_time(measured: &[Points], curves: Option<&Curves>) -> Result<String, String> {
    let (x0, x1, y0, y1) =
        bounds(measured.iter().flat_map(|s| &s.1)).ok_or("no positive size and time to plot")?;
    check_span("sizes", x0, x1)?;
    check_span("times", y0, y1)?;
    let (x0, x1) = (x0 / 1.5, x1 * 1.5);
    let (y0, y1) = (y0 / 2.0, y1 * 2.0);
    // The models at the fitted α and β differ most where the log is
    // smallest or largest, often outside the measured times: the time axis
    // reaches out to them, at most two decades beyond the data either way,
    // so each line runs across the chart instead of starting mid-way.
    let (y0, y1) = curves.map_or((y0, y1), |c| {
        c.models
            .iter()
            .flat_map(|(_, p)| p)
            .chain(&c.fitted)
            .filter(|&&(x, t)| x >= x0 && x <= x1 && t.is_finite() && t > 0.0)
            .fold((y0, y1), |(lo, hi), &(_, t)| {
                (
                    lo.min(t / 1.2).max(y0 / 100.0),
                    hi.max(t * 1.2).min(y1 * 100.0),
                )
            })
    });
    let mut svg = String::new();
    {
        let root = SvgBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let mut keys = Legend::default();
        let area = titled(&root, "Measured time vs size, with the fitted model")?;

        let mut chart = frame(&area, 40, 72)
            .build_cartesian_2d(log_axis(x0, x1), log_axis(y0, y1))
            .map_err(err)?;
        mesh(&mut chart, 12, 13)
            .x_desc("size n (bytes, log scale)")
            .y_desc("time T (log scale)")
            .x_label_formatter(&size_tick)
            .y_label_formatter(&time_tick)
            .draw()
            .map_err(err)?;
        let clip = |p: &[(f64, f64)]| -> Vec<(f64, f64)> {
            p.iter()
                .copied()
                .filter(|&(x, y)| x >= x0 && x <= x1 && y >= y0 && y <= y1)
                .collect()
        };
        if let Some(c) = curves {
            for (m, pts) in &c.models {
                let col = model_colour(*m);
                chart
                    .draw_series(DashedLineSeries::new(clip(pts), 5, 4, col.stroke_width(1)))
                    .map_err(err)?;
                keys.add(
                    format!("{} at fitted α, β", m.label()),
                    key(col.stroke_width(1)),
                );
            }
            chart
                .draw_series(LineSeries::new(clip(&c.fitted), FG.stroke_width(2)))
                .map_err(err)?;
            keys.add("fitted model", key(FG.stroke_width(2)));
            for &b in &c.breaks {
                chart
                    .draw_series(DashedLineSeries::new(
                        [(b, y0), (b, y1)],
                        2,
                        3,
                        FG.stroke_width(1),
                    ))
                    .map_err(err)?;
            }
            let font = font(11);
            for (k, x) in c
                .crossovers
                .iter()
                .filter(|x| x.n_bytes >= x0 && x.n_bytes <= x1)
                .enumerate()
            {
                let t = c
                    .models
                    .iter()
                    .find(|(m, _)| *m == x.below)
                    .and_then(|(_, pts)| {
                        pts.iter()
                            .min_by(|a, b| {
                                (a.0.ln() - x.n_bytes.ln())
                                    .abs()
                                    .total_cmp(&(b.0.ln() - x.n_bytes.ln()).abs())
                            })
                            .map(|p| p.1)
                    });
                if let Some(t) = t.filter(|t| *t >= y0 && *t <= y1) {
                    chart
                        .draw_series([EmptyElement::at((x.n_bytes, t))
                            + Circle::new((0, 0), 5, FG.stroke_width(1))
                            + Text::new(
                                format!(
                                    "{} → {}: {}",
                                    x.below.key(),
                                    x.above.key(),
                                    format_decimal(x.n_bytes)
                                ),
                                (8, 8 + 14 * k as i32),
                                font.clone(),
                            )])
                        .map_err(err)?;
                }
            }
        }
        for (i, (name, pts)) in measured.iter().enumerate() {
            let col = PALETTE[(i + 5) % PALETTE.len()];
            let shape = i;
            chart
                .draw_series(
                    clip(pts)
                        .into_iter()
                        .map(move |p| EmptyElement::at(p) + point_marker(shape, col)),
                )
                .map_err(err)?;
            keys.add(format!("measured, {}", label(name)), move |(x, y)| {
                EmptyElement::at((x + 9, y)) + point_marker(shape, col)
            });
        }
        keys.draw(&chart, SeriesLabelPosition::UpperLeft)?;
        root.present().map_err(err)?;
    }
    Ok(finish_svg(svg))
}

/// Log–log chart of algbw (markers) and busbw (line) against size for each
/// table, in B/s, with `line_rate` (B/s) as a horizontal line when given.
///
/// # Errors
/// A message when there is nothing positive to plot or plotters fails.
pub fn draw_bandwidths(
    algbw: &[Points],
    busbw: &[Points],
    line_rate: Option<f64>,
) -> Result<String, String> {
    let all = algbw.iter().chain(busbw).flat_map(|s| &s.1);
    let (x0, x1, mut y0, mut y1) = bounds(all).ok_or("no positive bandwidth to plot")?;
    if let Some(r) = line_rate.filter(|r| *r > 0.0 && r.is_finite()) {
        y0 = y0.min(r);
        y1 = y1.max(r);
    }
    check_span("sizes", x0, x1)?;
    check_span("bandwidths", y0, y1)?;
    let (x0, x1, y0, y1) = (x0 / 1.5, x1 * 1.5, y0 / 2.0, y1 * 2.0);
    let mut svg = String::new();
    {
        let root = SvgBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let mut keys = Legend::default();
        let area = titled(&root, "algbw and busbw vs size (nccl-tests definitions)")?;

        let mut chart = frame(&area, 40, 80)
            .build_cartesian_2d(log_axis(x0, x1), log_axis(y0, y1))
            .map_err(err)?;
        mesh(&mut chart, 12, 13)
            .x_desc("size n (bytes, log scale)")
            .y_desc("bandwidth (log scale)")
            .x_label_formatter(&size_tick)
            .y_label_formatter(&|v| format_bandwidth(*v))
            .draw()
            .map_err(err)?;
        for (i, (name, pts)) in algbw.iter().enumerate() {
            let col = PALETTE[(2 * i) % PALETTE.len()];
            chart
                .draw_series(
                    pts.iter()
                        .filter(|p| p.1 > 0.0)
                        .map(|&p| Circle::new(p, 3, col.filled())),
                )
                .map_err(err)?;
            keys.add(format!("algbw, {}", label(name)), move |(x, y)| {
                Circle::new((x + 9, y), 3, col.filled())
            });
        }
        for (i, (name, pts)) in busbw.iter().enumerate() {
            let col = PALETTE[(2 * i + 1) % PALETTE.len()];
            chart
                .draw_series(LineSeries::new(
                    pts.iter().copied().filter(|p| p.1 > 0.0),
                    col.stroke_width(2),
                ))
                .map_err(err)?;
            keys.add(format!("busbw, {}", label(name)), key(col.stroke_width(2)));
        }
        if let Some(r) = line_rate.filter(|r| *r > 0.0 && r.is_finite()) {
            chart
                .draw_series(DashedLineSeries::new(
                    [(x0, r), (x1, r)],
                    6,
                    4,
                    FG.stroke_width(1),
                ))
                .map_err(err)?;
            keys.add(
                format!("line rate {}", format_bandwidth(r)),
                key(FG.stroke_width(1)),
            );
        }
        keys.draw(&chart, SeriesLabelPosition::UpperLeft)?;
        root.present().map_err(err)?;
    }
    Ok(finish_svg(svg))
}

/// A measured log's point, in pixels around its place: a filled circle
/// for even `shape`, a filled triangle for odd ([`super::triangle`], drawn
/// without `cos`).
fn point_marker<DB: DrawingBackend>(
    shape: usize,
    col: RGBColor,
) -> DynElement<'static, DB, (i32, i32)> {
    if shape.is_multiple_of(2) {
        Circle::new((0, 0), 3, col.filled()).into_dyn()
    } else {
        super::triangle(4, col.filled()).into_dyn()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_text_is_escaped() {
        let evil = "<img src=x onerror=alert(1)><script>alert(2)</script>&\"".to_string();
        let pts = vec![(8.0, 1e-5), (1024.0, 2e-5), (1048576.0, 1e-3)];
        let svg = draw_time(&[(evil.clone(), pts.clone())], None).expect("chart");
        assert!(!svg.contains("<img"));
        assert!(!svg.contains("<script"));
        assert!(svg.contains("&lt;img src=x"));
        let svg = draw_bandwidths(&[(evil.clone(), pts.clone())], &[(evil, pts)], Some(1e3))
            .expect("chart");
        assert!(!svg.contains("<img") && !svg.contains("<script"));
    }

    #[test]
    fn empty_input_is_an_error_not_a_panic() {
        assert!(draw_time(&[], None).is_err());
        assert!(draw_bandwidths(&[], &[], None).is_err());
        assert!(draw_time(&[("x".into(), vec![(0.0, -1.0), (f64::NAN, 1.0)])], None).is_err());
    }

    #[test]
    fn a_range_of_hundreds_of_decades_is_refused_not_drawn() {
        // From the input fuzz: times in a wrong unit spanning 1e-267 .. 1e162
        // made plotters lay out ~430 decades of ticks (the page froze).
        let pts = vec![(8.0, 6.2e-267), (1024.0, 1e-3), (1e9, 2.8e162)];
        let e = draw_time(&[("x".into(), pts.clone())], None).expect_err("refused");
        assert!(e.contains("powers of ten"), "{e}");
        assert!(draw_bandwidths(&[("x".into(), pts)], &[], None).is_err());
        // 40 decades still draw
        assert!(draw_time(&[("x".into(), vec![(8.0, 1e-20), (1e9, 1e19)])], None).is_ok());
    }

    #[test]
    fn log_ticks_are_one_two_five_or_decades_and_never_repeat() {
        // 72-rank log: bandwidths 292–847 GB/s, axis 146 GB/s .. 1.69 TB/s.
        assert_eq!(log_ticks(146e9, 1.69e12, MAX_TICKS), vec![2e11, 5e11, 1e12]);
        // Sizes 8 B .. 1 GiB (axis 5.3 B .. 1.6 GB): decades only.
        let t = log_ticks(8.0 / 1.5, 1.5 * 1073741824.0, MAX_TICKS);
        assert_eq!(t.len(), 9);
        assert_eq!((t[0], t[8]), (10.0, 1e9));
        // 40 decades: every fifth decade, at most MAX_TICKS.
        assert!(log_ticks(1e-20, 1e20, MAX_TICKS).len() <= MAX_TICKS);
        // Inside one decade: 1–9 times the power of ten.
        assert_eq!(
            log_ticks(250.0, 900.0, MAX_TICKS),
            vec![300.0, 400.0, 500.0, 600.0, 700.0, 800.0, 900.0]
        );
        for (lo, hi) in [(5.3, 1.6e9), (146e9, 1.69e12), (3e-6, 2e-1), (1e5, 1.5e10)] {
            let labels: Vec<String> = log_ticks(lo, hi, MAX_TICKS)
                .iter()
                .map(|v| format_decimal(*v))
                .collect();
            let mut d = labels.clone();
            d.dedup();
            assert_eq!(d, labels, "repeated label");
            assert!(!labels.iter().any(|l| l.starts_with('9')), "{labels:?}");
        }
    }

    #[test]
    fn the_bandwidth_axis_of_a_narrow_log_has_three_labels_each_once() {
        let alg = vec![(536870912.0, 292.43e9), (8589934592.0, 429.37e9)];
        let bus = vec![(536870912.0, 576.74e9), (8589934592.0, 846.82e9)];
        let svg = draw_bandwidths(
            &[("in-place".into(), alg)],
            &[("in-place".into(), bus)],
            None,
        )
        .expect("chart");
        // Sizes 512 MiB .. 8 GiB: 500 MB, 1, 2, 5 and 10 GB.
        for l in ["200 GB/s", "500 GB/s", "1 TB/s", "500 MB", "1 GB", "10 GB"] {
            let n = svg.matches(&format!("\n{l}\n</text>")).count();
            assert_eq!(n, 1, "{l}");
        }
    }

    #[test]
    fn the_legend_shows_the_marker_of_each_series() {
        let pts = vec![(8.0, 1e-5), (1024.0, 2e-5), (1048576.0, 1e-3)];
        let svg = draw_time(
            &[
                ("out-of-place".into(), pts.clone()),
                ("in-place".into(), pts),
            ],
            None,
        )
        .expect("chart");
        // Three in-place triangles and one in its legend entry.
        assert_eq!(svg.matches("<polygon").count(), 4);
    }
}
