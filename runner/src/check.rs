//! The self-check: the schedule's result beside the matching MPI collective
//! on the same inputs (`MPI_Allreduce`, `MPI_Reduce_scatter_block`,
//! `MPI_Allgatherv`).

use std::ops::Range;

use collective_lab::core::cost::nccl::CollectiveKind;
use mpi::collective::SystemOperation;
use mpi::datatype::PartitionMut;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// How one rank's result compares with the reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Diff {
    /// Largest `|ours − reference|` over the compared elements.
    pub max_abs: f64,
    /// Elements whose difference is beyond float reordering.
    pub wrong: u64,
    /// True when every compared element has the same bits.
    pub bitwise: bool,
}

impl Diff {
    /// No element compared yet.
    pub const EMPTY: Diff = Diff {
        max_abs: 0.0,
        wrong: 0,
        bitwise: true,
    };

    /// Both comparisons together.
    pub fn merge(self, o: Diff) -> Diff {
        Diff {
            max_abs: self.max_abs.max(o.max_abs),
            wrong: self.wrong + o.wrong,
            bitwise: self.bitwise && o.bitwise,
        }
    }
}

/// Compares `ours` with `reference` element by element. A sum of `p` terms
/// added in another order may differ in its last bits: each element may be
/// off by `p · ε · |reference|` (ε = `f32::EPSILON`), which bounds the
/// rounding error of any order of `p − 1` additions of terms of one sign
/// (the runner's inputs, `default_init`, are positive). A NaN or a larger
/// difference counts as wrong.
pub fn compare(ours: &[f32], reference: &[f32], p: usize) -> Diff {
    let mut d = Diff::EMPTY;
    if ours.len() != reference.len() {
        d.wrong = ours.len().abs_diff(reference.len()) as u64;
        d.bitwise = false;
    }
    let scale = p as f32 * f32::EPSILON;
    for (&a, &b) in ours.iter().zip(reference) {
        if a.to_bits() == b.to_bits() {
            continue;
        }
        d.bitwise = false;
        let diff = (a - b).abs();
        let tol = scale * b.abs().max(a.abs()).max(f32::MIN_POSITIVE);
        if diff.is_nan() || diff > tol {
            d.wrong += 1;
        }
        d.max_abs = d.max_abs.max(if diff.is_nan() {
            f64::INFINITY
        } else {
            f64::from(diff)
        });
    }
    d
}

/// The values of `buf` on `ranges`, back to back.
pub fn gather_ranges(buf: &[f32], ranges: &[Range<usize>]) -> Vec<f32> {
    ranges
        .iter()
        .flat_map(|r| buf[r.clone()].iter().copied())
        .collect()
}

/// The matching MPI collective on this rank's input, with its buffers
/// prepared once, so that [`Reference::run`] is only the MPI call (the
/// self-check runs it once; `--baseline` times it).
pub struct Reference {
    kind: CollectiveKind,
    /// What this rank hands to MPI.
    send: Vec<f32>,
    /// What MPI gives back.
    recv: Vec<f32>,
    /// All-gather: elements per rank and where they land in `recv`.
    counts: Vec<i32>,
    displs: Vec<i32>,
    /// Every rank's ranges (reduce-scatter, all-gather).
    owned: Vec<Vec<Range<usize>>>,
    me: usize,
    p: usize,
}

impl Reference {
    /// The reference for `collective` on `input` (this rank's input) at
    /// rank `me` of `p`; `owned[r]` are rank `r`'s ranges for a
    /// reduce-scatter or an all-gather. A reduce-scatter uses
    /// `MPI_Reduce_scatter_block` over blocks padded to the longest piece
    /// (block r holds the input on rank r's ranges, then zeros), so pieces
    /// of unequal length need no counts; an all-gather uses
    /// `MPI_Allgatherv` of each rank's own ranges.
    pub fn new(
        collective: CollectiveKind,
        input: &[f32],
        owned: Vec<Vec<Range<usize>>>,
        me: usize,
        p: usize,
    ) -> Reference {
        let lens: Vec<usize> = owned
            .iter()
            .map(|o| o.iter().map(Range::len).sum())
            .collect();
        let mut r = Reference {
            kind: collective,
            send: Vec::new(),
            recv: Vec::new(),
            counts: Vec::new(),
            displs: Vec::new(),
            owned,
            me,
            p,
        };
        match collective {
            CollectiveKind::ReduceScatter => {
                let block = lens.iter().copied().max().unwrap_or(0).max(1);
                r.send = vec![0f32; block * p];
                for (k, o) in r.owned.iter().enumerate() {
                    let piece = gather_ranges(input, o);
                    r.send[k * block..k * block + piece.len()].copy_from_slice(&piece);
                }
                r.recv = vec![0f32; block];
            }
            CollectiveKind::AllGather => {
                r.counts = lens.iter().map(|&c| c as i32).collect();
                r.displs = lens
                    .iter()
                    .scan(0i32, |acc, &c| {
                        let d = *acc;
                        *acc += c as i32;
                        Some(d)
                    })
                    .collect();
                r.send = gather_ranges(input, r.owned.get(me).map_or(&[][..], Vec::as_slice));
                r.recv = vec![0f32; lens.iter().sum()];
            }
            _ => {
                r.send = input.to_vec();
                r.recv = vec![0f32; input.len()];
            }
        }
        r
    }

    /// The MPI collective itself. Called by every rank.
    pub fn run(&mut self, world: &SimpleCommunicator) {
        match self.kind {
            CollectiveKind::ReduceScatter => world.reduce_scatter_block_into(
                &self.send[..],
                &mut self.recv[..],
                SystemOperation::sum(),
            ),
            CollectiveKind::AllGather => {
                let mut part =
                    PartitionMut::new(&mut self.recv[..], &self.counts[..], &self.displs[..]);
                world.all_gather_varcount_into(&self.send[..], &mut part);
            }
            _ => world.all_reduce_into(&self.send[..], &mut self.recv[..], SystemOperation::sum()),
        }
    }

    /// This rank's `result` beside what the last [`Reference::run`] gave:
    /// the rank's own ranges for a reduce-scatter, the whole tensor otherwise.
    pub fn diff(&self, result: &[f32]) -> Diff {
        match self.kind {
            CollectiveKind::ReduceScatter => {
                let mine = self.owned.get(self.me).map_or(&[][..], Vec::as_slice);
                let ours = gather_ranges(result, mine);
                let n = ours.len().min(self.recv.len());
                compare(&ours, &self.recv[..n], self.p)
            }
            CollectiveKind::AllGather => {
                let mut reference = vec![0f32; result.len()];
                for (r, o) in self.owned.iter().enumerate() {
                    let mut at = self.displs.get(r).map_or(0, |&d| d as usize);
                    for range in o {
                        reference[range.clone()].copy_from_slice(&self.recv[at..at + range.len()]);
                        at += range.len();
                    }
                }
                compare(result, &reference, self.p)
            }
            _ => compare(result, &self.recv, self.p),
        }
    }
}

/// Every rank's [`Diff`] combined, the same on every rank (an all-gather).
pub fn combine(world: &SimpleCommunicator, d: Diff) -> Diff {
    let mine = [d.max_abs, d.wrong as f64, f64::from(u8::from(d.bitwise))];
    let mut all = vec![0f64; 3 * world.size() as usize];
    world.all_gather_into(&mine[..], &mut all[..]);
    all.chunks_exact(3).fold(Diff::EMPTY, |acc, c| {
        acc.merge(Diff {
            max_abs: c[0],
            wrong: c[1] as u64,
            bitwise: c[2] != 0.0,
        })
    })
}

/// The reference collective's MPI name.
pub fn reference_name(c: CollectiveKind) -> &'static str {
    match c {
        CollectiveKind::ReduceScatter => "MPI_Reduce_scatter_block",
        CollectiveKind::AllGather => "MPI_Allgatherv",
        _ => "MPI_Allreduce",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_bits_are_bitwise_equal() {
        let d = compare(&[1.0, 6.0], &[1.0, 6.0], 4);
        assert_eq!(d, Diff::EMPTY);
    }

    #[test]
    fn a_last_bit_difference_is_reordering_not_an_error() {
        // 10 and the next float above it: 10 · 2⁻²³ · … one ulp = 2⁻²⁰ ≈ 9.54e-7,
        // within p · ε · 10 = 4 · 2⁻²³ · 10 ≈ 4.77e-6.
        let next = f32::from_bits(10f32.to_bits() + 1);
        let d = compare(&[next], &[10.0], 4);
        assert_eq!((d.wrong, d.bitwise), (0, false));
        assert!((d.max_abs - 2f64.powi(-20)).abs() < 1e-12);
    }

    #[test]
    fn a_missing_contribution_is_wrong() {
        // 10 (ranks 1 + 2 + 3 + 4) against 6 (rank 4 missing).
        let d = compare(&[6.0, 10.0, f32::NAN], &[10.0, 10.0, 10.0], 4);
        assert_eq!((d.wrong, d.bitwise), (2, false));
        assert_eq!(d.max_abs, f64::INFINITY);
        let d = compare(&[6.0, 10.0], &[10.0, 10.0], 4);
        assert_eq!(d.max_abs, 4.0);
    }

    #[test]
    fn diffs_merge_by_the_worst() {
        let a = Diff {
            max_abs: 1.0,
            wrong: 2,
            bitwise: false,
        };
        assert_eq!(
            Diff::EMPTY.merge(a).merge(Diff::EMPTY),
            Diff {
                max_abs: 1.0,
                wrong: 2,
                bitwise: false
            }
        );
        assert_eq!(
            gather_ranges(&[1.0, 2.0, 3.0, 4.0], &[3..4, 0..2]),
            vec![4.0, 1.0, 2.0]
        );
    }
}
