//! The usual mistakes (course §12 and the list), each a small
//! function of a question's parameters that returns the value a student who
//! makes that mistake would get.
//!
//! A question part lists the mistakes that apply to it as
//! [`super::Mistake`]s (kind + value). The checker tries the right answer
//! first, so a right answer is never reported as a mistake, even when a
//! mistake happens to give the same number.

/// A recognised mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MistakeKind {
    /// (1/m) Σ L_k instead of Σ (n_k/N) L_k.
    PlainMean,
    /// Adding the received chunks again during the all-gather.
    ReAddInAllGather,
    /// 2n bytes per rank instead of 2(p−1)/p·n.
    TwoN,
    /// 2(p−1)·n bytes per rank instead of 2(p−1)/p·n.
    TwoPMinusOneN,
    /// p rounds per phase instead of p − 1.
    PRounds,
    /// Only one of the two phases counted.
    OnePhase,
    /// Sent and received bytes added together.
    SentPlusReceived,
    /// ×8 or ÷8: bits read as bytes, or bytes as bits.
    BitsAsBytes,
    /// ×1.048576 or ÷1.048576: MB read as MiB, or MiB as MB.
    MbAsMib,
    /// The α (start-up) term left out.
    AlphaLeftOut,
    /// The bandwidth number used as β.
    BetaAsBandwidth,
    /// log₂ p rounds counted for the ring.
    Log2Ring,
    /// A local gradient step first, then the mixing.
    StepBeforeMix,
    /// The local step without any mixing.
    NoMixing,
    /// Mixing without the gradient step.
    NoStep,
    /// algbw given where busbw is asked.
    AlgbwForBusbw,
    /// The spectral gap 1 − ρ given instead of ρ.
    GapForRho,
    /// ln F / ln(1/ρ) rounded down instead of up.
    RoundedDown,
    /// The payload not divided by the lanes: the one-lane figure.
    NotSplitOverLanes,
    /// ZeRO memory with the K bytes of optimizer state per parameter left out.
    ForgotOptimizerState,
    /// ZeRO-1 or ZeRO-2 memory with every state divided by N (ZeRO-3's figure).
    ShardedEverything,
    /// ZeRO memory with nothing divided by N (DDP's figure).
    NotSharded,
    /// FSDP traffic with one all-gather per layer instead of two (DDP's figure).
    ForgotSecondAllGather,
}

impl MistakeKind {
    /// Short name shown in the feedback, e.g. "plain average of the shard losses".
    pub fn label(self) -> &'static str {
        match self {
            MistakeKind::PlainMean => "plain average of the shard losses",
            MistakeKind::ReAddInAllGather => "re-adding during the all-gather",
            MistakeKind::TwoN => "2n instead of 2(p−1)/p·n",
            MistakeKind::TwoPMinusOneN => "2(p−1)·n instead of 2(p−1)/p·n",
            MistakeKind::PRounds => "p rounds per phase instead of p − 1",
            MistakeKind::OnePhase => "only one phase counted",
            MistakeKind::SentPlusReceived => "sent and received added together",
            MistakeKind::BitsAsBytes => "bits read as bytes",
            MistakeKind::MbAsMib => "MB read as MiB",
            MistakeKind::AlphaLeftOut => "α left out",
            MistakeKind::BetaAsBandwidth => "β used as a bandwidth",
            MistakeKind::Log2Ring => "log₂ p rounds counted for the ring",
            MistakeKind::StepBeforeMix => "stepping before mixing",
            MistakeKind::NoMixing => "no mixing",
            MistakeKind::NoStep => "mixing without the gradient step",
            MistakeKind::AlgbwForBusbw => "algbw instead of busbw",
            MistakeKind::GapForRho => "the spectral gap instead of ρ",
            MistakeKind::RoundedDown => "rounded down",
            MistakeKind::NotSplitOverLanes => "not divided by the lanes",
            MistakeKind::ForgotOptimizerState => "the optimizer state left out",
            MistakeKind::ShardedEverything => "every state divided by N",
            MistakeKind::NotSharded => "nothing divided by N",
            MistakeKind::ForgotSecondAllGather => "one all-gather per layer instead of two",
        }
    }

    /// Why it is a mistake and what to do instead.
    pub fn explanation(self) -> &'static str {
        match self {
            MistakeKind::PlainMean => {
                "Averaging the shard losses gives every shard the same influence, whatever its size. \
                 The full-data loss weights shard k by its share of the samples, n_k/N."
            }
            MistakeKind::ReAddInAllGather => {
                "Only the reduce-scatter adds: (p−1)/p·n per rank. In the all-gather the finished chunks \
                 are copied over the old values, never added again."
            }
            MistakeKind::TwoN => {
                "2n is the limit for large p. Each rank sends p − 1 chunks of n/p in each of the two \
                 phases: 2(p−1)/p·n."
            }
            MistakeKind::TwoPMinusOneN => {
                "Each round moves one chunk of n/p bytes, not the whole tensor: 2(p−1)/p·n per rank."
            }
            MistakeKind::PRounds => {
                "After p − 1 steps around the ring every chunk has visited every rank; a p-th step \
                 would bring it back to where it started. Each phase takes p − 1 rounds."
            }
            MistakeKind::OnePhase => {
                "An all-reduce is a reduce-scatter followed by an all-gather; count both phases."
            }
            MistakeKind::SentPlusReceived => {
                "The question counts one direction. Each rank receives as much as it sends; adding \
                 the two doubles the figure."
            }
            MistakeKind::BitsAsBytes => {
                "A factor of 8 is off: b is a bit, B a byte, and 1 B = 8 b (100 Gb/s = 12.5 GB/s)."
            }
            MistakeKind::MbAsMib => {
                "A factor of 1.048576 is off: 1 MB = 10⁶ B but 1 MiB = 2²⁰ B = 1,048,576 B. Keep the \
                 prefix family of the question."
            }
            MistakeKind::AlphaLeftOut => {
                "Every round pays a start-up α as well as the bytes × β. Add the number of start-ups × α."
            }
            MistakeKind::BetaAsBandwidth => {
                "β is seconds per byte, the inverse of the bandwidth: β = 1 / bandwidth \
                 (12.5 GB/s gives 0.08 ns/B). The bandwidth number cannot stand in for β."
            }
            MistakeKind::Log2Ring => {
                "log₂ p rounds belong to the recursive algorithms. The ring passes one chunk to its \
                 neighbour per round: p − 1 rounds per phase."
            }
            MistakeKind::StepBeforeMix => {
                "The course's convention mixes the models first and then subtracts η times the \
                 gradient computed at the old local model. Stepping first and mixing afterwards is \
                 another algorithm, with a different result."
            }
            MistakeKind::NoMixing => {
                "That is the local step alone. D-SGD first averages with the neighbours, then steps."
            }
            MistakeKind::NoStep => {
                "That is the mixed value only. Subtract η × gradient after mixing."
            }
            MistakeKind::AlgbwForBusbw => {
                "algbw = S/t. nccl-tests' busbw multiplies it by 2(p−1)/p for an all-reduce, so \
                 that it compares with the link bandwidth."
            }
            MistakeKind::GapForRho => {
                "1 − ρ is the spectral gap. ρ is the largest |λ| of the mixing matrix once the \
                 eigenvalue 1 is set aside."
            }
            MistakeKind::RoundedDown => {
                "Rounds come in whole numbers and fewer rounds do not reach the target: round \
                 ln F / ln(1/ρ) up."
            }
            MistakeKind::NotSplitOverLanes => {
                "That is the figure for one lane carrying the whole payload. With L lanes each \
                 carries payload / L at the same time, so the time is payload / (L·B)."
            }
            MistakeKind::ForgotOptimizerState => {
                "Mixed-precision Adam keeps K = 12 bytes of optimizer state per parameter (an fp32 \
                 copy of the parameters, the momentum and the variance), more than the 2 + 2 bytes \
                 of parameters and gradients together. Count it: sharded over N from ZeRO-1 on."
            }
            MistakeKind::ShardedEverything => {
                "Only ZeRO-3 (FSDP) divides every state by N. ZeRO-1 shards the optimizer state \
                 and keeps 4Ψ of parameters and gradients on every rank; ZeRO-2 shards the \
                 gradients too and keeps the 2Ψ of parameters."
            }
            MistakeKind::NotSharded => {
                "That is DDP's (2 + 2 + K)Ψ, every state on every rank. ZeRO divides the sharded \
                 states by N."
            }
            MistakeKind::ForgotSecondAllGather => {
                "FSDP frees each layer's gathered parameters after its forward, so it all-gathers \
                 them again before the backward: two all-gathers and one reduce-scatter, each \
                 (N − 1)/N · M, 3(N − 1)/N · M in all, 1.5 × DDP's all-reduce."
            }
        }
    }
}

/// Plain mean (1/m) Σ L_k of the shard losses.
pub fn plain_mean(losses: &[f64]) -> f64 {
    if losses.is_empty() {
        return 0.0;
    }
    losses.iter().sum::<f64>() / losses.len() as f64
}

/// Bytes a rank adds when the all-gather re-adds: all 2(p−1)/p·n it receives.
pub fn re_add_in_all_gather(p: usize, n: f64) -> f64 {
    two_p_minus_one_over_p(p) * n
}

/// 2(p−1)/p (helper of the ring mistakes).
fn two_p_minus_one_over_p(p: usize) -> f64 {
    let p = p.max(1) as f64;
    2.0 * (p - 1.0) / p
}

/// 2n.
pub fn two_n(n: f64) -> f64 {
    2.0 * n
}

/// 2(p−1)·n.
pub fn two_p_minus_one_n(p: usize, n: f64) -> f64 {
    2.0 * (p.max(1) - 1) as f64 * n
}

/// 2p rounds: p per phase.
pub fn p_rounds(p: usize) -> f64 {
    2.0 * p as f64
}

/// 2⌈log₂ p⌉ rounds for the ring (the recursive algorithms' count).
pub fn log2_ring_rounds(p: usize) -> f64 {
    2.0 * f64::from(super::compute::ceil_log2(p))
}

/// Half of a two-phase figure: one phase only.
pub fn one_phase(two_phase: f64) -> f64 {
    two_phase / 2.0
}

/// Sent plus received: twice the one-direction figure.
pub fn sent_plus_received(one_way: f64) -> f64 {
    2.0 * one_way
}

/// The two results of a factor-8 slip: `[v × 8, v / 8]`.
pub fn bits_as_bytes(v: f64) -> [f64; 2] {
    [v * 8.0, v / 8.0]
}

/// The two results of a MB/MiB slip: `[v × 1.048576, v / 1.048576]`.
pub fn mb_as_mib(v: f64) -> [f64; 2] {
    const R: f64 = 1_048_576.0 / 1_000_000.0;
    [v * R, v / R]
}

/// The α–β time without its α term: `byte_factor·n·β`.
pub fn alpha_left_out(byte_factor: f64, n: f64, beta: f64) -> f64 {
    byte_factor * n * beta
}

/// The time when the bandwidth number (in GB/s) is used as β in ns/B:
/// `startups·α + byte_factor·n·(bw/10⁹ × 10⁻⁹)`.
pub fn beta_as_bandwidth(startups: f64, alpha: f64, byte_factor: f64, n: f64, bw: f64) -> f64 {
    startups * alpha + byte_factor * n * (bw * 1e-18)
}

/// x₀ − ηg first, then the equal-weight average with the neighbours.
pub fn step_before_mix(values: &[f64], g: f64, eta: f64) -> f64 {
    let mut stepped = values.to_vec();
    if let Some(x0) = stepped.first_mut() {
        *x0 -= eta * g;
    }
    plain_mean(&stepped)
}

/// x₀ − ηg, no mixing.
pub fn no_mixing(x0: f64, g: f64, eta: f64) -> f64 {
    x0 - eta * g
}

/// algbw = S/t.
pub fn algbw_for_busbw(size: f64, t: f64) -> f64 {
    if t > 0.0 {
        size / t
    } else {
        0.0
    }
}

/// 1 − ρ.
pub fn gap_for_rho(rho: f64) -> f64 {
    1.0 - rho
}

/// ⌊ln F / ln(1/ρ)⌋.
pub fn rounded_down(rho: f64, factor: f64) -> f64 {
    if rho <= 0.0 || rho >= 1.0 {
        return 0.0;
    }
    (factor.ln() / (1.0 / rho).ln()).floor()
}

/// The one-lane figure: a per-lane value (bytes or seconds) × `lanes`.
pub fn not_split_over_lanes(per_lane: f64, lanes: usize) -> f64 {
    per_lane * lanes as f64
}

/// Model states per rank, bytes, under ZeRO `stage` (1, 2 or 3; anything
/// else is DDP) for `psi` parameters on `n` ranks with `k` bytes of
/// optimizer state per parameter, by the student's formula: 2 + 2 + K
/// bytes per parameter, the stage's states divided by N.
fn zero_states(stage: u8, psi: f64, n: usize, k: f64) -> f64 {
    let n = n.max(1) as f64;
    match stage {
        1 => 4.0 * psi + k * psi / n,
        2 => 2.0 * psi + (2.0 + k) * psi / n,
        3 => (4.0 + k) * psi / n,
        _ => (4.0 + k) * psi,
    }
}

/// ZeRO `stage`'s memory per rank with K = 0: only parameters and gradients.
pub fn forgot_optimizer_state(stage: u8, psi: f64, n: usize) -> f64 {
    zero_states(stage, psi, n, 0.0)
}

/// (4 + K)Ψ/N: every state sharded, as ZeRO-3.
pub fn sharded_everything(psi: f64, n: usize, k: f64) -> f64 {
    zero_states(3, psi, n, k)
}

/// (4 + K)Ψ: nothing sharded, as DDP.
pub fn not_sharded(psi: f64, k: f64) -> f64 {
    zero_states(0, psi, 1, k)
}

/// 2(N − 1)/N · M: FSDP's traffic with one all-gather per layer, which is
/// DDP's.
pub fn forgot_second_all_gather(n: usize, model_bytes: f64) -> f64 {
    two_p_minus_one_over_p(n) * model_bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn course_mistake_values() {
        // Course §1: plain mean of 0.2, 0.5, 0.9 is 0.5333.
        assert!((plain_mean(&[0.2, 0.5, 0.9]) - 1.6 / 3.0).abs() < 1e-12);
        // Ring, p = 8, 64 MB: 2n = 128 MB, 2(p−1)n = 896 MB, re-adding 112 MB.
        assert_eq!(two_n(64e6), 128e6);
        assert_eq!(two_p_minus_one_n(8, 64e6), 896e6);
        assert!((re_add_in_all_gather(8, 64e6) - 112e6).abs() < 1e-3);
        assert_eq!(p_rounds(8), 16.0);
        assert_eq!(log2_ring_rounds(8), 6.0);
        assert_eq!(one_phase(14.0), 7.0);
        assert_eq!(sent_plus_received(112e6), 224e6);
        assert_eq!(bits_as_bytes(112e6), [896e6, 14e6]);
        let [up, down] = mb_as_mib(64e6);
        assert!((up - 67_108_864.0).abs() < 1e-6 && (down * 1.048576 - 64e6).abs() < 1e-6);
        // Course §3: 6 with neighbours 3 and 12, g = 2, η = 0.5.
        assert!((step_before_mix(&[6.0, 3.0, 12.0], 2.0, 0.5) - 20.0 / 3.0).abs() < 1e-12);
        assert_eq!(no_mixing(6.0, 2.0, 0.5), 5.0);
        // Course §9, 8 KiB, rd at p = 16: 4 × 8192 B × 0.08 ns/B = 2.621 µs.
        assert!((alpha_left_out(4.0, 8192.0, 0.08e-9) - 2.62144e-6).abs() < 1e-15);
        assert!(
            (beta_as_bandwidth(4.0, 5e-6, 4.0, 8192.0, 12.5e9) - (20e-6 + 4.0 * 8192.0 * 12.5e-9))
                .abs()
                < 1e-15
        );
        assert_eq!(algbw_for_busbw(100e6, 0.012), 100e6 / 0.012);
        assert!((gap_for_rho(1.0 / 3.0) - 2.0 / 3.0).abs() < 1e-15);
        // ln 100 / ln 3 = 4.19: rounded down 4 (the right answer is 5).
        assert_eq!(rounded_down(1.0 / 3.0, 100.0), 4.0);
        // Course §10: 1 GB over 4 lanes of 12.5 GB/s is 250 MB and 20 ms per
        // lane; not splitting gives 1 GB and 80 ms.
        assert_eq!(not_split_over_lanes(250e6, 4), 1e9);
        assert!((not_split_over_lanes(0.02, 4) - 0.08).abs() < 1e-15);
        // 100 Gb/s read as 100 GB/s: 20 ms becomes 2.5 ms.
        assert_eq!(bits_as_bytes(0.02)[1], 0.0025);
        // Issue 36: Ψ = 100M on N = 8, K = 12. ZeRO-2 without the optimizer
        // state 2 × 100M + 2 × 100M / 8 = 225 MB (right: 375 MB); ZeRO-1 with
        // everything sharded 16 × 100M / 8 = 200 MB; DDP 1.6 GB. FSDP on 200
        // MB with one all-gather: 2 × 7/8 × 200 MB = 350 MB (right: 525 MB).
        assert_eq!(forgot_optimizer_state(2, 100e6, 8), 225e6);
        assert_eq!(forgot_optimizer_state(3, 100e6, 8), 50e6);
        assert_eq!(sharded_everything(100e6, 8, 12.0), 200e6);
        assert_eq!(not_sharded(100e6, 12.0), 1.6e9);
        assert_eq!(forgot_second_all_gather(8, 200e6), 350e6);
        for k in [
            MistakeKind::PlainMean,
            MistakeKind::RoundedDown,
            MistakeKind::NotSplitOverLanes,
            MistakeKind::ForgotOptimizerState,
            MistakeKind::ForgotSecondAllGather,
        ] {
            assert!(!k.label().is_empty() && !k.explanation().contains("correct"));
        }
    }
}
