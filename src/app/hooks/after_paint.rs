//! [`after_paint`]: run a closure once the browser has painted (the
//! scheduling shared by [`super::use_deferred`] and
//! [`super::use_after_paint`]; not a hook).

use std::cell::RefCell;
use std::rc::Rc;

use gloo::render::{request_animation_frame, AnimationFrame};
use gloo::timers::callback::Timeout;

/// A callback waiting for the browser to paint: the animation frame and then
/// the timeout, or the fallback timeout. Dropping it cancels whichever is
/// pending.
pub(super) struct AfterPaint {
    _frame: AnimationFrame,
    _timeout: Rc<RefCell<Option<Timeout>>>,
    _fallback: Timeout,
}

/// How long the work waits for an animation frame before it runs anyway,
/// ms: browsers pause animation frames in hidden tabs, in offscreen
/// cross-origin iframes (a course page scrolled elsewhere) and in headless
/// screenshots, and the work must not wait for the page to be seen.
const FRAME_FALLBACK_MS: u32 = 100;

/// Runs `f` once, after the next paint: a `requestAnimationFrame` callback
/// runs just before the frame is painted, and a 0 ms timeout set there runs
/// after it. If no frame comes within [`FRAME_FALLBACK_MS`], `f` runs then.
pub(super) fn after_paint(f: impl FnOnce() + 'static) -> AfterPaint {
    let work = Rc::new(RefCell::new(Some(f)));
    let run = {
        let work = work.clone();
        move || {
            let once = work.borrow_mut().take();
            if let Some(f) = once {
                f();
            }
        }
    };
    let timeout = Rc::new(RefCell::new(None));
    let slot = timeout.clone();
    let after_frame = run.clone();
    let frame = request_animation_frame(move |_| {
        *slot.borrow_mut() = Some(Timeout::new(0, after_frame));
    });
    AfterPaint {
        _frame: frame,
        _timeout: timeout,
        _fallback: Timeout::new(FRAME_FALLBACK_MS, run),
    }
}
