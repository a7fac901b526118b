//! [`use_resumable`]: a long computation spread over many short slices
//! after the first paint, so the page stays responsive while it runs and
//! the component shows its progress.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
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
/// about a microsecond of wasm, so a call is a couple of milliseconds).
const STEPS: usize = 2_000;

/// Wall-clock milliseconds one slice may use before it yields to the
/// browser (a frame is 16.7 ms: a click waits at most this long, and the
/// zero-delay timeout between slices, which browsers clamp to 4 ms, leaves
/// the rest for input and painting).
const SLICE_MS: f64 = 4.0;

/// The job for `deps`, made by `make` during the render in which `deps`
/// change (so making it must be cheap) and then advanced in slices of about
/// [`SLICE_MS`] from zero-delay timeouts, each followed by a re-render of
/// the calling component. A change of `deps` drops the job running and its
/// pending slice; only the newest job is kept. The caller reads the job's
/// progress and result through the returned handle.
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
            let timer: Rc<RefCell<Option<Timeout>>> = Rc::default();
            next_slice(job, timer.clone(), redraw);
            move || drop(timer.borrow_mut().take())
        });
    }
    job
}

/// Queues one slice of `job`, and from it the next, until the job is done
/// or `timer` is emptied (which cancels the slice waiting).
fn next_slice<J: Resumable>(
    job: Rc<RefCell<J>>,
    timer: Rc<RefCell<Option<Timeout>>>,
    redraw: UseForceUpdateHandle,
) {
    let holder = timer.clone();
    let slice = Timeout::new(0, move || {
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
            next_slice(job, holder, redraw);
        }
    });
    *timer.borrow_mut() = Some(slice);
}
