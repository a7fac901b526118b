//! URL parameters of the `gossip` view.
