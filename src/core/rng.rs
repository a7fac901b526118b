//! A tiny deterministic pseudo-random generator (no `rand` crate).
//!
//! SplitMix64 (Steele, Lea & Flood 2014, "Fast splittable pseudorandom number
//! generators", OOPSLA; constants as in Vigna's public-domain reference code)
//! for 64-bit words, 53-bit uniform doubles in [0, 1), and standard normal
//! variates by the Box–Muller transform (Box & Muller 1958). The same seed
//! gives the same stream on every platform: only integer arithmetic and IEEE
//! `ln`, `sqrt`, `cos`, `sin` are used.

/// SplitMix64 state plus a cached second Box–Muller normal.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
    spare_normal: Option<f64>,
}

impl SplitMix64 {
    /// A generator seeded with `seed` (any value, including 0).
    pub fn new(seed: u64) -> Self {
        SplitMix64 {
            state: seed,
            spare_normal: None,
        }
    }

    /// A generator for sub-stream `stream` of `seed`, so that, e.g., each
    /// worker's mini-batch sampler is independent of the others but fixed by
    /// (seed, worker).
    pub fn derived(seed: u64, stream: u64) -> Self {
        let mut mix = SplitMix64::new(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        let s = mix.next_u64();
        SplitMix64::new(s)
    }

    /// The next 64-bit word.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform double in [0, 1) with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform index in `0..n` (multiply-shift; bias below 2⁻³² for the
    /// n ≤ 10⁶ used here). Returns 0 when `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A standard normal variate (mean 0, variance 1), by Marsaglia's polar
    /// method (Marsaglia & Bray 1964): draw (u, v) uniform in [−1, 1)²
    /// until `s = u² + v²` lies in (0, 1); then `u·f` and `v·f` with
    /// `f = √(−2 ln s / s)` are two independent standard normals (the
    /// second is kept for the next call). Only `ln` and `sqrt`: Box–Muller's
    /// `sin` and `cos` would link the trigonometric functions and their
    /// argument reduction (about 2.6 KB gzipped) into every page that
    /// draws a sample.
    pub fn normal(&mut self) -> f64 {
        if let Some(z) = self.spare_normal.take() {
            return z;
        }
        loop {
            let u = 2.0 * self.next_f64() - 1.0;
            let v = 2.0 * self.next_f64() - 1.0;
            let s = u * u + v * v;
            if s > 0.0 && s < 1.0 {
                let f = (-2.0 * s.ln() / s).sqrt();
                self.spare_normal = Some(v * f);
                return u * f;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_values() {
        // Reference outputs of SplitMix64 seeded with 1234567 (from Vigna's
        // splitmix64.c, also used by many test suites).
        let mut r = SplitMix64::new(1_234_567);
        assert_eq!(r.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(r.next_u64(), 3_203_168_211_198_807_973);
        assert_eq!(r.next_u64(), 9_817_491_932_198_370_423);
    }

    #[test]
    fn uniform_and_normal_moments() {
        let mut r = SplitMix64::new(7);
        let n = 20_000;
        let u: Vec<f64> = (0..n).map(|_| r.next_f64()).collect();
        assert!(u.iter().all(|x| (0.0..1.0).contains(x)));
        let mean = u.iter().sum::<f64>() / n as f64;
        assert!((mean - 0.5).abs() < 0.01, "{mean}");
        let z: Vec<f64> = (0..n).map(|_| r.normal()).collect();
        let zm = z.iter().sum::<f64>() / n as f64;
        let zv = z.iter().map(|x| (x - zm) * (x - zm)).sum::<f64>() / n as f64;
        assert!(zm.abs() < 0.03, "{zm}");
        assert!((zv - 1.0).abs() < 0.05, "{zv}");
    }

    #[test]
    fn below_stays_in_range_and_streams_differ() {
        let mut r = SplitMix64::derived(42, 3);
        assert!((0..1000).all(|_| r.below(7) < 7));
        assert_eq!(SplitMix64::new(1).below(0), 0);
        let a = SplitMix64::derived(42, 0).next_u64();
        let b = SplitMix64::derived(42, 1).next_u64();
        assert_ne!(a, b);
        assert_eq!(a, SplitMix64::derived(42, 0).next_u64());
    }
}
