//! Units: byte sizes, times, bandwidths and β (seconds per byte).
//!
//! Every quantity the app accepts from a user or a URL carries an explicit
//! unit, and every number it shows is formatted in [`format`](mod@format) so the whole app uses one
//! convention:
//!
//! - **Sizes** are whole numbers of bytes. Decimal prefixes (SI: kB = 10³ B,
//!   MB = 10⁶ B, GB = 10⁹ B, TB = 10¹² B) and binary prefixes (IEC 80000-13:
//!   KiB = 2¹⁰ B, MiB = 2²⁰ B, GiB = 2³⁰ B, TiB = 2⁴⁰ B) are never mixed
//!   silently: [`parse_size`] records which family was typed ([`Prefix`]) and
//!   [`format_size`] shows the exact byte count plus both families when they
//!   differ. Prefix letters are case-insensitive (`kB` = `KB` = 1000 B), but a
//!   lower-case `b` after an upper-case prefix (`Mb`, `Gb`) means *bits* and is
//!   rejected for sizes.
//! - **Times** are `f64` seconds, written with `s`, `ms`, `us`/`µs`/`μs` or
//!   `ns`, and shown auto-scaled with 4 significant figures ([`format_time`]).
//! - **Bandwidths** are bytes per second. Here case matters for the final
//!   letter: `GB/s` is gigabytes per second, `Gb/s` is gigabits per second
//!   (1 byte = 8 bits), so 100 Gb/s = 12.5 GB/s.
//! - **β** is the per-byte transfer time of the α–β (Hockney) cost model,
//!   β = 1 / bandwidth in seconds per byte; 12.5 GB/s gives β = 0.08 ns/B.
//!
//! Nothing here panics on bad input: parsers return a typed [`UnitError`]
//! whose `Display` says what was expected, with an example.
//!
//! One file per quantity: [`size`], [`time`], [`beta`], [`bandwidth`]; and
//! [`format`](mod@format), the only home of number formatting. Everything is re-exported
//! here, so `units::format_time`, `units::parse_size` etc. keep working.

pub mod bandwidth;
pub mod beta;
pub mod decimal;
pub mod format;
pub mod size;
pub mod time;

pub use bandwidth::*;
pub use beta::*;
pub use format::*;
pub use size::*;
pub use time::*;

/// `x` limited to `lo..=hi` (`lo ≤ hi`), as `f64::clamp` but without its
/// check of the bounds, whose message formats them with `Debug` and so
/// links the standard library's float formatter into every page that
/// clamps a float (see [`decimal`]). A NaN `x` gives `lo`.
#[allow(clippy::manual_clamp)]
pub fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
    x.max(lo).min(hi)
}

use std::fmt;

/// A unit name in lower case for matching, as `str::to_lowercase` gives it
/// for every unit the parsers accept: ASCII letters, the Kelvin sign `K`
/// (U+212A, which lower-cases to `k`) and capital Greek mu `Μ` (U+039C, to
/// `μ`). Other characters are kept: no unit contains them, and their
/// `to_lowercase` never gives an ASCII letter, `µ` or `μ`, so matching
/// accepts and rejects exactly what it did with `to_lowercase`. It keeps the
/// Unicode case tables (about 10 KB gzipped) out of every wasm binary.
pub(super) fn unit_lowercase(unit: &str) -> String {
    unit.chars()
        .map(|c| match c {
            '\u{212a}' => 'k',
            '\u{39c}' => '\u{3bc}',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

/// The largest accepted size: 1 PiB = 2⁵⁰ B = 1,125,899,906,842,624 B.
pub const MAX_SIZE_BYTES: u64 = 1 << 50;

/// Prefix family of a byte size, as typed by the user.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prefix {
    /// Plain bytes (`512B`).
    None,
    /// Decimal SI prefixes: kB = 1000 B, MB = 10⁶ B, GB = 10⁹ B, TB = 10¹² B.
    Decimal,
    /// Binary IEC prefixes: KiB = 1024 B, MiB = 2²⁰ B, GiB = 2³⁰ B, TiB = 2⁴⁰ B.
    Binary,
}

/// A message size in bytes, plus the prefix family the user typed (so the app
/// can echo the value back in the same system, e.g. in the URL).
///
/// `Display` writes the exact, URL-friendly form (`64MiB`, `100MB`, `512B`)
/// that [`parse_size`] reads back to the same `ByteSize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ByteSize {
    /// Exact number of bytes, 1 ..= [`MAX_SIZE_BYTES`] when parsed.
    pub bytes: u64,
    /// Prefix family that was typed.
    pub prefix: Prefix,
}

impl fmt::Display for ByteSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_exact(self.bytes, self.prefix))
    }
}

/// Which kind of quantity a [`UnitError`] is about (selects the wording and
/// the example in the message).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantity {
    /// A byte size such as `64MiB`.
    Size,
    /// A time such as `5us`.
    Time,
    /// A bandwidth such as `12.5GB/s`.
    Bandwidth,
    /// β in seconds per byte such as `0.08ns/B`.
    Beta,
}

impl Quantity {
    fn name(self) -> &'static str {
        match self {
            Quantity::Size => "size",
            Quantity::Time => "time",
            Quantity::Bandwidth => "bandwidth",
            Quantity::Beta => "β",
        }
    }

    fn example(self) -> &'static str {
        match self {
            Quantity::Size => "64MiB or 100MB",
            Quantity::Time => "5us or 2ms",
            Quantity::Bandwidth => "12.5GB/s or 100Gb/s",
            Quantity::Beta => "0.08ns/B or 8e-11s/B",
        }
    }

    fn units(self) -> &'static str {
        match self {
            Quantity::Size => "B, kB, MB, GB, TB, KiB, MiB, GiB or TiB",
            Quantity::Time => "s, ms, µs (or us) or ns",
            Quantity::Bandwidth => {
                "B/s, kB/s, MB/s, GB/s, TB/s, PB/s, KiB/s, MiB/s, GiB/s, TiB/s, PiB/s, \
                 or bits: b/s, kb/s, Mb/s, Gb/s, Tb/s, Pb/s"
            }
            Quantity::Beta => "s/B, ms/B, µs/B (or us/B), ns/B or ps/B",
        }
    }
}

/// Why a size, time, bandwidth or β could not be parsed.
///
/// `Display` gives a one-line message with an example of valid input, e.g.
/// "size needs a unit such as 64MiB or 100MB".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitError {
    /// The input was empty or only whitespace.
    Empty(Quantity),
    /// The input does not start with a number (`abcMB`).
    NotANumber {
        /// What was being parsed.
        quantity: Quantity,
        /// The offending input (trimmed).
        text: String,
    },
    /// A number without a unit (`100`).
    MissingUnit(Quantity),
    /// A unit that is not recognised for this quantity (`12parsecs`).
    UnknownUnit {
        /// What was being parsed.
        quantity: Quantity,
        /// The unit as typed.
        unit: String,
    },
    /// A bit unit (`Mb`, `Gbit`) where a size in bytes was expected.
    BitsNotBytes {
        /// The unit as typed.
        unit: String,
    },
    /// A size unit (`GB`) where a rate (`GB/s`) was expected.
    NotARate {
        /// The unit as typed.
        unit: String,
    },
    /// A negative value.
    Negative(Quantity),
    /// Zero where a positive value is required (sizes and bandwidths).
    Zero(Quantity),
    /// A size that is not a whole number of bytes (`0.1KiB` = 102.4 B).
    NotWholeBytes,
    /// A value too large to represent (sizes above [`MAX_SIZE_BYTES`], or a
    /// time/bandwidth that overflows `f64`).
    TooLarge(Quantity),
    /// More than 38 significant digits in a size.
    TooManyDigits,
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitError::Empty(q) => write!(
                f,
                "{} is empty: give a value such as {}",
                q.name(),
                q.example()
            ),
            UnitError::NotANumber { quantity, text } => write!(
                f,
                "“{text}” does not start with a number: a {} looks like {}",
                quantity.name(),
                quantity.example()
            ),
            UnitError::MissingUnit(q) => {
                write!(f, "{} needs a unit such as {}", q.name(), q.example())
            }
            UnitError::UnknownUnit { quantity, unit } => write!(
                f,
                "unknown {} unit “{unit}”: use {}",
                quantity.name(),
                quantity.units()
            ),
            UnitError::BitsNotBytes { unit } => write!(
                f,
                "“{unit}” counts bits, but sizes are in bytes (capital B): use e.g. 100MB or 64MiB"
            ),
            UnitError::NotARate { unit } => write!(
                f,
                "“{unit}” is a size, not a bandwidth: add /s, as in 12.5GB/s or 100Gb/s"
            ),
            UnitError::Negative(q) => write!(f, "{} must not be negative", q.name()),
            UnitError::Zero(q) => write!(
                f,
                "{} must be greater than zero, e.g. {}",
                q.name(),
                q.example()
            ),
            UnitError::NotWholeBytes => f.write_str(
                "size must be a whole number of bytes (e.g. 1.5KiB = 1536 B is fine, 0.1KiB = 102.4 B is not)",
            ),
            UnitError::TooLarge(Quantity::Size) => {
                f.write_str("size is too large: the maximum is 1 PiB (1,125,899,906,842,624 B)")
            }
            UnitError::TooLarge(q) => write!(
                f,
                "{} is too large to represent: use a value such as {}",
                q.name(),
                q.example()
            ),
            UnitError::TooManyDigits => {
                f.write_str("size has too many digits: use at most 38 significant digits")
            }
        }
    }
}

impl std::error::Error for UnitError {}

// ---------------------------------------------------------------------------
// Splitting "<number><unit>"
// ---------------------------------------------------------------------------

/// Splits a trimmed string into its leading number (`[+-]digits[.digits][e[+-]digits]`)
/// and the rest (trimmed). Only ASCII bytes are consumed, so slicing is safe.
pub(super) fn split_number(t: &str) -> (&str, &str) {
    let b = t.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        if j < b.len() && b[j].is_ascii_digit() {
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            i = j;
        }
    }
    (&t[..i], t[i..].trim())
}

/// Common front end: non-empty, starts with a number, has a unit.
pub(super) fn split_quantity(s: &str, q: Quantity) -> Result<(&str, &str), UnitError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(UnitError::Empty(q));
    }
    let (num, unit) = split_number(t);
    if !num.bytes().any(|c| c.is_ascii_digit()) {
        return Err(UnitError::NotANumber {
            quantity: q,
            text: t.to_string(),
        });
    }
    if unit.is_empty() {
        // "-5": the sign is the first thing wrong, not the missing unit
        if num.starts_with('-') {
            return Err(UnitError::Negative(q));
        }
        // "0" as a size or bandwidth: zero is what is wrong, in any unit
        let zero = decimal::parse(num).is_some_and(|v| v == 0.0);
        if zero && matches!(q, Quantity::Size | Quantity::Bandwidth) {
            return Err(UnitError::Zero(q));
        }
        return Err(UnitError::MissingUnit(q));
    }
    Ok((num, unit))
}

/// Parses the number part as `f64`, rejecting negatives and non-finite values.
pub(super) fn parse_nonneg_f64(num: &str, q: Quantity) -> Result<f64, UnitError> {
    let v: f64 = decimal::parse(num)
        .ok_or(())
        .map_err(|_| UnitError::NotANumber {
            quantity: q,
            text: num.to_string(),
        })?;
    if !v.is_finite() {
        return Err(UnitError::TooLarge(q));
    }
    if v < 0.0 {
        return Err(UnitError::Negative(q));
    }
    Ok(v)
}

#[cfg(test)]
mod tests;
