//! A failed rank (placeholder, filled below).
