//! Charts and tables as data, for readers and for teachers: every chart's
//! plotted values as a [`DataTable`] (shown in a collapsible "Data" table and
//! downloadable as CSV), and the `data:` URLs the download buttons hand to the
//! browser. Pure and tested natively; the UI (`app::components::data_table`,
//! `app::components::downloads`) only renders and triggers downloads.
//!
//! The per-chart tables are built in [`series`] from the same core results the
//! charts are drawn from.

pub mod series;
pub mod step;

use crate::core::units::format_exact_or_approx;

/// One cell: a number (shown with [`format_exact_or_approx`], written to CSV
/// in full precision) or text.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// A plotted or computed value (unit in the column header).
    Num(f64),
    /// A label (series name, algorithm, …).
    Text(String),
}

impl Cell {
    /// The cell as a reader sees it: numbers through [`format_exact_or_approx`]
    /// (`1.2375`, `≈ 0.7454`), empty for a missing value (NaN).
    pub fn shown(&self) -> String {
        match self {
            Cell::Num(v) if v.is_nan() => String::new(),
            Cell::Num(v) => format_exact_or_approx(*v),
            Cell::Text(s) => s.clone(),
        }
    }

    /// The cell in a CSV file: numbers in Rust's shortest round-trip form
    /// (`1.2375`, `0.7453559924999299`, `1e-9`), text quoted by [`csv_field`].
    pub fn csv(&self) -> String {
        match self {
            Cell::Num(v) if v.is_nan() => String::new(),
            Cell::Num(v) => crate::core::units::decimal::shortest(*v),
            Cell::Text(s) => csv_field(s),
        }
    }
}

/// A table: a caption, column headers (with units) and rows of cells.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DataTable {
    /// What the table holds ("Disagreement per round").
    pub caption: String,
    /// Column headers, units included ("time (s)").
    pub columns: Vec<String>,
    /// Rows; each has one cell per column.
    pub rows: Vec<Vec<Cell>>,
}

impl DataTable {
    /// An empty table with these headers.
    pub fn new(caption: impl Into<String>, columns: &[&str]) -> Self {
        DataTable {
            caption: caption.into(),
            columns: columns.iter().map(|c| (*c).to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// The table as CSV (RFC 4180): a header line, then one line per row,
    /// `\n` line ends.
    pub fn to_csv(&self) -> String {
        let mut out = self
            .columns
            .iter()
            .map(|c| csv_field(c))
            .collect::<Vec<_>>()
            .join(",");
        out.push('\n');
        for row in &self.rows {
            out += &row.iter().map(Cell::csv).collect::<Vec<_>>().join(",");
            out.push('\n');
        }
        out
    }
}

/// Quotes a CSV field when it holds a comma, quote or line break (RFC 4180),
/// and defuses text a spreadsheet would run as a formula (a leading `=`, `+`,
/// `-`, `@`, tab or carriage return gets a leading `'`, as OWASP advises).
pub fn csv_field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

pub use crate::core::data_url::data_url;

/// A file name from a caption: lower-case ASCII letters and digits, other
/// runs become one `-`, at most 60 characters, `"chart"` when nothing is left:
/// `file_stem("Disagreement per round (log scale)")` =
/// `"disagreement-per-round-log-scale"`.
pub fn file_stem(caption: &str) -> String {
    let mut out = String::new();
    for c in caption.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out: String = out.trim_matches('-').chars().take(60).collect();
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "chart".into()
    } else {
        out
    }
}

/// The `(width, height)` of an SVG from its `viewBox` (or its `width` and
/// `height` attributes), for drawing it onto a canvas; `None` when neither is
/// there or they are not positive and finite.
pub fn svg_size(svg: &str) -> Option<(f64, f64)> {
    let head = &svg[..svg.find('>')?];
    let attr = |name: &str| -> Option<&str> {
        let start = head.find(&format!(" {name}=\""))? + name.len() + 3;
        let len = head[start..].find('"')?;
        Some(&head[start..start + len])
    };
    let ok =
        |w: f64, h: f64| (w > 0.0 && h > 0.0 && w.is_finite() && h.is_finite()).then_some((w, h));
    if let Some(vb) = attr("viewBox") {
        let v: Vec<f64> = vb
            .split([' ', ','])
            .filter(|s| !s.is_empty())
            .filter_map(crate::core::units::decimal::parse)
            .collect();
        if let [_, _, w, h] = v[..] {
            return ok(w, h);
        }
    }
    let num = |s: &str| crate::core::units::decimal::parse(s.trim_end_matches("px"));
    ok(num(attr("width")?)?, num(attr("height")?)?)
}

/// The SVG with explicit `width` and `height` attributes (replacing any on the
/// root element), so an `<img>` renders it at that size before it is drawn to
/// a canvas. Returns the input unchanged when it has no root `<svg` tag.
pub fn svg_with_size(svg: &str, w: f64, h: f64) -> String {
    let Some(start) = svg.find("<svg") else {
        return svg.to_string();
    };
    let Some(end) = svg[start..].find('>').map(|e| start + e) else {
        return svg.to_string();
    };
    let mut head = svg[start + 4..end].to_string();
    for name in ["width", "height"] {
        if let Some(i) = head.find(&format!(" {name}=\"")) {
            let vstart = i + name.len() + 3;
            if let Some(len) = head[vstart..].find('"') {
                head.replace_range(i..vstart + len + 1, "");
            }
        }
    }
    format!(
        "{}<svg width=\"{}\" height=\"{}\"{head}{}",
        &svg[..start],
        crate::core::units::decimal::shortest(w),
        crate::core::units::decimal::shortest(h),
        &svg[end..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_has_header_and_full_precision_values() {
        let mut t = DataTable::new("Disagreement", &["round", "disagreement", "label"]);
        t.rows.push(vec![
            Cell::Num(0.0),
            Cell::Num(45f64.sqrt()),
            Cell::Text("a,b".into()),
        ]);
        t.rows.push(vec![
            Cell::Num(1.0),
            Cell::Num(f64::NAN),
            Cell::Text("=1+1".into()),
        ]);
        assert_eq!(
            t.to_csv(),
            "round,disagreement,label\n0,6.708203932499369,\"a,b\"\n1,,'=1+1\n"
        );
        assert_eq!(Cell::Num(45f64.sqrt()).shown(), "≈ 6.708");
        assert_eq!(Cell::Num(9.9 / 8.0).shown(), "1.2375");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }

    #[test]
    fn data_urls_and_file_names() {
        assert_eq!(
            data_url("text/csv", "a,b\n"),
            "data:text/csv;charset=utf-8,a%2Cb%0A"
        );
        assert_eq!(
            data_url("image/svg+xml", "<s/>"),
            "data:image/svg+xml;charset=utf-8,%3Cs%2F%3E"
        );
        assert_eq!(
            file_stem("Disagreement per round (log scale)"),
            "disagreement-per-round-log-scale"
        );
        assert_eq!(file_stem("ρ"), "chart");
        assert_eq!(file_stem("<img onerror=x>"), "img-onerror-x");
    }

    #[test]
    fn svg_size_and_resize() {
        let svg = r#"<svg viewBox="0 0 760 420" xmlns="http://www.w3.org/2000/svg"><rect/></svg>"#;
        assert_eq!(svg_size(svg), Some((760.0, 420.0)));
        assert_eq!(
            svg_size(r#"<svg width="300" height="150px"></svg>"#),
            Some((300.0, 150.0))
        );
        assert_eq!(svg_size("<svg></svg>"), None);
        assert_eq!(svg_size("no svg"), None);
        let sized = svg_with_size(
            r#"<svg width="100%" viewBox="0 0 760 420"><rect/></svg>"#,
            1520.0,
            840.0,
        );
        assert_eq!(
            sized,
            r#"<svg width="1520" height="840" viewBox="0 0 760 420"><rect/></svg>"#
        );
    }
}
