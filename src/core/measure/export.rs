//! CSV export of a parsed table with its recomputed bandwidths, and of a fit,
//! plus the `data:` URL that carries it to a download link (nothing leaves
//! the page: the browser builds the file from the URL itself).

use super::checks::Checks;
use super::fit::Fit;
use super::Log;
use crate::core::units::decimal;

/// Quotes a CSV field when it holds a comma, quote or newline (RFC 4180).
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The parsed table as CSV: one line per row of every series with
/// `series,line,size_bytes,time_s,algbw_printed_Bps,busbw_printed_Bps,
/// algbw_recomputed_Bps,busbw_recomputed_Bps,flags`.
pub fn table_csv(log: &Log, checks: &Checks) -> String {
    let mut out = String::from(
        "series,line,size_bytes,time_s,algbw_printed_Bps,busbw_printed_Bps,algbw_recomputed_Bps,busbw_recomputed_Bps,flags\n",
    );
    let opt = |v: Option<f64>| v.map(decimal::shortest_exp).unwrap_or_default();
    for (si, s) in log.series.iter().enumerate() {
        for (ri, r) in s.rows.iter().enumerate() {
            let c = checks.rows.get(si).and_then(|v| v.get(ri));
            let bw = r.bw_unknown.map(|b| b.value);
            out += &format!(
                "{},{},{},{},{},{},{},{},{}\n",
                field(&s.label),
                r.line,
                crate::core::units::decimal::shortest(r.size.value),
                decimal::shortest_exp(r.time.value),
                opt(r.algbw.map(|b| b.value).or(bw)),
                opt(r.busbw.map(|b| b.value)),
                opt(c.map(|c| c.algbw)),
                opt(c.map(|c| c.busbw)),
                field(&c.map(|c| c.flags.join("; ")).unwrap_or_default())
            );
        }
    }
    out
}

/// The fit as CSV: a parameter block (`key,value,unit`) then the residuals
/// (`size_bytes,time_s,fitted_s,relative_residual`).
pub fn fit_csv(fit: &Fit) -> String {
    let o = fit.options;
    let mut out = String::from("key,value,unit\n");
    out += &format!(
        "model,{},\ncollective,{},\np,{},ranks\n",
        o.model.key(),
        o.collective.key(),
        o.p
    );
    out += &format!(
        "alpha,{},s\nbeta,{},s/B\nbandwidth,{},B/s\nr2_log,{},\n",
        decimal::shortest_exp(fit.alpha),
        decimal::shortest_exp(fit.beta),
        decimal::shortest_exp(1.0 / fit.beta),
        crate::core::units::decimal::shortest(fit.r2_log)
    );
    for (i, s) in fit.segments.iter().enumerate() {
        out += &format!("segment{i}_from,{},B\nsegment{i}_to,{},B\nsegment{i}_alpha,{},s\nsegment{i}_beta,{},s/B\n", crate::core::units::decimal::shortest(s.from), crate::core::units::decimal::shortest(s.to), decimal::shortest_exp(s.alpha), decimal::shortest_exp(s.beta));
    }
    out += "\nsize_bytes,time_s,fitted_s,relative_residual\n";
    for r in &fit.residuals {
        out += &format!(
            "{},{},{},{}\n",
            crate::core::units::decimal::shortest(r.n),
            decimal::shortest_exp(r.t),
            decimal::shortest_exp(r.predicted),
            decimal::shortest_exp(r.rel)
        );
    }
    out
}

/// A `data:text/csv` URL holding `csv` (percent-encoded, RFC 2397).
pub fn data_url(csv: &str) -> String {
    crate::core::data_url::data_url("text/csv", csv)
}
