//! What a page's check of the executed buffers says (the ring and
//! collectives pages; the app's check panel renders it).

/// What the check says.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// Not all rounds have run.
    Pending {
        /// Rounds run so far.
        done: usize,
        /// Rounds of the schedule.
        rounds: usize,
    },
    /// All rounds have run, and their values are being executed after a
    /// paint; the text names the work with its size, e.g. "the values of
    /// 2046 rounds on p = 1024 ranks".
    Executing(String),
    /// Verified; the text says what holds.
    Verified(String),
    /// Not verified; the text says what is wrong.
    Failed(String),
}
