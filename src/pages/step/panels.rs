//! The step page's panels as plain data: `#summary` (the step in numbers),
//! `#strategies` (all-reduce SGD, D-PSGD and local SGD with the same
//! compute), `#straggler` (what one slow rank costs each) and `#sharding`
//! (memory per rank under DDP and ZeRO-1/2/3, Rajbhandari et al. 2020,
//! §3). Every number is the core's ([`Report`]); this file only words it.

use crate::core::sgd::Strategy;
use crate::core::step::report::Report;
use crate::core::step::strategies::paced;
use crate::core::step::{format_count, CommKind, Sharding};
use crate::core::units::{decimal, format_decimal, format_memory, format_number, format_time, sig};
use crate::pages::common::Row;
use crate::params::step::StepParams;

use super::label;

/// `#summary`: the line above the table, its rows and the line below.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The case in one line (and the sharding when not DDP).
    pub lead: String,
    /// Step, compute, exposed and communication time, hidden share,
    /// bucket count, the step without overlap and the throughput.
    pub rows: Vec<Row>,
    /// What "exposed" means for the mode shown.
    pub foot: &'static str,
}

/// `#summary` for the report `r` of the parameters `p`.
pub fn summary(r: &Report, p: &StepParams) -> Summary {
    let shown = r.shown_or_ddp().0;
    let run = shown.run;
    let rs = run
        .buckets
        .iter()
        .filter(|b| b.kind == CommKind::ReduceScatter)
        .count();
    let (comm, count, count_label, no_overlap) = match shown.mode {
        Sharding::Ddp => (
            "All-reduce time in total",
            run.buckets.len(),
            "Buckets",
            "Step time without overlap (overlap=0)",
        ),
        Sharding::Zero2 => (
            "Reduce-scatter and all-gather time in total",
            rs,
            "Buckets (reduce-scattered)",
            "Step time with the reduce-scatters after backward (overlap=0)",
        ),
        Sharding::Fsdp => (
            "All-gather and reduce-scatter time in total",
            run.buckets.len(),
            "Collectives (all-gathers and reduce-scatters)",
            "Step time without prefetch (overlap=0)",
        ),
    };
    let mut rows = vec![
        Row::new("step-time", "Step time", format_time(run.step_time)),
        Row::new(
            "compute-time",
            "Compute (forward + backward)",
            format_time(run.compute_time),
        ),
        Row::new(
            "exposed-time",
            "Exposed communication",
            format_time(run.exposed()),
        ),
        Row::new("comm-time", comm, format_time(run.comm_time)),
        Row::new(
            "hidden-share",
            "Communication hidden behind compute",
            format!("{} %", decimal::fixed(100.0 * run.hidden_share(), 1)),
        ),
        Row::new("bucket-count", count_label, count.to_string()),
        Row::new("no-overlap", no_overlap, format_time(shown.no_overlap)),
    ];
    if let Some(s) = p.samples {
        let v = s as f64 * p.p as f64 / run.step_time.max(1e-15);
        rows.push(Row::new(
            "samples-rate",
            "Throughput",
            format!(
                "{} samples/s ({} per worker × {} workers ÷ {})",
                sig(v, 4),
                s,
                p.p,
                format_time(run.step_time)
            ),
        ));
    }
    Summary {
        lead: match shown.mode {
            Sharding::Ddp => p.model_line(),
            m => format!("{}; {}.", p.model_line(), m.label()),
        },
        rows,
        foot: if shown.mode == Sharding::Ddp {
            "Exposed communication is the step time minus the compute time: the part of the all-reduces the backward pass did not hide."
        } else {
            "Exposed communication is the step time minus the compute time, waits for an all-gather included."
        },
    }
}

/// One row of `#strategies`.
#[derive(Clone, Debug, PartialEq)]
pub struct StrategyRow {
    /// The strategy (its key names the row's element).
    pub strategy: Strategy,
    /// Its name, with local SGD's averaging.
    pub name: String,
    /// Time per step, or "—" when it cannot run.
    pub time: String,
    /// Bytes a rank sends per step, or "—".
    pub bytes: String,
    /// Why the time is what it is, or why it cannot run.
    pub why: String,
    /// The strategy `mode=` picked (all-reduce SGD's only under DDP).
    pub winner: bool,
}

/// Under `#strategies`: why D-PSGD can win without sending fewer bytes.
pub const STRATEGIES_NOTE: &str = "D-PSGD does not move fewer bytes than a ring all-reduce: on a ring graph each rank sends its whole model to two \
     neighbours (2n), while the ring all-reduce sends 2(p − 1)/p · n < 2n. It wins with fewer start-ups (one exchange \
     instead of 2(p − 1) rounds), and when links are slow or uneven, since a rank waits only for its neighbours. \
     Its models agree only approximately, so it may need more steps.";

/// `#strategies`: all-reduce SGD (DDP's step without a straggler), D-PSGD
/// and local SGD, in that order.
pub fn strategies(r: &Report, p: &StepParams) -> Vec<StrategyRow> {
    let clean = r.clean.as_ref().unwrap_or(&r.run);
    let model_bytes = format_decimal(clean.buckets.iter().map(|b| b.bytes).sum::<u64>() as f64);
    let row = |s: Strategy, time: String, bytes: String, why: String| StrategyRow {
        strategy: s,
        name: label(s, p.h),
        time,
        bytes,
        why,
        winner: p.mode == s && p.sharding == Sharding::Ddp,
    };
    let gossip = match &r.gossip {
        Ok(g) => row(
            Strategy::Gossip,
            format_time(g.step_time()),
            format_decimal(g.bytes_sent as f64),
            format!(
                "max(compute {}, exchange {}): the models go to the neighbours while the gradient is computed at the old model",
                format_time(g.compute),
                format_time(g.exchange)
            ),
        ),
        Err(e) => row(Strategy::Gossip, "—".into(), "—".into(), e.clone()),
    };
    let (local_why, local_bytes) = match p.h {
        Some(h) => (
            format!(
                "({h} × {} + all-reduce of the model {}) / {h}",
                format_time(r.local.compute),
                format_time(r.local.allreduce)
            ),
            format_decimal(r.allreduce_bytes as f64 / h as f64),
        ),
        None => (
            "no h: the models are never averaged (no communication); set h to average every h steps"
                .into(),
            "0 B".into(),
        ),
    };
    vec![
        row(
            Strategy::AllReduce,
            format_time(clean.step_time),
            format_decimal(r.allreduce_bytes as f64),
            format!(
                "{} buckets ({model_bytes} in all) overlapping the backward pass",
                clean.buckets.len()
            ),
        ),
        gossip,
        row(
            Strategy::Local,
            format_time(r.local.step_time()),
            local_bytes,
            local_why,
        ),
    ]
}

/// `#straggler` without `straggler=`: how to ask for one.
pub const STRAGGLER_HINT: &str = "Give straggler=RANK:FACTOR (e.g. 3:0.5, half speed) to see what one slow rank costs each strategy.";

/// Under `#straggler`: the only way out.
pub const STRAGGLER_FOOT: &str = "Only an asynchronous method, which lets ranks go on without the slow one's contribution, escapes the straggler's pace.";

/// `#straggler` with `straggler=`: one sentence per strategy and D-PSGD's
/// steps as the slowness spreads.
#[derive(Clone, Debug, PartialEq)]
pub struct Straggler {
    /// "A straggler: rank R at F × speed".
    pub heading: String,
    /// All-reduce SGD's step with and without the straggler.
    pub allreduce: String,
    /// ZeRO-2's or FSDP's, when one is shown.
    pub sharded: Option<String>,
    /// Synchronous D-PSGD's steady state.
    pub gossip: Option<String>,
    /// D-PSGD's steps as the slowness spreads.
    pub steps: Option<GossipSteps>,
    /// Local SGD's average step.
    pub local: String,
}

/// D-PSGD's steps with a straggler: the pace column's header and one
/// (step, rank 0's step time, "n of p ranks at the pace") row per step.
#[derive(Clone, Debug, PartialEq)]
pub struct GossipSteps {
    /// "ranks at the straggler's pace (T)".
    pub pace: String,
    /// (step from 1, rank 0's step time, "n of p").
    pub rows: Vec<(usize, String, String)>,
}

/// `#straggler` for the report `r` of `p`; `None` without `straggler=`.
pub fn straggler(r: &Report, p: &StepParams) -> Option<Straggler> {
    let s = p.straggler?;
    let clean = r.clean.as_ref().map_or(r.run.step_time, |c| c.step_time);
    let sharded = r
        .shown()
        .ok()
        .filter(|s| s.mode != Sharding::Ddp)
        .and_then(|s| s.clean.map(|c| (s, c)));
    let pace = r.run.compute_time;
    let steps = r.gossip_steps.as_ref().map(|ends| {
        let reach = paced(ends, pace);
        let rows = ends
            .iter()
            .zip(&reach)
            .enumerate()
            .map(|(t, (e, n))| {
                let prev = if t == 0 { 0.0 } else { ends[t - 1][0] };
                (
                    t + 1,
                    format_time(e[0] - prev),
                    format!("{n} of {}", e.len()),
                )
            })
            .collect();
        GossipSteps {
            pace: format!("ranks at the straggler's pace ({})", format_time(pace)),
            rows,
        }
    });
    Some(Straggler {
        heading: format!(
            "A straggler: rank {} at {} × speed",
            s.rank,
            decimal::shortest(s.factor)
        ),
        allreduce: format!(
            "All-reduce SGD: {} a step instead of {}. Every bucket's all-reduce needs every rank, so each waits for the straggler's gradients.",
            format_time(r.run.step_time),
            format_time(clean)
        ),
        sharded: sharded.map(|(sh, c)| {
            format!(
                "As {}: {} a step instead of {}. Every all-gather and reduce-scatter needs every rank too.",
                sh.mode.label(),
                format_time(sh.run.step_time),
                format_time(c.step_time)
            )
        }),
        gossip: r.gossip_straggler_step().map(|g| {
            format!(
                "Synchronous D-PSGD: a rank waits only for its neighbours, but they wait for theirs; the slowness spreads one hop a step, \
                 and in steady state every rank takes {} a step.",
                format_time(g)
            )
        }),
        steps,
        local: format!(
            "Local SGD: {} a step on average; it still waits for the straggler at every averaging.",
            format_time(r.local_straggler.unwrap_or(r.local).step_time())
        ),
    })
}

/// One row of `#sharding`.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardingRow {
    /// The row's id: ddp, zero1, zero2, zero3.
    pub id: &'static str,
    /// The id of its time and traffic cells (ZeRO-3's are fsdp's).
    pub key: &'static str,
    /// The mode's name.
    pub name: &'static str,
    /// Memory per rank as the ZeRO paper writes it.
    pub formula: &'static str,
    /// Memory per rank.
    pub memory: String,
    /// ZeRO-3's row: "FSDP: + gathered = total".
    pub fsdp: Option<String>,
    /// Step time and bytes a rank sends (with the ratio to DDP's), or
    /// `None` when the sharded step cannot run.
    pub cells: Option<(String, String)>,
    /// The mode shown on the chart.
    pub winner: bool,
}

/// `#sharding`: its rows, why the sharded rows are empty (when they are)
/// and the legend.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardingPanel {
    /// DDP, ZeRO-1, ZeRO-2, ZeRO-3 / FSDP.
    pub rows: Vec<ShardingRow>,
    /// Why the sharded rows have no step.
    pub why: Option<String>,
    /// Ψ, N and K for this case.
    pub legend: String,
}

/// Under `#sharding`: where the bytes per parameter come from.
pub const SHARDING_NOTE: &str = "Per parameter: 2 B of parameters, 2 B of gradients, K B of optimizer state (mixed-precision Adam: fp32 parameters, momentum, variance; \
     Rajbhandari et al. 2020, §3), whatever dtype= says. ZeRO-1 shards the optimizer state, ZeRO-2 the gradients too, ZeRO-3 the parameters too; \
     FSDP also holds its largest layer gathered. Activations are not counted. ZeRO-1 communicates as ZeRO-2: a reduce-scatter and an all-gather, \
     2(N − 1)/N · Ψ elements as DDP's all-reduce; FSDP gathers twice, 3(N − 1)/N · Ψ. Bytes are counted on the executed schedules.";

/// `#sharding` for the report `r` of `p`.
pub fn sharding(r: &Report, p: &StepParams) -> ShardingPanel {
    let m = r.memory;
    let ddp = r.run.bytes_sent;
    let zero2 = r.run_of(Sharding::Zero2);
    let table = [
        (
            "ddp",
            "ddp",
            Some(Sharding::Ddp),
            "DDP",
            "(2 + 2 + K)Ψ",
            m.ddp,
            Ok(&r.run),
        ),
        (
            "zero1",
            "zero1",
            None,
            "ZeRO-1",
            "4Ψ + KΨ/N",
            m.zero1,
            zero2,
        ),
        (
            "zero2",
            "zero2",
            Some(Sharding::Zero2),
            "ZeRO-2",
            "2Ψ + (2 + K)Ψ/N",
            m.zero2,
            zero2,
        ),
        (
            "zero3",
            "fsdp",
            Some(Sharding::Fsdp),
            "ZeRO-3 / FSDP",
            "(2 + 2 + K)Ψ/N",
            m.zero3,
            r.run_of(Sharding::Fsdp),
        ),
    ];
    let rows = table
        .into_iter()
        .map(|(id, key, mode, name, formula, mem, run)| ShardingRow {
            id,
            key,
            name,
            formula,
            memory: format_memory(mem),
            fsdp: (id == "zero3").then(|| {
                format!(
                    "FSDP: + {} = {}",
                    format_memory(m.gathered),
                    format_memory(m.fsdp())
                )
            }),
            cells: run.ok().map(|run| {
                let ratio = if ddp > 0 && run.bytes_sent != ddp {
                    format!(
                        " ({} × DDP)",
                        format_number(run.bytes_sent as f64 / ddp as f64)
                    )
                } else {
                    String::new()
                };
                (
                    format_time(run.step_time),
                    format!("{}{ratio}", format_decimal(run.bytes_sent as f64)),
                )
            }),
            winner: mode == Some(r.mode),
        })
        .collect();
    // When a sharded mode was asked for, the step chart above already
    // says why in full.
    let why = zero2.err().map(|e| {
        if p.sharding == Sharding::Ddp {
            format!("{e}.")
        } else {
            "No step time or traffic for ZeRO-1, ZeRO-2 and FSDP: see the message above the step chart."
                .to_string()
        }
    });
    ShardingPanel {
        rows,
        why,
        legend: format!(
            "Ψ = {} parameters, N = {} ranks, K = {} (optim=). ",
            format_count(m.params),
            p.p,
            format_number(p.optim.value)
        ),
    }
}
