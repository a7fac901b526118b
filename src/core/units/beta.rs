//! β, the per-byte transfer time of the α–β model, in seconds per byte.

use super::time::time_per_second;
use super::*;

/// Parses β, the per-byte transfer time of the α–β (Hockney) model, in
/// seconds per byte: `0.08ns/B`, `8e-11s/B`, `0.08 ns/byte`, `80ps/B`.
/// The time part takes `s`, `ms`, `us`/`µs`/`μs`, `ns` or `ps`; the divisor is
/// `B`, `byte` or `bytes`. Zero is allowed (an infinitely fast link).
///
/// # Errors
/// As [`parse_time`]; a unit that is not `<time>/<byte>` gives
/// [`UnitError::UnknownUnit`].
pub fn parse_beta(s: &str) -> Result<f64, UnitError> {
    let q = Quantity::Beta;
    let (num, unit) = split_quantity(s, q)?;
    let unknown = || UnitError::UnknownUnit {
        quantity: q,
        unit: unit.to_string(),
    };
    let (time_unit, per) = unit.split_once('/').ok_or_else(unknown)?;
    let per = per.trim();
    if !(per == "B" || per.eq_ignore_ascii_case("byte") || per.eq_ignore_ascii_case("bytes")) {
        return Err(unknown());
    }
    let per_second = time_per_second(time_unit.trim(), true).ok_or_else(unknown)?;
    let v = parse_nonneg_f64(num, q)?;
    let beta = v / per_second;
    if !beta.is_finite() {
        return Err(UnitError::TooLarge(q));
    }
    Ok(beta)
}
