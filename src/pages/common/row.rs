//! [`Row`]: one labelled number of a page's "in numbers" table, with the
//! element id the browser tests and the URL's panel anchors find it by.

/// One row of a two-column table: a label and its value with units.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The value cell's element id.
    pub id: &'static str,
    /// The row's label.
    pub label: String,
    /// The value, with its unit.
    pub value: String,
}

impl Row {
    /// A row from its id, label and value.
    pub fn new(id: &'static str, label: impl Into<String>, value: impl Into<String>) -> Self {
        Row {
            id,
            label: label.into(),
            value: value.into(),
        }
    }
}
