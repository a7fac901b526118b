//! Parameter counts: `25M` is 25 × 10⁶ parameters and `1.5B` is
//! 1.5 × 10⁹, as in "a 7B model". A count is not a size, so a byte unit
//! (`25MB`, `1GiB`) is refused with a message that says so.

use std::fmt;

/// The largest count of one layer, 10¹² parameters.
pub const MAX_COUNT: u64 = 1_000_000_000_000;

/// Why a count could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountError {
    /// Nothing was typed.
    Empty,
    /// Not a number with an optional `k`, `M`, `B` (or `G`) or `T` suffix.
    NotACount(String),
    /// A byte unit (`MB`, `MiB`, …): a size, not a count.
    Bytes(String),
    /// Negative.
    Negative,
    /// Zero.
    Zero,
    /// Not a whole number of parameters (`1.5` or `1.0000005M`).
    NotWhole(String),
    /// Above [`MAX_COUNT`].
    TooLarge,
}

impl fmt::Display for CountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CountError::Empty => f.write_str("give a parameter count, e.g. 25M or 1.5B"),
            CountError::NotACount(s) => write!(
                f,
                "“{s}” is not a parameter count: write a number with k, M, B or T (25M = 25 × 10⁶)"
            ),
            CountError::Bytes(s) => write!(
                f,
                "“{s}” is a size in bytes, but a count of parameters is asked for: write 25M for 25 × 10⁶ parameters (the bytes follow from dtype)"
            ),
            CountError::Negative => f.write_str("a parameter count cannot be negative"),
            CountError::Zero => f.write_str("a layer needs at least one parameter"),
            CountError::NotWhole(s) => write!(f, "“{s}” is not a whole number of parameters"),
            CountError::TooLarge => f.write_str("a layer holds at most 10¹² (1T) parameters here"),
        }
    }
}

impl std::error::Error for CountError {}

/// Parses one parameter count: digits with an optional decimal point and
/// an optional suffix `k` (10³), `M` (10⁶), `B` or `G` (10⁹), `T` (10¹²),
/// case-insensitive. The value is exact (no floating point): `1.5B` =
/// 1 500 000 000.
///
/// # Errors
/// [`CountError`]: empty, not a count, a byte unit (`MB`, `MiB`, `bytes`),
/// negative, zero, not whole, above [`MAX_COUNT`].
pub fn parse_count(raw: &str) -> Result<u64, CountError> {
    let s = raw.trim();
    if s.is_empty() {
        return Err(CountError::Empty);
    }
    if s.starts_with('-') {
        return Err(CountError::Negative);
    }
    let s_num = s.strip_prefix('+').unwrap_or(s);
    let split = s_num
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_'))
        .unwrap_or(s_num.len());
    let (num, unit) = s_num.split_at(split);
    let unit = unit.trim();
    let exp10: u32 = match unit.to_ascii_lowercase().as_str() {
        "" => 0,
        "k" => 3,
        "m" => 6,
        "b" | "g" => 9,
        "t" => 12,
        u if u.ends_with('b') || u.contains("byte") || u.ends_with("ib") => {
            return Err(CountError::Bytes(s.to_string()))
        }
        _ => return Err(CountError::NotACount(s.to_string())),
    };
    let num: String = num.chars().filter(|&c| c != '_').collect();
    let (int, frac) = match num.split_once('.') {
        Some((i, f)) => (i, f),
        None => (num.as_str(), ""),
    };
    if (int.is_empty() && frac.is_empty()) || frac.contains('.') {
        return Err(CountError::NotACount(s.to_string()));
    }
    let frac = frac.trim_end_matches('0');
    if frac.len() as u32 > exp10 {
        return Err(CountError::NotWhole(s.to_string()));
    }
    if int.len() + frac.len() > 18 {
        return Err(CountError::TooLarge);
    }
    let digits = format!("{int}{frac}");
    let mantissa: u64 = if digits.is_empty() {
        0
    } else {
        digits
            .parse()
            .map_err(|_| CountError::NotACount(s.to_string()))?
    };
    let scale = 10u64.pow(exp10 - frac.len() as u32);
    let v = mantissa.checked_mul(scale).ok_or(CountError::TooLarge)?;
    if v == 0 {
        return Err(CountError::Zero);
    }
    if v > MAX_COUNT {
        return Err(CountError::TooLarge);
    }
    Ok(v)
}

/// A count written short: `25M`, `1.5B`, `4k`, `999`.
pub fn format_count(n: u64) -> String {
    for (exp, suffix) in [(12u32, "T"), (9, "B"), (6, "M"), (3, "k")] {
        let unit = 10u64.pow(exp);
        if n >= unit {
            let whole = n / unit;
            let rest = n % unit;
            if rest == 0 {
                return format!("{whole}{suffix}");
            }
            let frac = format!("{:0width$}", rest, width = exp as usize);
            return format!("{whole}.{}{suffix}", frac.trim_end_matches('0'));
        }
    }
    n.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_decimal_and_exact() {
        assert_eq!(parse_count("25M"), Ok(25_000_000));
        assert_eq!(parse_count("1.5B"), Ok(1_500_000_000));
        assert_eq!(parse_count("7b"), Ok(7_000_000_000));
        assert_eq!(parse_count("4k"), Ok(4000));
        assert_eq!(parse_count("1000"), Ok(1000));
        assert_eq!(parse_count("0.5M"), Ok(500_000));
        assert_eq!(parse_count("1T"), Ok(MAX_COUNT));
    }

    #[test]
    fn bytes_and_nonsense_are_refused() {
        assert!(matches!(parse_count("25MB"), Err(CountError::Bytes(_))));
        assert!(matches!(parse_count("1GiB"), Err(CountError::Bytes(_))));
        assert!(matches!(
            parse_count("100 bytes"),
            Err(CountError::Bytes(_))
        ));
        assert_eq!(parse_count("-1"), Err(CountError::Negative));
        assert_eq!(parse_count("0"), Err(CountError::Zero));
        assert!(matches!(parse_count("1.5"), Err(CountError::NotWhole(_))));
        assert!(matches!(parse_count("abc"), Err(CountError::NotACount(_))));
        assert!(matches!(parse_count("."), Err(CountError::NotACount(_))));
        assert_eq!(parse_count("2T"), Err(CountError::TooLarge));
        assert_eq!(
            parse_count("99999999999999999999"),
            Err(CountError::TooLarge)
        );
        assert!(parse_count("").is_err());
        assert!(parse_count("1.2.3M").is_err());
    }

    #[test]
    fn format_round_trips() {
        for n in [25_000_000, 1_500_000_000, 999, 4000, 1_234_567] {
            assert_eq!(parse_count(&format_count(n)), Ok(n));
        }
        assert_eq!(format_count(25_000_000), "25M");
        assert_eq!(format_count(1_500_000_000), "1.5B");
    }
}
