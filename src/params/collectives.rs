//! URL parameters of the `collectives` view.
