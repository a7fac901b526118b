//! Recursive doubling, recursive halving and Rabenseifner (issue 5).
