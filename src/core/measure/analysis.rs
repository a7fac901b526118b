//! One call that runs the whole pipeline for the view and the benchmark:
//! import → rank count → row checks → fit → chart curves → hand-off and CSV.

use super::checks::{check, resolve, Checks, Resolved};
use super::export::{data_url, fit_csv, table_csv};
use super::fit::{curves, fit_printed, Curves, Fit, FitError, FitOptions};
use super::{import, BenchCollective, Import, ImportError, ImportOptions, Model, RankSource};
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
    /// Fit model.
    pub model: Model,
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
            breaks: 0,
            min_size: 0.0,
            max_size: f64::INFINITY,
            log: 0,
            series: 0,
        }
    }
}

/// The "Open in the cost model" link.
#[derive(Clone, Debug, PartialEq)]
pub struct Handoff {
    /// `?view=cost&p=…&alpha=…us&bw=…GB/s`.
    pub url: String,
}

/// The analysis of the selected log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogAnalysis {
    /// Index of the log in `Import::logs`.
    pub index: usize,
    /// Index of the fitted series.
    pub series: usize,
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
}

/// The model the fit uses: `chosen` when it has a closed form for collective
/// `c` at `p` ranks ([`Model::factors`]), else the first of [`Model::all`]
/// that has one (reduce and broadcast: the binomial tree), else `chosen`
/// (the fit then says why there is none).
pub fn model_for(chosen: Model, c: BenchCollective, p: usize) -> Model {
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
        let model = model_for(s.model, l.collective, p);
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
                if model != s.model {
                    f.notes.insert(
                        0,
                        format!(
                            "the {} model has no closed form for {}: the {} model is used",
                            s.model.label(),
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
                Handoff {
                    url: format!(
                        "?view=cost&p={p}&alpha={}us&bw={}GB/s",
                        sig(f.alpha * 1e6, 4),
                        sig(1.0 / f.beta / 1e9, 4)
                    ),
                }
            })
        });
        Some(LogAnalysis {
            index,
            series,
            resolved,
            checks,
            fit,
            curves,
            handoff,
        })
    });
    Analysis { import: imp, log }
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
