//! Binomial-tree reduce + broadcast (issue 5).
