//! `?view=measure`: the measure page's own words and numbers around the
//! core's readers and fits ([`crate::core::measure`]): a line message as
//! the page lists it, times in µs and sizes in bytes as the fit panels
//! write them, β as a bandwidth, the share of NCCL_DEBUG rows that agree,
//! and the size range fields.

#[cfg(test)]
mod tests;

use crate::core::measure::LineMessage;
use crate::core::units::{format_bandwidth, format_bit_rate, group_thousands, parse_size, sig};

/// A message as a list item's text: "line 12: …", or for the whole input
/// (line 0, e.g. no header found) the reason alone.
pub fn message_text(m: &LineMessage) -> String {
    if m.line == 0 {
        m.reason.clone()
    } else {
        format!("line {}: {}", m.line, m.reason)
    }
}

/// A time in µs, 4 significant digits, no "≈" (a quantity with a unit):
/// α is read in µs.
pub fn us(t: f64) -> String {
    format!("{} µs", sig(t * 1e6, 4))
}

/// β (s/B) as a bandwidth in bytes and bits per second, or why there is
/// none (β = 0).
pub fn bw_text(beta: f64) -> String {
    if beta > 0.0 {
        format!(
            "{} = {}",
            format_bandwidth(1.0 / beta),
            format_bit_rate(8.0 / beta)
        )
    } else {
        "unbounded (β = 0: these sizes are latency-bound)".into()
    }
}

/// A size in whole bytes with grouped digits: "4,096 B".
pub fn bytes(b: f64) -> String {
    format!("{} B", group_thousands(b.round() as u64))
}

/// β (s/B) as GB/s to 4 significant digits.
pub fn gbs(beta: f64) -> String {
    format!("{} GB/s", sig(1e-9 / beta, 4))
}

/// "3 of 4 (75 %)": how many of the rows agree, or "none" of none.
pub fn percent((agree, of): (usize, usize)) -> String {
    if of == 0 {
        return "none".into();
    }
    format!(
        "{agree} of {of} ({} %)",
        sig(100.0 * agree as f64 / of as f64, 3)
    )
}

/// A size range field (`from=`, `to=`): empty means all sizes.
///
/// # Errors
/// The size's message with an example.
pub fn parse_range(raw: &str, field: &'static str) -> Result<Option<f64>, String> {
    let t = raw.trim();
    if t.is_empty() {
        return Ok(None);
    }
    parse_size(t)
        .map(|s| Some(s.bytes as f64))
        .map_err(|e| format!("{field}: {e} (e.g. 64KiB or 1MB; empty = all sizes)"))
}
