//! What a page's check of the executed buffers says (the ring and
//! collectives pages; the app's check panel renders it).

use crate::core::execute::Verification;

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

impl Check {
    /// The check after `done` of `rounds` rounds: pending until the last
    /// round has run, then the one failure sentence when the verification
    /// found wrong values or double counts, else what `verified` says
    /// holds. `verification` is only asked once the last round has run (a
    /// streamed run executes its values on that first call).
    pub fn after<'a>(
        done: usize,
        rounds: usize,
        verification: impl FnOnce() -> &'a Verification,
        verified: impl FnOnce() -> String,
    ) -> Check {
        if done < rounds {
            return Check::Pending { done, rounds };
        }
        let v = verification();
        if !v.ok() {
            Check::Failed(format!(
                "Not verified: {} wrong rank-segments, {} double counts.",
                v.mismatches.len(),
                v.double_counts.len()
            ))
        } else {
            Check::Verified(verified())
        }
    }
}
