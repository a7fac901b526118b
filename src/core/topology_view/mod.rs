//! What the topology view shows, computed once: run a topology-aware
//! all-reduce on a [`Topology`], time it with [`crate::core::timing::lockstep`], count its
//! bytes per link, compare the algorithms, sweep GPUs per node and message
//! size, and the course's §10 numbers.
//!
//! Every number here comes from an executed schedule (the buffers are run by
//! [`crate::core::execute::execute`] and checked against the element-wise
//! sum) except the closed forms, which tests hold against the executed
//! times. algbw and busbw follow nccl-tests' PERFORMANCE.md: algbw = size /
//! time, busbw = algbw · 2(p − 1)/p for an all-reduce.

//! # Entry points
//! - [`run`]: one topology-aware all-reduce (`flat`, `hier`, `hier_rd`,
//!   `multilane`, `rat`, `flex`) executed on a topology with states, times,
//!   closed form, lower bound, traffic and level titles;
//! - [`compare`] + [`bottleneck_sentence`]: the comparison table;
//!   [`sweep_gpus`] / [`sweep_sizes`]: the chart series;
//!   [`multilane_service_time`], [`flex_counts`], [`core_crossing`] and
//!   [`busbw_note`]: the course's §10 numbers;
//! - [`view_model`]: the picture's geometry.

use std::fmt;

pub mod view_model;

use crate::core::collectives::pieces::Split;
use std::sync::OnceLock;

use crate::core::collectives::{flex_reduce, Algorithm, TopologyInfo};
use crate::core::execute::{default_init, execute, ExecOptions, Trace};
use crate::core::schedule::{round_heading, Op, Phase, Round, Schedule, ScheduleError};
use crate::core::timing::lockstep::round_times;
use crate::core::timing::traffic::{
    busiest_resource, cumulative_traffic, round_traffic, transfer_classes, Traffic,
};
use crate::core::topology::{Link, LinkClass, Topology, TopologyError};
use crate::core::units::{format_bandwidth, format_decimal, format_time};

/// Every topology-aware algorithm, in the order tables list them: the
/// registry entries that answer [`CollectiveAlgorithm::on_topology`]
/// (each in its own file).
///
/// [`CollectiveAlgorithm::on_topology`]: crate::core::collectives::CollectiveAlgorithm::on_topology
pub fn algorithms() -> &'static [TopologyInfo] {
    static LIST: OnceLock<Vec<TopologyInfo>> = OnceLock::new();
    LIST.get_or_init(|| {
        Algorithm::on_topologies()
            .map(Algorithm::topology_info)
            .collect()
    })
}

/// The algorithm with `alg` URL value `key` (case-insensitive, blanks ignored).
pub fn find(key: &str) -> Option<&'static TopologyInfo> {
    let k = key.trim().to_ascii_lowercase();
    algorithms().iter().find(|a| a.key == k)
}

/// The registry handle and the topology view's names of the algorithm
/// with `alg` URL value `key`.
///
/// # Errors
/// [`TopoError::UnknownAlgorithm`] for a key the view does not offer.
fn handle(key: &str) -> Result<(Algorithm, &'static TopologyInfo), TopoError> {
    Algorithm::from_topology_key(key)
        .zip(find(key))
        .ok_or_else(|| TopoError::UnknownAlgorithm(key.to_string()))
}

/// The `alg` values as a choice, "flat, hier, … or flex".
fn choices() -> String {
    let keys: Vec<_> = algorithms().iter().map(|a| a.key).collect();
    match keys.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => keys.concat(),
    }
}

/// Why a topology run cannot be produced.
#[derive(Clone, Debug, PartialEq)]
pub enum TopoError {
    /// No algorithm has this `alg` value.
    UnknownAlgorithm(String),
    /// The generator refused the arguments or the topology's shape.
    Schedule(ScheduleError),
    /// The topology could not be built.
    Topology(TopologyError),
    /// A generated schedule referred to ranks or elements that do not exist
    /// (a bug, reported rather than panicking).
    Malformed(String),
    /// A parameter outside its range; the text names it.
    BadParameter(String),
}

impl fmt::Display for TopoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TopoError::UnknownAlgorithm(k) => {
                write!(f, "unknown algorithm \"{k}\" (choose {})", choices())
            }
            TopoError::Schedule(e) => write!(f, "{e}"),
            TopoError::Topology(e) => write!(f, "{e}"),
            TopoError::Malformed(e) => write!(f, "{e}"),
            TopoError::BadParameter(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for TopoError {}

impl From<ScheduleError> for TopoError {
    fn from(e: ScheduleError) -> Self {
        TopoError::Schedule(e)
    }
}

impl From<TopologyError> for TopoError {
    fn from(e: TopologyError) -> Self {
        TopoError::Topology(e)
    }
}

/// One algorithm run on one topology: the executed trace and everything the
/// topology view draws from it. Indexing: `round_times[i]`, `traffic[i]`,
/// `cumulative[i]`, `titles[i]`, `classes[i][t]` belong to round `i`
/// (`trace.schedule.rounds[i]`); `trace.states[i]` is the state *before*
/// round `i` (`states[0]` the input).
#[derive(Clone, Debug)]
pub struct TopoRun {
    /// The `alg` key.
    pub alg: &'static str,
    /// Human name of the algorithm.
    pub label: &'static str,
    /// The executed schedule with per-round states (`trace.schedule`).
    pub trace: Trace,
    /// Link class of every transfer, `classes[round][transfer]`.
    pub classes: Vec<Vec<LinkClass>>,
    /// Time of every round on the topology, seconds.
    pub round_times: Vec<f64>,
    /// Total executed time, seconds.
    pub time: f64,
    /// Closed form, seconds (exact when the splits are even), if derived.
    pub closed_form: Option<f64>,
    /// Lower bound on `time`, seconds (closed form with sizes rounded down).
    pub lower_bound: Option<f64>,
    /// Bytes moved in each round.
    pub traffic: Vec<Traffic>,
    /// Bytes moved up to and including each round.
    pub cumulative: Vec<Traffic>,
    /// True when every rank ends with the element-wise sum and nothing was
    /// added twice.
    pub verified: bool,
    /// Round titles naming the level, e.g.
    /// "intra-node reduce-scatter, round 1 of 3".
    pub titles: Vec<String>,
    /// Tensor size, bytes.
    pub size_bytes: u64,
    /// algbw = size / time, bytes per second (nccl-tests).
    pub algbw: f64,
    /// busbw = algbw · 2(p − 1)/p, bytes per second (nccl-tests, all-reduce).
    pub busbw: f64,
}

impl TopoRun {
    /// The schedule that ran.
    pub fn schedule(&self) -> &Schedule {
        &self.trace.schedule
    }

    /// Number of rounds.
    pub fn num_rounds(&self) -> usize {
        self.trace.schedule.rounds.len()
    }

    /// Time of the rounds that send through a NIC, seconds: the inter-node
    /// service time (for `multilane` at 1 GB on 2 nodes × 4 GPUs, 4 lanes of
    /// 12.5 GB/s and α = 0: 20 ms; on one lane 80 ms).
    pub fn inter_node_time(&self) -> f64 {
        self.traffic
            .iter()
            .zip(&self.round_times)
            .filter(|(t, _)| t.inter_messages > 0)
            .map(|(_, s)| s)
            .sum()
    }

    /// Counters over the whole run (zero counters for a schedule without rounds).
    pub fn totals(&self, topo: &Topology) -> Traffic {
        self.cumulative
            .last()
            .cloned()
            .unwrap_or_else(|| Traffic::zero(topo))
    }
}

/// The level a round belongs to, and a detail for its title. The
/// topology-aware generators put the level in the round's note; the
/// hierarchical all-reduce's level phases are named here ("inter-node
/// all-reduce among node leaders" for every leader round, with the leader
/// phase as detail).
fn level_of(r: &Round) -> (String, String) {
    let leaders = "inter-node all-reduce among node leaders";
    match r.phase {
        Phase::NodeReduce => (
            "intra-node reduce to the node leader".into(),
            r.note.clone(),
        ),
        Phase::NodeBroadcast => (
            "intra-node broadcast from the node leader".into(),
            r.note.clone(),
        ),
        Phase::LeaderReduceScatter
        | Phase::LeaderAllGather
        | Phase::LeaderExchange
        | Phase::FoldIn
        | Phase::FoldOut => (leaders.into(), r.phase.label().into()),
        _ if !r.note.is_empty() => (r.note.clone(), String::new()),
        _ => (r.phase.label().into(), String::new()),
    }
}

/// Titles naming the level: `"{level}, round k of m[: detail]"`, counting runs
/// of consecutive rounds of the same level, e.g. "inter-node all-reduce
/// among node leaders, round 1 of 2: reduce-scatter among node leaders".
pub fn round_titles(s: &Schedule) -> Vec<String> {
    let levels: Vec<(String, String)> = s.rounds.iter().map(level_of).collect();
    let mut out = Vec::with_capacity(levels.len());
    // runs of consecutive rounds at the same level, each visited once
    for run in levels.chunk_by(|a, b| a.0 == b.0) {
        for (k, (level, detail)) in run.iter().enumerate() {
            out.push(round_heading(level, k + 1, run.len(), detail));
        }
    }
    out
}

fn bandwidths(p: usize, size_bytes: u64, time: f64) -> (f64, f64) {
    if time > 0.0 && p >= 1 {
        let algbw = size_bytes as f64 / time;
        (algbw, algbw * 2.0 * (p as f64 - 1.0) / p as f64)
    } else {
        (0.0, 0.0)
    }
}

fn run_opts(
    alg_key: &str,
    topo: &Topology,
    n: u64,
    elem_bytes: u64,
    keep_states: bool,
) -> Result<TopoRun, TopoError> {
    let (alg, a) = handle(alg_key)?;
    let schedule = alg.topology_schedule(topo, n, elem_bytes)?;
    let trace = execute(&schedule, &default_init, ExecOptions { keep_states })
        .map_err(|e| TopoError::Malformed(e.to_string()))?;
    let times = round_times(&schedule, topo, 0.0);
    let time: f64 = times.iter().sum();
    let traffic = round_traffic(&schedule, topo);
    let cumulative = cumulative_traffic(&traffic, topo);
    let size_bytes = n.saturating_mul(elem_bytes);
    let (algbw, busbw) = bandwidths(topo.p(), size_bytes, time);
    Ok(TopoRun {
        alg: a.key,
        label: a.label,
        classes: transfer_classes(&schedule, topo),
        titles: round_titles(&schedule),
        round_times: times,
        time,
        closed_form: alg.topology_time(topo, n, elem_bytes, Split::EXACT),
        lower_bound: alg.topology_time(topo, n, elem_bytes, Split::FLOOR),
        traffic,
        cumulative,
        verified: trace.verification.ok(),
        trace,
        size_bytes,
        algbw,
        busbw,
    })
}

/// Runs `alg_key` on `topo` for a tensor of `n` elements of `elem_bytes`
/// bytes, keeping the state after every round (for the picture).
///
/// # Errors
/// [`TopoError::UnknownAlgorithm`] for an unknown key;
/// [`TopoError::Schedule`] when `p < 2`, `n == 0`, `elem_bytes == 0` or the
/// topology lacks the shape the algorithm needs (e.g. `rat` needs ≥ 2
/// racks of equal size, `multilane` equal nodes).
pub fn run(alg_key: &str, topo: &Topology, n: u64, elem_bytes: u64) -> Result<TopoRun, TopoError> {
    run_opts(alg_key, topo, n, elem_bytes, true)
}

/// algbw and busbw of a run written out (nccl-tests' PERFORMANCE.md), and,
/// when busbw exceeds one NIC's bandwidth, why: busbw scales algbw by the
/// flat ring's `2(p − 1)/p`, but a schedule that reduces inside the node
/// first sends less than that through each NIC. E.g. "algbw = 1 GB /
/// 85.83 ms = 11.65 GB/s; busbw = algbw × 2 × 15/16 = 21.85 GB/s. busbw is
/// above the 12.5 GB/s of one NIC: …".
pub fn busbw_note(run: &TopoRun, topo: &Topology) -> String {
    let p = topo.p();
    let mut text = format!(
        "algbw = {} / {} = {}; busbw = algbw × 2 × {}/{} = {}.",
        format_decimal(run.size_bytes as f64),
        format_time(run.time),
        format_bandwidth(run.algbw),
        p.saturating_sub(1),
        p,
        format_bandwidth(run.busbw)
    );
    let nic_bw = topo.link(LinkClass::Nic).bw();
    if topo.nodes() >= 2 && matches!(topo, Topology::Hierarchical(_)) && run.busbw > nic_bw {
        let ring_share = 2.0 * (p as f64 - 1.0) / p as f64 * run.size_bytes as f64;
        text.push_str(&format!(
            " busbw is above the {} of one NIC: it assumes every rank moves 2(p − 1)/p × the data ({}) \
             over the slowest link, as a flat ring does, but this schedule reduces inside the node \
             first and its busiest NIC carries {} in each direction.",
            format_bandwidth(nic_bw),
            format_decimal(ring_share),
            format_decimal(run.totals(topo).max_nic() as f64)
        ));
    }
    text
}

/// One row of the comparison table for the current topology.
#[derive(Clone, Debug, PartialEq)]
pub struct TopoRow {
    /// The `alg` key.
    pub alg: &'static str,
    /// Human name.
    pub label: &'static str,
    /// Executed time on the topology, seconds.
    pub time: f64,
    /// Closed form, seconds, where derived.
    pub closed_form: Option<f64>,
    /// Largest byte count through one NIC in one direction over the run.
    pub max_nic_bytes: u64,
    /// Bytes over the rack core, both directions together.
    pub core_bytes: u64,
    /// Inter-node start-ups: rounds with at least one transfer through a
    /// NIC (each pays α_inter in sequence).
    pub inter_startups: usize,
    /// The resource with the longest busy time (bytes × β), e.g.
    /// "node 0 NIC 0 out"; "–" when nothing is shared (flat topology).
    pub busiest_link: String,
    /// Bytes through the busiest link.
    pub busiest_bytes: u64,
    /// Busy time of the busiest link over the run, seconds.
    pub busiest_time: f64,
    /// algbw, bytes per second.
    pub algbw: f64,
    /// busbw, bytes per second.
    pub busbw: f64,
    /// Result checked against the element-wise sum.
    pub verified: bool,
}

fn row_of(run: &TopoRun, topo: &Topology) -> TopoRow {
    let totals = run.totals(topo);
    let busiest = busiest_resource(run.schedule(), topo);
    let (busiest_link, busiest_bytes, busiest_time) = match busiest {
        Some((r, b, t)) => (r.label(), b, t),
        None => ("–".to_string(), 0, 0.0),
    };
    TopoRow {
        alg: run.alg,
        label: run.label,
        time: run.time,
        closed_form: run.closed_form,
        max_nic_bytes: totals.max_nic(),
        core_bytes: totals.core_total(),
        inter_startups: run.traffic.iter().filter(|t| t.inter_messages > 0).count(),
        busiest_link,
        busiest_bytes,
        busiest_time,
        algbw: run.algbw,
        busbw: run.busbw,
        verified: run.verified,
    }
}

/// The comparison row of one algorithm (without keeping per-round states).
///
/// # Errors
/// As [`run`].
pub fn row(alg_key: &str, topo: &Topology, n: u64, elem_bytes: u64) -> Result<TopoRow, TopoError> {
    let r = run_opts(alg_key, topo, n, elem_bytes, false)?;
    Ok(row_of(&r, topo))
}

/// One row per algorithm that applies to `topo` (those whose generator
/// accepts its shape, on at least its [`TopologyInfo::min_racks`] racks:
/// `rat` only with ≥ 2), in [`algorithms`] order.
pub fn compare(topo: &Topology, n: u64, elem_bytes: u64) -> Vec<TopoRow> {
    algorithms()
        .iter()
        .filter(|a| topo.racks() >= a.min_racks)
        .filter_map(|a| row(a.key, topo, n, elem_bytes).ok())
        .collect()
}

/// A sentence naming the fastest algorithm and what limits the slowest,
/// e.g. "multi-lane hierarchical all-reduce is fastest (20.00 ms); flat ring
/// over all ranks is slowest (…), limited by node 0 NIC 0 out (… busy)."
/// Empty when there are no rows.
pub fn bottleneck_sentence(rows: &[TopoRow]) -> String {
    let best = rows.iter().min_by(|a, b| a.time.total_cmp(&b.time));
    let worst = rows.iter().max_by(|a, b| a.time.total_cmp(&b.time));
    match (best, worst) {
        (Some(b), Some(w)) if b.alg != w.alg => format!(
            "{} is fastest ({}); {} is slowest ({}){}.",
            b.label,
            format_time(b.time),
            w.label,
            format_time(w.time),
            limited_by(w)
        ),
        (Some(b), _) => format!(
            "{} takes {}{}.",
            b.label,
            format_time(b.time),
            limited_by(b)
        ),
        _ => String::new(),
    }
}

fn limited_by(r: &TopoRow) -> String {
    if r.busiest_bytes == 0 {
        return String::new();
    }
    format!(
        ", its busiest link is {} ({} of transfer time)",
        r.busiest_link,
        format_time(r.busiest_time)
    )
}

/// One point of a sweep: `x` (GPUs per node, or message size in bytes) and
/// the executed time, seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepPoint {
    /// GPUs per node, or bytes.
    pub x: f64,
    /// Executed time on the topology, seconds.
    pub time: f64,
}

/// One line of a sweep chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The `alg` key.
    pub alg: &'static str,
    /// Human name.
    pub label: &'static str,
    /// Points in increasing `x`; points where the algorithm does not apply
    /// are left out.
    pub points: Vec<SweepPoint>,
}

fn time_only(a: &TopologyInfo, topo: &Topology, n: u64, elem_bytes: u64) -> Option<f64> {
    let (alg, _) = handle(a.key).ok()?;
    let s = alg.topology_schedule(topo, n, elem_bytes).ok()?;
    Some(round_times(&s, topo, 0.0).iter().sum())
}

/// Executed time against GPUs per node, `1..=max_gpus`, at the node count,
/// racks and links of `topo` (which must be hierarchical); `n` elements of
/// `elem_bytes`. With `nic_per_gpu` every node has as many NICs as GPUs
/// (lanes = gpus); otherwise the lanes of `topo` are kept (capped at the GPU
/// count). Points with fewer than 2 ranks are skipped.
///
/// # Errors
/// [`TopoError::BadParameter`] for a flat topology or `max_gpus` outside 1..=64.
pub fn sweep_gpus(
    topo: &Topology,
    n: u64,
    elem_bytes: u64,
    max_gpus: usize,
    nic_per_gpu: bool,
) -> Result<Vec<Series>, TopoError> {
    let Topology::Hierarchical(h) = topo else {
        return Err(TopoError::BadParameter(
            "the GPUs-per-node sweep needs nodes (a hierarchical topology)".into(),
        ));
    };
    if !(1..=64).contains(&max_gpus) {
        return Err(TopoError::BadParameter(format!(
            "GPUs per node must be 1 to 64 (got {max_gpus})"
        )));
    }
    let nodes = h.node_sizes.len();
    let topos: Vec<(usize, Topology)> = (1..=max_gpus)
        .filter(|g| nodes * g >= 2)
        .filter_map(|g| {
            let lanes = if nic_per_gpu {
                g
            } else {
                h.lanes.min(g).max(1)
            };
            Topology::unequal(vec![g; nodes], h.racks, lanes, h.intra, h.inter, h.core_bw)
                .ok()
                .map(|t| (g, t))
        })
        .collect();
    Ok(algorithms()
        .iter()
        .map(|a| Series {
            alg: a.key,
            label: a.label,
            points: topos
                .iter()
                .filter_map(|(g, t)| {
                    time_only(a, t, n, elem_bytes).map(|time| SweepPoint { x: *g as f64, time })
                })
                .collect(),
        })
        .collect())
}

/// Executed time against message size on `topo`: one point per size in
/// `sizes_bytes` (rounded down to whole elements of `elem_bytes`, at least 1).
///
/// # Errors
/// [`TopoError::BadParameter`] when `elem_bytes == 0`.
pub fn sweep_sizes(
    topo: &Topology,
    sizes_bytes: &[u64],
    elem_bytes: u64,
) -> Result<Vec<Series>, TopoError> {
    if elem_bytes == 0 {
        return Err(TopoError::BadParameter(
            "an element needs at least 1 byte".into(),
        ));
    }
    Ok(algorithms()
        .iter()
        .map(|a| Series {
            alg: a.key,
            label: a.label,
            points: sizes_bytes
                .iter()
                .filter_map(|&b| {
                    let n = (b / elem_bytes).max(1);
                    time_only(a, topo, n, elem_bytes).map(|time| SweepPoint {
                        x: (n * elem_bytes) as f64,
                        time,
                    })
                })
                .collect(),
        })
        .collect())
}

/// The course's multi-lane figure: the ideal inter-node service time of a
/// payload split evenly over independent lanes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LaneService {
    /// Number of lanes (NICs).
    pub lanes: usize,
    /// Bytes each lane carries.
    pub per_lane_bytes: f64,
    /// Time with all lanes sustaining their bandwidth at once, seconds.
    pub time: f64,
    /// Time of the whole payload on one lane, seconds.
    pub one_lane_time: f64,
}

/// `payload / lanes` bytes per lane and `(payload / lanes) / lane_bw`
/// seconds, against `payload / lane_bw` on one lane (1 GB over 4 lanes of
/// 12.5 GB/s: 250 MB per lane, 20 ms against 80 ms). Ideal: start-ups,
/// the local collectives and contention are left out, and the lanes must
/// sustain their bandwidth concurrently.
///
/// # Errors
/// [`TopoError::BadParameter`] for `lanes == 0`, a payload < 0 or a
/// bandwidth ≤ 0 (or not finite).
pub fn multilane_service_time(
    payload_bytes: f64,
    lanes: usize,
    lane_bw: f64,
) -> Result<LaneService, TopoError> {
    if lanes == 0 {
        return Err(TopoError::BadParameter("lanes must be at least 1".into()));
    }
    if !(payload_bytes.is_finite() && payload_bytes >= 0.0) {
        return Err(TopoError::BadParameter(
            "the payload must be ≥ 0 bytes".into(),
        ));
    }
    if !(lane_bw.is_finite() && lane_bw > 0.0) {
        return Err(TopoError::BadParameter(
            "the lane bandwidth must be > 0".into(),
        ));
    }
    let per = payload_bytes / lanes as f64;
    Ok(LaneService {
        lanes,
        per_lane_bytes: per,
        time: per / lane_bw,
        one_lane_time: payload_bytes / lane_bw,
    })
}

/// One worker's FlexReduce counts, all read from the executed schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlexWorker {
    /// Rank.
    pub rank: usize,
    /// Group (subtree) index.
    pub group: usize,
    /// Entries on which the worker holds its group's complete partial sum
    /// after the in-group reduce-scatter (6 and 4 in the course's example).
    pub reduced: u64,
    /// Entries on which it holds the final sum after the fetch: its
    /// responsibility (3 and 2).
    pub responsible: u64,
    /// Partial-sum entries it received from other groups in the fetch.
    pub fetched: u64,
    /// Partial-sum entries it sent to other groups in the fetch.
    pub sent_cross: u64,
}

/// FlexReduce counts of a `flex` run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlexCounts {
    /// One entry per worker, in rank order.
    pub workers: Vec<FlexWorker>,
    /// `crossing[a][b]`: partial-sum entries sent from group `a` to group
    /// `b` in the fetch (the final all-gather and the return are excluded).
    pub crossing: Vec<Vec<u64>>,
}

/// Counts of a `flex` [`TopoRun`] kept with states (from [`run`]).
///
/// # Errors
/// [`TopoError::BadParameter`] when `run` is not a `flex` run, or its
/// states were not kept.
pub fn flex_counts(run: &TopoRun, topo: &Topology) -> Result<FlexCounts, TopoError> {
    if run.alg != "flex" {
        return Err(TopoError::BadParameter(
            "FlexReduce counts need a flex run".into(),
        ));
    }
    let s = run.schedule();
    let tr = &run.trace;
    if tr.states.len() != s.rounds.len() + 1 {
        return Err(TopoError::BadParameter(
            "the flex run kept no per-round states".into(),
        ));
    }
    let p = s.p;
    let groups = topo.nodes();
    let rs_rounds = s
        .rounds
        .iter()
        .take_while(|r| r.note == flex_reduce::GROUP_RS)
        .count();
    let fetch_round = s.rounds.iter().position(|r| r.note == flex_reduce::FETCH);
    let seg_len = |si: usize| tr.segments.get(si).map_or(0, |r| r.end - r.start);
    let count = |state: usize, rank: usize, want: &dyn Fn(&[usize]) -> bool| -> u64 {
        tr.states[state]
            .contributors
            .get(rank)
            .map(|row| {
                row.iter()
                    .enumerate()
                    .filter(|(_, c)| want(&c.ranks()))
                    .map(|(si, _)| seg_len(si))
                    .sum()
            })
            .unwrap_or(0)
    };
    let mut crossing = vec![vec![0u64; groups]; groups];
    let mut fetched = vec![0u64; p];
    let mut sent_cross = vec![0u64; p];
    if let Some(fi) = fetch_round {
        for t in &s.rounds[fi].transfers {
            if t.op != Op::Reduce {
                continue;
            }
            let (a, b) = (topo.node_of(t.src), topo.node_of(t.dst));
            if let Some(c) = crossing.get_mut(a).and_then(|row| row.get_mut(b)) {
                *c += t.len();
            }
            fetched[t.dst] += t.len();
            sent_cross[t.src] += t.len();
        }
    }
    let workers = (0..p)
        .map(|r| {
            let g = topo.node_of(r);
            let mates: Vec<usize> = topo.node_ranks(g).collect();
            let reduced = count(rs_rounds, r, &|c| c == mates.as_slice());
            let responsible = fetch_round.map_or(reduced, |fi| count(fi + 1, r, &|c| c.len() == p));
            FlexWorker {
                rank: r,
                group: g,
                reduced,
                responsible,
                fetched: fetched[r],
                sent_cross: sent_cross[r],
            }
        })
        .collect();
    Ok(FlexCounts { workers, crossing })
}

/// Bytes one algorithm sends over the rack core, counted from its transfers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreCrossing {
    /// The `alg` key.
    pub alg: &'static str,
    /// Bytes over the core, both directions together.
    pub bytes: u64,
    /// `out[k]`: bytes leaving rack `k` over the core.
    pub out: Vec<u64>,
    /// Messages that crossed the core.
    pub messages: usize,
    /// Rounds with at least one core crossing.
    pub rounds: usize,
}

/// RAT against the flat ring over all ranks: bytes over the core, side by
/// side, and the reason in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreComparison {
    /// The rack-aware all-reduce.
    pub rat: CoreCrossing,
    /// The flat ring over all ranks in rank order.
    pub flat: CoreCrossing,
    /// Why the counts differ, with the numbers.
    pub reason: String,
}

fn crossing_of(
    alg: &'static str,
    topo: &Topology,
    n: u64,
    eb: u64,
) -> Result<CoreCrossing, TopoError> {
    let (entry, a) = handle(alg)?;
    let s = entry.topology_schedule(topo, n, eb)?;
    let per_round = round_traffic(&s, topo);
    let total = cumulative_traffic(&per_round, topo)
        .last()
        .cloned()
        .unwrap_or_else(|| Traffic::zero(topo));
    Ok(CoreCrossing {
        alg: a.key,
        bytes: total.core_total(),
        out: total.core_out.clone(),
        messages: total.core_messages,
        rounds: per_round.iter().filter(|t| t.core_messages > 0).count(),
    })
}

/// The course's RAT comparison on `topo` (e.g. 2 racks × 4 workers): bytes
/// crossing the core for `rat` and for the flat ring over all ranks.
///
/// # Errors
/// As [`run`] (`rat` needs ≥ 2 racks of equal size).
pub fn core_crossing(
    topo: &Topology,
    n: u64,
    elem_bytes: u64,
) -> Result<CoreComparison, TopoError> {
    let rat = crossing_of("rat", topo, n, elem_bytes)?;
    let flat = crossing_of("flat", topo, n, elem_bytes)?;
    let p = topo.p();
    let k = topo.racks();
    let reason = format!(
        "The flat ring crosses the core at every rack boundary ({k} places) in each of its \
         2(p − 1) = {} rounds, each time with one chunk of n/p = n/{p}: {} messages. \
         RAT first reduces inside each rack, so only one rack aggregate (n per rack) \
         crosses towards rack 0 and the result (n per rack) comes back: {} messages in {} rounds.",
        2 * (p - 1),
        flat.messages,
        rat.messages,
        rat.rounds
    );
    Ok(CoreComparison { rat, flat, reason })
}

/// Topology of the course's illustrative examples with the given node
/// sizes, racks and lanes: intra-node 300 GB/s and 1 µs, NIC 12.5 GB/s and
/// 5 µs, core 25 GB/s per direction (illustrative link figures, not a
/// measurement).
///
/// # Errors
/// [`TopoError::Topology`] for a bad shape.
pub fn example_topology(
    node_sizes: Vec<usize>,
    racks: usize,
    lanes: usize,
) -> Result<Topology, TopoError> {
    Ok(Topology::unequal(
        node_sizes,
        racks,
        lanes,
        Link::new(1e-6, 300e9),
        Link::new(5e-6, 12.5e9),
        25e9,
    )?)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

#[cfg(test)]
mod title_tests {
    use super::round_titles;
    use crate::core::schedule::{Computation, Phase, Round, Schedule};

    #[test]
    fn titles_count_runs_of_the_same_level() {
        let round = |phase: Phase, note: &str| Round {
            phase,
            note: note.into(),
            transfers: Vec::new(),
        };
        let s = Schedule {
            p: 2,
            n: 2,
            elem_bytes: 4,
            collective: Computation::AllReduce,
            rounds: vec![
                round(Phase::ReduceScatter, "x"),
                round(Phase::ReduceScatter, "x"),
                round(Phase::NodeReduce, "leaf"),
                round(Phase::ReduceScatter, "x"),
            ],
        };
        assert_eq!(
            round_titles(&s),
            vec![
                "x, round 1 of 2",
                "x, round 2 of 2",
                "intra-node reduce to the node leader, round 1 of 1: leaf",
                "x, round 1 of 1",
            ]
        );
    }
}
