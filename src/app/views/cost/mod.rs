//! `?view=cost`: the α–β(–γ) cost model of all-reduce.
//!
//! Every number, every written-out calculation and every chart comes from
//! [`crate::core::cost`] and [`crate::plot::cost`]; the page lays out the
//! panels, one component per file. URL:
//! `?view=cost&p=16&alpha=5us&bw=100Gb/s&size=8KiB` (or `beta=` instead of
//! `bw=`; optional `gamma=`, `alg=`, `preset=`, and the protocol layer
//! `proto=mpi|nccl` with its fields, [`crate::params::protocol`]).

use std::rc::Rc;

use yew::prelude::*;

use crate::app::hooks::use_view_state;
use crate::app::route::ViewProps;
use crate::app::state::{on_commit, on_commit_field, one_query, Commit};
use crate::core::collectives::compare::{all_allreduce, best_at, best_intervals, Interval};
use crate::core::collectives::Algorithm;
use crate::core::cost::formulas::Formula;
use crate::core::cost::CostParams;
use crate::export::series::cost::{
    cost_nccl_map, cost_time_vs_p, cost_time_vs_size, cost_winner_map,
};
use crate::export::DataTable;
use crate::pages::cost::all_to_all::{self as a2a_page, AllToAllPanel};
use crate::pages::cost::protocol::{
    self as protocol_page, nccl_panels, textbook_note, MpiPanel, NcclPanels,
};
use crate::pages::cost::{pair_crossover, preset_note, units_line};
use crate::params::cost::CostViewParams;
use crate::params::protocol::ProtoParams;
use crate::params::FieldError;
use crate::plot::cost::{draw_nccl_map, draw_time_vs_p, draw_time_vs_size, draw_winner_map};

pub mod all_to_all;
pub mod assumptions;
pub mod bandwidths;
pub mod calculation;
pub mod charts;
pub mod controls;
pub mod crossovers;
pub mod nccl;
pub mod proto_controls;
pub mod protocol;
pub mod table;

use all_to_all::all_to_all_panel;
use assumptions::assumptions;
use bandwidths::{bandwidth_panel, BandwidthPanelProps};
use calculation::{calculation_panel, CalculationPanelProps};
use charts::ChartPanel;
use controls::{cost_controls, CostControlsProps};
use crossovers::{crossovers_panel, CrossoversPanelProps};
use nccl::{nccl_switches, nccl_table};
use proto_controls::proto_controls;
use protocol::mpi_panel;
use table::{cost_table, CostTableProps};

impl Commit for CostViewParams {
    /// As the URL, except: a good p, α, bandwidth or β leaves the preset
    /// ("custom values"); the menus' empty entries mean "custom values"
    /// (`preset`) and "the fastest" (`alg`).
    fn commit(&self, fields: &[(&'static str, String)]) -> (Self, Vec<FieldError>) {
        let mut base = self.clone();
        let mut rest = Vec::new();
        for (field, text) in fields {
            match (*field, text.trim()) {
                ("preset", "") => base.preset = None,
                ("alg", "") => base.alg = None,
                _ => rest.push((*field, text.clone())),
            }
        }
        let (mut next, errs) = one_query(&base, &rest);
        let custom = rest.iter().any(|(f, _)| {
            matches!(*f, "p" | "alpha" | "bw" | "beta") && !errs.iter().any(|e| e.field == *f)
        });
        if custom {
            next.preset = None;
        }
        (next, errs)
    }

    fn clears(field: &str) -> &'static [&'static str] {
        match field {
            "bw" => &["beta"],
            "beta" => &["bw"],
            "preset" => &["p", "alpha", "bw", "beta"],
            _ => &[],
        }
    }
}

/// The three charts as SVG strings (or the message of a chart that failed).
type Charts = [Result<String, String>; 3];

fn draw_all(p: usize, n: f64, m: CostParams) -> Charts {
    [
        draw_time_vs_size(p, m, n),
        draw_time_vs_p(n, m, p),
        draw_winner_map(m, n, p),
    ]
}

/// The NCCL panels and the map's chart and data (`None` unless
/// `proto=nccl`).
type NcclData = Option<(Rc<NcclPanels>, Result<String, String>, Rc<DataTable>)>;

fn nccl_data(p: usize, n: f64, pr: &ProtoParams) -> NcclData {
    let panels = nccl_panels(p, n, pr)?;
    let fields = pr.nccl.clone();
    let at = move |q: usize| fields.inputs(q);
    Some((
        Rc::new(panels),
        draw_nccl_map(&at, n, p),
        Rc::new(cost_nccl_map(&at, n, p)),
    ))
}

/// The cost-model view.
#[component]
pub fn CostView(props: &ViewProps) -> Html {
    let state = use_view_state::<CostViewParams>(props);
    let params = &state.params;
    let (p, n, model) = (params.p, params.n_bytes(), params.model());
    let table: Rc<Vec<(Algorithm, Formula)>> =
        use_memo((p, n, model), |(p, n, m)| all_allreduce(*p, *n, *m));
    let intervals: Rc<Vec<Interval>> = use_memo((p, model), |(p, m)| best_intervals(*p, *m));
    let charts: Rc<Charts> = use_memo((p, n, model), |(p, n, m)| draw_all(*p, *n, *m));
    let tables: Rc<[Rc<DataTable>; 3]> = use_memo((p, n, model), |(p, n, m)| {
        [
            Rc::new(cost_time_vs_size(*p, *m, *n)),
            Rc::new(cost_time_vs_p(*n, *m, *p)),
            Rc::new(cost_winner_map(*m, *n, *p)),
        ]
    });
    // The last chart of each kind that was drawn, kept after render for a
    // chart that fails on the next parameters.
    let last_good = use_state(|| [None::<String>, None, None]);
    {
        let last_good = last_good.clone();
        use_effect_with(charts.clone(), move |charts| {
            let mut next = (*last_good).clone();
            for (slot, r) in next.iter_mut().zip(charts.iter()) {
                if let Ok(svg) = r {
                    *slot = Some(svg.clone());
                }
            }
            if next != *last_good {
                last_good.set(next);
            }
        });
    }
    let proto = params.proto.clone();
    let mpi: Rc<Option<MpiPanel>> = use_memo((p, n, model, proto.clone()), |(p, n, m, pr)| {
        protocol_page::mpi_panel(*p, *n, *m, pr)
    });
    let nccl: Rc<NcclData> = use_memo((p, n, proto.clone()), |(p, n, pr)| nccl_data(*p, *n, pr));
    let a2a: Rc<AllToAllPanel> = use_memo((p, n, model), |(p, n, m)| {
        a2a_page::all_to_all_panel(*p, *n, *m)
    });
    let winner = best_at(p, n, model);
    let chosen = params.alg.unwrap_or(winner);
    let chart = |i: usize, id: &'static str, title: &'static str| {
        let result = charts[i].clone();
        let last_good = last_good[i].clone();
        let table = tables[i].clone();
        html! { <ChartPanel {id} {title} {result} {last_good} {table} /> }
    };

    let ctx = &props.ctx;
    let fields = ctx.on_screen(
        "controls",
        &[
            "p", "size", "bw", "beta", "alpha", "gamma", "proto", "eager", "rndv", "nccl_ver",
            "ch", "intra", "inter", "netlat", "nodes", "cc", "link",
        ],
    );
    let protocol_panels = match (mpi.as_ref(), nccl.as_ref()) {
        (Some(panel), _) => html! {
            {ctx.panel("protocol", mpi_panel(panel))}
        },
        (None, Some((panels, map, data))) => html! {<>
            {ctx.panel("nccl-table", nccl_table(&panels.table))}
            <div class="panels">
                {ctx.panel("nccl-switches", nccl_switches(panels.switches.as_ref()))}
                {ctx.panel("nccl-map", html! {
                    <ChartPanel id="chart-nccl" title="NCCL's pick by size and ranks" result={map.clone()} table={data.clone()} />
                })}
            </div>
        </>},
        _ => Html::default(),
    };
    let textbook = (mpi.is_some() || nccl.is_some())
        .then(|| textbook_note(params.proto.choice))
        .flatten();
    let (errors_top, errors_below) =
        ctx.place_errors("controls", state.drafts.orphans_html(fields));
    html! {
        <div class="view view-cost">
            {errors_top}
            {ctx.panel("title", html! {<>
                <h1>{"α–β cost model: which all-reduce wins?"}</h1>
                <p class="lede">
                    {"One message of n bytes costs α + nβ: a fixed start-up α plus n times β, the seconds per byte. \
                      Each all-reduce pays a different number of start-ups and moves a different number of bytes on its critical path, \
                      so the fastest one depends on the message size, the number of ranks p and the link."}
                </p>
            </>})}
            {ctx.panel("controls", html! {<>
                {cost_controls(&CostControlsProps { params: state.params.clone(), drafts: state.drafts.clone(), on_commit: on_commit_field(&state) })}
                {proto_controls(&state.params, &state.drafts, &on_commit_field(&state))}
                {errors_below}
                <p class="units-line" id="units-line">{units_line(params)}</p>
                if let Some(note) = preset_note(params) {
                    <p class="muted" id="preset-note">{note}</p>
                }
            </>})}
            // With a protocol, its panels come first: theirs is the page's
            // answer, and the α–β table below says it is the textbook model.
            {protocol_panels}
            {ctx.panel("table", html! { {cost_table(&CostTableProps { table: table.clone(), winner, model, p, n, textbook })} })}
            <div class="panels">
                {ctx.panel("calculation", html! { {calculation_panel(&CalculationPanelProps { table: table.clone(), chosen })} })}
                {ctx.panel("crossovers", html! { {crossovers_panel(&CrossoversPanelProps { pair: pair_crossover(params, &intervals), intervals, p, model })} })}
                {ctx.panel("bandwidths", html! {
                    {bandwidth_panel(&BandwidthPanelProps { table, alg: params.alg, winner, p, n, on_alg: on_commit(&state, "alg") })}
                })}
            </div>
            <div class="panels">
                {ctx.panel("size-chart", chart(0, "chart-size", "Time against message size (log–log)"))}
                {ctx.panel("p-chart", chart(1, "chart-p", "Time against the number of ranks"))}
                {ctx.panel("winner-map", chart(2, "chart-map", "Winner map: fastest algorithm by size and ranks"))}
            </div>
            {ctx.panel("all-to-all", all_to_all_panel(&a2a))}
            {ctx.panel("assumptions", html! { {assumptions()} })}
        </div>
    }
}
