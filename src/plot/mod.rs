//! Charts drawn with plotters into SVG strings (one free function per chart,
//! `draw_*(...) -> Result<String, String>`). They compile natively, so tests
//! and benchmarks can render them without a browser.
//!
//! Colours: draw text, axes and grid with [`FG`] / [`GRID`]; [`finish_svg`]
//! rewrites them to `currentColor`, so a chart follows the page's light or
//! dark theme. Series use the colour-blind-safe [`PALETTE`] (Okabe & Ito 2008).

use plotters::style::RGBColor;

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
