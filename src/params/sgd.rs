//! URL parameters of the `sgd` view:
//! `?view=sgd&shards=600,300,100&losses=0.2,0.5,0.9&mode=allreduce&iid=0&steps=200`
//! plus `step`, `graph`, `weights`, `lr`, `decay`, `batch`, `seed`, `d` and
//! `h` (local SGD averages the models every h steps; absent: never).
//!
//! `shards` and `losses` feed the objective calculator (a shard may hold 0
//! samples there); `shards` also sets the training problem's shard sizes.

use super::gossip::{parse_weights, GraphChoice};
use super::{parse_int_in, FieldError, Query};
use crate::core::consensus::{GraphKind, WeightRule};
use crate::core::sgd::problem::{MAX_DIM, MAX_SAMPLES, MAX_WORKERS};
use crate::core::sgd::{
    objective, LabSetup, Objective, ObjectiveError, ProblemConfig, Strategy, TrainConfig,
};

/// The view's panels in the page's order: the names `show=` takes
/// ([`super::embed::Embed`]).
pub const PANELS: &[&str] = &[
    "title",
    "calculator",
    "controls",
    "steps",
    "strategies",
    "charts",
    "optima",
    "agreement",
    "bytes",
];

/// Largest number of training steps the view runs.
pub const MAX_STEPS: u64 = 1000;
/// Largest local mini-batch size.
pub const MAX_BATCH: u64 = 10_000;
/// Largest learning rate accepted.
pub const MAX_LR: f64 = 10.0;
/// Largest learning-rate decay accepted.
pub const MAX_DECAY: f64 = 10.0;

/// Parameters of the sgd view.
#[derive(Clone, Debug, PartialEq)]
pub struct SgdParams {
    /// n_k per shard (samples), 1..=32 shards, N ≤ 200 000, N > 0.
    pub shards: Vec<u64>,
    /// L_k per shard (mean local loss), same length as `shards`.
    pub losses: Vec<f64>,
    /// The strategy the narration follows (all three always run).
    pub mode: Strategy,
    /// IID (true) or non-IID (false) training shards.
    pub iid: bool,
    /// Training steps T, 1..=[`MAX_STEPS`].
    pub steps: usize,
    /// Step shown, 0..=steps.
    pub step: usize,
    /// Gossip graph for D-PSGD.
    pub graph: GraphChoice,
    /// Weight rule of the mixing matrix.
    pub weights: WeightRule,
    /// Learning rate η₀ in (0, [`MAX_LR`]].
    pub lr: f64,
    /// Decay: step t uses η₀ / (1 + decay · (t − 1)), 0..=[`MAX_DECAY`].
    pub decay: f64,
    /// Local mini-batch size; 0 = the whole shard (URL `full`).
    pub batch: usize,
    /// Seed of the data and of the mini-batch sampling.
    pub seed: u64,
    /// Parameter dimension d, 1..=10.
    pub d: usize,
    /// Local SGD averages the models every `h` steps (`None`: never).
    pub h: Option<usize>,
}

impl Default for SgdParams {
    /// The course's shard table (600, 300, 100 samples; losses 0.2, 0.5, 0.9),
    /// all-reduce narrated, non-IID, 200 steps on a uniform ring,
    /// η_t = 0.1 / (1 + 0.02 (t − 1)), b = 16, seed 1, d = 2. The decay lets the
    /// mini-batch noise die down, so each method visibly settles near its own
    /// optimum within 200 steps.
    fn default() -> Self {
        SgdParams {
            shards: vec![600, 300, 100],
            losses: vec![0.2, 0.5, 0.9],
            mode: Strategy::AllReduce,
            iid: false,
            steps: 200,
            step: 200,
            graph: GraphChoice::Ring,
            weights: WeightRule::Uniform,
            lr: 0.1,
            decay: 0.02,
            batch: 16,
            seed: 1,
            d: 2,
            h: None,
        }
    }
}

/// Splits a comma (or semicolon / whitespace) separated list.
fn items(raw: &str) -> Vec<&str> {
    raw.split([',', ';', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// Parses the `shards` list: whole sample counts (a minus sign is read, so
/// that a negative count gets its own message).
///
/// # Errors
/// A [`FieldError`] for `shards`.
pub fn parse_shards(raw: &str) -> Result<Vec<i64>, FieldError> {
    let list = items(raw);
    if list.is_empty() {
        return Err(FieldError::new(
            "shards",
            "shards needs a comma list of sample counts, e.g. 600,300,100",
        ));
    }
    if list.len() > MAX_WORKERS {
        return Err(FieldError::new(
            "shards",
            format!(
                "at most {MAX_WORKERS} shards (workers) are supported (got {})",
                list.len()
            ),
        ));
    }
    list.iter()
        .enumerate()
        .map(|(k, s)| {
            s.parse::<i64>().map_err(|_| {
                FieldError::new(
                    "shards",
                    format!(
                        "shard {} needs a whole number of samples (got “{s}”)",
                        k + 1
                    ),
                )
            })
        })
        .collect()
}

/// Parses the `losses` list: finite numbers.
///
/// # Errors
/// A [`FieldError`] for `losses`.
pub fn parse_losses(raw: &str) -> Result<Vec<f64>, FieldError> {
    let list = items(raw);
    if list.is_empty() {
        return Err(FieldError::new(
            "losses",
            "losses needs a comma list of mean losses, e.g. 0.2,0.5,0.9",
        ));
    }
    list.iter()
        .enumerate()
        .map(
            |(k, s)| match crate::core::units::decimal::parse(s).ok_or(()) {
                Ok(v) if v.is_finite() => Ok(v),
                _ => Err(FieldError::new(
                    "losses",
                    format!("loss {} must be a finite number (got “{s}”)", k + 1),
                )),
            },
        )
        .collect()
}

/// Checks a shard table with the core calculator and the training limits.
///
/// # Errors
/// A [`FieldError`] for `shards` (negative, zero total, too many samples) or
/// `losses` (length mismatch, non-finite).
pub fn check_table(shards: &[i64], losses: &[f64]) -> Result<Vec<u64>, FieldError> {
    let o = objective(shards, losses).map_err(|e| {
        let field = match e {
            ObjectiveError::LengthMismatch { .. } | ObjectiveError::NonFinite { .. } => "losses",
            _ => "shards",
        };
        FieldError::new(field, e.to_string())
    })?;
    // N is a saturating sum in the core, so huge counts cannot overflow here
    if o.total > MAX_SAMPLES as u64 {
        return Err(FieldError::new(
            "shards",
            format!(
                "at most {MAX_SAMPLES} samples in total are supported (got {})",
                o.total
            ),
        ));
    }
    Ok(shards.iter().map(|&n| n.unsigned_abs()).collect())
}

/// Parses the calculator's editable table: one (sample count, mean loss)
/// text pair per row, then checks it as [`check_table`] does.
///
/// # Errors
/// A [`FieldError`] for `shards` or `losses` naming the row.
pub fn parse_table(rows: &[(String, String)]) -> Result<(Vec<u64>, Vec<f64>), FieldError> {
    if rows.is_empty() {
        return Err(FieldError::new(
            "shards",
            "the table needs at least one shard",
        ));
    }
    if rows.len() > MAX_WORKERS {
        return Err(FieldError::new(
            "shards",
            format!("at most {MAX_WORKERS} shards (workers) are supported"),
        ));
    }
    let mut counts = Vec::with_capacity(rows.len());
    let mut losses = Vec::with_capacity(rows.len());
    for (k, (n, l)) in rows.iter().enumerate() {
        let n = n.trim();
        counts.push(n.parse::<i64>().map_err(|_| {
            FieldError::new(
                "shards",
                format!(
                    "shard {}: n_k needs a whole number of samples (got “{n}”)",
                    k + 1
                ),
            )
        })?);
        let l = l.trim();
        match crate::core::units::decimal::parse(l).ok_or(()) {
            Ok(v) if v.is_finite() => losses.push(v),
            _ => {
                return Err(FieldError::new(
                    "losses",
                    format!("shard {}: L_k must be a finite number (got “{l}”)", k + 1),
                ))
            }
        }
    }
    let counts = check_table(&counts, &losses)?;
    Ok((counts, losses))
}

fn parse_f64_in(
    name: &'static str,
    raw: &str,
    lo: f64,
    hi: f64,
    open_lo: bool,
) -> Result<f64, FieldError> {
    let bad = || {
        let lower = if open_lo { "above" } else { "from" };
        FieldError::new(
            name,
            format!(
                "{name} must be a number {lower} {} up to {} (got “{raw}”)",
                crate::core::units::decimal::shortest(lo),
                crate::core::units::decimal::shortest(hi)
            ),
        )
    };
    let v: f64 = crate::core::units::decimal::parse(raw.trim()).ok_or_else(bad)?;
    let low_ok = if open_lo { v > lo } else { v >= lo };
    if !v.is_finite() || !low_ok || v > hi {
        return Err(bad());
    }
    Ok(v)
}

impl SgdParams {
    /// The core graph kind (the torus shape is chosen from m by the core).
    pub fn graph_kind(&self) -> GraphKind {
        match self.graph {
            GraphChoice::Ring => GraphKind::Ring,
            GraphChoice::Path => GraphKind::Path,
            GraphChoice::Star => GraphKind::Star,
            GraphChoice::Complete => GraphKind::Complete,
            GraphChoice::Torus => GraphKind::Torus { rows: 0, cols: 0 },
            GraphChoice::Hypercube => GraphKind::Hypercube,
            GraphChoice::Exponential => GraphKind::Exponential,
            GraphChoice::Random => GraphKind::Random,
        }
    }

    /// The calculator's result for the shard table.
    ///
    /// # Errors
    /// An [`ObjectiveError`] (never for parameters built by
    /// [`SgdParams::from_query`]).
    pub fn objective(&self) -> Result<Objective, ObjectiveError> {
        let counts: Vec<i64> = self.shards.iter().map(|&n| n as i64).collect();
        objective(&counts, &self.losses)
    }

    /// The training problem's configuration (label noise σ = 0.1).
    pub fn problem_config(&self) -> ProblemConfig {
        ProblemConfig {
            shard_sizes: self.shards.iter().map(|&n| n as usize).collect(),
            d: self.d,
            iid: self.iid,
            seed: self.seed,
            noise: 0.1,
        }
    }

    /// The training configuration (4-byte elements).
    pub fn train_config(&self) -> TrainConfig {
        TrainConfig {
            steps: self.steps,
            lr: self.lr,
            decay: self.decay,
            batch: self.batch,
            seed: self.seed,
            bytes_per_element: 4,
            average_every: self.h.unwrap_or(0),
        }
    }

    /// The training run these parameters describe; the core runs it
    /// ([`LabSetup::run`]).
    pub fn lab_setup(&self) -> LabSetup {
        LabSetup {
            problem: self.problem_config(),
            graph: self.graph_kind(),
            weights: self.weights,
            train: self.train_config(),
        }
    }

    /// Builds the parameters from a query; each bad field keeps its value
    /// from `base` and yields a [`FieldError`]. A shard table whose lists
    /// disagree keeps `base`'s table as a whole.
    pub fn from_query(q: &Query, base: &SgdParams) -> (SgdParams, Vec<FieldError>) {
        let mut out = base.clone();
        let mut errs = Vec::new();

        // the shard table
        let shards = q.get("shards").map(parse_shards);
        let losses = q.get("losses").map(parse_losses);
        match (shards, losses) {
            (None, None) => {}
            (Some(Err(e)), _) | (_, Some(Err(e))) => errs.push(e),
            (s, l) => {
                let s = match s {
                    Some(Ok(v)) => v,
                    _ => base.shards.iter().map(|&n| n as i64).collect(),
                };
                let l = match l {
                    Some(Ok(v)) => v,
                    _ => base.losses.clone(),
                };
                match check_table(&s, &l) {
                    Ok(counts) => {
                        out.shards = counts;
                        out.losses = l;
                    }
                    Err(e) => errs.push(e),
                }
            }
        }

        if let Some(raw) = q.get("mode") {
            match Strategy::parse(raw) {
                Some(s) => out.mode = s,
                None => errs.push(FieldError::new(
                    "mode",
                    format!("mode must be allreduce, gossip or local (got “{raw}”)"),
                )),
            }
        }
        if let Some(raw) = q.get("iid") {
            match raw.trim().to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "on" => out.iid = true,
                "0" | "false" | "no" | "off" => out.iid = false,
                _ => errs.push(FieldError::new(
                    "iid",
                    format!("iid must be 0 (non-IID shards) or 1 (IID shards) (got “{raw}”)"),
                )),
            }
        }
        if let Some(raw) = q.get("steps") {
            match parse_int_in("steps", raw, 1, MAX_STEPS) {
                Ok(v) => {
                    // a new run length shows its end unless `step` says otherwise
                    if out.step == out.steps {
                        out.step = v as usize;
                    }
                    out.steps = v as usize;
                }
                Err(e) => errs.push(e),
            }
        }
        if let Some(raw) = q.get("d") {
            match parse_int_in("d", raw, 1, MAX_DIM as u64) {
                Ok(v) => out.d = v as usize,
                Err(e) => errs.push(e),
            }
        }
        if let Some(raw) = q.get("lr") {
            match parse_f64_in("lr", raw, 0.0, MAX_LR, true) {
                Ok(v) => out.lr = v,
                Err(e) => errs.push(e),
            }
        }
        if let Some(raw) = q.get("decay") {
            match parse_f64_in("decay", raw, 0.0, MAX_DECAY, false) {
                Ok(v) => out.decay = v,
                Err(e) => errs.push(e),
            }
        }
        if let Some(raw) = q.get("batch") {
            if raw.trim().eq_ignore_ascii_case("full") {
                out.batch = 0;
            } else {
                match parse_int_in("batch", raw, 1, MAX_BATCH) {
                    Ok(v) => out.batch = v as usize,
                    Err(e) => errs.push(FieldError::new(
                        "batch",
                        format!("{} (or “full” for the whole shard)", e.message),
                    )),
                }
            }
        }
        if let Some(raw) = q.get("seed") {
            match raw.trim().parse::<u64>() {
                Ok(s) => out.seed = s,
                Err(_) => errs.push(FieldError::new(
                    "seed",
                    format!("seed must be a whole number ≥ 0 (got “{raw}”)"),
                )),
            }
        }
        if let Some(raw) = q.get("graph") {
            match GraphChoice::parse(raw) {
                Ok(g) => out.graph = g,
                Err(e) => errs.push(e),
            }
        }
        if let Some(raw) = q.get("h") {
            match parse_h(raw) {
                Ok(h) => out.h = h,
                Err(e) => errs.push(e),
            }
        }
        if let Some(raw) = q.get("weights") {
            match parse_weights(raw) {
                Ok(w) => out.weights = w,
                Err(e) => errs.push(e),
            }
        }
        // the graph and rule must fit m workers; otherwise fall back to a
        // uniform ring, which always does
        if let Err(msg) = out.lab_setup().mixing() {
            errs.push(FieldError::new(
                "graph",
                format!("{msg}; using a ring with uniform weights instead"),
            ));
            out.graph = GraphChoice::Ring;
            out.weights = WeightRule::Uniform;
        }
        if let Some(raw) = q.get("step") {
            match parse_int_in("step", raw, 0, out.steps as u64) {
                Ok(v) => out.step = v as usize,
                Err(e) => errs.push(e),
            }
        }
        out.step = out.step.min(out.steps);
        (out, errs)
    }

    /// The canonical query pairs (without `view`).
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let join_u = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        let join_f = |v: &[f64]| {
            v.iter()
                .copied()
                .map(crate::core::units::decimal::shortest)
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut v = vec![
            ("shards", join_u(&self.shards)),
            ("losses", join_f(&self.losses)),
            ("mode", self.mode.key().to_string()),
            ("iid", if self.iid { "1" } else { "0" }.to_string()),
            ("steps", self.steps.to_string()),
            ("step", self.step.to_string()),
            ("graph", self.graph.key().to_string()),
            ("weights", self.weights.key().to_string()),
            ("lr", crate::core::units::decimal::shortest(self.lr)),
        ];
        v.push(("decay", crate::core::units::decimal::shortest(self.decay)));
        v.push((
            "batch",
            if self.batch == 0 {
                "full".to_string()
            } else {
                self.batch.to_string()
            },
        ));
        v.push(("seed", self.seed.to_string()));
        v.push(("d", self.d.to_string()));
        if let Some(h) = self.h {
            v.push(("h", h.to_string()));
        }
        v
    }
}

/// Largest averaging period `h`.
pub const MAX_H: u64 = 1000;

/// Parses `h`, local SGD's averaging period: a whole number of steps from 1
/// to [`MAX_H`], or `never` / `-` / `0` for no averaging.
///
/// # Errors
/// A [`FieldError`] for `h`.
pub fn parse_h(raw: &str) -> Result<Option<usize>, FieldError> {
    let t = raw.trim();
    if t == "-" || t == "0" || t.eq_ignore_ascii_case("never") || t.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    parse_int_in("h", t, 1, MAX_H)
        .map(|v| Some(v as usize))
        .map_err(|e| FieldError::new("h", format!("{}, or - for never", e.message)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::encode;

    fn parse(s: &str) -> (SgdParams, Vec<FieldError>) {
        SgdParams::from_query(&Query::parse(s), &SgdParams::default())
    }

    #[test]
    fn issue_url_parses_and_gives_the_course_numbers() {
        let (p, e) =
            parse("view=sgd&shards=600,300,100&losses=0.2,0.5,0.9&mode=allreduce&iid=0&steps=200");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(p, SgdParams::default());
        let o = p.objective().expect("valid table");
        assert!((o.global_mean - 0.36).abs() < 1e-12);
        assert!((o.plain_mean - 1.6 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn round_trips() {
        let (p, e) = parse(
            "shards=50,0,70,5&losses=1.5,2,-0.25,3e-2&mode=gossip&iid=1&steps=300&step=17\
             &graph=star&weights=metropolis&lr=0.05&decay=0.01&batch=full&seed=42&d=5",
        );
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(p.shards, vec![50, 0, 70, 5]);
        assert_eq!(p.losses, vec![1.5, 2.0, -0.25, 0.03]);
        assert_eq!(
            (p.mode, p.iid, p.steps, p.step),
            (Strategy::Gossip, true, 300, 17)
        );
        assert_eq!(
            (p.graph, p.weights),
            (GraphChoice::Star, WeightRule::Metropolis)
        );
        assert_eq!(
            (p.lr, p.decay, p.batch, p.seed, p.d),
            (0.05, 0.01, 0, 42, 5)
        );
        let again =
            SgdParams::from_query(&Query::parse(&encode(&p.to_pairs())), &SgdParams::default()).0;
        assert_eq!(p, again);
        // the default's canonical form round-trips too
        let d = SgdParams::default();
        let again =
            SgdParams::from_query(&Query::parse(&encode(&d.to_pairs())), &SgdParams::default());
        assert_eq!(again, (d, vec![]));
    }

    #[test]
    fn bad_tables_get_field_errors_and_keep_the_defaults() {
        let cases = [
            (
                "shards=600,300&losses=0.2,0.5,0.9",
                "losses",
                "2 counts but 3 values",
            ),
            ("shards=600,-300,100", "shards", "negative"),
            ("shards=0,0,0", "shards", "0 samples in total"),
            ("shards=600,abc,100", "shards", "whole number"),
            ("losses=0.2,x,0.9", "losses", "finite number"),
            ("losses=0.2,inf,0.9", "losses", "finite number"),
            ("shards=", "shards", ""),
            ("shards=150000,60000,1", "shards", "200000"),
            ("shards=9223372036854775807,1,1", "shards", "200000"),
        ];
        for (q, field, needle) in cases {
            let (p, e) = parse(q);
            if q == "shards=" {
                // an empty value counts as absent
                assert!(e.is_empty());
                continue;
            }
            assert_eq!(e.len(), 1, "{q}: {e:?}");
            assert_eq!(e[0].field, field, "{q}");
            assert!(e[0].message.contains(needle), "{q}: {}", e[0].message);
            assert_eq!(p.shards, vec![600, 300, 100], "{q}");
            assert_eq!(p.losses, vec![0.2, 0.5, 0.9], "{q}");
        }
        let many = vec!["1"; 33].join(",");
        let (_, e) = parse(&format!("shards={many}"));
        assert_eq!(e[0].field, "shards");
        assert!(e[0].message.contains("at most 32"));
    }

    #[test]
    fn bad_scalars_get_field_errors() {
        for (q, field) in [
            ("mode=ps", "mode"),
            ("iid=2", "iid"),
            ("steps=0", "steps"),
            ("steps=5000", "steps"),
            ("d=11", "d"),
            ("lr=0", "lr"),
            ("lr=-1", "lr"),
            ("lr=nan", "lr"),
            ("decay=-0.1", "decay"),
            ("batch=-4", "batch"),
            ("batch=0", "batch"),
            ("seed=x", "seed"),
            ("graph=moon", "graph"),
            ("weights=heavy", "weights"),
            ("step=201", "step"),
        ] {
            let (p, e) = parse(q);
            assert_eq!(e.len(), 1, "{q}: {e:?}");
            assert_eq!(e[0].field, field, "{q}");
            assert_eq!(p, SgdParams::default(), "{q}");
        }
    }

    #[test]
    fn graphs_that_do_not_fit_fall_back_to_a_uniform_ring() {
        // 3 workers: no hypercube
        let (p, e) = parse("graph=hypercube&weights=metropolis");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].field, "graph");
        assert_eq!(
            (p.graph, p.weights),
            (GraphChoice::Ring, WeightRule::Uniform)
        );
        let (p, e) = parse("shards=1,2,3,4&losses=1,1,1,1&graph=hypercube");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(p.graph, GraphChoice::Hypercube);
    }

    #[test]
    fn steps_move_the_shown_step_to_the_end() {
        let (p, _) = parse("steps=50");
        assert_eq!((p.steps, p.step), (50, 50));
        let (p, _) = parse("steps=50&step=10");
        assert_eq!(p.step, 10);
    }

    #[test]
    fn table_rows_parse_or_name_the_row() {
        let row = |n: &str, l: &str| (n.to_string(), l.to_string());
        let ok = parse_table(&[row("600", "0.2"), row(" 300", "0.5 "), row("100", "0.9")]);
        assert_eq!(ok, Ok((vec![600, 300, 100], vec![0.2, 0.5, 0.9])));
        let e = parse_table(&[row("600", "0.2"), row("", "0.5")]).expect_err("empty count");
        assert_eq!(e.field, "shards");
        assert!(e.message.starts_with("shard 2"), "{}", e.message);
        let e = parse_table(&[row("600", "0.2"), row("-5", "0.5")]).expect_err("negative");
        assert!(e.message.contains("negative"), "{}", e.message);
        let e = parse_table(&[row("0", "0.2"), row("0", "0.5")]).expect_err("zero total");
        assert!(e.message.contains("0 samples in total"), "{}", e.message);
        let e = parse_table(&[row("1", "abc")]).expect_err("bad loss");
        assert_eq!(e.field, "losses");
        assert!(parse_table(&[]).is_err());
    }

    #[test]
    fn run_computes_all_three_strategies() {
        let (problem, mixing, lab) = SgdParams::default()
            .lab_setup()
            .run()
            .expect("default runs");
        assert_eq!(problem.m(), 3);
        assert_eq!(mixing.nrows(), 3);
        assert_eq!(lab.traces.len(), 3);
        assert_eq!(lab.traces[0].steps.len(), 201);
        // a 0-sample shard is fine for the calculator but not for training
        let (p, e) = parse("shards=600,0,100");
        assert!(e.is_empty());
        assert!(p.objective().is_ok());
        let msg = p
            .lab_setup()
            .run()
            .map(|_| ())
            .expect_err("empty shard")
            .to_string();
        assert!(msg.contains("shard 2"), "{msg}");
    }
}
