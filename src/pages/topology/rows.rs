//! The plain rows the topology page fills and the app renders: a table's
//! row, a block of the course's numbers, and an arrow of the picture.

use crate::core::topology::LinkClass;

/// One row: its label, an element id (optional) and the cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Row header.
    pub label: String,
    /// Element id of the row, for tests and links.
    pub id: Option<String>,
    /// Cell texts.
    pub cells: Vec<String>,
}

/// One block: an id, a title and its lines.
#[derive(Clone, Debug, PartialEq)]
pub struct CourseItem {
    /// Element id.
    pub id: &'static str,
    /// Heading.
    pub title: String,
    /// Lines of text (numbers with units).
    pub lines: Vec<String>,
}

/// One arrow of this round.
#[derive(Clone, Debug, PartialEq)]
pub struct PicArrow {
    /// Sending rank.
    pub src: usize,
    /// Receiving rank.
    pub dst: usize,
    /// Class of link crossed.
    pub class: LinkClass,
    /// True when the receiver adds (reduce), false when it copies.
    pub reduce: bool,
    /// Tooltip text.
    pub title: String,
}
