//! Synthetic nccl-tests logs made from a known α, β and algorithm model, with
//! seeded multiplicative noise and optional outliers: the examples of the
//! view and the round-trip tests of the fit. Every log says in its first
//! line that it is synthetic.

use super::model::{CollectiveKind, Model, SplitMix64};
use crate::core::cost::nccl::nccl_time_str;
use crate::core::units::decimal;
use crate::core::units::{format_bandwidth, format_beta, format_time};

/// The sizes of a synthetic run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sizes {
    /// `min, 2·min, 4·min, … ≤ max` bytes (nccl-tests `-f 2`).
    Doubling {
        /// First size, bytes.
        min: u64,
        /// Last size at most, bytes.
        max: u64,
    },
    /// `start + k·step` for `k < count` (nccl-tests `-i step`).
    Linear {
        /// First size, bytes.
        start: u64,
        /// Step, bytes.
        step: u64,
        /// Number of rows.
        count: usize,
    },
}

impl Sizes {
    /// The sizes in bytes.
    pub fn list(self) -> Vec<u64> {
        match self {
            Sizes::Doubling { min, max } => {
                let mut v = Vec::new();
                let mut s = min.max(1);
                while s <= max && v.len() < 64 {
                    v.push(s);
                    s = s.saturating_mul(2);
                }
                v
            }
            Sizes::Linear { start, step, count } => {
                (0..count as u64).map(|k| start + k * step).collect()
            }
        }
    }
}

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec {
    /// Model whose closed form gives the times.
    pub model: Model,
    /// Rank count.
    pub p: usize,
    /// α, seconds.
    pub alpha: f64,
    /// β, seconds per byte.
    pub beta: f64,
    /// Standard deviation of the multiplicative noise (0.01 = 1 %).
    pub noise: f64,
    /// Number of outlier rows (times multiplied by 2.5, spread over the run).
    pub outliers: usize,
    /// RNG seed.
    pub seed: u64,
    /// Sizes.
    pub sizes: Sizes,
}

impl Spec {
    /// The benchmarks' large log: a ring all-reduce on 16 ranks (α = 5 µs,
    /// β = 0.08 ns/B, 1 % noise, 3 outliers, seed 7) at 10,000 sizes from
    /// 8 B in steps of 64 KiB.
    pub fn benchmark_log() -> Spec {
        Spec {
            model: Model::Ring,
            p: 16,
            alpha: 5e-6,
            beta: 0.08e-9,
            noise: 0.01,
            outliers: 3,
            seed: 7,
            sizes: Sizes::Linear {
                start: 8,
                step: 1 << 16,
                count: 10_000,
            },
        }
    }
}

/// A named example for the view's "Load an example" menu.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Example {
    /// Key (`example=` value).
    pub key: &'static str,
    /// Menu text.
    pub title: &'static str,
    /// Generator input.
    pub spec: Spec,
}

/// The view's examples (all synthetic, all labelled so).
pub fn examples() -> Vec<Example> {
    let base = Spec {
        model: Model::Ring,
        p: 16,
        alpha: 5e-6,
        beta: 0.08e-9,
        noise: 0.01,
        outliers: 0,
        seed: 1,
        sizes: Sizes::Doubling {
            min: 8,
            max: 1 << 30,
        },
    };
    vec![
        Example {
            key: "ring",
            title: "Ring, p = 16, α = 5 µs, 100 Gb/s, 1 % noise (synthetic)",
            spec: base,
        },
        Example {
            key: "rd",
            title: "Recursive doubling, p = 8, α = 2 µs, 50 GB/s, 1 % noise (synthetic)",
            spec: Spec {
                model: Model::RecursiveDoubling,
                p: 8,
                alpha: 2e-6,
                beta: 0.02e-9,
                seed: 2,
                ..base
            },
        },
        Example {
            key: "outliers",
            title: "Rabenseifner, p = 64, α = 3 µs, 400 Gb/s, 3 outlier rows (synthetic)",
            spec: Spec {
                model: Model::Rabenseifner,
                p: 64,
                alpha: 3e-6,
                beta: 0.02e-9,
                outliers: 3,
                seed: 3,
                ..base
            },
        },
        Example {
            key: "tree",
            title: "Binomial tree, p = 32, α = 10 µs, 25 GB/s, 2 % noise (synthetic)",
            spec: Spec {
                model: Model::Tree,
                p: 32,
                alpha: 10e-6,
                beta: 0.04e-9,
                noise: 0.02,
                seed: 4,
                ..base
            },
        },
    ]
}

/// The example named `key` (the `example=` URL value).
///
/// # Errors
/// "example must be one of ring, rd, outliers, tree (got “…”)" for any other key.
pub fn example(key: &str) -> Result<Example, String> {
    let all = examples();
    let k = key.trim();
    all.iter().find(|e| e.key == k).copied().ok_or_else(|| {
        let keys: Vec<&str> = all.iter().map(|e| e.key).collect();
        format!("example must be one of {} (got “{k}”)", keys.join(", "))
    })
}

impl Example {
    /// The log text of the example ([`generate`] of its spec).
    pub fn text(&self) -> String {
        generate(&self.spec)
    }

    /// Where the text came from, as the view shows it.
    pub fn source(&self) -> String {
        format!("synthetic example: {}", self.title)
    }

    /// The fit model the example's times were made with: the view preselects
    /// it so that the fit recovers the example's α and bandwidth.
    pub fn model(&self) -> Model {
        self.spec.model
    }
}

/// The true (noise-free) time of `n` bytes, seconds.
pub fn true_time(s: &Spec, n: f64) -> f64 {
    s.model
        .time(CollectiveKind::AllReduce, s.p, n, s.alpha, s.beta)
        .unwrap_or(0.0)
}

/// Writes an `all_reduce_perf` log (out-of-place and in-place columns, rank
/// lines, `# Avg bus bandwidth`) for `spec`. Deterministic in `spec.seed`.
pub fn generate(spec: &Spec) -> String {
    let mut rng = SplitMix64::new(spec.seed);
    let sizes = spec.sizes.list();
    let p = spec.p.max(2);
    let factor = CollectiveKind::AllReduce.busbw_factor(p);
    // Outlier rows: spread evenly.
    let m = spec.outliers.min(sizes.len());
    let outlier_rows: Vec<usize> = (0..m)
        .map(|k| (2 * k + 1) * sizes.len() / (2 * m.max(1)))
        .collect();
    let mut out = String::new();
    out += &format!(
        "# SYNTHETIC log made by Collective Lab (not a measurement): {} all-reduce, p = {p}, α = {}, β = {} ({}), {}% multiplicative noise, {} outlier rows, seed {}\n",
        spec.model.label(),
        format_time(spec.alpha),
        format_beta(spec.beta),
        format_bandwidth(1.0 / spec.beta),
        crate::core::units::decimal::shortest(spec.noise * 100.0),
        m,
        spec.seed
    );
    let (minb, maxb) = (
        sizes.first().copied().unwrap_or(0),
        sizes.last().copied().unwrap_or(0),
    );
    let step = match spec.sizes {
        Sizes::Doubling { .. } => "2(factor)".to_string(),
        Sizes::Linear { step, .. } => format!("{step}(bytes)"),
    };
    out += &format!("# nThread 1 nGpus 1 minBytes {minb} maxBytes {maxb} step: {step} warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n");
    for r in 0..p.min(4096) {
        out += &format!(
            "#  Rank {r:2} Group  0 Pid {:6} on synthetic device {:2} [0x00] Synthetic GPU\n",
            1000 + r,
            r % 8
        );
    }
    out += "#\n#                                                              out-of-place                       in-place          \n";
    out += "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n";
    out += "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       \n";
    let mut bus_sum = 0.0;
    let mut bus_n = 0usize;
    for (i, &n) in sizes.iter().enumerate() {
        let t0 = true_time(spec, n as f64);
        let mut line = format!("{n:12}  {:12}     float     sum      -1", n / 4);
        for _ in 0..2 {
            let mut t = t0 * (1.0 + spec.noise * rng.normal()).max(0.05);
            if outlier_rows.contains(&i) {
                t *= 2.5;
            }
            let ts = nccl_time_str(t * 1e6);
            let t_printed: f64 = decimal::parse(ts.trim()).unwrap_or(t * 1e6);
            let alg = n as f64 / (t_printed * 1e-6) / 1e9;
            let bus = alg * factor;
            let bus_s = format!("{:>6}", decimal::fixed(bus, 2));
            bus_sum += decimal::parse(bus_s.trim()).unwrap_or(bus);
            bus_n += 1;
            line += &format!("  {ts}  {:>6}  {bus_s}  {:5}", decimal::fixed(alg, 2), 0);
        }
        out += &line;
        out.push('\n');
    }
    out += "# Out of bounds values : 0 OK\n";
    out += &format!(
        "# Avg bus bandwidth    : {}\n#\n",
        decimal::fixed(bus_sum / bus_n.max(1) as f64, 4)
    );
    out
}
