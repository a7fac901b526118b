//! Everything the step view shows for one case, computed once: the step on
//! the clock (with and without the straggler and overlap), the three
//! strategies side by side, D-PSGD's steps with a straggler, and the
//! failure; ZeRO-2 and FSDP on the same clock and the memory per rank of
//! each mode. The tuner runs apart ([`super::strategies::tuner_point`]), one
//! cap at a time, so the page can show its progress.

use super::failure::{allreduce_loss, survivors, AllReduceLoss, Failure, Survivors};
use super::model::{Halves, Network, StepError, StepModel};
use super::run::time_step;
use super::sharded::{memory, Memory};
use super::spans::{Sharding, StepOptions, StepRun};
use super::strategies::{gossip_clock, gossip_step, local_step, readers, GossipStep, LocalStep};
use crate::core::consensus::Graph;
use crate::core::topology::Topology;

/// One case.
#[derive(Clone, Debug)]
pub struct Case {
    /// The model.
    pub model: StepModel,
    /// The network (algorithm, flat topology of p ranks, γ).
    pub net: Network,
    /// α and β of the flat links, for the p − 1 survivors' network.
    pub link: (f64, f64),
    /// Buckets, overlap, straggler and the mode shown (`sharding`).
    pub opts: StepOptions,
    /// K, bytes of optimizer state per parameter (12 for mixed-precision
    /// Adam), for the memory per rank.
    pub optim: f64,
    /// D-PSGD's graph on p ranks (`Err`: why it does not fit).
    pub graph: Result<Graph, String>,
    /// Local SGD's averaging period (`None`: never).
    pub h: Option<usize>,
    /// A failed rank.
    pub fail: Option<Failure>,
    /// Steps between checkpoints.
    pub ckpt: Option<usize>,
    /// Seconds to restart.
    pub restart: Option<f64>,
    /// Shard sizes for the survivors' objective (one per rank, or ignored).
    pub shards: Option<Vec<u64>>,
}

/// The failure's consequences.
#[derive(Clone, Debug, PartialEq)]
pub struct FailureReport {
    /// The failure.
    pub failure: Failure,
    /// All-reduce SGD's loss.
    pub allreduce: AllReduceLoss,
    /// All-reduce SGD's step on the p − 1 survivors, seconds.
    pub survivors_step: f64,
    /// D-PSGD's survivors (when the graph fits).
    pub gossip: Option<Survivors>,
}

/// A sharded mode's step.
#[derive(Clone, Debug, PartialEq)]
pub struct ModeRun {
    /// The step as asked (straggler included).
    pub run: StepRun,
    /// The same without the straggler, when there is one.
    pub clean: Option<StepRun>,
    /// Step time without overlap (no prefetch; collectives after the
    /// backward pass), seconds.
    pub no_overlap: f64,
}

/// The step of the mode shown, borrowed from a [`Report`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shown<'a> {
    /// The mode.
    pub mode: Sharding,
    /// Its step as asked.
    pub run: &'a StepRun,
    /// Without the straggler, when there is one.
    pub clean: Option<&'a StepRun>,
    /// Without overlap, seconds.
    pub no_overlap: f64,
}

/// The case's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// All-reduce SGD's step (DDP) as asked (straggler included).
    pub run: StepRun,
    /// The same without the straggler, when there is one.
    pub clean: Option<StepRun>,
    /// Step time with every all-reduce after the backward pass, seconds.
    pub no_overlap: f64,
    /// D-PSGD's step (without the straggler), or why the graph does not fit.
    pub gossip: Result<GossipStep, String>,
    /// Local SGD's step (without the straggler); `allreduce` is 0 and `h`
    /// 1 when it never averages.
    pub local: LocalStep,
    /// Local SGD's step at the straggler's speed, when there is one.
    pub local_straggler: Option<LocalStep>,
    /// D-PSGD with the straggler: each step's end per rank (`[t][k]`), for
    /// 2p steps, when there is a straggler and the graph fits.
    pub gossip_steps: Option<Vec<Vec<f64>>>,
    /// The failure, when there is one.
    pub failure: Option<FailureReport>,
    /// Bytes the busiest rank sends in one all-reduce of the whole model
    /// (the executed schedule's count).
    pub allreduce_bytes: u64,
    /// The mode shown (`mode=`): DDP, ZeRO-2 or FSDP.
    pub mode: Sharding,
    /// ZeRO-2's step, or why it cannot run on this all-reduce.
    pub zero2: Result<ModeRun, String>,
    /// FSDP's step, or why it cannot run on this all-reduce.
    pub fsdp: Result<ModeRun, String>,
    /// Memory per rank under each mode.
    pub memory: Memory,
    /// The reduce-scatter and all-gather of the sharded modes (`None`: the
    /// all-reduce has none).
    pub halves: Option<Halves>,
}

impl Report {
    /// The step of the mode shown; for ZeRO-2 or FSDP on an all-reduce
    /// without halves, why it cannot run.
    ///
    /// # Errors
    /// The message of [`StepError::NoHalves`].
    pub fn shown(&self) -> Result<Shown<'_>, &str> {
        let m = match self.mode {
            Sharding::Ddp => {
                return Ok(Shown {
                    mode: Sharding::Ddp,
                    run: &self.run,
                    clean: self.clean.as_ref(),
                    no_overlap: self.no_overlap,
                })
            }
            Sharding::Zero2 => &self.zero2,
            Sharding::Fsdp => &self.fsdp,
        };
        m.as_ref()
            .map(|m| Shown {
                mode: self.mode,
                run: &m.run,
                clean: m.clean.as_ref(),
                no_overlap: m.no_overlap,
            })
            .map_err(String::as_str)
    }

    /// The step of the mode shown, or DDP's with the reason when the mode
    /// shown cannot run on this all-reduce (so the page still has a step).
    pub fn shown_or_ddp(&self) -> (Shown<'_>, Option<&str>) {
        match self.shown() {
            Ok(s) => (s, None),
            Err(e) => (
                Shown {
                    mode: Sharding::Ddp,
                    run: &self.run,
                    clean: self.clean.as_ref(),
                    no_overlap: self.no_overlap,
                },
                Some(e),
            ),
        }
    }

    /// The step of `mode` as asked (DDP's is [`Report::run`]).
    pub fn run_of(&self, mode: Sharding) -> Result<&StepRun, &str> {
        match mode {
            Sharding::Ddp => Ok(&self.run),
            Sharding::Zero2 => self.zero2.as_ref().map(|m| &m.run).map_err(String::as_str),
            Sharding::Fsdp => self.fsdp.as_ref().map(|m| &m.run).map_err(String::as_str),
        }
    }

    /// D-PSGD's steady step with the straggler: the last step's length on
    /// rank 0 of [`Report::gossip_steps`], seconds.
    pub fn gossip_straggler_step(&self) -> Option<f64> {
        let s = self.gossip_steps.as_ref()?;
        let n = s.len();
        (n >= 2).then(|| s[n - 1][0] - s[n - 2][0])
    }
}

/// Computes the [`Report`] of `case`.
///
/// # Errors
/// [`StepError`] from the model or the schedule generator.
pub fn report(case: &Case) -> Result<Report, StepError> {
    let mut net = case.net.clone();
    let ddp = StepOptions {
        sharding: Sharding::Ddp,
        ..case.opts
    };
    let run = time_step(&case.model, &mut net, &ddp)?;
    let clean = match case.opts.straggler {
        Some(_) => Some(time_step(
            &case.model,
            &mut net,
            &StepOptions {
                straggler: None,
                ..ddp
            },
        )?),
        None => None,
    };
    let no_overlap = time_step(
        &case.model,
        &mut net,
        &StepOptions {
            overlap: false,
            ..ddp
        },
    )?
    .step_time;
    let speed = case.opts.straggler.map_or(1.0, |s| s.factor);
    let gossip = match &case.graph {
        Ok(g) => gossip_step(&case.model, &net, g).map_err(|e| e.to_string()),
        Err(e) => Err(e.clone()),
    };
    let mut local_at = |speed: f64| match case.h {
        Some(h) => local_step(&case.model, &mut net, h, speed),
        None => Ok(LocalStep {
            h: 1,
            compute: case.model.compute_time(speed),
            allreduce: 0.0,
        }),
    };
    let local = local_at(1.0)?;
    let local_straggler = match case.opts.straggler {
        Some(_) => Some(local_at(speed)?),
        None => None,
    };
    let p = net.p();
    let gossip_steps = match (&case.graph, &gossip, case.opts.straggler) {
        (Ok(g), Ok(gs), Some(s)) if s.rank < p => {
            let mut c = vec![case.model.compute_time(1.0); p];
            c[s.rank] = case.model.compute_time(s.factor);
            Some(gossip_clock(g, &c, gs.exchange, 2 * p))
        }
        _ => None,
    };
    let failure = match case.fail {
        Some(f) if f.rank < p => {
            let survivors_step = if p > 2 {
                let topo = Topology::flat(p - 1, case.link.0, case.link.1);
                let mut small = Network::new(net.alg, topo, net.gamma);
                time_step(&case.model, &mut small, &case.opts_without_straggler())?.step_time
            } else {
                case.model.compute_time(1.0)
            };
            let t = run.step_time;
            let gossip = case.graph.as_ref().ok().map(|g| {
                let r = readers(g);
                let ins = g.in_neighbours();
                let nb: Vec<Vec<usize>> = (0..p)
                    .map(|k| r[k].iter().chain(&ins[k]).copied().collect())
                    .collect();
                survivors(&nb, f.rank, case.shards.as_deref())
            });
            Some(FailureReport {
                failure: f,
                allreduce: allreduce_loss(f, t, survivors_step, case.ckpt, case.restart),
                survivors_step,
                gossip,
            })
        }
        _ => None,
    };
    let eb = case.model.dtype.bytes();
    let allreduce_bytes = net
        .alg
        .generate_flat_all_reduce(&net.topo, case.model.model_bytes() / eb, eb)?
        .bytes_sent_per_rank()
        .into_iter()
        .max()
        .unwrap_or(0);
    let zero2 = mode_run(&case.model, &mut net, &ddp, Sharding::Zero2);
    let fsdp = mode_run(&case.model, &mut net, &ddp, Sharding::Fsdp);
    let largest = case.model.params.iter().copied().max().unwrap_or(0);
    let memory = memory(case.model.total_params(), largest, p, case.optim);
    Ok(Report {
        halves: net.halves(),
        mode: case.opts.sharding,
        zero2,
        fsdp,
        memory,
        allreduce_bytes,
        run,
        clean,
        no_overlap,
        gossip,
        local,
        local_straggler,
        gossip_steps,
        failure,
    })
}

/// The step of the sharded mode `mode` with `opts`' buckets, overlap and
/// straggler: as asked, without the straggler and without overlap; the
/// error's message when it cannot run.
fn mode_run(
    model: &StepModel,
    net: &mut Network,
    opts: &StepOptions,
    mode: Sharding,
) -> Result<ModeRun, String> {
    let opts = StepOptions {
        sharding: mode,
        ..*opts
    };
    let mut at = |o: StepOptions| time_step(model, net, &o).map_err(|e| e.to_string());
    let run = at(opts)?;
    let clean = match opts.straggler {
        Some(_) => Some(at(StepOptions {
            straggler: None,
            ..opts
        })?),
        None => None,
    };
    let no_overlap = at(StepOptions {
        overlap: false,
        ..opts
    })?
    .step_time;
    Ok(ModeRun {
        run,
        clean,
        no_overlap,
    })
}

impl Case {
    fn opts_without_straggler(&self) -> StepOptions {
        StepOptions {
            straggler: None,
            sharding: Sharding::Ddp,
            ..self.opts
        }
    }
}
