//! Charts drawn with plotters into SVG strings (one free function per chart,
//! `draw_*(...) -> Result<String, String>`). They compile natively, so tests
//! and benchmarks can render them without a browser.
//!
//! Colours: draw text, axes and grid with [`FG`] / [`GRID`]; [`finish_svg`]
//! rewrites them to `currentColor`, so a chart follows the page's light or
//! dark theme. Series use the colour-blind-safe [`PALETTE`] (Okabe & Ito 2008).
//!
//! One chart shape: every chart is a themed `frame` (margins and label
//! areas), a themed `mesh` (grid, axes, tick and description fonts), its
//! series with `key` legend swatches, and the themed `Legend`. These
//! helpers are shared, so plotters' generic chart code is instantiated once
//! per coordinate type rather than once per chart.

use crate::core::units::decimal;
use plotters::chart::{ChartBuilder, ChartContext, MeshStyle, SeriesLabelPosition};
use plotters::coord::combinators::{IntoLogRange, LogCoord};
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::{CoordTranslate, Shift};
use plotters::drawing::{DrawingArea, DrawingAreaErrorKind};
use plotters::element::{DynElement, IntoDynElement, PathElement, Polygon, Rectangle, Text};
use plotters::prelude::{Cartesian2d, DrawingBackend, IntoFont, TextStyle};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontFamily, RGBColor, ShapeStyle, TRANSPARENT};

pub mod collectives;
pub mod cost;
pub mod gossip;
pub mod measure;
pub mod ring;
pub mod sgd;
pub mod step;
pub mod svg;
pub mod topology;

pub use svg::SvgBackend;

/// Sentinel foreground colour, replaced by `currentColor` in [`finish_svg`].
pub const FG: RGBColor = RGBColor(1, 2, 3);
/// Sentinel grid colour, replaced by a translucent `currentColor`.
pub const GRID: RGBColor = RGBColor(4, 5, 6);

/// Okabe–Ito colour-blind-safe palette (black omitted).
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xF0, 0xE4, 0x42),
];

/// `s` with `&`, `<`, `>` and `"` escaped, for SVG text and attribute
/// values written by hand.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A filled triangle marker, point up, with its vertices `size` px from
/// the origin (backend pixels; compose it with `EmptyElement::at`): the
/// shape of plotters' `TriangleMarker`, whose vertices sit at 90°, 210° and
/// 330°, with cos 30° = √3/2 written out. `TriangleMarker` computes them
/// with `cos` and `sin` at every draw, which links the trigonometric
/// functions and their argument reduction (2.6 KB gzipped on the topology
/// page). No page draws `TriangleMarker` any more: the normal samples
/// ([`crate::core::rng::SplitMix64::normal`]) need no cosine either.
pub fn triangle(size: i32, style: ShapeStyle) -> Polygon<(i32, i32)> {
    let s = f64::from(size);
    let dx = (s * 0.866_025_403_784_438_6).round() as i32;
    let dy = (s * 0.5).round() as i32;
    Polygon::new(vec![(0, -size), (-dx, dy), (dx, dy)], style)
}

/// Replaces the sentinel colours with `currentColor` so the SVG adapts to the
/// theme, and makes the SVG scale to its container width.
///
/// Only quoted attribute values are rewritten (`stroke="#010203"`): plotters
/// escapes `"` in text as `&quot;`, so a label that happens to contain
/// `#010203` is left as it was.
pub fn finish_svg(svg: String) -> String {
    svg.replace("\"#010203\"", "\"currentColor\"")
        .replace("\"#040506\"", "\"currentColor\" stroke-opacity=\"0.18\"")
        .replacen(
            "<svg ",
            "<svg class=\"chart\" preserveAspectRatio=\"xMidYMid meet\" ",
            1,
        )
}

/// One chart from two layers drawn on the same size and coordinates: the
/// shapes of `marks` (an SVG from [`finish_svg`], or `""` for none) are
/// appended to those of `base`, as if one drawing had drawn both in turn.
/// A view shows the layers stacked instead, so a step that moves only the
/// marks replaces only their SVG; a download takes this one chart.
pub fn stack(base: &str, marks: &str) -> String {
    let inner = marks
        .find('>')
        .zip(marks.rfind("</svg>"))
        .and_then(|(open, close)| marks.get(open + 1..close));
    match (inner, base.rfind("</svg>")) {
        (Some(inner), Some(close)) => {
            format!(
                "{}{}{}",
                &base[..close],
                inner.trim_start_matches('\n'),
                &base[close..]
            )
        }
        _ => base.to_string(),
    }
}

/// A chart error as the message shown at the UI edge.
///
/// The SVG backend draws into a `String`, so its I/O error cannot happen;
/// it (and a font error, which this backend does not raise) is named,
/// not formatted, which keeps `std::io::Error`'s messages (one
/// per error kind) out of every page's binary.
pub(crate) fn err<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> String {
    match e {
        DrawingAreaErrorKind::BackendError(_) => "the SVG backend failed (text or drawing)".into(),
        DrawingAreaErrorKind::SharingError => "the drawing area is shared".into(),
        DrawingAreaErrorKind::LayoutError => "the chart layout failed".into(),
    }
}

/// A linear or logarithmic axis in one type. A chart's code is compiled once
/// per coordinate type, so charts that differ only in an axis scale share
/// one copy when they use this type. Every method is the wrapped axis's own,
/// except that a log axis thins plotters' ticks ([`thin_log_ticks`]).
pub(crate) enum Axis {
    Lin(RangedCoordf64),
    Log(LogCoord<f64>),
    /// A log axis with plotters' own ticks, unthinned.
    LogPlain(LogCoord<f64>),
    /// A log axis with the given ticks.
    LogAt(LogCoord<f64>, Vec<f64>),
}

impl Axis {
    /// A linear axis from `lo` to `hi`.
    pub(crate) fn lin(lo: f64, hi: f64) -> Axis {
        Axis::Lin((lo..hi).into())
    }

    /// A logarithmic axis from `lo` to `hi` (both positive).
    pub(crate) fn log(lo: f64, hi: f64) -> Axis {
        Axis::Log((lo..hi).log_scale().into())
    }

    /// A logarithmic axis from `lo` to `hi` with every tick plotters picks.
    pub(crate) fn log_plain(lo: f64, hi: f64) -> Axis {
        Axis::LogPlain((lo..hi).log_scale().into())
    }

    /// A logarithmic axis from `lo` to `hi` ticked at `ticks` (plotters'
    /// `with_key_points`, bold points only).
    pub(crate) fn log_at(lo: f64, hi: f64, ticks: Vec<f64>) -> Axis {
        Axis::LogAt((lo..hi).log_scale().into(), ticks)
    }

    fn coord(&self) -> Result<&RangedCoordf64, &LogCoord<f64>> {
        match self {
            Axis::Lin(c) => Ok(c),
            Axis::Log(c) | Axis::LogPlain(c) | Axis::LogAt(c, _) => Err(c),
        }
    }
}

impl Ranged for Axis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        match self.coord() {
            Ok(c) => c.map(value, limit),
            Err(c) => c.map(value, limit),
        }
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        match self {
            Axis::Lin(c) => c.key_points(hint),
            Axis::Log(c) => thin_log_ticks(c.key_points(hint)),
            Axis::LogPlain(c) => c.key_points(hint),
            Axis::LogAt(_, t) if !hint.weight().allow_light_points() => t.clone(),
            Axis::LogAt(..) => Vec::new(),
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        match self.coord() {
            Ok(c) => c.range(),
            Err(c) => c.range(),
        }
    }

    fn axis_pixel_range(&self, limit: (i32, i32)) -> std::ops::Range<i32> {
        match self.coord() {
            Ok(c) => c.axis_pixel_range(limit),
            Err(c) => c.axis_pixel_range(limit),
        }
    }
}

/// A tick label where a chart sets no formatter of its own: the shortest
/// text of the value (through the app's one number formatter, not
/// plotters' pretty-printer, which would link a second float formatter).
impl ValueFormatter<f64> for Axis {
    fn format(value: &f64) -> String {
        decimal::shortest(*value)
    }
}

/// The ticks of a log axis at 1, 2 and 5 times a power of ten, from the
/// ticks plotters chose. When plotters' log axis has room for more than its
/// powers of ten it ticks every 1, 2, …, 9 × 10^k, and the tick of the next
/// power twice; on a short axis those crowd into overlapping labels (9, 8,
/// 7 ms a few pixels apart). Powers of ten alone are kept as they are.
fn thin_log_ticks(ticks: Vec<f64>) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::with_capacity(ticks.len());
    for v in ticks {
        let mantissa = v / 10f64.powf(v.log10().floor());
        let kept = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .any(|m| (mantissa - m).abs() <= 1e-9 * m);
        let repeated = out.last().is_some_and(|&u| (v - u).abs() <= 1e-9 * v.abs());
        if kept && !repeated {
            out.push(v);
        }
    }
    out
}

/// The top of a y axis from `lo` to `hi` raised so that a [`Legend`] of
/// `lines` series at the top of a plotting area `plot_px` pixels tall sits
/// above every point: the data keep the lower part of the area. On a log
/// axis (`log`) the headroom is a share of the decades, on a linear one of
/// the span. The legend takes at most half the height.
pub(crate) fn top_for_legend(lo: f64, hi: f64, lines: usize, plot_px: u32, log: bool) -> f64 {
    // the box, plus the 5 px it sits from the top and 5 px of air below it
    let legend = f64::from(legend_height(lines).saturating_add(10));
    let share = (legend / f64::from(plot_px.max(1))).min(0.5);
    let grow = share / (1.0 - share);
    if log {
        (hi.ln() + (hi.ln() - lo.ln()) * grow).exp()
    } else {
        hi + (hi - lo) * grow
    }
}

/// The chart font: sans-serif at `size` px in the theme colour [`FG`].
/// Named by its [`FontFamily`] variant: plotters' `From<&str>` would
/// lower-case the name and link the Unicode case tables into every binary
/// that draws a chart.
pub(crate) fn font(size: u32) -> TextStyle<'static> {
    (FontFamily::SansSerif, size).into_font().color(&FG)
}

/// The margin of a chart [`frame`] on every side, px.
const FRAME_MARGIN_PX: u32 = 12;

/// The chart frame on `root`: a 12 px margin and label areas of `x_area`
/// (below) and `y_area` (left) pixels; the caller adds a caption or margins.
pub(crate) fn frame<'a, 'b>(
    root: &'a DrawingArea<SvgBackend<'b>, Shift>,
    x_area: u32,
    y_area: u32,
) -> ChartBuilder<'a, 'b, SvgBackend<'b>> {
    let mut b = ChartBuilder::on(root);
    b.margin(FRAME_MARGIN_PX)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area);
    b
}

/// Height of the plotting area of a [`frame`] drawn on an area `area_h`
/// pixels tall with an x label area of `x_area` pixels: the area less the
/// two margins and the labels (before the chart is built, e.g. for
/// [`top_for_legend`]).
pub(crate) fn plot_height(area_h: u32, x_area: u32) -> u32 {
    area_h.saturating_sub(2 * FRAME_MARGIN_PX + x_area)
}

/// Height of the band a chart caption takes above the frame, px: the 15 px
/// caption with 5 px above and a little below, as plotters' `caption`.
pub(crate) const CAPTION_PX: u32 = 28;

/// Draws `caption` (15 px, centred) at the top of `root`, below where
/// [`frame`]'s 12 px margin starts, and returns the area under it for
/// [`frame`]. Not plotters' `ChartBuilder::caption`: in a browser that
/// measures the caption by adding it to the page, a forced layout of the
/// whole page per chart.
///
/// # Errors
/// A message when plotters fails.
pub(crate) fn titled<'b>(
    root: &DrawingArea<SvgBackend<'b>, Shift>,
    caption: &str,
) -> Result<DrawingArea<SvgBackend<'b>, Shift>, String> {
    let (w, _) = root.dim_in_pixel();
    let centre = i32::try_from(w / 2).unwrap_or(0);
    let style = font(15).pos(Pos::new(HPos::Center, VPos::Top));
    root.draw(&Text::new(caption, (centre, 17), &style))
        .map_err(err)?;
    Ok(root.split_vertically(CAPTION_PX).1)
}

/// The themed mesh of `chart`: grid lines in [`GRID`], no light lines, axes
/// in [`FG`], tick labels at `label` px and axis descriptions at `desc` px.
/// The caller sets the descriptions and formatters and draws it.
pub(crate) fn mesh<'a, 'b, X, Y, DB>(
    chart: &'b mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    label: u32,
    desc: u32,
) -> MeshStyle<'a, 'b, X, Y, DB>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
    DB: DrawingBackend,
{
    let mut m = chart.configure_mesh();
    m.bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .axis_style(FG)
        .label_style(font(label))
        .axis_desc_style(font(desc));
    m
}

/// Estimated width of one character of a legend label, px. plotters' SVG
/// backend writes a 12 px font as 12 / 1.24 ≈ 9.7 px; sans-serif letters
/// and digits average about 0.5 em of that, so 0.54 em ≈ 5.2 px leaves a
/// little room (the box has 10 px of padding on each side as well).
const LEGEND_CHAR_PX: f64 = 5.2;
/// Height of a legend line, px (1.25 × the 12 px font, as plotters).
const LEGEND_LINE_PX: i32 = 15;
/// Padding inside the legend box, px (plotters' default).
const LEGEND_MARGIN_PX: i32 = 10;
/// Width of the swatch column, px (plotters' default).
const LEGEND_KEY_PX: i32 = 30;

/// A swatch drawn at a legend line's left middle point.
type Swatch<'a, DB> = Box<dyn Fn((i32, i32)) -> DynElement<'a, DB, (i32, i32)> + 'a>;

/// The series legend of a chart: each series' label and swatch, gathered
/// while the series are drawn, then drawn by [`Legend::draw`].
///
/// Not plotters' own series legend: in a browser plotters measures each
/// label by adding it to the page and reading its size, which forces a
/// layout of the whole page per label (about 60 ms of the gossip view's
/// first paint at p = 1024, in a profile). Here label widths are
/// estimated from their length, the same in a browser and in native tests.
pub(crate) struct Legend<'a, DB: DrawingBackend>(Vec<(String, Swatch<'a, DB>)>);

impl<'a, DB: DrawingBackend> Default for Legend<'a, DB> {
    fn default() -> Self {
        Legend(Vec::new())
    }
}

impl<'a, DB: DrawingBackend + 'a> Legend<'a, DB> {
    /// Adds a series: its label and the swatch drawn at a point (e.g. [`key`]).
    pub(crate) fn add<E, F>(&mut self, label: impl Into<String>, swatch: F)
    where
        E: IntoDynElement<'a, DB, (i32, i32)>,
        F: Fn((i32, i32)) -> E + 'a,
    {
        self.0
            .push((label.into(), Box::new(move |at| swatch(at).into_dyn())));
    }

    /// Draws the legend inside `chart`'s plotting area at `pos`: a [`GRID`]
    /// border, no background, a swatch and a 12 px label per series, laid
    /// out as plotters lays out its series legend.
    ///
    /// # Errors
    /// A message when plotters fails.
    pub(crate) fn draw<CT>(
        &self,
        chart: &ChartContext<'_, DB, CT>,
        pos: SeriesLabelPosition,
    ) -> Result<(), String>
    where
        CT: CoordTranslate,
        DB::ErrorType: 'static,
    {
        if self.0.is_empty() {
            return Ok(());
        }
        let area = chart.plotting_area().strip_coord_spec();
        let widest = self
            .0
            .iter()
            .map(|(label, _)| (label.chars().count() as f64 * LEGEND_CHAR_PX).ceil() as i32)
            .max()
            .unwrap_or(0);
        let w = widest + LEGEND_KEY_PX + 2 * LEGEND_MARGIN_PX;
        let h = legend_height(self.0.len());
        let (x, y) = legend_corner(&pos, (w, h), area.dim_in_pixel());
        area.draw(&Rectangle::new([(x, y), (x + w, y + h)], GRID))
            .map_err(err)?;
        let label_font = font(12).pos(Pos::new(HPos::Left, VPos::Center));
        let mut mid = y + LEGEND_MARGIN_PX + LEGEND_LINE_PX / 2;
        for (label, swatch) in &self.0 {
            area.draw(&swatch((x + LEGEND_MARGIN_PX, mid)))
                .map_err(err)?;
            area.draw(&Text::new(
                label.as_str(),
                (x + LEGEND_MARGIN_PX + LEGEND_KEY_PX, mid),
                &label_font,
            ))
            .map_err(err)?;
            mid += LEGEND_LINE_PX;
        }
        Ok(())
    }
}

/// Height of a [`Legend`] box of `lines` series, px: a line each and the
/// padding above and below.
fn legend_height(lines: usize) -> i32 {
    i32::try_from(lines)
        .unwrap_or(i32::MAX)
        .saturating_mul(LEGEND_LINE_PX)
        .saturating_add(2 * LEGEND_MARGIN_PX)
}

/// Top-left corner of a `(w, h)` legend at `pos` in an `area` of pixels: 5
/// px from the named edges, as plotters places its series legend.
fn legend_corner(pos: &SeriesLabelPosition, (w, h): (i32, i32), area: (u32, u32)) -> (i32, i32) {
    use SeriesLabelPosition::*;
    let (aw, ah) = (
        i32::try_from(area.0).unwrap_or(i32::MAX),
        i32::try_from(area.1).unwrap_or(i32::MAX),
    );
    let x = match pos {
        UpperLeft | MiddleLeft | LowerLeft => 5,
        UpperMiddle | MiddleMiddle | LowerMiddle => (aw - w) / 2,
        UpperRight | MiddleRight | LowerRight => aw - w - 5,
        Coordinate(x, _) => *x,
    };
    let y = match pos {
        UpperLeft | UpperMiddle | UpperRight => 5,
        MiddleLeft | MiddleMiddle | MiddleRight => (ah - h) / 2,
        LowerLeft | LowerMiddle | LowerRight => ah - h - 5,
        Coordinate(_, y) => *y,
    };
    (x, y)
}

/// A legend swatch: an 18 px line in `style` (one closure type for every
/// chart, so plotters' legend code is instantiated once).
pub(crate) fn key(style: ShapeStyle) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new([(x, y), (x + 18, y)], style)
}

/// Tick label: a whole number ("12").
pub(crate) fn int_tick(v: &f64) -> String {
    decimal::fixed(*v, 0)
}

/// Tick label: a power of ten in exponent form ("1e-3").
pub(crate) fn exp_tick(v: &f64) -> String {
    decimal::sci(*v, 0)
}

/// Tick label: two decimals ("0.25").
pub(crate) fn fixed2_tick(v: &f64) -> String {
    decimal::fixed(*v, 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::prelude::{IntoDrawingArea, LineSeries};

    #[test]
    fn stack_appends_the_marks_shapes_before_the_close() {
        let base = "<svg class=\"chart\" width=\"2\">\n<line a=\"1\"/>\n</svg>\n";
        let marks = "<svg class=\"chart\" width=\"2\">\n<circle b=\"2\"/>\n</svg>\n";
        assert_eq!(
            stack(base, marks),
            "<svg class=\"chart\" width=\"2\">\n<line a=\"1\"/>\n<circle b=\"2\"/>\n</svg>\n"
        );
        // no marks (a chart that is only a note): the base alone
        assert_eq!(stack(base, ""), base);
    }

    #[test]
    fn a_log_axis_ticks_1_2_and_5_times_powers_of_ten() {
        // plotters' dense ticks on 0.7..17 ms: 1, 2, …, 9, 10 ms and 10 ms again
        let dense: Vec<f64> = (1..=10)
            .map(|k| f64::from(k) * 1e-3)
            .chain([1e-2])
            .collect();
        let got = thin_log_ticks(dense);
        assert_eq!(got.len(), 4);
        for (g, want) in got.iter().zip([1e-3, 2e-3, 5e-3, 1e-2]) {
            assert!((g - want).abs() < 1e-15, "{got:?}");
        }
        // powers of ten alone stay
        assert_eq!(
            thin_log_ticks(vec![1.0, 10.0, 100.0]),
            vec![1.0, 10.0, 100.0]
        );
    }

    #[test]
    fn the_axis_top_leaves_room_for_the_legend() {
        // 6 series: 6 × 15 + 2 × 10 + 10 = 120 px of a 300 px area is 0.4,
        // so the data take 0.6 of the axis: the top grows by 0.4 / 0.6 of it.
        let top = top_for_legend(0.0, 6.0, 6, 300, false);
        assert!((top - 10.0).abs() < 1e-12, "{top}");
        // on a log axis the same share of decades: 1..10 becomes 1..10^(5/3)
        let top = top_for_legend(1.0, 10.0, 6, 300, true);
        assert!((top.log10() - 5.0 / 3.0).abs() < 1e-12, "{top}");
        // a legend taller than half the area takes half: the axis doubles
        let top = top_for_legend(0.0, 1.0, 40, 300, false);
        assert!((top - 2.0).abs() < 1e-12, "{top}");
    }

    #[test]
    fn the_legend_sits_5_px_from_the_named_edges() {
        let dim = (70, 35);
        let area = (400, 300);
        assert_eq!(
            legend_corner(&SeriesLabelPosition::UpperLeft, dim, area),
            (5, 5)
        );
        // 400 − 70 − 5 = 325; 300 − 35 − 5 = 260
        assert_eq!(
            legend_corner(&SeriesLabelPosition::UpperRight, dim, area),
            (325, 5)
        );
        assert_eq!(
            legend_corner(&SeriesLabelPosition::LowerLeft, dim, area),
            (5, 260)
        );
        // (400 − 70) / 2 = 165; (300 − 35) / 2 = 132
        assert_eq!(
            legend_corner(&SeriesLabelPosition::MiddleMiddle, dim, area),
            (165, 132)
        );
    }

    #[test]
    fn a_caption_is_centred_above_the_frame() {
        let mut svg = String::new();
        {
            let root = SvgBackend::with_string(&mut svg, (400, 300)).into_drawing_area();
            let area = titled(&root, "Time vs size").expect("caption");
            // the area under the caption starts 28 px down and is 272 px tall
            assert_eq!(area.get_base_pixel(), (0, 28));
            assert_eq!(area.dim_in_pixel(), (400, 272));
            root.present().expect("svg");
        }
        // centred on x = 400 / 2, its top 17 px down (the 12 px frame margin + 5)
        assert!(svg.contains(r#"x="200" y="17""#), "{svg}");
        assert!(svg.contains(r#"text-anchor="middle""#) && svg.contains("Time vs size"));
    }

    #[test]
    fn the_legend_box_fits_the_estimated_labels() {
        let mut svg = String::new();
        {
            let root = SvgBackend::with_string(&mut svg, (400, 300)).into_drawing_area();
            let mut chart = ChartBuilder::on(&root)
                .build_cartesian_2d(0f64..1.0, 0f64..1.0)
                .expect("chart");
            let mut keys = Legend::default();
            for (label, colour) in [("ring", PALETTE[0]), ("tree or doubling", PALETTE[1])] {
                chart
                    .draw_series(LineSeries::new([(0.0, 0.0), (1.0, 1.0)], colour))
                    .expect("series");
                keys.add(label, key(colour.into()));
            }
            keys.draw(&chart, SeriesLabelPosition::UpperLeft)
                .expect("legend");
            root.present().expect("svg");
        }
        // widest label: 16 characters × 5.2 px = 83.2 → 84 px, plus the
        // 30 px swatch column and 2 × 10 px padding = 134 px; two 15 px
        // lines and the padding = 50 px; 5 px from the top left
        assert!(
            svg.contains(r#"<rect x="5" y="5" width="134" height="50""#),
            "{svg}"
        );
        // labels start after the swatch column (5 + 10 + 30 = 45 px), one
        // line apart, centred on their line (5 + 10 + 7 = 22 px, then 37)
        assert!(svg.contains(r#"x="45" y="22""#) && svg.contains(r#"x="45" y="37""#));
        assert!(svg.contains("tree or doubling"), "{svg}");
        // the swatches: 18 px lines from x = 15 on the same middles
        assert!(
            svg.contains("15,22 33,22") && svg.contains("15,37 33,37"),
            "{svg}"
        );
    }
}
