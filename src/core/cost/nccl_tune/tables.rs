//! NCCL's tuning constants for Tree and Ring, per version: our transcription
//! of `src/graph/tuning.cc` at the tags `v2.19.3-1` (commit 8c6c5951854a)
//! and `v2.30.7-1` (commit 73cf112295c3) of github.com/NVIDIA/nccl.
//! Only the Tree and Ring rows are kept (the paths this port models);
//! indices are `[protocol]` = LL, LL128, Simple, `[hw]` = NVLink, PCI,
//! network, `[compute-capability index][tuning scale]` with the scale
//! 1 node, 2 nodes, ≥ 3 nodes.

/// One algorithm's Tree and Ring values per protocol: `[tree, ring]`, each
/// `[LL, LL128, Simple]`.
pub type TreeRing = [[f64; 3]; 2];

/// The constants of one version.
#[derive(Debug)]
pub struct Constants {
    /// `baseLat[algo][proto]`, µs.
    pub base_lat: TreeRing,
    /// `hwLat[hw][algo][proto]`, µs; hw = NVLink, PCI, network.
    pub hw_lat: [TreeRing; 3],
    /// `llMaxBws[row][scale]`, GB/s (row = compute-capability index on one
    /// node, CPU vendor on several: 0 Intel/other, 1 AMD).
    pub ll_max_bws: &'static [[f64; 3]],
    /// `perChMaxRingLL128Bws[cc][scale]`, GB/s per channel.
    pub per_ch_max_ring_ll128: &'static [[f64; 3]],
    /// `perChMaxTreeLL128Bws[cc][scale]`, GB/s per channel.
    pub per_ch_max_tree_ll128: &'static [[f64; 3]],
    /// `perChMaxTreeBws[cc][scale]`, GB/s per channel.
    pub per_ch_max_tree: &'static [[f64; 3]],
    /// `treeCorrectionFactor[proto][log2(nBytes/64)]` (the columns Tree reads).
    pub tree_correction: &'static [[f32; 23]; 3],
}

/// `treeCorrectionFactor`, the same first 23 columns in both versions
/// (v2.19.3 `tuning.cc:394-398`, v2.30.7 `tuning.cc:623-627`; the 24th
/// column of v2.30 is read only by NVLSTree, not modelled).
const TREE_CORRECTION: [[f32; 23]; 3] = [
    [
        1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.7, 0.7, 0.7, 0.7, 0.6, 0.5, 0.4, 0.4, 0.5, 0.6, 0.7, 0.8,
        0.9, 1.0, 1.0, 1.0, 1.0,
    ],
    [
        1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.8, 0.9,
        0.9, 0.9, 0.9, 1.0, 1.0,
    ],
    [
        0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8,
        0.7, 0.7, 0.8, 0.9, 0.9,
    ],
];

/// v2.19.3-1: `baseLat` `tuning.cc:56-59`, `hwLat` `:65-78`, `llMaxBws`
/// `:86-90`, `perChMaxRingLL128Bws` `:92-96`, `perChMaxTreeLL128Bws`
/// `:97-101`, `perChMaxTreeBws` `:102-106`, `treeCorrectionFactor`
/// `:394-398`. Three compute-capability rows: Volta, Ampere, Hopper.
pub const V2_19: Constants = Constants {
    base_lat: [[6.8, 14.0, 0.0], [6.6, 14.0, 8.4]],
    hw_lat: [
        [[0.6, 1.25, 28.0], [0.6, 1.9, 3.4]],
        [[1.0, 1.9, 28.0], [1.0, 2.5, 5.7]],
        [[5.0, 8.5, 28.0], [2.7, 4.0, 14.0]],
    ],
    ll_max_bws: &[[39.0, 39.0, 20.4], [87.7, 22.5, 19.0], [87.7, 22.5, 19.0]],
    per_ch_max_ring_ll128: &[[20.0, 20.0, 20.0], [20.0, 20.0, 20.0], [36.7, 36.7, 36.7]],
    per_ch_max_tree_ll128: &[[20.0, 20.0, 20.0], [20.0, 20.0, 20.0], [36.7, 36.7, 29.0]],
    per_ch_max_tree: &[[26.5, 18.5, 10.0], [24.0, 23.6, 17.8], [38.7, 41.4, 36.0]],
    tree_correction: &TREE_CORRECTION,
};

/// v2.30.7-1: `ncclTunerConstantsDefaults` `tuning.cc:148-211`
/// (`baseLatencies` `:150-155`, `hwLatencies` `:157-176`, `llMaxBws`
/// `:178-183`, `perChMaxRingLL128Bws` `:185-190`, `perChMaxTreeLL128Bws`
/// `:192-197`, `perChMaxTreeBws` `:199-204`), `treeCorrectionFactor`
/// `:623-627`. Four compute-capability rows: Volta, Ampere, Hopper,
/// Blackwell.
pub const V2_30: Constants = Constants {
    base_lat: [[6.8, 14.0, 8.4], [6.6, 14.0, 8.4]],
    hw_lat: [
        [[0.6, 1.25, 4.0], [0.6, 1.9, 3.4]],
        [[1.0, 1.9, 4.0], [1.0, 2.5, 5.7]],
        [[5.0, 8.5, 14.0], [2.7, 4.0, 14.0]],
    ],
    ll_max_bws: &[
        [39.0, 39.0, 20.4],
        [87.7, 22.5, 19.0],
        [141.0, 45.0, 35.0],
        [282.0, 90.0, 70.0],
    ],
    per_ch_max_ring_ll128: &[
        [20.0, 20.0, 20.0],
        [20.0, 20.0, 20.0],
        [36.7, 36.7, 36.7],
        [40.0, 40.0, 40.0],
    ],
    per_ch_max_tree_ll128: &[
        [20.0, 20.0, 20.0],
        [20.0, 20.0, 20.0],
        [36.7, 36.7, 29.0],
        [55.6, 31.67, 20.0],
    ],
    per_ch_max_tree: &[
        [26.5, 18.5, 10.0],
        [24.0, 23.6, 17.8],
        [38.7, 41.4, 36.0],
        [70.0, 42.8, 24.0],
    ],
    tree_correction: &TREE_CORRECTION,
};
