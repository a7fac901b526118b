//! Charts of the `cost` view, all from [`crate::core::cost`]:
//! - [`draw_time_vs_size`]: all-reduce time against message size (log–log,
//!   1 B to ≥ 1 GiB) for every algorithm, with the winner-changing crossovers
//!   marked and labelled and a marker at the chosen size;
//! - [`draw_time_vs_p`]: time against the number of ranks (2 to ≥ 4096) at the
//!   chosen size;
//! - [`draw_winner_map`]: the fastest algorithm over (message size × p);
//! - [`draw_nccl_map`]: NCCL's pick (algorithm, protocol) over the same axes.
//!
//! Each series uses `PALETTE[slot(algorithm)]` (its place in
//! [`Algorithm::compared`]), so an algorithm has the same
//! colour in every chart and in the view's table.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::SvgBackend;

use super::{err, finish_svg, font, frame, int_tick, key, mesh, titled, Axis, Legend, FG, PALETTE};
use crate::core::collectives::compare::{
    best_at, envelope_crossovers, log_sizes, sweep_ranks, sweep_sizes,
};
use crate::core::collectives::Algorithm;
use crate::core::cost::nccl_tune::{pick_grid, Func, Inputs};
use crate::core::cost::CostParams;
use crate::core::units::{both_prefixes, format_decimal, format_time};

/// Chart size in SVG pixels (scaled to the container by [`finish_svg`]).
pub const SIZE: (u32, u32) = (760, 420);

/// Smallest message size plotted: 1 B.
pub const MIN_SIZE: f64 = 1.0;
/// Largest message size plotted unless the chosen size is larger: 4 GiB.
pub const MAX_SIZE: f64 = 4.0 * 1_073_741_824.0;
/// Largest p plotted unless the chosen p is larger.
pub const MAX_P: usize = 4096;

/// The colour of an algorithm in every chart.
pub fn colour(a: Algorithm) -> RGBColor {
    PALETTE[slot(a) % PALETTE.len()]
}

/// Place of `a` in [`Algorithm::compared`] (the last palette entry for an
/// algorithm the cost view does not compare).
fn slot(a: Algorithm) -> usize {
    a.compared_index().unwrap_or(PALETTE.len() - 1)
}

/// CSS hex colour of an algorithm (for legends and tables outside plotters).
pub fn colour_hex(a: Algorithm) -> String {
    let RGBColor(r, g, b) = colour(a);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// A size tick label: decimal prefixes at powers of ten ("1 kB", "10 MB").
fn size_tick(v: &f64) -> String {
    format_decimal(*v)
}

/// A time tick label ("1.000 µs" → "1 µs").
fn time_tick(v: &f64) -> String {
    let t = format_time(*v);
    match t.split_once(' ') {
        Some((num, unit)) if num.contains('.') => {
            format!("{} {unit}", num.trim_end_matches('0').trim_end_matches('.'))
        }
        _ => t,
    }
}

/// Both prefix systems where they differ: "117.6 kB = 114.9 KiB"
/// ([`both_prefixes`]).
fn both_systems(n: f64) -> String {
    match both_prefixes(n) {
        (d, Some(b)) => format!("{d} = {b}"),
        (d, None) => d,
    }
}

fn validate(c: CostParams) -> Result<(), String> {
    let ok = c.alpha >= 0.0
        && c.beta > 0.0
        && c.gamma >= 0.0
        && c.alpha.is_finite()
        && c.beta.is_finite()
        && c.gamma.is_finite();
    if !ok {
        return Err("α must be ≥ 0 and β > 0 (finite) to draw the cost charts".into());
    }
    Ok(())
}

fn message(root: &DrawingArea<SvgBackend, Shift>, text: &str) -> Result<(), String> {
    root.draw(&Text::new(text.to_string(), (40, 180), font(16)))
        .map_err(err)
}

/// The y range of a time chart, from half the fastest to four times the
/// slowest time in `times`; `None` when that is not a positive, finite range.
fn time_span(times: &[Vec<f64>]) -> Option<(f64, f64)> {
    let (t_lo, t_hi) = times
        .iter()
        .flatten()
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), &t| {
            (lo.min(t), hi.max(t))
        });
    let (y_lo, y_hi) = (t_lo * 0.5, t_hi * 4.0);
    (y_lo > 0.0 && y_hi.is_finite()).then_some((y_lo, y_hi))
}

/// A time chart that only says there is nothing to plot.
fn nothing_to_plot() -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SvgBackend::with_string(&mut svg, SIZE).into_drawing_area();
        message(&root, "The times are zero or unbounded: nothing to plot.")?;
        root.present().map_err(err)?;
    }
    Ok(finish_svg(svg))
}

/// The chosen point of a time chart: its x, the p and the size n (bytes) at
/// which each algorithm's time is marked, and the label written at the top.
struct Chosen {
    x: f64,
    p: usize,
    n: f64,
    label: String,
}

/// One line per compared algorithm through `(xs[i], times[i][slot])`, then
/// the chosen x as a dashed vertical line, a dot per algorithm at its time
/// for (`chosen.p`, `chosen.n`) and `chosen.label` at the top.
fn draw_curves<'b>(
    chart: &mut ChartContext<'_, SvgBackend<'b>, Cartesian2d<Axis, Axis>>,
    xs: &[f64],
    times: &[Vec<f64>],
    (y_lo, y_hi): (f64, f64),
    keys: &mut Legend<'b, SvgBackend<'b>>,
    c: CostParams,
    chosen: Chosen,
) -> Result<(), String> {
    for &a in Algorithm::compared() {
        let col = colour(a);
        let pts: Vec<(f64, f64)> = xs
            .iter()
            .zip(times)
            .map(|(&x, t)| (x, t[slot(a)]))
            .collect();
        chart
            .draw_series(LineSeries::new(pts, col.stroke_width(2)))
            .map_err(err)?;
        keys.add(a.short_label(), key(col.stroke_width(2)));
    }
    let x = chosen.x;
    chart
        .draw_series(DashedLineSeries::new(
            [(x, y_lo), (x, y_hi)],
            4,
            4,
            FG.stroke_width(1),
        ))
        .map_err(err)?;
    chart
        .draw_series(Algorithm::compared().iter().map(|&a| {
            let (i, s) = a.line(chosen.p, c);
            Circle::new((x, i + s * chosen.n), 4, colour(a).filled())
        }))
        .map_err(err)?;
    chart
        .draw_series([EmptyElement::at((x, y_hi)) + Text::new(chosen.label, (4, 4), font(12))])
        .map_err(err)?;
    Ok(())
}

/// The x axis of a [`time_chart`]: log scale over `x_range`.
struct TimeAxis<'f> {
    caption: String,
    x_range: (f64, f64),
    x_desc: &'static str,
    x_tick: &'f dyn Fn(&f64) -> String,
}

/// A log–log time chart: one curve per compared algorithm (`times[i][a]` at
/// `xs[i]`), the `chosen` point marked, then `extra` drawn on top and the
/// legend; the "nothing to plot" chart when the times are zero or unbounded.
fn time_chart(
    axis: &TimeAxis<'_>,
    xs: &[f64],
    times: &[Vec<f64>],
    c: CostParams,
    chosen: Chosen,
    extra: impl FnOnce(&mut LogLogChart<'_, '_>) -> Result<(), String>,
) -> Result<String, String> {
    let Some((y_lo, y_hi)) = time_span(times) else {
        return nothing_to_plot();
    };
    let (x_lo, x_hi) = axis.x_range;
    let mut svg = String::new();
    {
        let root = SvgBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let mut keys = Legend::default();
        let area = titled(&root, axis.caption.as_str())?;

        let mut chart = frame(&area, 40, 72)
            .build_cartesian_2d(Axis::log_plain(x_lo, x_hi), Axis::log_plain(y_lo, y_hi))
            .map_err(err)?;
        mesh(&mut chart, 12, 13)
            .x_desc(axis.x_desc)
            .y_desc("time T (seconds, log scale)")
            .x_label_formatter(axis.x_tick)
            .y_label_formatter(&time_tick)
            .draw()
            .map_err(err)?;
        draw_curves(&mut chart, xs, times, (y_lo, y_hi), &mut keys, c, chosen)?;
        extra(&mut chart)?;
        keys.draw(&chart, SeriesLabelPosition::UpperLeft)?;
        root.present().map_err(err)?;
    }
    Ok(finish_svg(svg))
}

/// A chart with log scales on both axes.
type LogLogChart<'a, 'b> = ChartContext<'a, SvgBackend<'b>, Cartesian2d<Axis, Axis>>;

/// Log–log chart of all-reduce time against message size for every algorithm
/// at `p` ranks: sizes from 1 B to `max(4 GiB, 4·n_chosen)`, the crossovers
/// where the fastest algorithm changes marked and labelled with their size in
/// both prefix systems, and a marker at `n_chosen` bytes.
///
/// # Errors
/// A message when `p < 2`, α < 0, β ≤ 0, `n_chosen` is not positive, or
/// plotters fails.
pub fn draw_time_vs_size(p: usize, c: CostParams, n_chosen: f64) -> Result<String, String> {
    validate(c)?;
    if p < 2 {
        return Err("the cost charts need p ≥ 2".into());
    }
    if !(n_chosen > 0.0 && n_chosen.is_finite()) {
        return Err("the chosen size must be positive".into());
    }
    let hi = MAX_SIZE.max(4.0 * n_chosen);
    let sizes = log_sizes(MIN_SIZE, hi, 240);
    let times = sweep_sizes(p, &sizes, c);
    let axis = TimeAxis {
        caption: format!("All-reduce time vs message size, p = {p}"),
        x_range: (MIN_SIZE, hi),
        x_desc: "message size n (bytes, log scale)",
        x_tick: &size_tick,
    };
    // The chosen size: a vertical line and a point on every curve.
    let chosen = Chosen {
        x: n_chosen,
        p,
        n: n_chosen,
        label: format!("n = {}", both_systems(n_chosen)),
    };
    time_chart(&axis, &sizes, &times, c, chosen, |chart| {
        let font = font(12);
        // Crossovers where the winner changes.
        let xs: Vec<_> = envelope_crossovers(p, c)
            .into_iter()
            .filter(|x| x.n_bytes >= MIN_SIZE && x.n_bytes <= hi)
            .collect();
        for (k, x) in xs.iter().enumerate() {
            let label = format!(
                "{} → {}: {}",
                x.below.key(),
                x.above.key(),
                both_systems(x.n_bytes)
            );
            chart
                .draw_series([EmptyElement::at((x.n_bytes, x.time))
                    + Circle::new((0, 0), 6, FG.stroke_width(2))
                    + Text::new(label, (10, 10 + 16 * k as i32), font.clone())])
                .map_err(err)?;
        }
        Ok(())
    })
}

/// Rank counts for the p axis: every power of two from 2 to `hi`, plus about
/// `count` log-spaced integers in between (sorted, without duplicates).
pub fn rank_axis(hi: usize, count: usize) -> Vec<usize> {
    let hi = hi.max(2);
    let mut ps: Vec<usize> = log_sizes(2.0, hi as f64, count.max(2))
        .into_iter()
        .map(|v| (v.round() as usize).clamp(2, hi))
        .collect();
    let mut q = 2usize;
    while q <= hi {
        ps.push(q);
        q *= 2;
    }
    ps.push(hi);
    crate::core::order::sort_usize(&mut ps);
    ps.dedup();
    ps
}

/// Time against the number of ranks p (2 to `max(4096, p_chosen)`, log scale
/// on both axes) for every algorithm at `n_bytes`, with a marker at
/// `p_chosen`. Non-powers of two are plotted too, so the fold-in / unfold
/// adaptation of recursive doubling and Rabenseifner shows as a saw-tooth.
///
/// # Errors
/// A message when α < 0, β ≤ 0, `n_bytes` is not positive or plotters fails.
pub fn draw_time_vs_p(n_bytes: f64, c: CostParams, p_chosen: usize) -> Result<String, String> {
    validate(c)?;
    if !(n_bytes > 0.0 && n_bytes.is_finite()) {
        return Err("the chosen size must be positive".into());
    }
    let p_hi = MAX_P.max(p_chosen);
    let ps = rank_axis(p_hi, 400);
    let times = sweep_ranks(&ps, n_bytes, c);
    let axis = TimeAxis {
        caption: format!("All-reduce time vs ranks, n = {}", both_systems(n_bytes)),
        x_range: (2.0, p_hi as f64),
        x_desc: "ranks p (log scale)",
        x_tick: &int_tick,
    };
    let xs: Vec<f64> = ps.iter().map(|&p| p as f64).collect();
    let chosen = Chosen {
        x: p_chosen.max(2) as f64,
        p: p_chosen.max(2),
        n: n_bytes,
        label: format!("p = {}", p_chosen.max(2)),
    };
    time_chart(&axis, &xs, &times, c, chosen, |_| Ok(()))
}

/// Cell edges for a log axis through `centres`: geometric midpoints, with the
/// outer edges at the first and last centre.
fn log_edges(centres: &[f64]) -> Vec<f64> {
    let mut e = Vec::with_capacity(centres.len() + 1);
    if let Some(&first) = centres.first() {
        e.push(first);
    }
    for w in centres.windows(2) {
        e.push((w[0] * w[1]).sqrt());
    }
    if let Some(&last) = centres.last() {
        e.push(last);
    }
    e
}

/// The winner map: over message sizes 1 B .. `max(4 GiB, 4·n_chosen)` (x, log)
/// and ranks 2 .. `max(4096, p_chosen)` (y, log), each cell coloured by the
/// fastest algorithm there; a legend names the colours, and a ring marks
/// (`n_chosen`, `p_chosen`). Runs of equal cells in a row are drawn as one
/// rectangle, which keeps the SVG small.
///
/// # Errors
/// A message when α < 0, β ≤ 0, `n_chosen` is not positive or plotters fails.
pub fn draw_winner_map(c: CostParams, n_chosen: f64, p_chosen: usize) -> Result<String, String> {
    validate(c)?;
    if !(n_chosen > 0.0 && n_chosen.is_finite()) {
        return Err("the chosen size must be positive".into());
    }
    let hi = MAX_SIZE.max(4.0 * n_chosen);
    let p_hi = MAX_P.max(p_chosen);
    let sizes = log_sizes(MIN_SIZE, hi, 160);
    let ps = rank_axis(p_hi, 90);
    let grid: Vec<Vec<Option<usize>>> = ps
        .iter()
        .map(|&p| {
            sizes
                .iter()
                .map(|&n| Some(slot(best_at(p, n, c))))
                .collect()
        })
        .collect();
    let legend: Vec<(&str, RGBColor)> = Algorithm::compared()
        .iter()
        .map(|&a| (a.short_label(), colour(a)))
        .collect();
    let map = WinnerMap {
        title: "Fastest all-reduce by message size and ranks",
        hi,
        p_hi,
        sizes: &sizes,
        ps: &ps,
        grid: &grid,
        legend: &legend,
    };
    map.draw(n_chosen, p_chosen)
}

/// A map of sizes (x) × ranks (y) whose cells are coloured by a legend
/// slot (`None`: no cell).
struct WinnerMap<'a> {
    title: &'a str,
    hi: f64,
    p_hi: usize,
    sizes: &'a [f64],
    ps: &'a [usize],
    grid: &'a [Vec<Option<usize>>],
    legend: &'a [(&'a str, RGBColor)],
}

impl WinnerMap<'_> {
    fn draw(&self, n_chosen: f64, p_chosen: usize) -> Result<String, String> {
        let (sizes, ps, hi, p_hi) = (self.sizes, self.ps, self.hi, self.p_hi);
        let x_edges = log_edges(sizes);
        let pf: Vec<f64> = ps.iter().map(|&p| p as f64).collect();
        let y_edges = log_edges(&pf);
        let mut svg = String::new();
        {
            let root = SvgBackend::with_string(&mut svg, SIZE).into_drawing_area();
            let area = titled(&root, self.title)?;

            let mut chart = frame(&area, 40, 56)
                .margin_right(172)
                .build_cartesian_2d(
                    Axis::log_plain(MIN_SIZE, hi),
                    Axis::log_plain(2.0, p_hi as f64),
                )
                .map_err(err)?;
            let mut seen = vec![false; self.legend.len()];
            let mut rects = Vec::new();
            for (j, row) in self.grid.iter().enumerate() {
                let (y0, y1) = (y_edges[j], y_edges[j + 1]);
                let mut start = 0usize;
                let mut current = row.first().copied().flatten();
                for i in 1..=sizes.len() {
                    let next = row.get(i).copied();
                    if next != Some(current) {
                        if let Some(k) = current {
                            seen[k] = true;
                            rects.push(Rectangle::new(
                                [(x_edges[start], y0), (x_edges[i], y1)],
                                self.legend[k].1.filled(),
                            ));
                        }
                        start = i;
                        if let Some(n) = next {
                            current = n;
                        }
                    }
                }
            }
            chart.draw_series(rects).map_err(err)?;
            mesh(&mut chart, 12, 13)
                .x_desc("message size n (bytes, log scale)")
                .y_desc("ranks p (log scale)")
                .x_label_formatter(&size_tick)
                .y_label_formatter(&int_tick)
                .draw()
                .map_err(err)?;
            // Legend: one swatch per slot, "(never fastest)" when absent.
            let font = font(12);
            for (k, &(label, col)) in self.legend.iter().enumerate() {
                let text = if seen[k] {
                    label.to_string()
                } else {
                    format!("{label} (never fastest)")
                };
                let y = 40 + 20 * k as i32;
                let x = SIZE.0 as i32 - 166;
                root.draw(
                    &(EmptyElement::at((x, y))
                        + Rectangle::new([(0, -6), (12, 6)], col.filled())
                        + Text::new(text, (18, -6), font.clone())),
                )
                .map_err(err)?;
            }
            let pc = p_chosen.max(2) as f64;
            chart
                .draw_series([EmptyElement::at((n_chosen, pc))
                    + Circle::new((0, 0), 7, FG.stroke_width(2))
                    + Circle::new((0, 0), 2, FG.filled())
                    + Text::new(
                        format!("{}, p = {}", both_systems(n_chosen), p_chosen.max(2)),
                        (9, -16),
                        font.clone(),
                    )])
                .map_err(err)?;
            root.present().map_err(err)?;
        }
        // Crisp cell edges: no anti-aliasing seams between adjacent cells.
        Ok(finish_svg(svg).replace("<rect ", "<rect shape-rendering=\"crispEdges\" "))
    }
}

/// NCCL's (algorithm, protocol) labels of the NCCL winner map, in its
/// order: Tree/LL, Tree/LL128, Tree/Simple, Ring/LL, Ring/LL128, Ring/Simple.
pub const NCCL_CELLS: [&str; 6] = [
    "Tree/LL",
    "Tree/LL128",
    "Tree/Simple",
    "Ring/LL",
    "Ring/LL128",
    "Ring/Simple",
];

/// The colour of NCCL's (algorithm, protocol) cell `k` (see [`NCCL_CELLS`]).
pub fn nccl_colour_hex(k: usize) -> String {
    let c = PALETTE[k % PALETTE.len()];
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// NCCL's pick over message sizes (x) and ranks 2 .. `max(64, 2·p_chosen)`
/// (y), each cell coloured by the (algorithm, protocol) its tuning model
/// picks ([`crate::core::cost::nccl_tune::pick_grid`] of `inputs_at`, the
/// inputs at each rank count); a ring marks the chosen size and p.
///
/// # Errors
/// A message when `n_chosen` is not positive or plotters fails.
pub fn draw_nccl_map(
    inputs_at: &dyn Fn(usize) -> Inputs,
    n_chosen: f64,
    p_chosen: usize,
) -> Result<String, String> {
    if !(n_chosen > 0.0 && n_chosen.is_finite()) {
        return Err("the chosen size must be positive".into());
    }
    let (sizes, ps) = nccl_axes(n_chosen, p_chosen);
    let grid = pick_grid(inputs_at, Func::AllReduce, &sizes, &ps);
    let legend: Vec<(&str, RGBColor)> = NCCL_CELLS
        .iter()
        .enumerate()
        .map(|(k, &l)| (l, PALETTE[k]))
        .collect();
    let map = WinnerMap {
        title: "NCCL's pick by message size and ranks (all-reduce)",
        hi: *sizes.last().unwrap_or(&MAX_SIZE),
        p_hi: *ps.last().unwrap_or(&2),
        sizes: &sizes,
        ps: &ps,
        grid: &grid,
        legend: &legend,
    };
    map.draw(n_chosen, p_chosen)
}

/// The axes of the NCCL map: sizes 1 B .. `max(4 GiB, 4·n)` (160 points)
/// and ranks 2 .. `max(64, 2·p)` (40 points).
pub fn nccl_axes(n_chosen: f64, p_chosen: usize) -> (Vec<f64>, Vec<usize>) {
    let hi = MAX_SIZE.max(4.0 * n_chosen);
    (
        log_sizes(MIN_SIZE, hi, 160),
        rank_axis((2 * p_chosen).max(64), 40),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_vs_size_has_curves_crossover_and_marker() {
        let svg =
            draw_time_vs_size(16, CostParams::course_example(), 8192.0).expect("draws the chart");
        assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
        assert!(svg.len() > 5000);
        for label in [
            "ring",
            "binomial tree",
            "recursive doubling",
            "Rabenseifner",
            "naive root",
            "message size n (bytes, log scale)",
            "time T (seconds, log scale)",
            // The rd/Rabenseifner crossover: 117,647 B.
            "rd → rab: 117.6 kB = 114.9 KiB",
            "n = 8.192 kB = 8 KiB",
            "currentColor",
        ] {
            assert!(svg.contains(label), "missing {label}");
        }
        // Axis ticks carry units.
        assert!(svg.contains("1 GB") && svg.contains("1 kB"));
        assert!(svg.contains("µs") && svg.contains("ms"));
        assert!(!svg.contains("#010203"));
    }

    #[test]
    fn time_vs_p_spans_2_to_4096() {
        let svg = draw_time_vs_p(67_108_864.0, CostParams::course_example(), 1024)
            .expect("draws the chart");
        for label in [
            "ranks p (log scale)",
            "time T (seconds, log scale)",
            "p = 1024",
            "n = 67.11 MB = 64 MiB",
            "Rabenseifner",
        ] {
            assert!(svg.contains(label), "missing {label}");
        }
        assert_eq!(rank_axis(4096, 50).first(), Some(&2));
        assert_eq!(rank_axis(4096, 50).last(), Some(&4096));
        assert!(rank_axis(4096, 50).contains(&1024));
        assert!(rank_axis(4096, 400).contains(&3));
    }

    #[test]
    fn winner_map_has_legend_and_chosen_point() {
        let svg = draw_winner_map(CostParams::course_example(), 8192.0, 16).expect("draws the map");
        for label in [
            "Fastest all-reduce by message size and ranks",
            "recursive doubling",
            "Rabenseifner",
            // With α = 5 µs, β = 0.08 ns/B the ring never beats Rabenseifner
            // at powers of two, but can at non-powers of two.
            "naive root (never fastest)",
            "8 KiB, p = 16",
            "ranks p (log scale)",
            "message size n (bytes, log scale)",
        ] {
            assert!(svg.contains(label), "missing {label}");
        }
        // Run-length encoding keeps the map small.
        assert!(svg.len() < 400_000, "{} bytes", svg.len());
        assert!(
            svg.contains(&colour_hex(Algorithm::RD).to_uppercase())
                || svg.contains(&colour_hex(Algorithm::RD))
        );
    }

    #[test]
    fn bad_parameters_give_messages_not_panics() {
        let zero_beta = CostParams::new(1e-6, 0.0);
        assert!(draw_time_vs_size(16, zero_beta, 8192.0).is_err());
        assert!(draw_time_vs_size(1, CostParams::course_example(), 8192.0).is_err());
        assert!(draw_time_vs_size(16, CostParams::course_example(), 0.0).is_err());
        assert!(draw_time_vs_p(f64::NAN, CostParams::course_example(), 16).is_err());
        assert!(draw_winner_map(CostParams::new(-1.0, 1e-9), 8192.0, 16).is_err());
        // α = 0 is fine (course §6).
        assert!(draw_time_vs_size(4, CostParams::new(0.0, 8e-11), 1e8).is_ok());
    }
}
