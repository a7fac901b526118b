//! The step view's time-to-quality run, in a module of its own.
//!
//! `#quality` runs the SGD lab's training problem for the three strategies
//! and turns each step into seconds with the step page's clocks. The run
//! (the problem, its gradients and the three strategies' steps) is about
//! 26 KB of the step page gzipped, and the panel shows it only after the
//! first paint. So the step page leaves it out, and `index.html`'s loader
//! fetches this binary the first time the panel asks for it
//! (`labModule("quality")`, from `collective_lab::app::views::step::quality`).
//! Nothing here computes a number: it calls
//! [`collective_lab::pages::step::quality::run_wire`], which reads the key
//! off the wire, runs it and lays the rows out as numbers.

#[cfg(target_arch = "wasm32")]
mod export {
    use collective_lab::pages::step::quality::run_wire;
    use wasm_bindgen::prelude::*;

    /// The time-to-quality run of the key that
    /// [`key_to_wire`] laid out: `query` the SGD lab's canonical query and
    /// `nums` its three clocks and target (10 numbers). Returns the rows as
    /// [`computed_to_wire`] lays them out.
    ///
    /// # Errors
    /// A sentence for a bad key, or the training model's message.
    ///
    /// [`key_to_wire`]: collective_lab::pages::step::quality::key_to_wire
    /// [`computed_to_wire`]: collective_lab::pages::step::quality::computed_to_wire
    #[wasm_bindgen]
    pub fn time_to_quality(query: &str, nums: Vec<f64>) -> Result<Vec<f64>, String> {
        run_wire(query, &nums)
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    println!(
        "The step view's time-to-quality module is WebAssembly: `trunk build` builds it (see README.md)."
    );
}
