//! URL parameters of the `step` view (one data-parallel training step):
//! `?view=step&p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=fp32&fwd=0ms&bwd=10ms`.
//!
//! - The network: `alg` (a flat all-reduce key of the registry), `p`, `bw`,
//!   `alpha`, `gamma` (flat topology).
//! - The model: `layers=L&params=N` (uniform) or `params=a,b,c` (one count
//!   per layer, forward order); counts, not sizes (`25M`, `1.5B`; a byte
//!   unit is an error). `dtype=fp32|bf16|fp16`, `fwd` (a time), `bwd` (one
//!   time, or one per layer).
//! - Buckets: `bucket` (every bucket after the first, default 25MiB) and
//!   `first` (the first, default 1MiB); a plain number is MiB, as DDP's
//!   `bucket_cap_mb`. `overlap=0` starts every all-reduce after the
//!   backward pass. `samples` (per worker per step) gives samples per second.
//! - Strategies: `mode=allreduce|zero2|fsdp|gossip|local` (the timeline
//!   shown: DDP's, ZeRO-2's or FSDP's step; all strategies are compared),
//!   `graph` (D-PSGD's graph), `h` (local SGD's averaging period; absent:
//!   never), `optim` (K, bytes of optimizer state per parameter, for the
//!   memory per rank; default 12, mixed-precision Adam).
//! - Faults: `straggler=RANK:FACTOR` (0 < FACTOR ≤ 1, that rank's compute
//!   speed), `fail=RANK@STEP` (a step number ≥ 1, not a time), `ckpt`
//!   (steps between checkpoints), `restart` (a time).
//! - Time to quality: `target` (a loss) and the SGD lab's own parameters
//!   under its names (`shards`, `losses`, `iid`, `lr`, `decay`, `steps`,
//!   `batch`, `seed`, `d`, `weights`).
//! - A measured step: `measured=STEP,EXPOSED` (two times: a profiler
//!   trace's step and its exposed communication, as the trace view's link
//!   carries them), shown beside the model's.

use super::fields::{self, Field};
use super::gossip::GraphChoice;
use super::ring::course_bw;
use super::sgd::{parse_h, SgdParams};
use super::{parse_int_in, FieldError, Query};
use crate::core::collectives::Algorithm;
use crate::core::consensus::torus_shape;
use crate::core::consensus::{Graph, GraphKind};
use crate::core::sgd::Strategy;
use crate::core::step::failure::Failure;
use crate::core::step::report::Case;
use crate::core::step::sharded::DEFAULT_OPTIM_BYTES;
use crate::core::step::{
    format_count, Dtype, StepModel, StepOptions, Straggler, DEFAULT_BUCKET_BYTES,
    DEFAULT_FIRST_BUCKET_BYTES,
};
use crate::core::step::{Network, Sharding};
use crate::core::topology::Topology;
use crate::core::units::{format_binary, parse_time, Bandwidth};

mod parse;
#[cfg(test)]
mod tests;

pub use parse::{
    parse_alg, parse_cap, parse_fail, parse_measured, parse_mode, parse_optim, parse_params,
    parse_straggler, parse_times, MAX_CAP, MAX_LAYERS, MAX_OPTIM, MAX_P, MAX_STEP,
};

/// The view's panels in the page's order (the names `show=` takes).
pub const PANELS: &[&str] = &[
    "title",
    "presets",
    "controls",
    "timeline",
    "summary",
    "tuner",
    "sharding",
    "strategies",
    "straggler",
    "failure",
    "quality",
    "model",
];

/// The presets: (label, query).
pub const PRESETS: &[(&str, &str)] = &[
    (
        "A: 4 layers of 100 MB on 8 ranks",
        "p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=fp32&fwd=0ms&bwd=10ms",
    ),
    (
        "A without overlap",
        "p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=fp32&fwd=0ms&bwd=10ms&overlap=0",
    ),
    (
        "A with a straggler",
        "p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=fp32&fwd=0ms&bwd=10ms&straggler=3:0.5",
    ),
    (
        "A as D-PSGD on a ring",
        "p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=fp32&fwd=0ms&bwd=10ms&mode=gossip&graph=ring",
    ),
    (
        "A as local SGD, h = 4",
        "p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=fp32&fwd=0ms&bwd=10ms&mode=local&h=4",
    ),
    (
        "B: 100 layers of 4 MB on 16 ranks",
        "p=16&alg=ring&alpha=20us&bw=12.5GB/s&layers=100&params=1M&dtype=fp32&fwd=25ms&bwd=0.5ms",
    ),
    (
        "A with a failure at step 25",
        "p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=fp32&fwd=0ms&bwd=10ms&fail=3@25&ckpt=10&restart=30s",
    ),
    (
        "S: FSDP, 4 layers of 50 MB on 8 ranks",
        "p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=bf16&fwd=20ms&bwd=10ms&mode=fsdp",
    ),
    (
        "S as ZeRO-2",
        "p=8&alg=ring&bw=12.5GB/s&alpha=0us&layers=4&params=25M&dtype=bf16&fwd=20ms&bwd=10ms&mode=zero2",
    ),
];

/// Parameters of the step view.
#[derive(Clone, Debug, PartialEq)]
pub struct StepParams {
    /// The all-reduce of every bucket.
    pub alg: Algorithm,
    /// Ranks (workers).
    pub p: usize,
    /// Link bandwidth.
    pub bw: Field<Bandwidth>,
    /// Start-up latency α, seconds.
    pub alpha: Field<f64>,
    /// Number of layers L.
    pub layers: usize,
    /// Parameters per layer as typed: one value (every layer) or L values.
    pub params: Field<Vec<u64>>,
    /// Gradient type.
    pub dtype: Dtype,
    /// Forward time, seconds.
    pub fwd: Field<f64>,
    /// Backward time: one value (every layer) or L values, seconds.
    pub bwd: Field<Vec<f64>>,
    /// First bucket's cap, bytes.
    pub first: Field<u64>,
    /// Every later bucket's cap, bytes.
    pub bucket: Field<u64>,
    /// All-reduces during the backward pass.
    pub overlap: bool,
    /// Samples per worker per step.
    pub samples: Option<u64>,
    /// The strategy whose timeline is shown.
    pub mode: Strategy,
    /// How all-reduce SGD keeps the model (`mode=zero2|fsdp`; DDP
    /// otherwise). Anything but DDP comes with `mode` all-reduce SGD.
    pub sharding: Sharding,
    /// K, bytes of optimizer state per parameter (`optim`).
    pub optim: Field<f64>,
    /// D-PSGD's graph.
    pub graph: GraphChoice,
    /// Local SGD averages every `h` steps (`None`: never).
    pub h: Option<usize>,
    /// `straggler=RANK:FACTOR`.
    pub straggler: Option<Straggler>,
    /// `fail=RANK@STEP`.
    pub fail: Option<Failure>,
    /// Steps between checkpoints.
    pub ckpt: Option<usize>,
    /// Time to restart after a failure, seconds.
    pub restart: Option<Field<f64>>,
    /// Loss to reach, for time to quality.
    pub target: Option<f64>,
    /// `measured=STEP,EXPOSED`: a measured step and its exposed
    /// communication, seconds ([`parse::parse_measured`]), shown beside the
    /// model's.
    pub measured: Option<Field<Vec<f64>>>,
    /// The SGD lab's training parameters (its own names).
    pub lab: SgdParams,
}

impl Default for StepParams {
    /// Case A: 8 ranks, ring, 12.5 GB/s, α = 0, 4 layers of 25M fp32
    /// parameters, fwd 0 ms, bwd 10 ms a layer, DDP's caps.
    fn default() -> Self {
        StepParams {
            alg: Algorithm::RING,
            p: 8,
            bw: course_bw(),
            alpha: Field::new("0us", 0.0),
            layers: 4,
            params: Field::new("25M", vec![25_000_000]),
            dtype: Dtype::Fp32,
            fwd: Field::new("0ms", 0.0),
            bwd: Field::new("10ms", vec![0.010]),
            first: Field::new("1MiB", DEFAULT_FIRST_BUCKET_BYTES),
            bucket: Field::new("25MiB", DEFAULT_BUCKET_BYTES),
            overlap: true,
            samples: None,
            mode: Strategy::AllReduce,
            sharding: Sharding::Ddp,
            optim: Field::new("12", DEFAULT_OPTIM_BYTES),
            graph: GraphChoice::Ring,
            h: None,
            straggler: None,
            fail: None,
            ckpt: None,
            restart: None,
            target: None,
            measured: None,
            lab: SgdParams::default(),
        }
    }
}

fn graph_kind(g: GraphChoice, p: usize) -> GraphKind {
    match g {
        GraphChoice::Ring => GraphKind::Ring,
        GraphChoice::Path => GraphKind::Path,
        GraphChoice::Star => GraphKind::Star,
        GraphChoice::Complete => GraphKind::Complete,
        GraphChoice::Torus => {
            let (rows, cols) = torus_shape(p);
            GraphKind::Torus { rows, cols }
        }
        GraphChoice::Hypercube => GraphKind::Hypercube,
        GraphChoice::Exponential => GraphKind::Exponential,
        GraphChoice::Random => GraphKind::Random,
    }
}

/// Keys the SGD lab reads that this view passes through.
const LAB_KEYS: [&str; 10] = [
    "shards", "losses", "iid", "lr", "decay", "steps", "batch", "seed", "d", "weights",
];

impl StepParams {
    /// The model: per-layer counts (one value repeated over `layers`), the
    /// dtype, fwd and per-layer bwd.
    ///
    /// # Errors
    /// A message when a list's length is not the layer count.
    pub fn model(&self) -> Result<StepModel, FieldError> {
        let l = self.layers;
        let params = match self.params.value.len() {
            1 => vec![self.params.value[0]; l],
            n if n == l => self.params.value.clone(),
            n => {
                return Err(FieldError::new(
                    "params",
                    format!("params lists {n} counts for {l} layers; give one, or one per layer"),
                ))
            }
        };
        let bwd = match self.bwd.value.len() {
            1 => vec![self.bwd.value[0]; l],
            n if n == l => self.bwd.value.clone(),
            n => {
                return Err(FieldError::new(
                    "bwd",
                    format!("bwd lists {n} times for {l} layers; give one, or one per layer"),
                ))
            }
        };
        Ok(StepModel {
            params,
            dtype: self.dtype,
            fwd: self.fwd.value,
            bwd,
        })
    }

    /// The bucket options.
    pub fn options(&self) -> StepOptions {
        StepOptions {
            first: self.first.value,
            cap: self.bucket.value,
            overlap: self.overlap,
            straggler: self.straggler,
            sharding: self.sharding,
        }
    }

    /// D-PSGD's graph on `p` ranks.
    ///
    /// # Errors
    /// The consensus core's message (e.g. a hypercube needs a power of two).
    pub fn graph_at(&self, p: usize) -> Result<Graph, String> {
        Graph::new(graph_kind(self.graph, p), p, self.lab.seed).map_err(|e| e.to_string())
    }

    /// The lab's parameters for the time-to-quality panel, with this view's
    /// strategy, graph (a ring when it does not fit the lab's workers) and h.
    pub fn lab_params(&self) -> SgdParams {
        let mut lab = self.lab.clone();
        lab.mode = self.mode;
        lab.graph = self.graph;
        lab.h = self.h;
        if lab.lab_setup().mixing().is_err() {
            lab.graph = GraphChoice::Ring;
        }
        lab
    }

    /// Builds the parameters from a query; each bad field keeps its value
    /// from `base` and yields a [`FieldError`].
    pub fn from_query(q: &Query, base: &StepParams) -> (StepParams, Vec<FieldError>) {
        let mut out = base.clone();
        let mut errs = Vec::new();
        let mut take = |r: Result<(), FieldError>| {
            if let Err(e) = r {
                errs.push(e);
            }
        };
        if let Some(raw) = q.get("alg") {
            take(parse_alg(raw).map(|a| out.alg = a));
        }
        if let Some(raw) = q.get("p") {
            take(parse_int_in("p", raw, 2, MAX_P).map(|v| out.p = v as usize));
        }
        if let Some(raw) = q.get("bw") {
            take(fields::bandwidth("bw", raw).map(|v| out.bw = v));
        }
        if let Some(raw) = q.get("alpha") {
            take(fields::alpha("alpha", raw).map(|v| out.alpha = v));
        }
        if let Some(raw) = q.get("layers") {
            take(parse_int_in("layers", raw, 1, MAX_LAYERS).map(|v| out.layers = v as usize));
        }
        if let Some(raw) = q.get("params") {
            take(parse_params(raw).map(|v| {
                if v.value.len() > 1 && q.get("layers").is_none() {
                    out.layers = v.value.len();
                }
                out.params = v;
            }));
        }
        if let Some(raw) = q.get("dtype") {
            take(match Dtype::parse(raw) {
                Some(d) => {
                    out.dtype = d;
                    Ok(())
                }
                None => Err(FieldError::new(
                    "dtype",
                    format!("dtype must be fp32, bf16 or fp16 (got “{raw}”)"),
                )),
            });
        }
        if let Some(raw) = q.get("fwd") {
            take(
                parse_times("fwd", raw).and_then(|f| match f.value.as_slice() {
                    [t] => {
                        out.fwd = Field::new(&f.text, *t);
                        Ok(())
                    }
                    _ => Err(FieldError::new(
                        "fwd",
                        "fwd is one time for the whole forward pass",
                    )),
                }),
            );
        }
        if let Some(raw) = q.get("bwd") {
            take(parse_times("bwd", raw).map(|v| out.bwd = v));
        }
        if let Some(raw) = q.get("first") {
            take(parse_cap("first", raw).map(|v| out.first = v));
        }
        if let Some(raw) = q.get("bucket") {
            take(parse_cap("bucket", raw).map(|v| out.bucket = v));
        }
        if let Some(raw) = q.get("overlap") {
            take(match raw.trim().to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "on" => {
                    out.overlap = true;
                    Ok(())
                }
                "0" | "false" | "no" | "off" => {
                    out.overlap = false;
                    Ok(())
                }
                _ => Err(FieldError::new(
                    "overlap",
                    format!("overlap must be 1 (during backward) or 0 (after it) (got “{raw}”)"),
                )),
            });
        }
        if let Some(raw) = q.get("samples") {
            take(if raw.trim() == "-" {
                out.samples = None;
                Ok(())
            } else {
                parse_int_in("samples", raw, 1, 1_000_000_000).map(|v| out.samples = Some(v))
            });
        }
        out.read_strategy_and_faults(q, &mut errs);
        let mut lab_q = Query::default();
        for k in LAB_KEYS {
            if let Some(v) = q.get(k) {
                lab_q.insert(k.to_string(), v.to_string());
            }
        }
        if !lab_q.is_empty() {
            let (mut lab, e) = SgdParams::from_query(&lab_q, &base.lab);
            lab.step = lab.steps;
            out.lab = lab;
            errs.extend(e);
        }
        out.check(q, base, &mut errs);
        (out, errs)
    }

    /// Reads `mode`, `graph`, `h`, `straggler`, `fail`, `ckpt`, `restart`
    /// and `target` (the second half of [`StepParams::from_query`]).
    fn read_strategy_and_faults(&mut self, q: &Query, errs: &mut Vec<FieldError>) {
        let out = self;
        let mut take = |r: Result<(), FieldError>| {
            if let Err(e) = r {
                errs.push(e);
            }
        };
        if let Some(raw) = q.get("mode") {
            take(parse_mode(raw).map(|(s, z)| {
                out.mode = s;
                out.sharding = z;
            }));
        }
        if let Some(raw) = q.get("optim") {
            take(parse_optim(raw).map(|k| out.optim = k));
        }
        if let Some(raw) = q.get("graph") {
            take(GraphChoice::parse(raw).map(|g| out.graph = g));
        }
        if let Some(raw) = q.get("h") {
            take(parse_h(raw).map(|h| out.h = h));
        }
        if let Some(raw) = q.get("straggler") {
            take(parse_straggler(raw).map(|s| out.straggler = s));
        }
        if let Some(raw) = q.get("fail") {
            take(parse_fail(raw).map(|f| out.fail = f));
        }
        if let Some(raw) = q.get("ckpt") {
            take(if matches!(raw.trim(), "-" | "0" | "none") {
                out.ckpt = None;
                Ok(())
            } else {
                parse_int_in("ckpt", raw, 1, MAX_STEP).map(|v| out.ckpt = Some(v as usize))
            });
        }
        if let Some(raw) = q.get("restart") {
            take(if matches!(raw.trim(), "-" | "none") {
                out.restart = None;
                Ok(())
            } else {
                match parse_time(raw) {
                    Ok(t) if t <= 86_400.0 => {
                        out.restart = Some(Field::new(raw.trim(), t));
                        Ok(())
                    }
                    Ok(_) => Err(FieldError::new("restart", "restart must be at most 1 day")),
                    Err(e) => Err(FieldError::new("restart", format!("restart: {e}"))),
                }
            });
        }
        if let Some(raw) = q.get("measured") {
            take(parse_measured(raw).map(|f| out.measured = Some(f)));
        }
        if let Some(raw) = q.get("target") {
            take(
                match crate::core::units::decimal::parse(raw.trim()).ok_or(()) {
                    Ok(v) if v.is_finite() && v > 0.0 => {
                        out.target = Some(v);
                        Ok(())
                    }
                    _ if raw.trim() == "-" => {
                        out.target = None;
                        Ok(())
                    }
                    _ => Err(FieldError::new(
                        "target",
                        format!("target must be a loss above 0, e.g. 0.05 (got “{raw}”)"),
                    )),
                },
            );
        }
    }

    /// The checks across fields; what fails goes back to `base`.
    fn check(&mut self, q: &Query, base: &StepParams, errs: &mut Vec<FieldError>) {
        if let Err(e) = self.model() {
            errs.push(e);
            self.layers = base.layers;
            self.params = base.params.clone();
            self.bwd = base.bwd.clone();
        }
        let p = self.p;
        let rank_err = |name: &'static str, what: &str, r: usize| {
            FieldError::new(
                name,
                format!(
                    "{what} names rank {r}, but the ranks are 0 … {} (p = {p})",
                    p - 1
                ),
            )
        };
        if let Some(s) = self.straggler.filter(|s| s.rank >= p) {
            if q.get("straggler").is_some() {
                errs.push(rank_err("straggler", "straggler", s.rank));
                self.straggler = base.straggler;
            } else {
                errs.push(rank_err("p", "straggler", s.rank));
                self.p = base.p;
            }
        }
        let p = self.p;
        if let Some(f) = self.fail.filter(|f| f.rank >= p) {
            if q.get("fail").is_some() {
                errs.push(rank_err("fail", "fail", f.rank));
                self.fail = base.fail;
            } else {
                errs.push(rank_err("p", "fail", f.rank));
                self.p = base.p;
            }
        }
        if let Err(msg) = self.graph_at(self.p) {
            errs.push(FieldError::new(
                "graph",
                format!("graph: {msg}; using a ring"),
            ));
            self.graph = GraphChoice::Ring;
        }
    }

    /// The canonical query pairs (without `view`).
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut v = vec![
            ("p", self.p.to_string()),
            ("alg", self.alg.key().to_string()),
            ("bw", self.bw.text.clone()),
            ("alpha", self.alpha.text.clone()),
            ("layers", self.layers.to_string()),
            ("params", self.params.text.clone()),
            ("dtype", self.dtype.key().to_string()),
            ("fwd", self.fwd.text.clone()),
            ("bwd", self.bwd.text.clone()),
        ];
        if self.first.value != DEFAULT_FIRST_BUCKET_BYTES {
            v.push(("first", self.first.text.clone()));
        }
        if self.bucket.value != DEFAULT_BUCKET_BYTES {
            v.push(("bucket", self.bucket.text.clone()));
        }
        if !self.overlap {
            v.push(("overlap", "0".into()));
        }
        if let Some(s) = self.samples {
            v.push(("samples", s.to_string()));
        }
        if self.sharding != Sharding::Ddp {
            v.push(("mode", self.sharding.key().to_string()));
        } else if self.mode != Strategy::AllReduce {
            v.push(("mode", self.mode.key().to_string()));
        }
        if self.optim.value != DEFAULT_OPTIM_BYTES {
            v.push(("optim", self.optim.text.clone()));
        }
        if self.graph != GraphChoice::Ring || self.mode == Strategy::Gossip {
            v.push(("graph", self.graph.key().to_string()));
        }
        if let Some(h) = self.h {
            v.push(("h", h.to_string()));
        }
        if let Some(s) = self.straggler {
            v.push((
                "straggler",
                format!(
                    "{}:{}",
                    s.rank,
                    crate::core::units::decimal::shortest(s.factor)
                ),
            ));
        }
        if let Some(f) = self.fail {
            v.push(("fail", format!("{}@{}", f.rank, f.step)));
        }
        if let Some(c) = self.ckpt {
            v.push(("ckpt", c.to_string()));
        }
        if let Some(r) = &self.restart {
            v.push(("restart", r.text.clone()));
        }
        if let Some(t) = self.target {
            v.push(("target", crate::core::units::decimal::shortest(t)));
        }
        if let Some(m) = &self.measured {
            v.push(("measured", m.text.clone()));
        }
        let def = SgdParams::default().to_pairs();
        for (k, val) in self.lab.to_pairs() {
            if LAB_KEYS.contains(&k) && !def.iter().any(|(dk, dv)| *dk == k && *dv == val) {
                v.push((k, val));
            }
        }
        v
    }

    /// A short description of the model, e.g. "4 layers × 25M fp32 = 400 MB".
    pub fn model_line(&self) -> String {
        match self.model() {
            Ok(m) => format!(
                "{} layers, {} parameters in {} = {} of gradients",
                m.layers(),
                format_count(m.total_params()),
                m.dtype.key(),
                crate::core::units::format_decimal(m.model_bytes() as f64)
            ),
            Err(e) => e.message,
        }
    }

    /// The core's case: the model, the flat network of `p` ranks with
    /// `alpha` and `bw`, the options, the graph, `h` and the failure. The
    /// lab's shard sizes feed the survivors' objective when there is one
    /// shard per rank.
    ///
    /// # Errors
    /// A message when the model's lists do not fit (never for parameters
    /// built by [`StepParams::from_query`]).
    pub fn case(&self) -> Result<Case, String> {
        let model = self.model().map_err(|e| e.message)?;
        let (alpha, beta) = (self.alpha.value, self.bw.value.beta());
        let net = Network::new(self.alg, Topology::flat(self.p, alpha, beta), 0.0);
        Ok(Case {
            model,
            net,
            link: (alpha, beta),
            opts: self.options(),
            optim: self.optim.value,
            graph: self.graph_at(self.p),
            h: self.h,
            fail: self.fail,
            ckpt: self.ckpt,
            restart: self.restart.as_ref().map(|r| r.value),
            shards: (self.lab.shards.len() == self.p).then(|| self.lab.shards.clone()),
        })
    }

    /// The bucket caps written out, e.g. "first 1 MiB, then 25 MiB".
    pub fn caps_line(&self) -> String {
        format!(
            "first {}, then {}",
            format_binary(self.first.value as f64),
            format_binary(self.bucket.value as f64)
        )
    }
}

/// The step view of a case: `?view=step&` + `query`.
pub fn link(query: &str) -> String {
    format!("?view=step&{query}")
}
