//! Times in seconds: parsing `5us`, `2ms`, ….

use super::*;

// ---------------------------------------------------------------------------
// Times and β
// ---------------------------------------------------------------------------

/// Time units per second (the value is divided by it, so `5us` gives the
/// correctly rounded 5e-6); `ps` only when `allow_ps` (β accepts ps/B).
pub(super) fn time_per_second(unit: &str, allow_ps: bool) -> Option<f64> {
    match unit_lowercase(unit).as_str() {
        "s" => Some(1.0),
        "ms" => Some(1e3),
        "us" | "\u{b5}s" | "\u{3bc}s" => Some(1e6),
        "ns" => Some(1e9),
        "ps" if allow_ps => Some(1e12),
        _ => None,
    }
}

/// Parses a time such as `5us`, `5 µs`, `5μs` (micro sign U+00B5 or Greek mu
/// U+03BC), `2ms`, `10ns` or `0.5s` into seconds. Zero is allowed (α = 0).
///
/// # Errors
/// [`UnitError::Empty`], [`UnitError::NotANumber`], [`UnitError::MissingUnit`]
/// ("time needs a unit such as 5us or 2ms"), [`UnitError::UnknownUnit`],
/// [`UnitError::Negative`] and [`UnitError::TooLarge`] (overflows `f64`).
pub fn parse_time(s: &str) -> Result<f64, UnitError> {
    let q = Quantity::Time;
    let (num, unit) = split_quantity(s, q)?;
    let per_second = time_per_second(unit, false).ok_or_else(|| UnitError::UnknownUnit {
        quantity: q,
        unit: unit.to_string(),
    })?;
    let v = parse_nonneg_f64(num, q)?;
    let t = v / per_second;
    if !t.is_finite() {
        return Err(UnitError::TooLarge(q));
    }
    Ok(t)
}
