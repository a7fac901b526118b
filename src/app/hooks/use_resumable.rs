//! [`use_resumable`]: a long computation spread over many short slices
//! after the first paint, so the page stays responsive while it runs and
//! the component shows its progress.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::core::collectives::pipelining::ComparisonJob;

/// A computation that runs a bounded number of steps at a time (the core's
/// jobs, e.g. [`ComparisonJob`]).
pub trait Resumable: 'static {
    /// Runs at most `steps` steps; true once the computation is done.
    fn advance(&mut self, steps: usize) -> bool;
}

impl Resumable for ComparisonJob {
    fn advance(&mut self, steps: usize) -> bool {
        ComparisonJob::advance(self, steps)
    }
}

/// Steps per call of [`Resumable::advance`] (a dataflow clock event is
/// about a microsecond of wasm, so a call is a millisecond or two).
const STEPS: usize = 1_000;

/// Wall-clock milliseconds one slice may use before it yields to the
/// browser. A click that arrives during a slice waits at most this long.
const SLICE_MS: f64 = 4.0;

/// The job for `deps`, made by `make` during the render in which `deps`
/// change (so making it must be cheap) and then advanced in slices of about
/// [`SLICE_MS`], each followed by a re-render of the calling component.
/// Slices run from `requestIdleCallback`, so input, rendering and timers
/// go first; where the browser has no idle callbacks, from zero-delay
/// timeouts. A change of `deps` drops the job running and its pending
/// slice; only the newest job is kept. The caller reads the job's progress
/// and result through the returned handle.
#[hook]
pub fn use_resumable<D, J, F>(deps: D, make: F) -> Rc<RefCell<J>>
where
    D: PartialEq + Clone + 'static,
    J: Resumable,
    F: FnOnce(&D) -> J,
{
    let slot = use_mut_ref(|| None::<(D, Rc<RefCell<J>>)>);
    let redraw = use_force_update();
    let job = {
        let mut s = slot.borrow_mut();
        match &*s {
            Some((d, j)) if *d == deps => j.clone(),
            _ => {
                let j = Rc::new(RefCell::new(make(&deps)));
                *s = Some((deps.clone(), j.clone()));
                j
            }
        }
    };
    {
        let job = job.clone();
        use_effect_with(deps, move |_| {
            let slices = Slices::start(job, redraw);
            move || slices.borrow_mut().stop()
        });
    }
    job
}

/// The slices of one job: the callback the browser calls (kept alive
/// here), what is pending, and whether the job still runs.
#[derive(Default)]
struct Slices {
    callback: Option<Closure<dyn FnMut()>>,
    idle: Option<u32>,
    timer: Option<Timeout>,
    live: bool,
}

impl Slices {
    fn start<J: Resumable>(job: Rc<RefCell<J>>, redraw: UseForceUpdateHandle) -> Rc<RefCell<Self>> {
        let me = Rc::new(RefCell::new(Slices {
            live: true,
            ..Slices::default()
        }));
        let weak = Rc::downgrade(&me);
        let callback = Closure::<dyn FnMut()>::new(move || {
            let Some(me) = weak.upgrade() else { return };
            if !me.borrow().live {
                return;
            }
            let start = js_sys::Date::now();
            let done = loop {
                if job.borrow_mut().advance(STEPS) {
                    break true;
                }
                if js_sys::Date::now() - start >= SLICE_MS {
                    break false;
                }
            };
            redraw.force_update();
            if !done {
                Slices::queue(&me);
            }
        });
        me.borrow_mut().callback = Some(callback);
        Slices::queue(&me);
        me
    }

    /// Asks for the next slice.
    fn queue(me: &Rc<RefCell<Self>>) {
        let f: Option<js_sys::Function> = me
            .borrow()
            .callback
            .as_ref()
            .map(|c| c.as_ref().unchecked_ref::<js_sys::Function>().clone());
        let Some(f) = f else { return };
        match gloo::utils::window().request_idle_callback(&f) {
            Ok(h) => me.borrow_mut().idle = Some(h),
            Err(_) => {
                let t = Timeout::new(0, move || drop(f.call0(&JsValue::NULL)));
                me.borrow_mut().timer = Some(t);
            }
        }
    }

    /// Cancels the pending slice and ends the job's slices.
    fn stop(&mut self) {
        self.live = false;
        if let Some(h) = self.idle.take() {
            gloo::utils::window().cancel_idle_callback(h);
        }
        self.timer = None;
        self.callback = None;
    }
}
