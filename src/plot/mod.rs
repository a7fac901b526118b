//! Charts drawn with plotters into SVG strings (one free function per chart,
//! `draw_*(...) -> Result<String, String>`). They compile natively, so tests
//! and benchmarks can render them without a browser.
//!
//! Colours: draw text, axes and grid with [`FG`] / [`GRID`]; [`finish_svg`]
//! rewrites them to `currentColor`, so a chart follows the page's light or
//! dark theme. Series use the colour-blind-safe [`PALETTE`] (Okabe & Ito 2008).
//!
//! One chart shape: every chart is a themed [`frame`] (margins and label
//! areas), a themed [`mesh`] (grid, axes, tick and description fonts), its
//! series with [`key`] legend swatches, and the themed [`legend`]. These
//! helpers are shared, so plotters' generic chart code is instantiated once
//! per coordinate type rather than once per chart.

use plotters::chart::{ChartBuilder, ChartContext, MeshStyle, SeriesLabelPosition};
use plotters::coord::combinators::{IntoLogRange, LogCoord};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::{CoordTranslate, Shift};
use plotters::drawing::DrawingArea;
use plotters::element::PathElement;
use plotters::prelude::{Cartesian2d, DrawingBackend, IntoFont, SVGBackend, TextStyle};
use plotters::style::{Color, FontFamily, RGBColor, ShapeStyle, TRANSPARENT, WHITE};

pub mod collectives;
pub mod cost;
pub mod gossip;
pub mod measure;
pub mod sgd;
pub mod topology;

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

/// A chart error as the message shown at the UI edge.
pub(crate) fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// A linear or logarithmic axis in one type. A chart's code is compiled once
/// per coordinate type, so charts that differ only in an axis scale share
/// one copy when they use this type. Every method is the wrapped axis's own,
/// so the SVG is the same as with the wrapped axis.
pub(crate) enum Axis {
    Lin(RangedCoordf64),
    Log(LogCoord<f64>),
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
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        match self {
            Axis::Lin(c) => c.map(value, limit),
            Axis::Log(c) => c.map(value, limit),
        }
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        match self {
            Axis::Lin(c) => c.key_points(hint),
            Axis::Log(c) => c.key_points(hint),
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        match self {
            Axis::Lin(c) => c.range(),
            Axis::Log(c) => c.range(),
        }
    }

    fn axis_pixel_range(&self, limit: (i32, i32)) -> std::ops::Range<i32> {
        match self {
            Axis::Lin(c) => c.axis_pixel_range(limit),
            Axis::Log(c) => c.axis_pixel_range(limit),
        }
    }
}

/// The chart font: sans-serif at `size` px in the theme colour [`FG`].
/// Named by its [`FontFamily`] variant: plotters' `From<&str>` would
/// lower-case the name and link the Unicode case tables into every binary
/// that draws a chart.
pub(crate) fn font(size: u32) -> TextStyle<'static> {
    (FontFamily::SansSerif, size).into_font().color(&FG)
}

/// The chart frame on `root`: a 12 px margin and label areas of `x_area`
/// (below) and `y_area` (left) pixels; the caller adds a caption or margins.
pub(crate) fn frame<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    x_area: u32,
    y_area: u32,
) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut b = ChartBuilder::on(root);
    b.margin(12)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area);
    b
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

/// The themed series legend of `chart` at `pos`: a [`GRID`] border, no
/// background, 12 px labels.
pub(crate) fn legend<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    pos: SeriesLabelPosition,
) -> Result<(), String>
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate,
    DB::ErrorType: 'static,
{
    chart
        .configure_series_labels()
        .position(pos)
        .border_style(GRID)
        .background_style(WHITE.mix(0.0))
        .label_font(font(12))
        .draw()
        .map_err(err)
}

/// A legend swatch: an 18 px line in `style` (one closure type for every
/// chart, so plotters' legend code is instantiated once).
pub(crate) fn key(style: ShapeStyle) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new([(x, y), (x + 18, y)], style)
}

/// Tick label: a whole number ("12").
pub(crate) fn int_tick(v: &f64) -> String {
    format!("{v:.0}")
}

/// Tick label: a power of ten in exponent form ("1e-3").
pub(crate) fn exp_tick(v: &f64) -> String {
    format!("{v:.0e}")
}

/// Tick label: two decimals ("0.25").
pub(crate) fn fixed2_tick(v: &f64) -> String {
    format!("{v:.2}")
}
