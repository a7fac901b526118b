//! URL parameters of the `sgd` view.
