//! The ring view's "On the clock" numbers, in a module of their own.
//!
//! The ring view shows them only above the drawn size (p > 64), and the
//! clock that times them (`core::timing::clock` with the ring's rounds) is
//! about 18 KB of the page gzipped. So the ring page leaves it out, and
//! `index.html`'s loader fetches this binary the first time the panel needs
//! it (`labModule("ringclock")`, from
//! `collective_lab::app::views::ring::clock`). Nothing here computes a
//! number: it calls [`collective_lab::core::timing::ring_clock::ring_clock`]
//! and hands the totals over as [`RingClock::to_wire`] lays them out.
//!
//! [`RingClock::to_wire`]: collective_lab::core::timing::ring_clock::RingClock::to_wire

#[cfg(target_arch = "wasm32")]
mod export {
    use collective_lab::core::timing::ring_clock::ring_clock as run;
    use wasm_bindgen::prelude::*;

    /// The ring all-reduce of `n` elements of `elem_bytes` bytes on `p`
    /// ranks of a flat topology (α seconds, β seconds per byte) on both
    /// clocks, as [`RingClock::to_wire`]'s seven numbers.
    ///
    /// `n` and `elem_bytes` come as JavaScript numbers (exact below 2⁵³).
    ///
    /// # Errors
    /// The clock's error as a message, or a message for a count that is not
    /// a whole number of at least 1.
    ///
    /// [`RingClock::to_wire`]: collective_lab::core::timing::ring_clock::RingClock::to_wire
    #[wasm_bindgen]
    pub fn ring_clock(
        p: usize,
        n: f64,
        elem_bytes: f64,
        alpha: f64,
        beta: f64,
    ) -> Result<Vec<f64>, String> {
        let whole =
            |x: f64| x.is_finite() && x >= 1.0 && x.fract() == 0.0 && x < 9.007_199_254_740_992e15;
        if !whole(n) || !whole(elem_bytes) {
            return Err("n and elem_bytes must be whole numbers of at least 1".into());
        }
        run(p, n as u64, elem_bytes as u64, alpha, beta)
            .map(|c| c.to_wire().to_vec())
            .map_err(|e| e.to_string())
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    println!(
        "The ring view's clock module is WebAssembly: `trunk build` builds it (see README.md)."
    );
}
