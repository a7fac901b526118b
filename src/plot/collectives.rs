//! Charts of the `collectives` view.
