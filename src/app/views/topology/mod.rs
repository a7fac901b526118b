//! `?view=topology`: hierarchical, multi-lane, rack-aware and unequal-group
//! all-reduce on racks ⊃ nodes ⊃ ranks, drawn from the schedule the core
//! executed on a [`crate::core::topology::Topology`].
//!
//! State is the app's [`ViewState`](crate::app::state::ViewState) behind
//! [`use_view_state`], as in every view; the URL is written back after every
//! change. Everything shown comes from
//! [`crate::core::topology_view`]; the submodules only format it.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::computing::computing;
use crate::app::components::step_controls::StepControls;
use crate::app::hooks::{use_deferred, use_view_state};
use crate::app::route::ViewProps;
use crate::app::state::{one_query, Action, Commit};
use crate::core::collectives::Algorithm;
use crate::core::topology::{LinkClass, Topology};
use crate::core::topology_view::view_model::layout;
use crate::core::topology_view::TopoRun;
use crate::core::units::format_bytes_short;
use crate::core::work::topology_run;
use crate::pages::topology::{run_for, run_key};
use crate::params::topology::{TopologyParams, KEYS, PRESETS};
use crate::params::FieldError;

pub mod caveats;
pub mod compare;
pub mod compare_model;
pub mod controls;
pub mod course;
pub mod legend;
pub mod panels;
pub mod picture;
pub mod presets;
pub mod sweep;
pub mod table;

use panels::{step_panels, summary_panels, use_summary, StepPanelsProps, SummaryPanelsProps};
use picture::{picture, PictureProps};

/// Fields that change the schedule (and so reset the step).
const SCHEDULE_FIELDS: [&str; 8] = [
    "alg", "nodes", "gpus", "groups", "racks", "size", "n", "lanes",
];

/// The topology view commits like every view (each field parsed as the URL
/// parses it), and more: a new shape, size or algorithm is a new schedule,
/// so its step goes back to 0 (link figures only change timing), and
/// `preset` (the preset buttons, not a URL key) replaces every parameter
/// with the preset's and clears every draft.
impl Commit for TopologyParams {
    fn commit(&self, fields: &[(&'static str, String)]) -> (Self, Vec<FieldError>) {
        if let Some((_, id)) = fields.iter().find(|(k, _)| *k == "preset") {
            return match PRESETS.iter().find(|p| p.id == id) {
                Some(p) => (p.params(), Vec::new()),
                None => (
                    self.clone(),
                    vec![FieldError::new(
                        "preset",
                        format!("there is no preset “{id}”"),
                    )],
                ),
            };
        }
        let (mut next, errs) = one_query(self, fields);
        let new_schedule = fields
            .iter()
            .any(|(k, _)| SCHEDULE_FIELDS.contains(k) && !errs.iter().any(|e| e.field == *k));
        if new_schedule && next != *self {
            next.step = 0;
        }
        (next, errs)
    }

    fn clears(field: &str) -> &'static [&'static str] {
        if field == "preset" {
            &KEYS
        } else {
            &[]
        }
    }
}

/// The topology view.
#[component]
pub fn TopologyView(props: &ViewProps) -> Html {
    let state = use_view_state::<TopologyParams>(props);
    let params = state.params.clone();
    let work = topology_run(params.p() as u64);
    let deferred = use_deferred(run_key(&params), work, run_for);
    let pending = deferred.ready().is_none();
    let result: Rc<Result<(Topology, TopoRun), String>> = deferred
        .ready()
        .cloned()
        .unwrap_or_else(|| Rc::new(Err(String::new())));
    let summary = use_summary(&params, &panels::RunResult(result.clone()), !pending);
    let last = result.as_ref().as_ref().map_or(0, |(_, r)| r.num_rounds());
    let step = params.step.min(last);
    let dispatch = state.dispatcher();
    {
        let d = dispatch.clone();
        use_effect_with((params.step, last, pending), move |(s, last, pending)| {
            if !pending && s > last {
                d.dispatch(Action::field("step", last.to_string()));
            }
        });
    }
    // Stable callbacks (the dispatcher never changes), so components whose
    // other props did not change skip re-rendering when only the step moves.
    let on_commit = {
        let d = dispatch.clone();
        use_callback((), move |(f, t): (&'static str, String), _| {
            d.dispatch(Action::field(f, t))
        })
    };
    let on_step = {
        let d = dispatch.clone();
        use_callback(last, move |s: usize, last| {
            d.dispatch(Action::field("step", s.min(*last).to_string()))
        })
    };
    let on_preset = {
        let d = dispatch.clone();
        use_callback((), move |id: &'static str, _| {
            d.dispatch(Action::field("preset", id))
        })
    };
    let on_pick = {
        let d = dispatch.clone();
        use_callback((), move |a: Algorithm, _| {
            d.dispatch(Action::field("alg", a.topology_info().key))
        })
    };
    let ctx = &props.ctx;
    let orphans = state
        .drafts
        .orphans_html(ctx.on_screen("controls", &controls::ON_SCREEN));
    let (errors_top, errors_below) = ctx.place_errors("controls", orphans);

    let body = match result.as_ref() {
        Err(e) => html! {
            <p class="field-error" role="alert" id="run-error">
                {format!("{} cannot run on this topology: {e}. Pick another algorithm below or change the shape.", params.alg.topology_info().short_label)}
            </p>
        },
        Ok((topo, r)) => {
            let sizes = Rc::new(topo.node_sizes());
            let full = Rc::new(layout(&sizes, topo.racks(), topo.lanes(), false));
            let small = Rc::new(layout(&sizes, topo.racks(), topo.lanes(), true));
            let arrows = Rc::new(crate::pages::topology::step::arrows(r, step));
            let active = Rc::new(crate::pages::topology::step::active(r, step, topo.p()));
            let core =
                (topo.racks() > 1).then(|| crate::pages::topology::step::core_label(r, step));
            let phase = crate::pages::topology::narration::phase_label(r, step);
            let caption = AttrValue::from(format!(
                "{} on {} nodes ({} ranks{}): {phase}. NIC labels: + bytes this round, Σ bytes so far, both directions.",
                r.label,
                topo.nodes(),
                topo.p(),
                if topo.racks() > 1 { format!(", {} racks", topo.racks()) } else { String::new() }
            ));
            let pic = |l: &Rc<crate::core::topology_view::view_model::Layout>, id: &'static str| {
                let labels = Rc::new(crate::pages::topology::step::nic_labels(l, r, step));
                picture(&PictureProps {
                    layout: l.clone(),
                    node_sizes: sizes.clone(),
                    arrows: arrows.clone(),
                    nic_labels: labels,
                    core_label: core.clone(),
                    active: active.clone(),
                    caption: caption.clone(),
                    id_prefix: id.into(),
                })
            };
            let mut present = vec![LinkClass::Intra, LinkClass::Nic];
            if topo.racks() > 1 {
                present.push(LinkClass::Core);
            }
            html! {
                <>
                    {ctx.panel("steps", html! {<>
                        <div class="status">
                            <p class="phase" id="phase">{phase.clone()}</p>
                            <p class="narration" id="narration" aria-live="polite">{crate::pages::topology::narration::narration(r, step)}</p>
                        </div>
                        <StepControls {step} {last} {on_step} unit="Round" />
                    </>})}
                    {ctx.panel("picture", html! {
                        <div class="topo-pictures">
                            if !full.compact {
                                <div class="topo-full">{pic(&full, "topo-full")}</div>
                            }
                            <div class={classes!("topo-small", (!full.compact).then_some("narrow-only"))}>{pic(&small, "topo-small")}</div>
                        </div>
                    })}
                    {ctx.panel("legend", legend::legend(&legend::LegendProps { classes: present }))}
                    {ctx.panel("round", step_panels(&StepPanelsProps { result: panels::RunResult(result.clone()), step }))}
                </>
            }
        }
    };
    html! {
        <div class="view view-topology">
            {errors_top}
            {ctx.panel("title", html! {<>
                <h1>{"All-reduce on a physical topology"}</h1>
                <p class="lede">
                    {"GPUs inside a node talk over fast links; nodes talk through NICs; racks through a shared core. \
                      Each algorithm below is a schedule executed on real buffers and timed link by link."}
                </p>
            </>})}
            {ctx.panel("presets", presets::presets(&presets::PresetsProps { on_preset }))}
            {ctx.panel("controls", html! {<>
                {controls::controls(&controls::ControlsProps { params: run_key(&params), drafts: state.drafts.clone(), on_commit })}
                <p class="timeline-link"><a href={crate::params::timeline::link_from_topology(&params)}>{"Open on the timeline"}</a></p>
            </>})}
            {errors_below}
            if pending {
                {computing(format!("the {} all-reduce of {} on p = {} ranks ({} nodes)", params.alg.topology_info().short_label, format_bytes_short(params.size.bytes() as f64), params.p(), params.node_count()))}
            } else {
                {body}
                {ctx.panel("summary", summary_panels(&SummaryPanelsProps { params: run_key(&params), summary, on_pick }))}
            }
        </div>
    }
}
