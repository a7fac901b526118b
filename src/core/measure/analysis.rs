//! One call that runs the whole pipeline for the view and the benchmark:
//! import → rank count → row checks → fit → chart curves → hand-off and CSV.

use super::checks::{check, resolve, Checks, Resolved};
use super::export::{data_url, fit_csv, table_csv};
use super::fit::{curves, fit_printed, Curves, Fit, FitError, FitOptions};
use super::joint::{compare, joint_fit, Comparison, JointError, JointFit, JointLog};
use super::{
    import, CollectiveKind, Import, ImportError, ImportOptions, Log, Model, RankCount, RankSource,
};
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
    /// One joint fit per rank count with ≥ 2 annotated logs.
    pub joint: Vec<Result<JointFit, JointError>>,
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

/// Per-log summaries and the joint fits of the annotated logs.
fn summaries(
    imp: &Import,
    user_p: Option<usize>,
) -> (Vec<LogSummary>, Vec<Result<JointFit, JointError>>) {
    let mut out = Vec::new();
    let mut groups: Vec<(usize, Vec<JointLog>)> = Vec::new();
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
                match groups.iter_mut().find(|g| g.0 == p.p) {
                    Some(g) => g.1.push(jl),
                    None => groups.push((p.p, vec![jl])),
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
    let joint = groups
        .into_iter()
        .filter(|g| g.1.len() >= 2)
        .map(|(p, logs)| joint_fit(p, &logs))
        .collect();
    (out, joint)
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
        Some(LogAnalysis {
            model,
            index,
            series,
            resolved,
            checks,
            fit,
            curves,
            handoff,
        })
    });
    let (logs, joint) = match &imp {
        Ok(i) => summaries(i, s.user_p),
        Err(_) => (Vec::new(), Vec::new()),
    };
    Analysis {
        import: imp,
        log,
        logs,
        joint,
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
