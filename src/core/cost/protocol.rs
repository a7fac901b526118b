//! Protocol regimes: one message of `m` bytes is timed by the regime it
//! falls in, each regime with its own α (s) and β (s/B).
//!
//! # MPI point-to-point: eager and rendezvous
//! An MPI library sends a short message **eagerly** (the data goes with the
//! match header into a buffer the receiver owns) and a long one by
//! **rendezvous** (a request to send, the receiver's acknowledgement once
//! the receive is posted, then the data), as Open MPI's ob1 PML does
//! (`ompi/mca/pml/ob1/pml_ob1_sendreq.c`: a RNDV header, then the
//! receiver's ACK, then the rest). The rule here ([`Rendezvous`]):
//!
//! - a message of `m < limit` bytes is eager and costs `α + m·β`;
//! - a message of `m ≥ limit` bytes goes by rendezvous and costs
//!   `α + h + m·β`, with `h` the handshake, by default one round trip of
//!   two zero-byte messages, `h = 2α` ([`Handshake::RoundTrip`]), or a
//!   time given directly ([`Handshake::Seconds`]).
//!
//! The limit counts the match header (Open MPI's parameter text: "Maximum
//! size (in bytes, including header) of short messages"), so a message of
//! exactly the limit already goes by rendezvous. The default limit,
//! [`OPEN_MPI_SM_EAGER`] = 4096 B, is Open MPI's shared-memory BTL default:
//! `btl_eager_limit = 4 * 1024` in `opal/mca/btl/sm/btl_sm_component.c:204`
//! (v5.0.10) and in `opal/mca/btl/vader/btl_vader_component.c:242-252`
//! (v4.1.8, without XPMEM; 32 KiB with it). Open MPI's TCP BTL uses 64 KiB
//! (`opal/mca/btl/tcp/btl_tcp_component.c:317`, both versions).
//!
//! # Regimes with their own α and β
//! A fit to measured times does not know the handshake: it fits each
//! regime's α and β ([`Regimes`]) with one shared breakpoint. The cost
//! model's [`Rendezvous`] at α, β is the special case
//! [`Rendezvous::regimes`]: eager `(α, β)`, rendezvous `(α + h, β)`.
//!
//! # A collective under a protocol
//! A collective's critical path is a list of rounds, `count` rounds whose
//! message is `share · n` bytes ([`Rounds`], the registry's
//! `Algorithm::flat_rounds`). Under regimes its time is
//! `Σ count · (α_r + share·n·β_r) + g·n·γ` with `r` the regime of
//! `share · n` ([`Regimes::time`]); with one regime this is the closed
//! form `a·α + b·n·β + g·n·γ` again. The clocks of
//! [`crate::core::timing`] read the same [`Rendezvous`] per message (the
//! option `ClockOptions::protocol`, `None` by default), so the closed form
//! and the executed schedule still agree.
//!
//! NCCL's LL, LL128 and Simple protocols are a different kind of regime
//! (per collective, not per message): [`super::nccl_tune`].

/// Open MPI's default eager limit of the shared-memory BTL, bytes
/// (`btl_sm_eager_limit`, formerly `btl_vader_eager_limit`; see the module doc).
pub const OPEN_MPI_SM_EAGER: f64 = 4096.0;

/// The critical path of a collective as rounds: `(count, share)` means
/// `count` rounds whose (largest) message is `share · n` bytes for an
/// `n`-byte tensor. `Σ count` is the closed form's start-up factor and
/// `Σ count·share` its byte factor.
pub type Rounds = Vec<(f64, f64)>;

/// Which regime a message falls in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegimeKind {
    /// Below the limit: the data goes with the header.
    Eager,
    /// At or above the limit: a handshake first.
    Rendezvous,
}

impl RegimeKind {
    /// "eager" or "rendezvous".
    pub fn label(self) -> &'static str {
        match self {
            RegimeKind::Eager => "eager",
            RegimeKind::Rendezvous => "rendezvous",
        }
    }
}

/// One regime's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Regime {
    /// Start-up latency per message, s.
    pub alpha: f64,
    /// Transfer time per byte, s/B.
    pub beta: f64,
}

/// The rendezvous handshake's cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Handshake {
    /// One round trip of zero-byte messages on the message's own link: `2α`.
    RoundTrip,
    /// A time given directly, s.
    Seconds(f64),
}

/// MPI's eager/rendezvous rule (module doc): messages of `m ≥ limit`
/// bytes pay the handshake before their data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rendezvous {
    /// Eager limit, bytes (the header included, so `m ≥ limit` is rendezvous).
    pub limit: f64,
    /// The handshake.
    pub handshake: Handshake,
}

impl Default for Rendezvous {
    /// Open MPI's shared-memory default: 4 KiB, one round trip.
    fn default() -> Self {
        Rendezvous {
            limit: OPEN_MPI_SM_EAGER,
            handshake: Handshake::RoundTrip,
        }
    }
}

impl Rendezvous {
    /// The regime of a message of `m` bytes.
    pub fn kind(&self, m: f64) -> RegimeKind {
        if m < self.limit {
            RegimeKind::Eager
        } else {
            RegimeKind::Rendezvous
        }
    }

    /// The handshake in seconds on a link whose start-up is `alpha` (s).
    pub fn handshake_time(&self, alpha: f64) -> f64 {
        match self.handshake {
            Handshake::RoundTrip => 2.0 * alpha,
            Handshake::Seconds(h) => h,
        }
    }

    /// What the protocol adds to a message of `m` bytes on a link whose
    /// start-up is `alpha`: 0 when eager, the handshake otherwise, seconds.
    pub fn extra(&self, m: f64, alpha: f64) -> f64 {
        match self.kind(m) {
            RegimeKind::Eager => 0.0,
            RegimeKind::Rendezvous => self.handshake_time(alpha),
        }
    }

    /// The two regimes at α (s) and β (s/B): eager `(α, β)`, rendezvous
    /// `(α + h, β)`.
    pub fn regimes(&self, alpha: f64, beta: f64) -> Regimes {
        Regimes {
            limit: self.limit,
            eager: Regime { alpha, beta },
            rendezvous: Regime {
                alpha: alpha + self.handshake_time(alpha),
                beta,
            },
        }
    }
}

/// Two regimes with a shared breakpoint: a message of `m < limit` bytes
/// costs `eager.alpha + m·eager.beta`, a longer one
/// `rendezvous.alpha + m·rendezvous.beta` (seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Regimes {
    /// Breakpoint, bytes per message.
    pub limit: f64,
    /// Below the breakpoint.
    pub eager: Regime,
    /// At and above it.
    pub rendezvous: Regime,
}

impl Regimes {
    /// The regime of a message of `m` bytes.
    pub fn kind(&self, m: f64) -> RegimeKind {
        if m < self.limit {
            RegimeKind::Eager
        } else {
            RegimeKind::Rendezvous
        }
    }

    /// The parameters a message of `m` bytes is timed with.
    pub fn of(&self, m: f64) -> Regime {
        match self.kind(m) {
            RegimeKind::Eager => self.eager,
            RegimeKind::Rendezvous => self.rendezvous,
        }
    }

    /// One message of `m` bytes, seconds.
    pub fn message_time(&self, m: f64) -> f64 {
        let r = self.of(m);
        r.alpha + m * r.beta
    }

    /// A collective of `n` bytes whose critical path is `rounds`, plus
    /// `gamma_factor·n·gamma` of reduction (γ in s/B), seconds:
    /// `Σ count·(α_r + share·n·β_r) + g·n·γ` (module doc).
    pub fn time(&self, rounds: &[(f64, f64)], n: f64, gamma_factor: f64, gamma: f64) -> f64 {
        rounds
            .iter()
            .map(|&(count, share)| count * self.message_time(share * n))
            .sum::<f64>()
            + gamma_factor * n * gamma
    }
}

/// The regime features of a collective of `n` bytes at breakpoint `limit`:
/// `[eager start-ups, eager bytes, rendezvous start-ups, rendezvous bytes]`
/// on its critical path (`rounds`), so that its time under [`Regimes`] is
/// the dot product with `[α_e, β_e, α_r, β_r]` (plus γ). The fit's design
/// row.
pub fn features(rounds: &[(f64, f64)], n: f64, limit: f64) -> [f64; 4] {
    let mut f = [0.0; 4];
    for &(count, share) in rounds {
        let m = share * n;
        let k = if m < limit { 0 } else { 2 };
        f[k] += count;
        f[k + 1] += count * m;
    }
    f
}

/// `(start-ups, rendezvous rounds)` of `rounds` at `n` bytes under `r`:
/// how many rounds pay the handshake.
pub fn rendezvous_rounds(rounds: &[(f64, f64)], n: f64, r: &Rendezvous) -> f64 {
    rounds
        .iter()
        .filter(|&&(_, share)| r.kind(share * n) == RegimeKind::Rendezvous)
        .map(|&(count, _)| count)
        .sum()
}

/// A collective's time under [`Rendezvous`]: the closed form plus the
/// handshakes of its rendezvous rounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProtocolTime {
    /// The closed-form time without a protocol, s.
    pub base: f64,
    /// Rounds on the critical path whose message is at or above the limit.
    pub rendezvous_rounds: f64,
    /// Their handshakes, s.
    pub handshake_part: f64,
    /// `base + handshake_part`, s.
    pub time: f64,
}

impl ProtocolTime {
    /// The time of a collective of `n` bytes whose critical path is
    /// `rounds` and whose closed form gives `base` seconds, on a link of
    /// start-up `alpha` (s), under `proto`.
    pub fn of(rounds: &[(f64, f64)], n: f64, base: f64, alpha: f64, proto: &Rendezvous) -> Self {
        let k = rendezvous_rounds(rounds, n, proto);
        let h = k * proto.handshake_time(alpha);
        ProtocolTime {
            base,
            rendezvous_rounds: k,
            handshake_part: h,
            time: base + h,
        }
    }
}

/// The uniform rounds of a closed form whose every message is the same
/// share of `n`: `factors = [a, b, g]` gives `a` rounds of `b/a · n` bytes
/// (empty when `a ≤ 0`).
pub fn uniform_rounds(factors: [f64; 3]) -> Rounds {
    let [a, b, _] = factors;
    if a > 0.0 {
        vec![(a, b / a)]
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_of_the_limit_is_already_rendezvous() {
        let r = Rendezvous::default();
        assert_eq!(r.kind(4095.0), RegimeKind::Eager);
        assert_eq!(r.kind(4096.0), RegimeKind::Rendezvous);
        // α = 1 µs: the handshake is one round trip, 2 µs.
        assert_eq!(r.extra(4095.0, 1e-6), 0.0);
        assert_eq!(r.extra(4096.0, 1e-6), 2e-6);
        let s = Rendezvous {
            limit: 65536.0,
            handshake: Handshake::Seconds(7e-6),
        };
        assert_eq!(s.extra(1e6, 1e-6), 7e-6);
    }

    #[test]
    fn ring_at_p2_under_the_open_mpi_default_by_hand() {
        // Ring all-reduce at p = 2: 2 rounds of n/2 bytes (factors [2, 1, 0.5]).
        // α = 1 µs, β = 0.25 ns/B (4 GB/s), limit 4096 B, h = 2α.
        // n = 8 KiB: messages of 4096 B are rendezvous:
        //   2 × (1 µs + 2 µs + 4096 × 0.25 ns) = 2 × 4.024 µs = 8.048 µs.
        // n = 4 KiB: messages of 2048 B are eager:
        //   2 × (1 µs + 2048 × 0.25 ns) = 2 × 1.512 µs = 3.024 µs.
        let regimes = Rendezvous::default().regimes(1e-6, 0.25e-9);
        let rounds = vec![(2.0, 0.5)];
        assert!((regimes.time(&rounds, 8192.0, 0.5, 0.0) - 8.048e-6).abs() < 1e-15);
        assert!((regimes.time(&rounds, 4096.0, 0.5, 0.0) - 3.024e-6).abs() < 1e-15);
        assert_eq!(features(&rounds, 8192.0, 4096.0), [0.0, 0.0, 2.0, 8192.0]);
        assert_eq!(features(&rounds, 4096.0, 4096.0), [2.0, 4096.0, 0.0, 0.0]);
        assert_eq!(
            rendezvous_rounds(&rounds, 8192.0, &Rendezvous::default()),
            2.0
        );
        assert_eq!(uniform_rounds([2.0, 1.0, 0.5]), rounds);
        assert!(uniform_rounds([0.0, 0.0, 0.0]).is_empty());
    }
}
