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
use crate::core::collectives::compare::{
    all_allreduce, all_allreduce_rendezvous, best_at, best_intervals, best_intervals_rendezvous,
    Interval,
};
use crate::core::collectives::Algorithm;
use crate::core::cost::formulas::Formula;
use crate::core::cost::nccl_tune::{tune, Tuning};
use crate::core::cost::protocol::ProtocolTime;
use crate::core::cost::CostParams as Model;
use crate::core::units::{bandwidth_chain, format_beta, format_binary, format_size, format_time};
use crate::export::series::cost::{
    cost_nccl_map, cost_time_vs_p, cost_time_vs_size, cost_winner_map,
};
use crate::export::DataTable;
use crate::params::cost::{CostViewParams, Link};
use crate::params::protocol::{ProtoChoice, ProtoParams};
use crate::params::FieldError;
use crate::plot::cost::{draw_nccl_map, draw_time_vs_p, draw_time_vs_size, draw_winner_map};

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

fn draw_all(p: usize, n: f64, m: Model) -> Charts {
    [
        draw_time_vs_size(p, m, n),
        draw_time_vs_p(n, m, p),
        draw_winner_map(m, n, p),
    ]
}

/// The MPI panel's rows and intervals (empty unless `proto=mpi`).
type MpiData = (Vec<(Algorithm, ProtocolTime)>, Vec<Interval>);

fn mpi_data(p: usize, n: f64, m: Model, pr: &ProtoParams) -> MpiData {
    if pr.choice != ProtoChoice::Mpi {
        return (Vec::new(), Vec::new());
    }
    let r = pr.rendezvous();
    (
        all_allreduce_rendezvous(p, n, m, &r),
        best_intervals_rendezvous(p, m, &r),
    )
}

/// NCCL's tables, its map and the map's data (`None` unless `proto=nccl`).
type NcclData = Option<(
    Rc<Result<Tuning, String>>,
    Result<String, String>,
    Rc<DataTable>,
)>;

fn nccl_data(p: usize, n: f64, pr: &ProtoParams) -> NcclData {
    if pr.choice != ProtoChoice::Nccl {
        return None;
    }
    let fields = pr.nccl.clone();
    let at = move |q: usize| fields.inputs(q);
    Some((
        Rc::new(tune(&pr.nccl.inputs(p))),
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
    let mpi: Rc<MpiData> = use_memo((p, n, model, proto.clone()), |(p, n, m, pr)| {
        mpi_data(*p, *n, *m, pr)
    });
    let nccl: Rc<NcclData> = use_memo((p, n, proto.clone()), |(p, n, pr)| nccl_data(*p, *n, pr));
    let winner = best_at(p, n, model);
    let chosen = params.alg.unwrap_or(winner);
    let with_gamma = model.gamma != 0.0;
    let link_text = match &params.link {
        Link::Bandwidth(b) => bandwidth_chain(&b.value),
        Link::Beta(b) => format!("β = {} (given directly)", format_beta(b.value)),
    };
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
    let proto_line = match proto.choice {
        ProtoChoice::None => String::new(),
        ProtoChoice::Mpi => format!(
            "; MPI protocol: eager below {}",
            format_binary(proto.eager.value.bytes as f64)
        ),
        ProtoChoice::Nccl => format!(
            "; NCCL {} model, {} node(s)",
            proto.nccl.version.tag(),
            proto.nccl.nodes.min(p)
        ),
    };
    let protocol_panels = match (proto.choice, nccl.as_ref()) {
        (ProtoChoice::Mpi, _) => html! {
            {ctx.panel("protocol", mpi_panel(&mpi.0, &mpi.1, &proto.rendezvous(), model.alpha, n))}
        },
        (ProtoChoice::Nccl, Some((tuning, map, data))) => html! {<>
            {ctx.panel("nccl-table", nccl_table(tuning, n))}
            <div class="panels">
                {ctx.panel("nccl-switches", nccl_switches(tuning))}
                {ctx.panel("nccl-map", html! {
                    <ChartPanel id="chart-nccl" title="NCCL's pick by size and ranks" result={map.clone()} table={data.clone()} />
                })}
            </div>
        </>},
        _ => Html::default(),
    };
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
                <p class="units-line" id="units-line">
                    {format!("p = {p}; α = {}; {link_text}; n = {}", format_time(model.alpha), format_size(params.size.value.bytes))}
                    if with_gamma { {format!("; γ = {}", format_beta(model.gamma))} }
                    {proto_line}
                </p>
                if let Some(pr) = params.preset {
                    <p class="muted" id="preset-note">{format!("Preset: {}. These are round illustrative numbers for a link class, not measurements of a product.", pr.label())}</p>
                }
            </>})}
            {ctx.panel("table", html! { {cost_table(&CostTableProps { table: table.clone(), winner, model, p, n })} })}
            <div class="panels">
                {ctx.panel("calculation", html! { {calculation_panel(&CalculationPanelProps { table: table.clone(), chosen })} })}
                {ctx.panel("crossovers", html! { {crossovers_panel(&CrossoversPanelProps { intervals, p, model })} })}
                {ctx.panel("bandwidths", html! {
                    {bandwidth_panel(&BandwidthPanelProps { table, alg: params.alg, winner, p, n, on_alg: on_commit(&state, "alg") })}
                })}
            </div>
            <div class="panels">
                {ctx.panel("size-chart", chart(0, "chart-size", "Time against message size (log–log)"))}
                {ctx.panel("p-chart", chart(1, "chart-p", "Time against the number of ranks"))}
                {ctx.panel("winner-map", chart(2, "chart-map", "Winner map: fastest algorithm by size and ranks"))}
            </div>
            {protocol_panels}
            {ctx.panel("assumptions", html! { {assumptions()} })}
        </div>
    }
}
