//! The `hang` view alone: what `index.html` loads for `?view=hang`.

#[cfg(target_arch = "wasm32")]
fn main() {
    collective_lab::app::start(collective_lab::app::views::only::hang);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    println!("Collective Lab is a WebAssembly app: run `trunk serve` (see README.md).");
}
