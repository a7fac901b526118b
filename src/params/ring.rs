//! URL parameters of the `ring` view.
