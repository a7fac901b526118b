//! The SVG backend every chart draws on: plotters lays the chart out, this
//! writes it as SVG markup into a `String`.
//!
//! It writes what plotters' own SVG backend (the `plotters-svg` crate) writes,
//! element for element, with two differences, both for the wasm pages:
//! - numbers go through the app's one formatter
//!   ([`crate::core::units::decimal`]), so a chart page links no second float
//!   formatter (the standard library's costs about 10 KB gzipped);
//! - text is measured with plotters' own crude estimate (the one it uses
//!   natively, `style/font/naive.rs`: 0.7 em a byte), not by adding a `span`
//!   to the page and reading its size back, which plotters does in the
//!   browser: no layout pass per label, and the same layout in the browser
//!   as in the native tests.

use std::fmt;

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontStyle, FontTransform,
};

use crate::core::units::decimal;

/// Nothing goes wrong writing to a `String`; the type plotters asks for.
#[derive(Debug)]
pub struct SvgError;

impl fmt::Display for SvgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SVG backend error")
    }
}

impl std::error::Error for SvgError {}

/// An SVG document of `size` pixels written into a `String` (the `svg`
/// element is closed when plotters presents the drawing).
pub struct SvgBackend<'a> {
    buf: &'a mut String,
    size: (u32, u32),
    open: Vec<&'static str>,
}

type Result<T> = std::result::Result<T, DrawingErrorKind<SvgError>>;

/// The `fill` and `stroke` of a shape in colour `c`: filled, or outlined.
fn fill_and_stroke(c: BackendColor, filled: bool) -> (String, String) {
    if filled {
        (colour(c), "none".to_string())
    } else {
        ("none".to_string(), colour(c))
    }
}

fn colour(c: BackendColor) -> String {
    let (r, g, b) = c.rgb;
    let hex = |v: u8| -> [char; 2] {
        const D: &[u8; 16] = b"0123456789ABCDEF";
        [
            char::from(D[usize::from(v >> 4)]),
            char::from(D[usize::from(v & 15)]),
        ]
    };
    let mut s = String::with_capacity(7);
    s.push('#');
    for v in [r, g, b] {
        s.extend(hex(v));
    }
    s
}

fn opacity(c: BackendColor) -> String {
    decimal::shortest(c.alpha)
}

fn points(path: impl IntoIterator<Item = BackendCoord>) -> String {
    let mut s = String::new();
    for (x, y) in path {
        s.push_str(&x.to_string());
        s.push(',');
        s.push_str(&y.to_string());
        s.push(' ');
    }
    s
}

impl<'a> SvgBackend<'a> {
    /// A drawing of `size` pixels (width, height) written into `buf`.
    pub fn with_string(buf: &'a mut String, size: (u32, u32)) -> Self {
        let mut b = SvgBackend {
            buf,
            size,
            open: Vec::new(),
        };
        let (w, h) = (size.0.to_string(), size.1.to_string());
        let view = format!("0 0 {w} {h}");
        b.tag(
            "svg",
            &[
                ("width", &w),
                ("height", &h),
                ("viewBox", &view),
                ("xmlns", "http://www.w3.org/2000/svg"),
            ],
            false,
        );
        b
    }

    fn escape(&mut self, value: &str) {
        for c in value.chars() {
            match c {
                '<' => self.buf.push_str("&lt;"),
                '>' => self.buf.push_str("&gt;"),
                '&' => self.buf.push_str("&amp;"),
                '"' => self.buf.push_str("&quot;"),
                '\'' => self.buf.push_str("&apos;"),
                other => self.buf.push(other),
            }
        }
    }

    fn tag(&mut self, name: &'static str, attrs: &[(&str, &str)], close: bool) {
        self.buf.push('<');
        self.buf.push_str(name);
        for (k, v) in attrs {
            self.buf.push(' ');
            self.buf.push_str(k);
            self.buf.push_str("=\"");
            self.escape(v);
            self.buf.push('"');
        }
        if close {
            self.buf.push_str("/>\n");
        } else {
            self.open.push(name);
            self.buf.push_str(">\n");
        }
    }

    fn close(&mut self) -> bool {
        match self.open.pop() {
            Some(name) => {
                self.buf.push_str("</");
                self.buf.push_str(name);
                self.buf.push_str(">\n");
                true
            }
            None => false,
        }
    }
}

impl DrawingBackend for SvgBackend<'_> {
    type ErrorType = SvgError;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result<()> {
        Ok(())
    }

    fn present(&mut self) -> Result<()> {
        while self.close() {}
        Ok(())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<()> {
        if color.alpha == 0.0 {
            return Ok(());
        }
        let (x, y) = (point.0.to_string(), point.1.to_string());
        let (o, f) = (opacity(color), colour(color));
        let attrs = [
            ("x", x.as_str()),
            ("y", &y),
            ("width", "1"),
            ("height", "1"),
            ("stroke", "none"),
            ("opacity", &o),
            ("fill", &f),
        ];
        self.tag("rect", &attrs, true);
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<()> {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        let v = [from.0, from.1, to.0, to.1].map(|n| n.to_string());
        let (o, s, w) = (opacity(c), colour(c), style.stroke_width().to_string());
        let attrs = [
            ("opacity", o.as_str()),
            ("stroke", &s),
            ("stroke-width", &w),
            ("x1", &v[0]),
            ("y1", &v[1]),
            ("x2", &v[2]),
            ("y2", &v[3]),
        ];
        self.tag("line", &attrs, true);
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<()> {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        let (fill, stroke) = fill_and_stroke(c, fill);
        let v = [
            upper_left.0,
            upper_left.1,
            bottom_right.0 - upper_left.0,
            bottom_right.1 - upper_left.1,
        ]
        .map(|n| n.to_string());
        let o = opacity(c);
        let attrs = [
            ("x", v[0].as_str()),
            ("y", &v[1]),
            ("width", &v[2]),
            ("height", &v[3]),
            ("opacity", &o),
            ("fill", &fill),
            ("stroke", &stroke),
        ];
        self.tag("rect", &attrs, true);
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<()> {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        let (o, s, w, p) = (
            opacity(c),
            colour(c),
            style.stroke_width().to_string(),
            points(path),
        );
        let attrs = [
            ("fill", "none"),
            ("opacity", &o),
            ("stroke", &s),
            ("stroke-width", &w),
            ("points", &p),
        ];
        self.tag("polyline", &attrs, true);
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<()> {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        let (o, f, p) = (opacity(c), colour(c), points(path));
        let attrs = [("opacity", o.as_str()), ("fill", &f), ("points", &p)];
        self.tag("polygon", &attrs, true);
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<()> {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        let (fill, stroke) = fill_and_stroke(c, fill);
        let v = [
            center.0.to_string(),
            center.1.to_string(),
            radius.to_string(),
        ];
        let (o, w) = (opacity(c), style.stroke_width().to_string());
        let attrs = [
            ("cx", v[0].as_str()),
            ("cy", &v[1]),
            ("r", &v[2]),
            ("opacity", &o),
            ("fill", &fill),
            ("stroke", &stroke),
            ("stroke-width", &w),
        ];
        self.tag("circle", &attrs, true);
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<()> {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        let anchor = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "middle",
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => "0.76em",
            VPos::Center => "0.5ex",
            VPos::Bottom => "-0.5ex",
        };
        let (x, y) = (pos.0.to_string(), pos.1.to_string());
        let family = style.family();
        let size = decimal::shortest(style.size() / 1.24);
        let (o, f) = (opacity(c), colour(c));
        let mut attrs: Vec<(&str, String)> = vec![
            ("x", x.clone()),
            ("y", y.clone()),
            ("dy", dy.into()),
            ("text-anchor", anchor.into()),
            ("font-family", family.as_str().into()),
            ("font-size", size),
            ("opacity", o),
            ("fill", f),
        ];
        match style.style() {
            FontStyle::Normal => {}
            FontStyle::Bold => attrs.push(("font-weight", "bold".into())),
            other => attrs.push(("font-style", other.as_str().into())),
        }
        let turn = match style.transform() {
            FontTransform::Rotate90 => Some(90),
            FontTransform::Rotate180 => Some(180),
            FontTransform::Rotate270 => Some(270),
            FontTransform::None => None,
        };
        if let Some(deg) = turn {
            attrs.push(("transform", format!("rotate({deg}, {x}, {y})")));
        }
        let borrowed: Vec<(&str, &str)> = attrs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        self.tag("text", &borrowed, false);
        self.escape(text);
        self.buf.push('\n');
        self.close();
        Ok(())
    }

    /// plotters' own estimate (`style/font/naive.rs`): an em is the size
    /// over 1.24², a byte 0.7 em wide, the box from −1 em to 0.24 em.
    fn estimate_text_size<S: BackendTextStyle>(&self, text: &str, style: &S) -> Result<(u32, u32)> {
        let em = style.size() / 1.24 / 1.24;
        let w = (em * 0.7 * text.len() as f64).round();
        let h = (em * 0.24).round() + em.round();
        Ok((w.max(0.0) as u32, h.max(0.0) as u32))
    }
}
