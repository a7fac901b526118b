//! Charts of the `gossip` view.
