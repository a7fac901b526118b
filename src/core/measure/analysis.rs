//! One call that runs the whole pipeline for the view and the benchmark:
//! import → rank count → row checks → fit → chart curves → hand-off and CSV.

use super::breaks::{eager_break, eager_limit, eager_size_break, nccl_break};
use super::checks::{check, resolve, Checks, Resolved};
use super::export::{data_url, fit_csv, table_csv};
use super::fit::{curves, fit_printed, Curves, Fit, FitError, FitOptions};
use super::joint::{compare, joint_fit, Comparison, JointError, JointFit, JointLog};
use super::nccl_debug::{self, DebugComparison, NcclDebug};
use super::regime::{regime_fit, RegimeFit};
use super::Format;
use super::{
    import, CollectiveKind, Import, ImportError, ImportOptions, Log, Model, RankCount, RankSource,
};
use crate::core::cost::nccl_tune::{tune, Algo, Func, Inputs, Node, Version};
use crate::core::units::sig;

/// Largest p the hand-off link carries (the cost view's limit).
pub const MAX_HANDOFF_P: usize = 65_536;

/// Everything the user chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Parser options (units, bw kind, collective).
    pub import: ImportOptions,
    /// Rank count typed by the user.
    pub user_p: Option<usize>,
    /// Line rate, bytes per second.
    pub line_rate: Option<f64>,
    /// Fit model (used as chosen once `model_set`; before that an
    /// annotated log's own algorithm is fitted when it is one of
    /// [`Model::all`]).
    pub model: Model,
    /// True once the user chose the model.
    pub model_set: bool,
    /// Breakpoints (0–2).
    pub breaks: usize,
    /// Size range of the fit, bytes.
    pub min_size: f64,
    /// Size range of the fit, bytes.
    pub max_size: f64,
    /// Which log (side-by-side pastes have two).
    pub log: usize,
    /// Which table of that log is fitted.
    pub series: usize,
    /// The regime fit's breakpoint, bytes per message, when given
    /// (`eager=`); `None` finds it from the data.
    pub eager: Option<f64>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            import: ImportOptions::default(),
            user_p: None,
            line_rate: None,
            model: Model::Ring,
            model_set: false,
            breaks: 0,
            min_size: 0.0,
            max_size: f64::INFINITY,
            log: 0,
            series: 0,
            eager: None,
        }
    }
}

/// The "Open in the cost model" and "Open a runner trace at this fit"
/// links.
#[derive(Clone, Debug, PartialEq)]
pub struct Handoff {
    /// `?view=cost&p=…&alpha=…us&bw=…GB/s`.
    pub url: String,
    /// The fitted model's algorithm with the same p, α and bw in the trace
    /// view: `?view=trace&alg=…&p=…&alpha=…us&bw=…GB/s`.
    pub trace: String,
}

/// The analysis of the selected log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogAnalysis {
    /// Index of the log in `Import::logs`.
    pub index: usize,
    /// Index of the fitted series.
    pub series: usize,
    /// The model fitted: the user's choice, else the annotation's, and if
    /// that has no closed form for the log's collective, the first that has.
    pub model: Model,
    /// Rank count and bw-column kind.
    pub resolved: Resolved,
    /// Row checks.
    pub checks: Checks,
    /// The fit, or why there is none.
    pub fit: Result<Fit, FitError>,
    /// Chart curves of the fit.
    pub curves: Option<Curves>,
    /// Hand-off to the cost view.
    pub handoff: Option<Handoff>,
    /// The fit's steps (the chosen breakpoints, else the suggested ones):
    /// `(last size before, first size after, name)` in bytes, named when
    /// it sits near the eager limit or an NCCL switch ([`super::breaks`]).
    pub steps: Vec<(f64, f64, Option<String>)>,
}

/// NCCL's debug lines in the paste and the port against them.
#[derive(Clone, Debug, PartialEq)]
pub struct NcclReport {
    /// What NCCL printed.
    pub debug: NcclDebug,
    /// The port at the log's inputs against the logged table and picks;
    /// `Err` when the port refuses the inputs, `None` when the paste has
    /// no GRAPH lines (the inputs are unknown) and nothing to compare.
    pub comparison: Option<Result<DebugComparison, String>>,
    /// With two nccl-tests sweeps of one paste forced to Tree and to Ring
    /// (`NCCL_ALGO` lines): the sizes where NCCL's pick measured slower by
    /// more than 5 %, and the tuner plugin's CSV rows that pick the faster
    /// one ([`nccl_debug::regrets`]).
    pub regrets: Option<(Vec<nccl_debug::Regret>, Vec<String>)>,
}

/// The whole analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The import (or why nothing was imported).
    pub import: Result<Import, ImportError>,
    /// The selected log's analysis.
    pub log: Option<LogAnalysis>,
    /// Every log: what it is and, when annotated, its model comparison.
    pub logs: Vec<LogSummary>,
    /// One joint fit per rank count with ≥ 2 annotated logs (and per side
    /// of logs side by side).
    pub joint: Vec<Result<JointFit, JointError>>,
    /// The regime fit of the same groups, in the same order.
    pub regimes: Vec<Result<RegimeFit, JointError>>,
    /// What names each regime fit's breakpoint (eager → rendezvous), in
    /// the same order.
    pub regime_names: Vec<Option<String>>,
    /// NCCL's debug lines, when the paste has any.
    pub nccl: Option<NcclReport>,
}

/// One log of the paste, as the per-log panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct LogSummary {
    /// Index into `Import::logs`.
    pub index: usize,
    /// "log 2: recursive doubling all-reduce, p = 2" (or the format).
    pub title: String,
    /// The rank count and how it was found.
    pub p: RankCount,
    /// The comparison with the annotated algorithm's closed form; `None`
    /// for a log without a valid `alg=`.
    pub comparison: Option<Result<Comparison, String>>,
}

/// The `(n B, t s)` points of a log's first table.
fn first_points(l: &Log) -> Vec<(f64, f64)> {
    l.series
        .first()
        .map(|s| {
            s.rows
                .iter()
                .map(|r| (r.size.value, r.time.value))
                .collect()
        })
        .unwrap_or_default()
}

/// The side of a log pasted side by side ("left" or "right"), else "".
pub fn side(part: &str) -> &str {
    let s = part.split(", ").next().unwrap_or("");
    if s == "left" || s == "right" {
        s
    } else {
        ""
    }
}

/// Annotated logs fitted together: `(p, side)`, the logs, and the first
/// eager limit an annotation gives.
type Group<'a> = ((usize, &'a str), Vec<JointLog>, Option<u64>);

/// A forced sweep: the algorithm of its `NCCL_ALGO` line and its points.
type Sweep = (Algo, Vec<(f64, f64)>);

/// The joint and regime fits of the groups of annotated logs, and the
/// names of the regime fits' breakpoints.
type Fits = (
    Vec<Result<JointFit, JointError>>,
    Vec<Result<RegimeFit, JointError>>,
    Vec<Option<String>>,
);

/// Per-log summaries and the joint and regime fits of the annotated logs,
/// grouped by p and by side (two implementations side by side are fitted
/// apart).
fn summaries(imp: &Import, user_p: Option<usize>, eager: Option<f64>) -> (Vec<LogSummary>, Fits) {
    let mut out = Vec::new();
    let mut groups: Vec<Group> = Vec::new();
    for (index, l) in imp.logs.iter().enumerate() {
        let p = resolve(l, user_p).p;
        let alg = l.annotation.and_then(|a| a.alg);
        let name = if l.part.is_empty() {
            format!("log {}", index + 1)
        } else {
            l.part.clone()
        };
        let what = alg.map_or_else(
            || format!("{} ({})", l.collective.label(), l.format.label()),
            |a| a.label().to_string(),
        );
        let title = format!("{name}: {what}, p = {}", p.p);
        let comparison = alg.map(|a| {
            let pts = first_points(l);
            let jl = JointLog {
                label: format!("{name}: {}", a.short_label()),
                alg: a,
                points: pts.clone(),
            };
            // A node-following algorithm has no flat closed form: its own
            // comparison says so, and it stays out of the joint fit.
            if a.flat_factors(p.p).is_some() {
                let key = (p.p, side(&l.part));
                let eager = l.annotation.and_then(|a| a.eager);
                match groups.iter_mut().find(|g| g.0 == key) {
                    Some(g) => {
                        g.1.push(jl);
                        g.2 = g.2.or(eager);
                    }
                    None => groups.push((key, vec![jl], eager)),
                }
            }
            compare(a, p.p, &pts)
        });
        out.push(LogSummary {
            index,
            title,
            p,
            comparison,
        });
    }
    let groups: Vec<_> = groups.into_iter().filter(|g| g.1.len() >= 2).collect();
    let joint = groups
        .iter()
        .map(|((p, _), logs, _)| joint_fit(*p, logs))
        .collect();
    let regimes: Vec<Result<RegimeFit, JointError>> = groups
        .iter()
        .map(|((p, _), logs, _)| regime_fit(*p, logs, eager))
        .collect();
    let names = regimes
        .iter()
        .zip(&groups)
        .map(|(r, g)| {
            let f = r.as_ref().ok()?;
            let (lo, hi) = f.breakpoint.bracket;
            eager_break(lo, hi, eager_limit(g.2))
        })
        .collect();
    (out, (joint, regimes, names))
}

/// The port against NCCL's lines (only with GRAPH lines: the model's
/// inputs), and the regrets of two forced sweeps.
fn nccl_report(imp: Option<&Import>, debug: NcclDebug) -> NcclReport {
    let comparison = debug
        .inputs
        .graphs
        .then(|| nccl_debug::compare(&debug, &debug.inputs.inputs));
    let regrets = imp
        .and_then(|imp| forced_sweeps(imp, &debug))
        .and_then(|sweeps| {
            // NCCL's own pick: the model without the forced NCCL_ALGO.
            let mut free = debug.inputs.inputs.clone();
            free.algo_env = None;
            if let Some(v) = debug.version {
                free.version = v;
            }
            let t = tune(&free).ok()?;
            let s: [(Algo, &[(f64, f64)]); 2] =
                [(sweeps[0].0, &sweeps[0].1), (sweeps[1].0, &sweeps[1].1)];
            Some(nccl_debug::regrets(&t, s, 0.05))
        });
    NcclReport {
        debug,
        comparison,
        regrets,
    }
}

/// Two nccl-tests logs, each after its own `NCCL_ALGO` line, one forced to
/// Tree and one to Ring: `(algorithm, (size, time) of its first table)`.
fn forced_sweeps(imp: &Import, d: &NcclDebug) -> Option<Vec<Sweep>> {
    let mut out: Vec<Sweep> = Vec::new();
    let mut prev_end = 0;
    for l in imp.logs.iter().filter(|l| l.format == Format::NcclTests) {
        let rows = &l.series.first()?.rows;
        let (first, last) = (rows.first()?.line, rows.last()?.line);
        let forced = d
            .algo_lines
            .iter()
            .rfind(|(n, _)| *n > prev_end && *n < first)
            .and_then(|(_, v)| Algo::parse(v));
        prev_end = last;
        if let Some(a) = forced {
            out.push((a, first_points(l)));
        }
    }
    (out.len() == 2 && out[0].0 != out[1].0).then_some(out)
}

/// The NCCL model's inputs for naming an nccl-tests log's steps: the
/// paste's GRAPH lines, else the cost view's default node (one NVSwitch
/// node of A100s, 12 channels of 20 GB/s) at `p` ranks; and which.
/// `NCCL_ALGO` is the one in effect for the log whose first row is line
/// `first` (the last such line above it).
fn nccl_defaults(text: &str, p: usize, first: usize) -> (Inputs, &'static str) {
    let d = Node::A100_NVSWITCH.inputs(Version::V2_30, p.max(2), 1);
    let read = super::nccl_init::read_inputs(text, &d);
    if read.graphs {
        let mut i = read.inputs;
        i.algo_env = text
            .lines()
            .take(first.saturating_sub(1))
            .filter_map(|l| l.split_once("NCCL_ALGO set by environment to "))
            .map(|(_, v)| v.trim().to_string())
            .last();
        (i, "inputs from the log's GRAPH lines")
    } else {
        (
            d,
            "no GRAPH lines: an NVSwitch node of A100s, 12 channels of 20 GB/s assumed",
        )
    }
}

/// The fit's steps, named (see [`LogAnalysis::steps`]).
fn name_steps(
    l: &Log,
    f: &Fit,
    p: usize,
    model: Model,
    nccl: &(Inputs, &str),
) -> Vec<(f64, f64, Option<String>)> {
    let cuts: Vec<(f64, f64)> = if f.segments.len() > 1 {
        f.segments
            .windows(2)
            .map(|w| (w[0].to, w[1].from))
            .collect()
    } else {
        f.suggested
            .1
            .iter()
            .filter_map(|&c| {
                let before = f
                    .residuals
                    .iter()
                    .map(|r| r.n)
                    .filter(|&n| n < c)
                    .fold(0.0, f64::max);
                (before > 0.0).then_some((before, c))
            })
            .collect()
    };
    if cuts.is_empty() {
        return Vec::new();
    }
    let tuning = (l.format == Format::NcclTests)
        .then(|| tune(&nccl.0).ok())
        .flatten();
    let func = match l.collective {
        CollectiveKind::AllGather => Func::AllGather,
        CollectiveKind::ReduceScatter => Func::ReduceScatter,
        CollectiveKind::Broadcast => Func::Broadcast,
        CollectiveKind::Reduce => Func::Reduce,
        _ => Func::AllReduce,
    };
    let alg = l
        .annotation
        .and_then(|a| a.alg)
        .unwrap_or_else(|| model.closed_form());
    let shares: Vec<f64> = alg
        .flat_rounds(p)
        .unwrap_or_default()
        .iter()
        .map(|r| r.1)
        .collect();
    let eager = eager_limit(l.annotation.and_then(|a| a.eager));
    cuts.into_iter()
        .map(|(lo, hi)| {
            let name = match &tuning {
                Some(t) => nccl_break(lo, hi, t, func, nccl.1),
                None => eager_size_break(lo, hi, &shares, eager),
            };
            (lo, hi, name)
        })
        .collect()
}

/// The model the fit uses: `chosen` when it has a closed form for collective
/// `c` at `p` ranks ([`Model::factors`]), else the first of [`Model::all`]
/// that has one (reduce and broadcast: the binomial tree), else `chosen`
/// (the fit then says why there is none).
pub fn model_for(chosen: Model, c: CollectiveKind, p: usize) -> Model {
    if chosen.factors(c, p).is_some() {
        return chosen;
    }
    Model::all()
        .into_iter()
        .find(|m| m.factors(c, p).is_some())
        .unwrap_or(chosen)
}

/// Runs import, rank count, checks and fit on `text` with `s`.
pub fn analyse(text: &str, s: &Settings) -> Analysis {
    let imp = import(text, &s.import);
    let log = imp.as_ref().ok().and_then(|imp| {
        let index = s.log.min(imp.logs.len().saturating_sub(1));
        let l = imp.logs.get(index)?;
        let resolved = resolve(l, s.user_p);
        let p = resolved.p.p;
        let checks = check(l, p, resolved.unknown_bw, s.line_rate);
        let series = s.series.min(l.series.len().saturating_sub(1));
        let rows = l.series.get(series).map(|sr| &sr.rows[..]).unwrap_or(&[]);
        let pts: Vec<(f64, f64)> = rows.iter().map(|r| (r.size.value, r.time.value)).collect();
        let halves: Vec<f64> = rows.iter().map(|r| r.time.half_ulp).collect();
        // The annotated log's own algorithm, unless the reader chose a model;
        // then the first model with a closed form for the log's collective.
        let own = l
            .annotation
            .and_then(|a| a.alg)
            .and_then(|a| Model::from_short(a.key()));
        let wanted = if s.model_set {
            s.model
        } else {
            own.unwrap_or(s.model)
        };
        let model = model_for(wanted, l.collective, p);
        let opts = FitOptions {
            model,
            collective: l.collective,
            p,
            min_size: s.min_size,
            max_size: s.max_size,
            breaks: s.breaks,
        };
        let fit = match &resolved.p.source {
            RankSource::Undetermined { .. } => Err(FitError::RankCountUnknown(
                "no fit until p is set: α and β depend on p, which the log does not determine"
                    .into(),
            )),
            _ => fit_printed(&pts, &halves, opts).map(|mut f| {
                if model != wanted {
                    f.notes.insert(
                        0,
                        format!(
                            "the {} model has no closed form for {}: the {} model is used",
                            wanted.label(),
                            l.collective.label(),
                            model.label()
                        ),
                    );
                }
                f
            }),
        };
        let (lo, hi) = pts.iter().fold((f64::INFINITY, 0.0f64), |(a, b), p| {
            (a.min(p.0), b.max(p.0))
        });
        let curves = fit
            .as_ref()
            .ok()
            .map(|f| curves(f, lo / 1.5, hi * 1.5, 200));
        let handoff = fit.as_ref().ok().and_then(|f| {
            (f.beta > 0.0 && f.alpha.is_finite() && (2..=MAX_HANDOFF_P).contains(&p)).then(|| {
                let q = format!(
                    "p={p}&alpha={}us&bw={}GB/s",
                    sig(f.alpha * 1e6, 4),
                    sig(1.0 / f.beta / 1e9, 4)
                );
                Handoff {
                    url: format!("?view=cost&{q}"),
                    trace: format!("?view=trace&alg={}&{q}", model.key()),
                }
            })
        });
        let steps = fit.as_ref().map_or_else(
            |_| Vec::new(),
            |f| {
                let first = rows.first().map_or(0, |r| r.line);
                name_steps(l, f, p, model, &nccl_defaults(text, p, first))
            },
        );
        Some(LogAnalysis {
            model,
            index,
            series,
            resolved,
            checks,
            fit,
            curves,
            handoff,
            steps,
        })
    });
    let (logs, (joint, regimes, regime_names)) = match &imp {
        Ok(i) => summaries(i, s.user_p, s.eager),
        Err(_) => (Vec::new(), (Vec::new(), Vec::new(), Vec::new())),
    };
    let p = log.as_ref().map_or(8, |l| l.resolved.p.p);
    let nccl = nccl_debug::read(text, &Node::A100_NVSWITCH.inputs(Version::V2_30, p, 1))
        .map(|debug| nccl_report(imp.as_ref().ok(), debug));
    Analysis {
        import: imp,
        log,
        logs,
        joint,
        regimes,
        regime_names,
        nccl,
    }
}

impl Analysis {
    /// `data:` URL of the selected log's parsed table as CSV (built on
    /// demand: the download link computes it when clicked).
    pub fn table_csv_url(&self) -> Option<String> {
        let (Ok(imp), Some(la)) = (&self.import, &self.log) else {
            return None;
        };
        let l = imp.logs.get(la.index)?;
        Some(data_url(&table_csv(l, &la.checks)))
    }

    /// `data:` URL of the fit as CSV, when there is a fit.
    pub fn fit_csv_url(&self) -> Option<String> {
        let f = self.log.as_ref()?.fit.as_ref().ok()?;
        Some(data_url(&fit_csv(f)))
    }
}
