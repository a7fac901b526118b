//! URL parameters of the `cost` view.
