//! Charts of the `sgd` view.
