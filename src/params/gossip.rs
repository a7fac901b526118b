//! URL parameters of the `gossip` view:
//! `?view=gossip&graph=ring&p=4&weights=uniform&init=0,3,6,9&round=0&seed=1&target=100`
//! (the torus takes `rows` and `cols` instead of `p`).

use super::fields::Field;
use super::{parse_int_in, FieldError, Query};
use crate::core::consensus::{
    check_rule, torus_shape, ConsensusError, GossipRun, Graph, GraphKind, InitPattern, WeightRule,
    DENSE_LIST_MAX_P, MAX_NODES,
};
use crate::core::units::format::format_number;

/// The view's panels in the page's order: the names `show=` takes
/// ([`super::embed::Embed`]).
pub const PANELS: &[&str] = &[
    "title", "controls", "steps", "graph", "numbers", "history", "checks", "heatmap", "charts",
    "dsgd", "contrast",
];

/// Largest p accepted (numbers only above [`MAX_DRAWN_P`]).
pub const MAX_P: u64 = MAX_NODES as u64;
/// Largest p whose graph is drawn.
pub const MAX_DRAWN_P: usize = 64;
/// Largest p whose mixing matrix heatmap shows the numbers in its cells.
pub const MAX_NUMBERED_P: usize = 16;
/// Largest round index the view steps to.
pub const MAX_ROUND: u64 = 1000;

/// The graph family chosen in the URL (the torus shape lives in
/// [`GossipParams::rows`] / [`GossipParams::cols`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GraphChoice {
    /// `ring`
    #[default]
    Ring,
    /// `path`
    Path,
    /// `star`
    Star,
    /// `complete`
    Complete,
    /// `torus`
    Torus,
    /// `hypercube` (also `cube`)
    Hypercube,
    /// `exp` (also `exponential`)
    Exponential,
    /// `random`
    Random,
}

impl GraphChoice {
    /// Every choice, in menu order.
    pub const ALL: [GraphChoice; 8] = [
        GraphChoice::Ring,
        GraphChoice::Path,
        GraphChoice::Star,
        GraphChoice::Complete,
        GraphChoice::Torus,
        GraphChoice::Hypercube,
        GraphChoice::Exponential,
        GraphChoice::Random,
    ];

    /// URL value.
    pub fn key(self) -> &'static str {
        match self {
            GraphChoice::Ring => "ring",
            GraphChoice::Path => "path",
            GraphChoice::Star => "star",
            GraphChoice::Complete => "complete",
            GraphChoice::Torus => "torus",
            GraphChoice::Hypercube => "hypercube",
            GraphChoice::Exponential => "exp",
            GraphChoice::Random => "random",
        }
    }

    /// Menu label.
    pub fn label(self) -> &'static str {
        match self {
            GraphChoice::Ring => "ring",
            GraphChoice::Path => "path",
            GraphChoice::Star => "star",
            GraphChoice::Complete => "complete",
            GraphChoice::Torus => "2-D torus",
            GraphChoice::Hypercube => "hypercube",
            GraphChoice::Exponential => "exponential (directed)",
            GraphChoice::Random => "random connected",
        }
    }

    /// Parses a URL value (case-insensitive).
    ///
    /// # Errors
    /// A [`FieldError`] for `graph` listing the accepted names.
    pub fn parse(raw: &str) -> Result<GraphChoice, FieldError> {
        match raw.trim().to_ascii_lowercase().as_str() {
            "ring" | "cycle" => Ok(GraphChoice::Ring),
            "path" | "line" | "chain" => Ok(GraphChoice::Path),
            "star" => Ok(GraphChoice::Star),
            "complete" | "full" => Ok(GraphChoice::Complete),
            "torus" | "2d-torus" => Ok(GraphChoice::Torus),
            "hypercube" | "cube" => Ok(GraphChoice::Hypercube),
            "exp" | "exponential" => Ok(GraphChoice::Exponential),
            "random" => Ok(GraphChoice::Random),
            other => Err(FieldError::new(
                "graph",
                format!(
                    "graph must be ring, path, star, complete, torus, hypercube, exp or random (got “{other}”)"
                ),
            )),
        }
    }
}

/// Parses a weight rule (case-insensitive): `uniform`, `metropolis` (or
/// `mh`), `lazy`, `maxdegree`, `exp`.
///
/// # Errors
/// A [`FieldError`] for `weights` listing the accepted names.
pub fn parse_weights(raw: &str) -> Result<WeightRule, FieldError> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "uniform" => Ok(WeightRule::Uniform),
        "metropolis" | "mh" | "metropolis-hastings" => Ok(WeightRule::Metropolis),
        "lazy" => Ok(WeightRule::Lazy),
        "maxdegree" | "max-degree" | "maxdeg" => Ok(WeightRule::MaxDegree),
        "exp" | "exponential" => Ok(WeightRule::Exponential),
        other => Err(FieldError::new(
            "weights",
            format!("weights must be uniform, metropolis, lazy, maxdegree or exp (got “{other}”)"),
        )),
    }
}

/// Parses `init`: a comma list of finite numbers (`0,3,6,9`), `linear`
/// (x_i = 3i) or `random:SEED`. The list length is checked against p
/// separately.
///
/// # Errors
/// A [`FieldError`] for `init` saying which form was expected.
pub fn parse_init(raw: &str) -> Result<Field<InitPattern>, FieldError> {
    let t = raw.trim();
    let lower = t.to_ascii_lowercase();
    let value = if lower == "linear" {
        InitPattern::Linear
    } else if let Some(s) = lower.strip_prefix("random:") {
        let seed = s.trim().parse::<u64>().map_err(|_| {
            FieldError::new(
                "init",
                format!("init=random:SEED needs a whole-number seed (got “{s}”)"),
            )
        })?;
        InitPattern::Random(seed)
    } else if lower == "random" {
        InitPattern::Random(1)
    } else {
        let mut v = Vec::new();
        for part in t.split(',') {
            let x: f64 = crate::core::units::decimal::parse(part.trim()).ok_or(()).map_err(|_| {
                FieldError::new(
                    "init",
                    format!(
                        "init must be a comma list of numbers such as 0,3,6,9, or linear, or random:SEED (“{}” is not a number)",
                        part.trim()
                    ),
                )
            })?;
            if !x.is_finite() || x.abs() > 1e12 {
                return Err(FieldError::new(
                    "init",
                    format!(
                        "init values must be finite numbers of magnitude at most 1e12 (got “{}”)",
                        part.trim()
                    ),
                ));
            }
            v.push(x);
        }
        if v.len() > MAX_NODES {
            return Err(FieldError::new(
                "init",
                format!("init has more than {MAX_NODES} values"),
            ));
        }
        InitPattern::List(v)
    };
    let text = match &value {
        InitPattern::List(v) => v
            .iter()
            .map(|x| crate::core::units::decimal::shortest(*x))
            .collect::<Vec<_>>()
            .join(","),
        InitPattern::Linear => "linear".into(),
        InitPattern::Random(s) => format!("random:{s}"),
    };
    Ok(Field { text, value })
}

/// Parses the target reduction factor F (> 1, at most 1e15), e.g. `100` or `1e6`.
///
/// # Errors
/// A [`FieldError`] for `target`.
pub fn parse_target(raw: &str) -> Result<Field<f64>, FieldError> {
    let v: f64 = crate::core::units::decimal::parse(raw.trim())
        .ok_or(())
        .map_err(|_| {
            FieldError::new(
                "target",
                format!("target must be a number greater than 1, such as 100 (got “{raw}”)"),
            )
        })?;
    if !(v > 1.0 && v <= 1e15) {
        return Err(FieldError::new(
            "target",
            format!(
                "target must be greater than 1 and at most 1e15 (got {})",
                format_number(v)
            ),
        ));
    }
    Ok(Field {
        text: raw.trim().to_string(),
        value: v,
    })
}

/// Parameters of the gossip view.
#[derive(Clone, Debug, PartialEq)]
pub struct GossipParams {
    /// Graph family.
    pub graph: GraphChoice,
    /// Number of nodes (= rows·cols for the torus).
    pub p: usize,
    /// Torus rows (kept consistent with p: rows·cols = p when graph is torus).
    pub rows: usize,
    /// Torus columns.
    pub cols: usize,
    /// Weight rule.
    pub weights: WeightRule,
    /// Initial values.
    pub init: Field<InitPattern>,
    /// Round shown (0 = the initial values).
    pub round: usize,
    /// Seed of the random graph.
    pub seed: u64,
    /// Target reduction factor F for "rounds to reach F×".
    pub target: Field<f64>,
}

impl Default for GossipParams {
    fn default() -> Self {
        GossipParams {
            graph: GraphChoice::Ring,
            p: 4,
            rows: 2,
            cols: 2,
            weights: WeightRule::Uniform,
            init: Field {
                text: "0,3,6,9".into(),
                value: InitPattern::List(vec![0.0, 3.0, 6.0, 9.0]),
            },
            round: 0,
            seed: 1,
            target: Field {
                text: "100".into(),
                value: 100.0,
            },
        }
    }
}

impl GossipParams {
    /// The core graph kind (with the torus shape).
    pub fn kind(&self) -> GraphKind {
        match self.graph {
            GraphChoice::Ring => GraphKind::Ring,
            GraphChoice::Path => GraphKind::Path,
            GraphChoice::Star => GraphKind::Star,
            GraphChoice::Complete => GraphKind::Complete,
            GraphChoice::Torus => GraphKind::Torus {
                rows: self.rows,
                cols: self.cols,
            },
            GraphChoice::Hypercube => GraphKind::Hypercube,
            GraphChoice::Exponential => GraphKind::Exponential,
            GraphChoice::Random => GraphKind::Random,
        }
    }

    /// Runs the core for these parameters up to round `rounds` (at least
    /// [`GossipParams::round`]).
    ///
    /// # Errors
    /// A [`ConsensusError`]; [`GossipParams::from_query`] only accepts
    /// parameter sets for which this succeeds, barring an eigen failure.
    pub fn run(&self, rounds: usize) -> Result<GossipRun, ConsensusError> {
        self.run_with(usize::MAX, rounds)
    }

    /// As [`GossipParams::run`] through [`GossipRun::with_dense_limit`]: the same
    /// numbers, but above p = 256 a random graph gets ρ alone (by Lanczos)
    /// and `spectrum.eigenvalues` is empty. What the gossip view shows.
    ///
    /// # Errors
    /// As [`GossipParams::run`].
    pub fn run_fast(&self, rounds: usize) -> Result<GossipRun, ConsensusError> {
        self.run_with(DENSE_LIST_MAX_P, rounds)
    }

    /// [`GossipRun::with_dense_limit`] on these parameters, up to round
    /// `rounds` (at least [`GossipParams::round`]).
    fn run_with(&self, dense_max_p: usize, rounds: usize) -> Result<GossipRun, ConsensusError> {
        GossipRun::with_dense_limit(
            self.kind(),
            self.p,
            self.seed,
            self.weights,
            &self.init.value,
            (rounds.max(self.round), self.target.value),
            dense_max_p,
        )
    }

    /// Builds the parameters from a query; each bad field keeps its value
    /// from `base` (or, when that no longer fits, a value that does) and
    /// yields a [`FieldError`].
    pub fn from_query(q: &Query, base: &GossipParams) -> (GossipParams, Vec<FieldError>) {
        let mut out = base.clone();
        let mut errs = Vec::new();
        if let Some(raw) = q.get("graph") {
            match GraphChoice::parse(raw) {
                Ok(g) => out.graph = g,
                Err(e) => errs.push(e),
            }
        }
        if let Some(raw) = q.get("seed") {
            match raw.trim().parse::<u64>() {
                Ok(s) => out.seed = s,
                Err(_) => errs.push(FieldError::new(
                    "seed",
                    format!(
                        "seed must be a whole number from 0 to {} (got “{raw}”)",
                        u64::MAX
                    ),
                )),
            }
        }
        // size: p, or rows × cols for the torus
        let mut p = out.p;
        if let Some(raw) = q.get("p") {
            match parse_int_in("p", raw, 2, MAX_P) {
                Ok(v) => p = v as usize,
                Err(e) => errs.push(e),
            }
        }
        if out.graph == GraphChoice::Torus {
            let (mut rows, mut cols) = if q.get("p").is_some() || base.graph != GraphChoice::Torus {
                torus_shape(p)
            } else {
                (out.rows, out.cols)
            };
            for (key, slot) in [("rows", &mut rows), ("cols", &mut cols)] {
                if let Some(raw) = q.get(key) {
                    match parse_int_in(key, raw, 1, MAX_P) {
                        Ok(v) => *slot = v as usize,
                        Err(e) => errs.push(e),
                    }
                }
            }
            let n = rows.saturating_mul(cols);
            if (2..=MAX_NODES).contains(&n) {
                out.rows = rows;
                out.cols = cols;
                p = n;
            } else {
                errs.push(FieldError::new(
                    "rows",
                    format!("a torus needs rows × cols from 2 to {MAX_NODES} nodes (got {rows} × {cols} = {n})"),
                ));
                (out.rows, out.cols) = torus_shape(p);
            }
        }
        let mut cand = out.clone();
        cand.p = p;
        // the graph checked here is reused for the weights check below
        let mut built = None;
        match Graph::new(cand.kind(), p, out.seed) {
            Ok(g) => {
                out.p = p;
                built = Some(g);
            }
            Err(e) => {
                // e.g. a hypercube with p = 6: say why and fall back to a size that fits
                errs.push(FieldError::new("p", e.to_string()));
                if Graph::new(out.kind(), out.p, out.seed).is_err() {
                    out.p = if out.graph == GraphChoice::Hypercube {
                        1usize << (usize::BITS - 1 - p.max(2).leading_zeros())
                    } else {
                        p.clamp(2, MAX_NODES)
                    };
                }
            }
        }
        if out.graph != GraphChoice::Torus || out.rows * out.cols != out.p {
            (out.rows, out.cols) = torus_shape(out.p);
        }
        // weights must fit the graph
        if let Some(raw) = q.get("weights") {
            match parse_weights(raw) {
                Ok(w) => out.weights = w,
                Err(e) => errs.push(e),
            }
        }
        let graph = match built.filter(|g| g.kind == out.kind() && g.p == out.p) {
            Some(g) => Ok(g),
            None => Graph::new(out.kind(), out.p, out.seed),
        };
        if let Ok(g) = graph {
            if let Err(e) = check_rule(&g, out.weights) {
                if q.get("weights").is_some() {
                    errs.push(FieldError::new("weights", e.to_string()));
                }
                out.weights = if g.directed {
                    WeightRule::Exponential
                } else if base.weights != WeightRule::Exponential {
                    base.weights
                } else {
                    WeightRule::Uniform
                };
            }
        }
        // init: its length must match p
        if let Some(raw) = q.get("init") {
            match parse_init(raw) {
                Ok(f) => out.init = f,
                Err(e) => errs.push(e),
            }
        }
        if let InitPattern::List(v) = &out.init.value {
            if v.len() != out.p {
                if q.get("init").is_some() {
                    errs.push(FieldError::new(
                        "init",
                        format!(
                            "init has {} values but p = {}: give one value per node",
                            v.len(),
                            out.p
                        ),
                    ));
                }
                out.init = Field {
                    text: "linear".into(),
                    value: InitPattern::Linear,
                };
            }
        }
        if let Some(raw) = q.get("target") {
            match parse_target(raw) {
                Ok(t) => out.target = t,
                Err(e) => errs.push(e),
            }
        }
        if let Some(raw) = q.get("round") {
            match parse_int_in("round", raw, 0, MAX_ROUND) {
                Ok(v) => out.round = v as usize,
                Err(e) => errs.push(e),
            }
        }
        (out, errs)
    }

    /// The canonical query pairs (without `view`). The torus writes `rows`
    /// and `cols` instead of `p`; the seed is written for the random graph.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut v = vec![("graph", self.graph.key().to_string())];
        if self.graph == GraphChoice::Torus {
            v.push(("rows", self.rows.to_string()));
            v.push(("cols", self.cols.to_string()));
        } else {
            v.push(("p", self.p.to_string()));
        }
        v.push(("weights", self.weights.key().to_string()));
        v.push(("init", self.init.text.clone()));
        v.push(("round", self.round.to_string()));
        if self.graph == GraphChoice::Random || self.seed != 1 {
            v.push(("seed", self.seed.to_string()));
        }
        v.push(("target", self.target.text.clone()));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::encode;

    fn parse(s: &str) -> (GossipParams, Vec<FieldError>) {
        GossipParams::from_query(&Query::parse(s), &GossipParams::default())
    }

    #[test]
    fn issue_url_parses_to_the_course_example() {
        let (p, e) = parse("view=gossip&graph=ring&p=4&weights=uniform&init=0,3,6,9&round=0");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(p, GossipParams::default());
        let run = p.run(5).expect("run");
        assert_eq!(run.rounds[1].values, vec![4.0, 3.0, 6.0, 5.0]);
        assert_eq!(run.predicted_rounds, Some(5));
    }

    #[test]
    fn round_trips() {
        for s in [
            "graph=ring&p=8&weights=metropolis&init=linear&round=3&target=1000",
            "graph=torus&rows=3&cols=4&weights=lazy&init=random:42&round=7",
            "graph=random&p=20&seed=99&weights=maxdegree&init=linear&round=2&target=1e6",
            "graph=exp&p=16&weights=exp&init=random:5&round=1",
            "graph=star&p=4&weights=uniform&init=1.5,-2,0,7&round=12",
            "graph=hypercube&p=32&weights=uniform&init=linear&round=0",
        ] {
            let (p, e) = parse(s);
            assert!(e.is_empty(), "{s}: {e:?}");
            let again = GossipParams::from_query(
                &Query::parse(&encode(&p.to_pairs())),
                &GossipParams::default(),
            )
            .0;
            assert_eq!(p, again, "{s}");
        }
        let (t, _) = parse("graph=torus&rows=3&cols=4");
        assert_eq!((t.p, t.rows, t.cols), (12, 3, 4));
        let (t, _) = parse("graph=torus&p=16");
        assert_eq!((t.p, t.rows, t.cols), (16, 4, 4));
        let (r, _) = parse("graph=random&p=10&seed=7");
        assert!(encode(&r.to_pairs()).contains("seed=7"));
    }

    #[test]
    fn bad_values_keep_a_valid_state() {
        for bad in [
            "graph=moebius",
            "p=abc",
            "p=1",
            "p=5000",
            "weights=magic",
            "init=1,two,3,4",
            "init=random:x",
            "round=-1",
            "round=100000",
            "seed=-4",
            "target=0.5",
            "target=lots",
        ] {
            let (p, e) = parse(bad);
            assert_eq!(e.len(), 1, "{bad} should give one error: {e:?}");
            assert_eq!(p, GossipParams::default(), "{bad} should keep the defaults");
        }
        let (_, e) = parse("graph=moebius");
        assert_eq!(e[0].field, "graph");
        assert!(e[0].message.contains("hypercube"));
    }

    #[test]
    fn combinations_that_do_not_fit_fall_back() {
        // hypercube needs a power of two
        let (p, e) = parse("graph=hypercube&p=6");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].field, "p");
        assert!(p.p.is_power_of_two());
        assert!(p.run(0).is_ok());
        // Metropolis on the directed exponential graph
        let (p, e) = parse("graph=exp&p=8&weights=metropolis");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].field, "weights");
        assert_eq!(p.weights, WeightRule::Exponential);
        // exp weights on a ring
        let (p, e) = parse("graph=ring&weights=exp");
        assert_eq!((e.len(), p.weights), (1, WeightRule::Uniform));
        // an init list of the wrong length
        let (p, e) = parse("p=5&init=0,3,6,9");
        assert_eq!(e.len(), 1);
        assert!(e[0].message.contains("4 values but p = 5"));
        assert_eq!(p.init.value, InitPattern::Linear);
        // changing p away from the default list silently switches to linear
        let (p, e) = parse("p=6");
        assert!(e.is_empty());
        assert_eq!(p.init.value.values(6).expect("linear")[5], 15.0);
        // torus too big
        let (p, e) = parse("graph=torus&rows=100&cols=100");
        assert_eq!(e.len(), 1);
        assert_eq!(p.rows * p.cols, p.p);
    }

    #[test]
    fn torus_shapes() {
        assert_eq!(torus_shape(16), (4, 4));
        assert_eq!(torus_shape(12), (3, 4));
        assert_eq!(torus_shape(7), (1, 7));
        assert_eq!(torus_shape(1024), (32, 32));
    }
}
