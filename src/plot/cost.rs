//! Charts of the `cost` view.
