//! A rank that fails during step `STEP` (`fail=RANK@STEP`; steps count
//! from 1).
//!
//! - **All-reduce SGD stops.** Every bucket's all-reduce needs every rank,
//!   so the failed step's collective never completes (the dataflow model's
//!   "does not complete"). With a checkpoint every `ckpt` steps (saved
//!   after steps ckpt, 2·ckpt, …) the job restarts, after `restart`
//!   seconds (detection, relaunch and loading, one figure), on the p − 1
//!   survivors from the last checkpoint: the steps completed since then
//!   and the failed step are lost and run again at the p − 1 workers' step
//!   time. Without a checkpoint, everything since step 1 is lost.
//! - **D-PSGD continues** on the survivors while their graph stays
//!   connected: each survivor mixes only with surviving neighbours, with
//!   weights re-derived on the survivors' graph (Metropolis–Hastings,
//!   A_kj = 1/(1 + max(deg_k, deg_j)), doubly stochastic, so their average
//!   is kept). The objective they optimise loses the failed shard: the
//!   sample weights become n_k / (N − n_f) over the survivors (the SGD lab's
//!   shard calculator), while the doubly stochastic mixing itself targets
//!   the equal-worker average 1/(p − 1). When the failure disconnects the
//!   graph, each component mixes on its own and no common model forms.

/// The failure as given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Failure {
    /// The failed rank.
    pub rank: usize,
    /// The step during which it fails, ≥ 1.
    pub step: usize,
}

/// What all-reduce SGD loses.
#[derive(Clone, Debug, PartialEq)]
pub struct AllReduceLoss {
    /// Steps completed before the failure: `step − 1`.
    pub completed: usize,
    /// Steps saved by the last checkpoint (0 without checkpoints).
    pub saved: usize,
    /// Completed steps lost, plus the failed step: `step − saved`.
    pub lost_steps: usize,
    /// When the failed step began, seconds: `completed × T`.
    pub failed_at: f64,
    /// With `restart`: when the survivors start again, seconds.
    pub restart_at: Option<f64>,
    /// With `restart`: when the survivors are back where the failed step
    /// would have ended, seconds: `restart_at + lost_steps × T′`.
    pub caught_up_at: Option<f64>,
    /// Wall-clock seconds lost against no failure, with `restart`:
    /// `caught_up_at − step × T`.
    pub time_lost: Option<f64>,
}

/// All-reduce SGD's loss at step time `t` (p ranks) and `t_survivors`
/// (p − 1 ranks), with a checkpoint every `ckpt` steps (`None`: never) and
/// `restart` seconds to restart (`None`: the job stays stopped).
pub fn allreduce_loss(
    f: Failure,
    t: f64,
    t_survivors: f64,
    ckpt: Option<usize>,
    restart: Option<f64>,
) -> AllReduceLoss {
    let completed = f.step.saturating_sub(1);
    let saved = ckpt.filter(|&c| c > 0).map_or(0, |c| completed / c * c);
    let lost_steps = f.step - saved.min(f.step);
    let failed_at = completed as f64 * t;
    let restart_at = restart.map(|r| failed_at + r);
    let caught_up_at = restart_at.map(|r| r + lost_steps as f64 * t_survivors);
    AllReduceLoss {
        completed,
        saved,
        lost_steps,
        failed_at,
        restart_at,
        caught_up_at,
        time_lost: caught_up_at.map(|c| c - f.step as f64 * t),
    }
}

/// The survivors' graph and what they optimise.
#[derive(Clone, Debug, PartialEq)]
pub struct Survivors {
    /// Surviving ranks, in order.
    pub ranks: Vec<usize>,
    /// Connected components of the survivors' graph (ranks), in order of
    /// their smallest rank.
    pub components: Vec<Vec<usize>>,
    /// Metropolis–Hastings weights of every survivor: `(rank, [(neighbour
    /// or itself, weight)])`.
    pub weights: Vec<(usize, Vec<(usize, f64)>)>,
    /// Sample weights of the survivors' objective, n_k / (N − n_f), in the
    /// order of `ranks`.
    pub sample_weights: Vec<f64>,
    /// The failed shard's share of the samples, n_f / N.
    pub lost_share: f64,
}

impl Survivors {
    /// True when the survivors still form one connected graph.
    pub fn connected(&self) -> bool {
        self.components.len() == 1
    }
}

/// The survivors of `failed` on the undirected graph given by
/// `neighbours[k]` (other ranks k exchanges with), with shard sizes
/// `shards` (one per rank; `None` or a wrong length: equal shards).
pub fn survivors(neighbours: &[Vec<usize>], failed: usize, shards: Option<&[u64]>) -> Survivors {
    let p = neighbours.len();
    let ranks: Vec<usize> = (0..p).filter(|&k| k != failed).collect();
    let alive = |k: usize| k != failed && k < p;
    // neighbours in increasing order, each once (a mark per rank rather
    // than a sort keeps the page's binary small)
    let nb = |k: usize| -> Vec<usize> {
        let mut mark = vec![false; p];
        for &j in &neighbours[k] {
            if alive(j) && j != k {
                mark[j] = true;
            }
        }
        (0..p).filter(|&j| mark[j]).collect()
    };
    let deg: Vec<usize> = (0..p)
        .map(|k| if alive(k) { nb(k).len() } else { 0 })
        .collect();
    let weights = ranks
        .iter()
        .map(|&k| {
            let others: Vec<(usize, f64)> = nb(k)
                .into_iter()
                .map(|j| (j, 1.0 / (1.0 + deg[k].max(deg[j]) as f64)))
                .collect();
            let own = 1.0 - others.iter().map(|x| x.1).sum::<f64>();
            // in rank order, itself included
            let at = others.iter().position(|x| x.0 > k).unwrap_or(others.len());
            let mut row = others;
            row.insert(at, (k, own));
            (k, row)
        })
        .collect();
    let mut seen = vec![false; p];
    let mut components = Vec::new();
    for &s in &ranks {
        if seen[s] {
            continue;
        }
        let mut inside = vec![false; p];
        let mut queue = vec![s];
        seen[s] = true;
        inside[s] = true;
        while let Some(k) = queue.pop() {
            for j in nb(k) {
                if !seen[j] {
                    seen[j] = true;
                    inside[j] = true;
                    queue.push(j);
                }
            }
        }
        components.push((0..p).filter(|&j| inside[j]).collect());
    }
    let n: Vec<f64> = match shards {
        Some(s) if s.len() == p => s.iter().map(|&x| x as f64).collect(),
        _ => vec![1.0; p],
    };
    let total: f64 = n.iter().sum();
    let left = total - n.get(failed).copied().unwrap_or(0.0);
    Survivors {
        sample_weights: ranks
            .iter()
            .map(|&k| if left > 0.0 { n[k] / left } else { 0.0 })
            .collect(),
        lost_share: if total > 0.0 {
            n.get(failed).copied().unwrap_or(0.0) / total
        } else {
            0.0
        },
        ranks,
        components,
        weights,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_bound_the_loss() {
        // Case A's 66 ms step, and 70 ms for the survivors' step (a given
        // figure here; the view times it on p − 1 ranks). Rank 3 fails in step 25 with a checkpoint every
        // 10 steps: 24 completed, 20 saved, 5 steps lost (21–25). The
        // failure comes at 24 × 66 = 1584 ms; with a 2 s restart, the
        // survivors begin at 3584 ms and are back after 5 × 70 = 350 ms, at
        // 3934 ms, against 25 × 66 = 1650 ms without a failure: 2284 ms lost.
        let l = allreduce_loss(
            Failure { rank: 3, step: 25 },
            0.066,
            0.070,
            Some(10),
            Some(2.0),
        );
        assert_eq!((l.completed, l.saved, l.lost_steps), (24, 20, 5));
        assert!((l.failed_at - 1.584).abs() < 1e-12);
        assert!((l.caught_up_at.expect("restarts") - 3.934).abs() < 1e-12);
        assert!((l.time_lost.expect("restarts") - 2.284).abs() < 1e-12);
        // No checkpoint: all 25 steps are lost; no restart: no times.
        let l = allreduce_loss(Failure { rank: 3, step: 25 }, 0.066, 0.07, None, None);
        assert_eq!((l.saved, l.lost_steps, l.restart_at), (0, 25, None));
    }

    #[test]
    fn a_ring_survives_one_failure_a_path_splits() {
        // Ring of 4 without rank 1: path 2–3–0; degrees 1, 2, 1, so
        // Metropolis gives rank 0: w(0,3) = 1/(1 + 2) = 1/3, itself 2/3.
        let ring: Vec<Vec<usize>> = (0..4).map(|k| vec![(k + 3) % 4, (k + 1) % 4]).collect();
        let s = survivors(&ring, 1, Some(&[100, 300, 100, 500]));
        assert!(s.connected());
        assert_eq!(s.ranks, vec![0, 2, 3]);
        let w0 = &s.weights[0].1;
        assert_eq!(w0.len(), 2);
        assert!((w0[0].1 - 2.0 / 3.0).abs() < 1e-12 && (w0[1].1 - 1.0 / 3.0).abs() < 1e-12);
        // Shards 100, 300, 100, 500 (N = 1000): the lost shard held 30 %;
        // the survivors' weights are 100/700, 100/700, 500/700.
        assert!((s.lost_share - 0.3).abs() < 1e-12);
        assert!((s.sample_weights[2] - 500.0 / 700.0).abs() < 1e-12);
        // A path 0–1–2–3 without rank 1 splits into {0} and {2, 3}.
        let path = vec![vec![1], vec![0, 2], vec![1, 3], vec![2]];
        let s = survivors(&path, 1, None);
        assert_eq!(s.components, vec![vec![0], vec![2, 3]]);
        assert!(!s.connected());
    }
}
