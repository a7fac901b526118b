//! The plotted values of every chart as a [`DataTable`], taken from the same
//! core results (and, for the cost charts, the same core sweeps over the same
//! axes) the charts in [`crate::plot`] are drawn from. No formula is
//! evaluated here that the chart does not evaluate.
//!
//! One file per view; the long-format and text tables that several views
//! share are here.

pub mod collectives;
pub mod cost;
pub mod gossip;
pub mod schedule;
pub mod sgd;
pub mod topology;

use crate::export::{Cell, DataTable};

/// A long-format table of labelled `(x, y)` series: one row
/// `series, x, y` per point, in series order (charts of the topology and
/// measure views: [`crate::plot::topology::Line`], [`crate::plot::measure::Points`]).
pub fn xy_series(
    caption: &str,
    x: &str,
    y: &str,
    series: &[(String, Vec<(f64, f64)>)],
) -> DataTable {
    let mut t = DataTable::new(caption, &["series", x, y]);
    for (label, pts) in series {
        for &(a, b) in pts {
            t.rows
                .push(vec![Cell::Text(label.clone()), Cell::Num(a), Cell::Num(b)]);
        }
    }
    t
}

/// A table whose cells are already text (the topology view's per-NIC,
/// per-rank and per-worker tables, the gossip checks on W): `head` holds the
/// column headers, the first over the row labels; each row is its label and
/// its cells, as shown.
pub fn text_table(caption: &str, head: &[String], rows: &[(String, Vec<String>)]) -> DataTable {
    let cols: Vec<&str> = head.iter().map(String::as_str).collect();
    let mut t = DataTable::new(caption, &cols);
    for (label, cells) in rows {
        let mut row = vec![Cell::Text(label.clone())];
        row.extend(cells.iter().map(|c| Cell::Text(c.clone())));
        t.rows.push(row);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xy_series_is_long_format() {
        let t = xy_series(
            "T",
            "size (B)",
            "time (s)",
            &[("a<b".into(), vec![(1.0, 2.0), (3.0, 4.5)])],
        );
        assert_eq!(t.to_csv(), "series,size (B),time (s)\na<b,1,2\na<b,3,4.5\n");
    }

    #[test]
    fn text_tables_keep_their_cells_as_shown() {
        let t = text_table(
            "Traffic per NIC",
            &["NIC".into(), "out".into()],
            &[("node 0 lane 0".into(), vec!["250 MB".into()])],
        );
        assert_eq!(t.to_csv(), "NIC,out\nnode 0 lane 0,250 MB\n");
    }
}
