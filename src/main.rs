//! Entry point: mounts the Yew app in the browser.

#[cfg(target_arch = "wasm32")]
fn main() {
    collective_lab::app::start(collective_lab::app::View::render);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    println!("Collective Lab is a WebAssembly app: run `trunk serve` (see README.md).");
}
