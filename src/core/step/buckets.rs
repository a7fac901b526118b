//! Gradient buckets as PyTorch DDP forms them in every step after its
//! first-iteration rebuild.
//!
//! Sources (PyTorch, `torch/csrc/distributed/c10d/reducer.cpp`):
//! `Reducer::rebuild_buckets` records the order in which gradients became
//! ready in the first iteration and calls
//! `compute_bucket_assignment_by_size(params, {first_bucket_bytes,
//! bucket_bytes_cap}, …)` on that order. The assignment walks the tensors,
//! adds each to the open bucket, and closes the bucket as soon as its bytes
//! reach the current limit; the first limit is `first_bucket_bytes`
//! (`dist._DEFAULT_FIRST_BUCKET_BYTES`, 1 MiB) and every later one is
//! `bucket_bytes_cap` (`bucket_cap_mb`, default 25 MiB). A tensor is never
//! split, so a bucket can exceed its cap by its last tensor. Recent PyTorch
//! releases use `bucket_cap_mb` for the first bucket too when the user sets
//! it; `first = bucket` reproduces that.

/// `dist._DEFAULT_FIRST_BUCKET_BYTES`: 1 MiB = 1 048 576 B.
pub const DEFAULT_FIRST_BUCKET_BYTES: u64 = 1 << 20;
/// DDP's default `bucket_cap_mb = 25`: 25 MiB = 26 214 400 B.
pub const DEFAULT_BUCKET_BYTES: u64 = 25 << 20;

/// One bucket: positions in the walked order and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assigned {
    /// Positions (indices into the walked list), in walk order.
    pub members: Vec<usize>,
    /// Sum of the members' bytes.
    pub bytes: u64,
}

/// `compute_bucket_assignment_by_size` for one dtype on one device:
/// `sizes[i]` is the bytes of the i-th gradient in ready order; `first` is
/// the first bucket's cap and `cap` every later one's, bytes. A bucket
/// closes as soon as its bytes are ≥ its cap; what is left at the end forms
/// the last bucket. Every position appears in exactly one bucket, in order.
/// A cap of 0 puts every tensor in a bucket of its own.
pub fn assign(sizes: &[u64], first: u64, cap: u64) -> Vec<Assigned> {
    let mut out = Vec::new();
    let mut open = Assigned {
        members: Vec::new(),
        bytes: 0,
    };
    for (i, &b) in sizes.iter().enumerate() {
        open.members.push(i);
        open.bytes = open.bytes.saturating_add(b);
        let limit = if out.is_empty() { first } else { cap };
        if open.bytes >= limit {
            out.push(std::mem::replace(
                &mut open,
                Assigned {
                    members: Vec::new(),
                    bytes: 0,
                },
            ));
        }
    }
    if !open.members.is_empty() {
        out.push(open);
    }
    out
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A plain re-implementation: each bucket is the shortest run of
    /// tensors, from where the last one ended, whose bytes reach its limit
    /// (or the rest, at the end).
    fn plain(sizes: &[u64], first: u64, cap: u64) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        let mut start = 0;
        while start < sizes.len() {
            let limit = if out.is_empty() { first } else { cap };
            let mut end = start;
            let mut sum = 0u64;
            while end < sizes.len() {
                sum = sum.saturating_add(sizes[end]);
                end += 1;
                if sum >= limit {
                    break;
                }
            }
            out.push((start..end).collect());
            start = end;
        }
        out
    }

    #[test]
    fn caps_are_mebibytes() {
        assert_eq!(DEFAULT_FIRST_BUCKET_BYTES, 1_048_576);
        assert_eq!(DEFAULT_BUCKET_BYTES, 26_214_400);
    }

    #[test]
    fn case_b_buckets() {
        // 100 layers of 1M fp32 = 4 000 000 B each. First cap 1 MiB: the
        // first layer alone (4 MB ≥ 1 MiB). Cap 25 MiB = 26 214 400 B:
        // 6 layers = 24 000 000 < cap, 7 = 28 000 000 ≥ cap, so 7 layers a
        // bucket; 99 = 14 × 7 + 1 leaves one layer for the last bucket.
        let b = assign(
            &[4_000_000; 100],
            DEFAULT_FIRST_BUCKET_BYTES,
            DEFAULT_BUCKET_BYTES,
        );
        assert_eq!(b.len(), 16);
        assert_eq!(b[0].members, vec![0]);
        assert!(b[1..15]
            .iter()
            .all(|x| x.members.len() == 7 && x.bytes == 28_000_000));
        assert_eq!(b[15].members, vec![99]);
        // 4 MiB = 4 194 304 B > 4 MB: at a 4 MiB cap one layer is short,
        // two (8 MB) close the bucket.
        let b = assign(&[4_000_000; 100], 1 << 20, 4 << 20);
        assert_eq!(b[1].members.len(), 2);
    }

    #[test]
    fn a_tensor_is_never_split() {
        // Case A: 100 MB layers exceed every cap; one layer a bucket.
        let b = assign(&[100_000_000; 4], 1 << 20, 25 << 20);
        assert_eq!(b.len(), 4);
        assert!(b.iter().all(|x| x.bytes == 100_000_000));
        assert_eq!(assign(&[], 1, 1), vec![]);
        assert_eq!(assign(&[5, 5, 5], 0, 0).len(), 3);
    }

    proptest! {
        #[test]
        fn rule_matches_a_plain_reimplementation(
            sizes in proptest::collection::vec(1u64..50_000_000, 0..120),
            first in 0u64..40_000_000,
            cap in 0u64..200_000_000,
        ) {
            let got: Vec<Vec<usize>> = assign(&sizes, first, cap).into_iter().map(|a| a.members).collect();
            prop_assert_eq!(&got, &plain(&sizes, first, cap));
            let b = assign(&sizes, first, cap);
            for (k, x) in b.iter().enumerate() {
                prop_assert_eq!(x.bytes, x.members.iter().map(|&i| sizes[i]).sum::<u64>());
                let limit = if k == 0 { first } else { cap };
                // every bucket but the last reached its cap, and would not
                // have without its last tensor
                if k + 1 < b.len() {
                    prop_assert!(x.bytes >= limit);
                    let last = sizes[*x.members.last().unwrap_or(&0)];
                    prop_assert!(x.members.len() == 1 || x.bytes - last < limit);
                }
            }
        }
    }
}
