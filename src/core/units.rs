//! Units: byte sizes, times, bandwidths and β (seconds per byte).
//!
//! Every quantity the app accepts from a user or a URL carries an explicit
//! unit, and every number it shows is formatted here so the whole app uses one
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

use std::fmt;

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
                "B/s, kB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s, \
                 or bits: b/s, kb/s, Mb/s, Gb/s, Tb/s"
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
fn split_number(t: &str) -> (&str, &str) {
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
fn split_quantity(s: &str, q: Quantity) -> Result<(&str, &str), UnitError> {
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
        return Err(UnitError::MissingUnit(q));
    }
    Ok((num, unit))
}

/// Parses the number part as `f64`, rejecting negatives and non-finite values.
fn parse_nonneg_f64(num: &str, q: Quantity) -> Result<f64, UnitError> {
    let v: f64 = num.parse().map_err(|_| UnitError::NotANumber {
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

// ---------------------------------------------------------------------------
// Sizes
// ---------------------------------------------------------------------------

/// A size unit: (decimal name, binary name) tables with multiplier 2^twos · 5^fives.
struct SizeUnit {
    name: &'static str,
    twos: u32,
    fives: u32,
}

const DECIMAL_UNITS: [SizeUnit; 5] = [
    SizeUnit {
        name: "B",
        twos: 0,
        fives: 0,
    },
    SizeUnit {
        name: "kB",
        twos: 3,
        fives: 3,
    },
    SizeUnit {
        name: "MB",
        twos: 6,
        fives: 6,
    },
    SizeUnit {
        name: "GB",
        twos: 9,
        fives: 9,
    },
    SizeUnit {
        name: "TB",
        twos: 12,
        fives: 12,
    },
];

const BINARY_UNITS: [SizeUnit; 5] = [
    SizeUnit {
        name: "B",
        twos: 0,
        fives: 0,
    },
    SizeUnit {
        name: "KiB",
        twos: 10,
        fives: 0,
    },
    SizeUnit {
        name: "MiB",
        twos: 20,
        fives: 0,
    },
    SizeUnit {
        name: "GiB",
        twos: 30,
        fives: 0,
    },
    SizeUnit {
        name: "TiB",
        twos: 40,
        fives: 0,
    },
];

/// Looks up a size unit; returns (family, index into the family's table).
fn size_unit(unit: &str) -> Result<(Prefix, usize), UnitError> {
    let lower = unit.to_lowercase();
    let has_upper = unit.chars().any(char::is_uppercase);
    // "Mb", "Gb", "Kib": an upper-case prefix with a lower-case b means bits.
    if lower.ends_with("bit") || lower.ends_with("bits") || (has_upper && unit.ends_with('b')) {
        return Err(UnitError::BitsNotBytes {
            unit: unit.to_string(),
        });
    }
    let found = match lower.as_str() {
        "b" | "byte" | "bytes" => (Prefix::None, 0),
        "kb" => (Prefix::Decimal, 1),
        "mb" => (Prefix::Decimal, 2),
        "gb" => (Prefix::Decimal, 3),
        "tb" => (Prefix::Decimal, 4),
        "kib" => (Prefix::Binary, 1),
        "mib" => (Prefix::Binary, 2),
        "gib" => (Prefix::Binary, 3),
        "tib" => (Prefix::Binary, 4),
        _ => {
            return Err(UnitError::UnknownUnit {
                quantity: Quantity::Size,
                unit: unit.to_string(),
            })
        }
    };
    Ok(found)
}

/// An exact decimal number: (-1)^negative · mantissa · 10^exp10.
struct ExactDecimal {
    negative: bool,
    mantissa: u128,
    exp10: i64,
}

/// Parses a number string (already validated by [`split_number`]) exactly.
fn parse_exact_decimal(num: &str) -> Result<ExactDecimal, UnitError> {
    let (negative, rest) = match num.as_bytes().first() {
        Some(b'-') => (true, &num[1..]),
        Some(b'+') => (false, &num[1..]),
        _ => (false, num),
    };
    let (mant, exp_text) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, ""),
    };
    let (int_part, frac_part) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    // Explicit exponent, saturated far beyond anything meaningful.
    let mut exp10: i64 = 0;
    if !exp_text.is_empty() {
        let (eneg, edigits) = match exp_text.as_bytes().first() {
            Some(b'-') => (true, &exp_text[1..]),
            Some(b'+') => (false, &exp_text[1..]),
            _ => (false, exp_text),
        };
        for c in edigits.bytes() {
            exp10 = (exp10 * 10 + i64::from(c - b'0')).min(1_000_000);
        }
        if eneg {
            exp10 = -exp10;
        }
    }
    exp10 -= frac_part.len() as i64;
    let digits: String = int_part.chars().chain(frac_part.chars()).collect();
    let digits = digits.trim_start_matches('0');
    let significant = digits.trim_end_matches('0');
    exp10 += (digits.len() - significant.len()) as i64;
    if significant.len() > 38 {
        return Err(UnitError::TooManyDigits);
    }
    let mut mantissa: u128 = 0;
    for c in significant.bytes() {
        mantissa = mantissa * 10 + u128::from(c - b'0');
    }
    Ok(ExactDecimal {
        negative,
        mantissa,
        exp10,
    })
}

/// Why an exact conversion to whole bytes failed.
enum ExactFail {
    NotWhole,
    TooLarge,
}

fn checked_pow(base: u128, exp: u32) -> Option<u128> {
    base.checked_pow(exp)
}

/// mantissa · 10^exp10 · 2^twos · 5^fives as an exact integer.
fn exact_bytes(mantissa: u128, exp10: i64, twos: u32, fives: u32) -> Result<u128, ExactFail> {
    if mantissa == 0 {
        return Ok(0);
    }
    let scale = checked_pow(2, twos)
        .and_then(|a| checked_pow(5, fives).and_then(|b| a.checked_mul(b)))
        .ok_or(ExactFail::TooLarge)?;
    if exp10 >= 0 {
        let e = u32::try_from(exp10).map_err(|_| ExactFail::TooLarge)?;
        return checked_pow(10, e)
            .and_then(|p| p.checked_mul(mantissa))
            .and_then(|v| v.checked_mul(scale))
            .ok_or(ExactFail::TooLarge);
    }
    // Divide by 10^d = 2^d · 5^d: the factors of 2 and 5 must come from the
    // mantissa or from the unit's multiplier.
    let d = exp10.unsigned_abs();
    let mut m = mantissa;
    let mut need2 = d;
    let mut need5 = d;
    while need2 > 0 && m.is_multiple_of(2) {
        m /= 2;
        need2 -= 1;
    }
    while need5 > 0 && m.is_multiple_of(5) {
        m /= 5;
        need5 -= 1;
    }
    if need2 > u64::from(twos) || need5 > u64::from(fives) {
        return Err(ExactFail::NotWhole);
    }
    // Both need values are now at most 40, so the casts are lossless.
    let rest2 = twos - need2 as u32;
    let rest5 = fives - need5 as u32;
    checked_pow(2, rest2)
        .and_then(|a| checked_pow(5, rest5).and_then(|b| a.checked_mul(b)))
        .and_then(|s| s.checked_mul(m))
        .ok_or(ExactFail::TooLarge)
}

/// Parses a message size such as `100MB`, `64MiB`, `8 KiB`, `1.5GB`, `512B`
/// or `1e6B` into an exact byte count and the prefix family typed.
///
/// Units (case-insensitive letters): `B`/`byte(s)`; decimal `kB`, `MB`, `GB`,
/// `TB` (powers of 1000; `KB` is read as 1000 B); binary `KiB`, `MiB`, `GiB`,
/// `TiB` (powers of 1024, IEC 80000-13). An all-lower-case unit (`mb`, `kib`)
/// is read as bytes, since URL values are case-insensitive; an upper-case
/// prefix with a lower-case `b` (`Mb`) is bits. The number is converted exactly, with
/// no floating-point rounding (`1.5KiB` = 1536 B).
///
/// # Errors
/// [`UnitError::Empty`], [`UnitError::NotANumber`], [`UnitError::MissingUnit`],
/// [`UnitError::UnknownUnit`], [`UnitError::BitsNotBytes`] (`Mb`, `Gb`: an
/// upper-case prefix with a lower-case `b`), [`UnitError::Negative`],
/// [`UnitError::Zero`], [`UnitError::NotWholeBytes`] (`0.1KiB`),
/// [`UnitError::TooLarge`] (above [`MAX_SIZE_BYTES`] = 1 PiB) and
/// [`UnitError::TooManyDigits`].
pub fn parse_size(s: &str) -> Result<ByteSize, UnitError> {
    let q = Quantity::Size;
    let (num, unit) = split_quantity(s, q)?;
    let (prefix, idx) = size_unit(unit)?;
    let table = match prefix {
        Prefix::Binary => &BINARY_UNITS,
        Prefix::None | Prefix::Decimal => &DECIMAL_UNITS,
    };
    let u = &table[idx];
    let d = parse_exact_decimal(num)?;
    if d.mantissa == 0 {
        return Err(UnitError::Zero(q));
    }
    if d.negative {
        return Err(UnitError::Negative(q));
    }
    let bytes = match exact_bytes(d.mantissa, d.exp10, u.twos, u.fives) {
        Ok(b) => b,
        Err(ExactFail::NotWhole) => return Err(UnitError::NotWholeBytes),
        Err(ExactFail::TooLarge) => return Err(UnitError::TooLarge(q)),
    };
    if bytes > u128::from(MAX_SIZE_BYTES) {
        return Err(UnitError::TooLarge(q));
    }
    let bytes = u64::try_from(bytes).map_err(|_| UnitError::TooLarge(q))?;
    Ok(ByteSize { bytes, prefix })
}

/// The exact decimal expansion of `bytes / (2^twos · 5^fives)` with no
/// trailing zeros, if it fits in 38 significant digits.
fn exact_in_unit(bytes: u64, u: &SizeUnit) -> Option<String> {
    // bytes / (2^a 5^b) = bytes · 2^(p−a) · 5^(p−b) / 10^p with p = max(a, b).
    let p = u.twos.max(u.fives);
    let n = u128::from(bytes)
        .checked_mul(checked_pow(2, p - u.twos)?)?
        .checked_mul(checked_pow(5, p - u.fives)?)?;
    let digits = n.to_string();
    let p = p as usize;
    let padded = if digits.len() <= p {
        format!("{}{}", "0".repeat(p + 1 - digits.len()), digits)
    } else {
        digits
    };
    let (int_part, frac_part) = padded.split_at(padded.len() - p);
    let frac_part = frac_part.trim_end_matches('0');
    let significant = format!("{int_part}{frac_part}");
    if significant
        .trim_start_matches('0')
        .trim_end_matches('0')
        .len()
        > 38
    {
        return None;
    }
    Some(if frac_part.is_empty() {
        int_part.to_string()
    } else {
        format!("{int_part}.{frac_part}")
    })
}

/// The exact, compact (no space) form of `bytes` in the given prefix family,
/// using the largest unit of that family that represents it exactly in at most
/// 38 significant digits: `format_exact(67108864, Prefix::Binary)` = `"64MiB"`,
/// `format_exact(1_500_000_000, Prefix::Decimal)` = `"1.5GB"`,
/// `format_exact(512, Prefix::Decimal)` = `"0.512kB"` (a prefixed unit is
/// always used for the prefixed families, so the family survives a round trip),
/// `format_exact(512, Prefix::None)` = `"512B"`.
///
/// [`parse_size`] reads the result back to the same byte count and family
/// (for 1 ..= [`MAX_SIZE_BYTES`]); this is the form used in URLs.
pub fn format_exact(bytes: u64, prefix: Prefix) -> String {
    let table = match prefix {
        Prefix::None => return format!("{bytes}B"),
        Prefix::Decimal => &DECIMAL_UNITS,
        Prefix::Binary => &BINARY_UNITS,
    };
    for u in table[1..].iter().rev() {
        let unit_bytes = checked_pow(2, u.twos)
            .and_then(|a| checked_pow(5, u.fives).and_then(|b| a.checked_mul(b)))
            .unwrap_or(u128::MAX);
        if u128::from(bytes) < unit_bytes && u.name != table[1].name {
            continue;
        }
        if let Some(s) = exact_in_unit(bytes, u) {
            return format!("{s}{}", u.name);
        }
    }
    format!("{bytes}B")
}

// ---------------------------------------------------------------------------
// Times and β
// ---------------------------------------------------------------------------

/// Time units per second (the value is divided by it, so `5us` gives the
/// correctly rounded 5e-6); `ps` only when `allow_ps` (β accepts ps/B).
fn time_per_second(unit: &str, allow_ps: bool) -> Option<f64> {
    match unit.to_lowercase().as_str() {
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

// ---------------------------------------------------------------------------
// Bandwidth
// ---------------------------------------------------------------------------

/// A link bandwidth in bytes per second, remembering whether the user typed a
/// bit rate (`100Gb/s`) so the app can show the conversion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bandwidth {
    /// Bytes per second (> 0 when parsed).
    pub bytes_per_second: f64,
    /// True when the input was in bits per second (`b/s`, `bps`, `bit/s`).
    pub typed_bits: bool,
}

impl Bandwidth {
    /// β = 1 / bandwidth, in seconds per byte (α–β model, Hockney 1994;
    /// Thakur, Rabenseifner & Gropp 2005). 12.5 GB/s → 8e-11 s/B = 0.08 ns/B.
    pub fn beta(&self) -> f64 {
        1.0 / self.bytes_per_second
    }
}

/// Parses a bandwidth such as `12.5GB/s`, `100Gb/s`, `100Gbps`, `1GiB/s` or
/// `800 Mbit/s` into bytes per second.
///
/// The per-second part may be `/s`, `/sec` or `ps`. The final letter decides
/// bytes vs bits and is **case-sensitive**: `B` (or `byte(s)`) is bytes, `b`
/// (or `bit(s)`) is bits, 8 bits = 1 byte; so `100Gb/s` = 12.5 GB/s. Prefix
/// letters are case-insensitive: `k`, `M`, `G`, `T` (powers of 1000) and `Ki`,
/// `Mi`, `Gi`, `Ti` (powers of 1024).
///
/// # Errors
/// [`UnitError::Empty`], [`UnitError::NotANumber`], [`UnitError::MissingUnit`],
/// [`UnitError::NotARate`] (`12.5GB`, a size), [`UnitError::UnknownUnit`],
/// [`UnitError::Negative`], [`UnitError::Zero`] and [`UnitError::TooLarge`].
pub fn parse_bandwidth(s: &str) -> Result<Bandwidth, UnitError> {
    let q = Quantity::Bandwidth;
    let (num, unit) = split_quantity(s, q)?;
    let unknown = || UnitError::UnknownUnit {
        quantity: q,
        unit: unit.to_string(),
    };
    if !unit.is_ascii() {
        return Err(unknown());
    }
    // ASCII only from here, so `lower` and `unit` share byte offsets.
    let lower = unit.to_ascii_lowercase();
    let core = if let Some(c) = lower.strip_suffix("/s") {
        &unit[..c.len()]
    } else if let Some(c) = lower.strip_suffix("/sec") {
        &unit[..c.len()]
    } else if let Some(c) = lower.strip_suffix("ps") {
        &unit[..c.len()]
    } else {
        return Err(match size_unit(unit) {
            Ok(_) | Err(UnitError::BitsNotBytes { .. }) => UnitError::NotARate {
                unit: unit.to_string(),
            },
            Err(_) => unknown(),
        });
    };
    let core = core.trim();
    let core_lower = core.to_ascii_lowercase();
    let (prefix, bits) = if let Some(p) = core_lower.strip_suffix("bits") {
        (&core[..p.len()], true)
    } else if let Some(p) = core_lower.strip_suffix("bit") {
        (&core[..p.len()], true)
    } else if let Some(p) = core_lower.strip_suffix("bytes") {
        (&core[..p.len()], false)
    } else if let Some(p) = core_lower.strip_suffix("byte") {
        (&core[..p.len()], false)
    } else if let Some(p) = core.strip_suffix('B') {
        (p, false)
    } else if let Some(p) = core.strip_suffix('b') {
        (p, true)
    } else {
        return Err(unknown());
    };
    let mult = match prefix.to_ascii_lowercase().as_str() {
        "" => 1.0,
        "k" => 1e3,
        "m" => 1e6,
        "g" => 1e9,
        "t" => 1e12,
        "ki" => 1024.0,
        "mi" => 1_048_576.0,
        "gi" => 1_073_741_824.0,
        "ti" => 1_099_511_627_776.0,
        _ => return Err(unknown()),
    };
    let v = parse_nonneg_f64(num, q)?;
    if v == 0.0 {
        return Err(UnitError::Zero(q));
    }
    let mut bps = v * mult;
    if bits {
        bps /= 8.0;
    }
    if !bps.is_finite() {
        return Err(UnitError::TooLarge(q));
    }
    Ok(Bandwidth {
        bytes_per_second: bps,
        typed_bits: bits,
    })
}

// ---------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------

/// `x` rounded to `digits` significant figures, as an `f64`.
fn round_sig(x: f64, digits: usize) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let digits = digits.clamp(1, 17);
    format!("{:.*e}", digits - 1, x).parse().unwrap_or(x)
}

/// `x` to `digits` significant figures, keeping trailing zeros:
/// `sig(22.6208, 4)` = `"22.62"`, `sig(12.0, 4)` = `"12.00"`,
/// `sig(123456.0, 4)` = `"123500"`, `sig(0.0, 4)` = `"0"`.
/// `digits` is clamped to 1..=17. Non-finite values print as `inf`/`NaN`.
pub fn sig(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let digits = digits.clamp(1, 17);
    let sci = format!("{:.*e}", digits - 1, x);
    let exp: i64 = sci
        .rsplit_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let rounded: f64 = sci.parse().unwrap_or(x);
    let decimals = (digits as i64 - 1 - exp).max(0) as usize;
    format!("{rounded:.decimals$}")
}

/// Removes trailing zeros after a decimal point (and the point itself).
fn trim_zeros(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Auto-scales `x` over `units` (each `base` times the previous), 4
/// significant figures, trailing zeros trimmed.
fn format_scaled(x: f64, base: f64, units: &[&str]) -> String {
    let first = units.first().copied().unwrap_or("");
    if !x.is_finite() {
        return format!("{x} {first}");
    }
    if x == 0.0 {
        return format!("0 {first}");
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let a = x.abs();
    let mut i = 0;
    while i + 1 < units.len() && a >= base.powi(i as i32 + 1) {
        i += 1;
    }
    let mut v = round_sig(a / base.powi(i as i32), 4);
    if v >= base && i + 1 < units.len() {
        i += 1;
        v = round_sig(a / base.powi(i as i32), 4);
    }
    format!("{sign}{} {}", trim_zeros(sig(v, 4)), units[i])
}

/// A byte count auto-scaled in decimal (SI) units B, kB, MB, GB, TB, PB with up
/// to 4 significant figures, trailing zeros trimmed: 25e6 → `"25 MB"`,
/// 117647.06 → `"117.6 kB"`, 512 → `"512 B"`.
pub fn format_decimal(bytes: f64) -> String {
    format_scaled(bytes, 1000.0, &["B", "kB", "MB", "GB", "TB", "PB"])
}

/// A byte count auto-scaled in binary (IEC) units B, KiB, MiB, GiB, TiB, PiB
/// with up to 4 significant figures, trailing zeros trimmed:
/// 67108864 → `"64 MiB"`, 117647.06 → `"114.9 KiB"`.
pub fn format_binary(bytes: f64) -> String {
    format_scaled(bytes, 1024.0, &["B", "KiB", "MiB", "GiB", "TiB", "PiB"])
}

/// Compact byte count for counters, in the decimal system: `"150 MB"`,
/// `"8.192 kB"` (same as [`format_decimal`]).
pub fn format_bytes_short(bytes: f64) -> String {
    format_decimal(bytes)
}

/// Groups the digits of `n` in threes with commas: 67108864 → `"67,108,864"`.
pub fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// True when the 4-significant-figure `text` is exactly `bytes`.
fn is_exact(text: &str, bytes: u64) -> bool {
    parse_size(text).map(|b| b.bytes) == Ok(bytes)
}

/// The exact byte count with both prefix systems where they differ, the exact
/// one first: 67108864 → `"67,108,864 B (64 MiB, 67.11 MB)"`,
/// 100000000 → `"100,000,000 B (100 MB, 95.37 MiB)"`, 512 → `"512 B"`,
/// 1000 → `"1,000 B (1 kB)"`.
pub fn format_size(bytes: u64) -> String {
    let exact = format!("{} B", group_thousands(bytes));
    if bytes < 1000 {
        return exact;
    }
    let dec = format_decimal(bytes as f64);
    let bin = format_binary(bytes as f64);
    // Exact forms first; between two exact forms the shorter (8 KiB before
    // 8.192 kB); otherwise decimal first.
    let rank = |s: &str| (!is_exact(s, bytes), s.len());
    let mut parts = if rank(&bin) < rank(&dec) {
        vec![bin, dec]
    } else {
        vec![dec, bin]
    };
    // A value below 1 KiB has no binary prefix form ("1000 B"): drop it.
    parts.retain(|p| !p.ends_with(" B"));
    format!("{exact} ({})", parts.join(", "))
}

/// A time auto-scaled to s, ms, µs or ns with 4 significant figures, keeping
/// trailing zeros: 2.262e-5 → `"22.62 µs"`, 0.012 → `"12.00 ms"`,
/// 1.5112e-4 → `"151.1 µs"`, 0 → `"0 s"`. Uses µ (U+00B5).
pub fn format_time(seconds: f64) -> String {
    if !seconds.is_finite() {
        return format!("{seconds} s");
    }
    if seconds == 0.0 {
        return "0 s".to_string();
    }
    let sign = if seconds < 0.0 { "-" } else { "" };
    let a = seconds.abs();
    let r = round_sig(a, 4);
    let (scale, unit) = if r >= 1.0 {
        (1.0, "s")
    } else if r >= 1e-3 {
        (1e3, "ms")
    } else if r >= 1e-6 {
        (1e6, "\u{b5}s")
    } else {
        (1e9, "ns")
    };
    format!("{sign}{} {unit}", sig(a * scale, 4))
}

/// β in seconds per byte, auto-scaled with up to 4 significant figures and
/// trailing zeros trimmed. ns/B is the working unit for 0.001 ns/B ≤ β <
/// 1000 ns/B; smaller values use ps/B and larger ones µs/B, ms/B, s/B:
/// 8e-11 → `"0.08 ns/B"`, 1e-9 → `"1 ns/B"`, 2e-6 → `"2 µs/B"`,
/// 5e-13 → `"0.5 ps/B"`, 0 → `"0 ns/B"`.
pub fn format_beta(seconds_per_byte: f64) -> String {
    if !seconds_per_byte.is_finite() {
        return format!("{seconds_per_byte} s/B");
    }
    if seconds_per_byte == 0.0 {
        return "0 ns/B".to_string();
    }
    let sign = if seconds_per_byte < 0.0 { "-" } else { "" };
    let a = seconds_per_byte.abs();
    let r = round_sig(a, 4);
    let (scale, unit) = if r >= 1.0 {
        (1.0, "s/B")
    } else if r >= 1e-3 {
        (1e3, "ms/B")
    } else if r >= 1e-6 {
        (1e6, "\u{b5}s/B")
    } else if r >= 1e-12 {
        (1e9, "ns/B")
    } else {
        (1e12, "ps/B")
    };
    format!("{sign}{} {unit}", trim_zeros(sig(a * scale, 4)))
}

/// A bandwidth in bytes per second, decimal units, up to 4 significant
/// figures: 12.5e9 → `"12.5 GB/s"`.
pub fn format_bandwidth(bytes_per_second: f64) -> String {
    format!("{}/s", format_decimal(bytes_per_second))
}

/// A bit rate in bits per second, decimal units b/s … Tb/s, up to 4
/// significant figures: 1e11 → `"100 Gb/s"`.
pub fn format_bit_rate(bits_per_second: f64) -> String {
    let s = format_scaled(
        bits_per_second,
        1000.0,
        &["b", "kb", "Mb", "Gb", "Tb", "Pb"],
    );
    format!("{s}/s")
}

/// The derivation of β from a bandwidth, as shown next to the input:
/// `100Gb/s` → `"100 Gb/s = 12.5 GB/s → β = 1 / (12.5 GB/s) = 0.08 ns/B"`;
/// `12.5GB/s` → `"12.5 GB/s → β = 1 / (12.5 GB/s) = 0.08 ns/B"`.
/// (β = 1/bandwidth, α–β model; 8 bits per byte.)
pub fn bandwidth_chain(bw: &Bandwidth) -> String {
    let bytes = format_bandwidth(bw.bytes_per_second);
    let beta = format_beta(bw.beta());
    if bw.typed_bits {
        let bits = format_bit_rate(bw.bytes_per_second * 8.0);
        format!("{bits} = {bytes} → β = 1 / ({bytes}) = {beta}")
    } else {
        format!("{bytes} → β = 1 / ({bytes}) = {beta}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(s: &str) -> u64 {
        parse_size(s).expect("valid size").bytes
    }

    #[test]
    fn parse_size_decimal_and_binary() {
        assert_eq!(size("100MB"), 100_000_000);
        assert_eq!(size("64MiB"), 67_108_864);
        assert_eq!(size("8KiB"), 8192);
        assert_eq!(size("8 KiB"), 8192);
        assert_eq!(size("1.5 GB"), 1_500_000_000);
        assert_eq!(size("512B"), 512);
        assert_eq!(size("1e6B"), 1_000_000);
        assert_eq!(size("1.5KiB"), 1536);
        assert_eq!(size("1KB"), 1000);
        assert_eq!(size("1kB"), 1000);
        assert_eq!(size("1mb"), 1_000_000);
        assert_eq!(size("1gib"), 1_073_741_824);
        assert_eq!(size("1TiB"), 1_099_511_627_776);
        assert_eq!(size("250 bytes"), 250);
        assert_eq!(size("  64MiB  "), 67_108_864);
        assert_eq!(size("1024TiB"), MAX_SIZE_BYTES);
        assert_eq!(parse_size("64MiB").expect("valid").prefix, Prefix::Binary);
        assert_eq!(parse_size("100MB").expect("valid").prefix, Prefix::Decimal);
        assert_eq!(parse_size("512B").expect("valid").prefix, Prefix::None);
    }

    #[test]
    fn parse_size_errors() {
        let e = parse_size("12parsecs").expect_err("unknown unit");
        assert_eq!(
            e,
            UnitError::UnknownUnit {
                quantity: Quantity::Size,
                unit: "parsecs".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "unknown size unit “parsecs”: use B, kB, MB, GB, TB, KiB, MiB, GiB or TiB"
        );
        let e = parse_size("-3MB").expect_err("negative");
        assert_eq!(e, UnitError::Negative(Quantity::Size));
        assert_eq!(e.to_string(), "size must not be negative");
        let e = parse_size("100").expect_err("no unit");
        assert_eq!(e, UnitError::MissingUnit(Quantity::Size));
        assert_eq!(e.to_string(), "size needs a unit such as 64MiB or 100MB");
        assert_eq!(parse_size(""), Err(UnitError::Empty(Quantity::Size)));
        assert_eq!(parse_size("   "), Err(UnitError::Empty(Quantity::Size)));
        assert!(matches!(
            parse_size("abcMB"),
            Err(UnitError::NotANumber { .. })
        ));
        let e = parse_size("100Mb").expect_err("bits");
        assert_eq!(e, UnitError::BitsNotBytes { unit: "Mb".into() });
        assert!(e.to_string().contains("sizes are in bytes"));
        assert!(matches!(
            parse_size("1Gb"),
            Err(UnitError::BitsNotBytes { .. })
        ));
        assert!(matches!(
            parse_size("1Mbit"),
            Err(UnitError::BitsNotBytes { .. })
        ));
        // 0.1 KiB = 102.4 B; 1.0005 kB = 1000.5 B.
        assert_eq!(parse_size("0.1KiB"), Err(UnitError::NotWholeBytes));
        assert_eq!(parse_size("1.0005kB"), Err(UnitError::NotWholeBytes));
        assert_eq!(parse_size("0.5B"), Err(UnitError::NotWholeBytes));
        assert_eq!(parse_size("0MB"), Err(UnitError::Zero(Quantity::Size)));
        // 1 PiB + 1 B, and absurd exponents.
        assert_eq!(
            parse_size("1125899906842625B"),
            Err(UnitError::TooLarge(Quantity::Size))
        );
        assert_eq!(
            parse_size("1e400TB"),
            Err(UnitError::TooLarge(Quantity::Size))
        );
        assert_eq!(parse_size("1e-400TB"), Err(UnitError::NotWholeBytes));
        assert_eq!(parse_size("1.1PB").map(|b| b.bytes).ok(), None);
        assert_eq!(
            parse_size(&format!("{}B", "1".repeat(40))),
            Err(UnitError::TooManyDigits)
        );
        assert!(parse_size("MB").is_err());
        assert!(parse_size(".MB").is_err());
        assert!(parse_size("5 µs").is_err());
    }

    #[test]
    fn format_exact_round_trips_family() {
        let cases = [
            (67_108_864, Prefix::Binary, "64MiB"),
            (1_500_000_000, Prefix::Decimal, "1.5GB"),
            (512, Prefix::Decimal, "0.512kB"),
            (512, Prefix::Binary, "0.5KiB"),
            (512, Prefix::None, "512B"),
            (1536, Prefix::Binary, "1.5KiB"),
            (100_000_000, Prefix::Decimal, "100MB"),
        ];
        for (bytes, prefix, text) in cases {
            let b = ByteSize { bytes, prefix };
            assert_eq!(b.to_string(), text);
            assert_eq!(parse_size(text), Ok(b));
        }
    }

    #[test]
    fn parse_time_units() {
        let t = |s: &str| parse_time(s).expect("valid time");
        assert_eq!(t("5us"), 5e-6);
        assert_eq!(t("5 µs"), 5e-6);
        assert_eq!(t("5μs"), 5e-6);
        assert_eq!(t("5US"), 5e-6);
        assert_eq!(t("2ms"), 2e-3);
        assert_eq!(t("10ns"), 10e-9);
        assert_eq!(t("1.5s"), 1.5);
        assert_eq!(t("0us"), 0.0);
        let e = parse_time("5").expect_err("no unit");
        assert_eq!(e, UnitError::MissingUnit(Quantity::Time));
        assert_eq!(e.to_string(), "time needs a unit such as 5us or 2ms");
        assert_eq!(parse_time("-1ms"), Err(UnitError::Negative(Quantity::Time)));
        assert!(matches!(
            parse_time("5 parsecs"),
            Err(UnitError::UnknownUnit { .. })
        ));
        assert!(matches!(
            parse_time("1e400s"),
            Err(UnitError::TooLarge(Quantity::Time))
        ));
        assert_eq!(parse_time(""), Err(UnitError::Empty(Quantity::Time)));
    }

    #[test]
    fn bandwidth_bits_and_bytes_agree() {
        let bits = parse_bandwidth("100Gb/s").expect("bits");
        let bytes = parse_bandwidth("12.5GB/s").expect("bytes");
        assert!(bits.typed_bits);
        assert!(!bytes.typed_bits);
        assert_eq!(bits.bytes_per_second, 12.5e9);
        assert_eq!(bytes.bytes_per_second, 12.5e9);
        assert!((bits.beta() - 8e-11).abs() < 1e-24);
        assert!((bytes.beta() - 8e-11).abs() < 1e-24);
        assert_eq!(format_beta(8e-11), "0.08 ns/B");
        assert_eq!(format_beta(bits.beta()), "0.08 ns/B");
        assert_eq!(
            bandwidth_chain(&bits),
            "100 Gb/s = 12.5 GB/s → β = 1 / (12.5 GB/s) = 0.08 ns/B"
        );
        assert_eq!(
            bandwidth_chain(&bytes),
            "12.5 GB/s → β = 1 / (12.5 GB/s) = 0.08 ns/B"
        );
        let bps = |s: &str| {
            parse_bandwidth(s)
                .expect("valid bandwidth")
                .bytes_per_second
        };
        assert_eq!(bps("100Gbps"), 12.5e9);
        assert_eq!(bps("12.5GBps"), 12.5e9);
        assert_eq!(bps("100 Gbit/s"), 12.5e9);
        assert_eq!(bps("800Mb/s"), 1e8);
        assert_eq!(bps("1GiB/s"), 1_073_741_824.0);
        assert_eq!(bps("1 kB/s"), 1000.0);
        assert_eq!(bps("8b/s"), 1.0);
        assert_eq!(bps("2 bytes/sec"), 2.0);
        let e = parse_bandwidth("12.5GB").expect_err("a size");
        assert_eq!(e, UnitError::NotARate { unit: "GB".into() });
        let e = parse_bandwidth("12.5").expect_err("no unit");
        assert_eq!(
            e.to_string(),
            "bandwidth needs a unit such as 12.5GB/s or 100Gb/s"
        );
        assert_eq!(
            parse_bandwidth("0GB/s"),
            Err(UnitError::Zero(Quantity::Bandwidth))
        );
        assert_eq!(
            parse_bandwidth("-1GB/s"),
            Err(UnitError::Negative(Quantity::Bandwidth))
        );
        assert!(matches!(
            parse_bandwidth("1XB/s"),
            Err(UnitError::UnknownUnit { .. })
        ));
        assert!(matches!(
            parse_bandwidth("1µB/s"),
            Err(UnitError::UnknownUnit { .. })
        ));
    }

    #[test]
    fn parse_beta_forms() {
        let b = |s: &str| parse_beta(s).expect("valid beta");
        assert!((b("0.08ns/B") - 8e-11).abs() < 1e-24);
        assert!((b("8e-11s/B") - 8e-11).abs() < 1e-24);
        assert!((b("0.08 ns/byte") - 8e-11).abs() < 1e-24);
        assert!((b("80ps/B") - 8e-11).abs() < 1e-24);
        assert_eq!(b("0ns/B"), 0.0);
        assert!(matches!(
            parse_beta("0.08ns"),
            Err(UnitError::UnknownUnit { .. })
        ));
        assert!(matches!(
            parse_beta("0.08ns/b"),
            Err(UnitError::UnknownUnit { .. })
        ));
        assert_eq!(
            parse_beta("-1ns/B"),
            Err(UnitError::Negative(Quantity::Beta))
        );
        assert_eq!(parse_beta("1"), Err(UnitError::MissingUnit(Quantity::Beta)));
    }

    #[test]
    fn time_formatting_keeps_four_significant_figures() {
        assert_eq!(format_time(22.62e-6), "22.62 µs");
        assert_eq!(format_time(0.012), "12.00 ms");
        assert_eq!(format_time(0.01011), "10.11 ms");
        assert_eq!(format_time(1.5112e-4), "151.1 µs");
        assert_eq!(format_time(0.0), "0 s");
        assert_eq!(format_time(2.5), "2.500 s");
        assert_eq!(format_time(5e-9), "5.000 ns");
        // Rounding that crosses a unit boundary moves to the larger unit.
        assert_eq!(format_time(0.00099996), "1.000 ms");
        assert_eq!(format_time(-2e-6), "-2.000 µs");
    }

    #[test]
    fn beta_formatting() {
        assert_eq!(format_beta(1e-9), "1 ns/B");
        assert_eq!(format_beta(1.0 / 1e8), "10 ns/B");
        assert_eq!(format_beta(2e-6), "2 µs/B");
        assert_eq!(format_beta(5e-13), "0.5 ps/B");
        assert_eq!(format_beta(0.0), "0 ns/B");
        assert_eq!(format_beta(1.0 / 3e9), "0.3333 ns/B");
    }

    #[test]
    fn sig_figures() {
        assert_eq!(sig(22.6208, 4), "22.62");
        assert_eq!(sig(12.0, 4), "12.00");
        assert_eq!(sig(123_456.0, 4), "123500");
        assert_eq!(sig(0.000_123_456, 3), "0.000123");
        assert_eq!(sig(9.9996, 4), "10.00");
        assert_eq!(sig(0.0, 4), "0");
        assert_eq!(sig(-1.5, 2), "-1.5");
    }

    #[test]
    fn size_formatting() {
        assert_eq!(group_thousands(67_108_864), "67,108,864");
        assert_eq!(group_thousands(0), "0");
        assert_eq!(group_thousands(999), "999");
        assert_eq!(group_thousands(1000), "1,000");
        assert_eq!(group_thousands(u64::MAX), "18,446,744,073,709,551,615");
        assert_eq!(format_size(67_108_864), "67,108,864 B (64 MiB, 67.11 MB)");
        assert_eq!(
            format_size(100_000_000),
            "100,000,000 B (100 MB, 95.37 MiB)"
        );
        assert_eq!(format_size(512), "512 B");
        assert_eq!(format_size(1000), "1,000 B (1 kB)");
        assert_eq!(format_size(8192), "8,192 B (8 KiB, 8.192 kB)");
        assert_eq!(format_decimal(25e6), "25 MB");
        assert_eq!(format_decimal(117_647.06), "117.6 kB");
        assert_eq!(format_decimal(512.0), "512 B");
        assert_eq!(format_decimal(999_960.0), "1 MB");
        assert_eq!(format_binary(67_108_864.0), "64 MiB");
        assert_eq!(format_binary(117_647.06), "114.9 KiB");
        assert_eq!(format_bytes_short(150e6), "150 MB");
        assert_eq!(format_bytes_short(8192.0), "8.192 kB");
        assert_eq!(format_bandwidth(12.5e9), "12.5 GB/s");
        assert_eq!(format_bit_rate(1e11), "100 Gb/s");
    }

    #[test]
    fn errors_have_examples() {
        assert_eq!(
            UnitError::MissingUnit(Quantity::Bandwidth).to_string(),
            "bandwidth needs a unit such as 12.5GB/s or 100Gb/s"
        );
        assert!(UnitError::NotWholeBytes
            .to_string()
            .starts_with("size must be a whole number of bytes"));
        assert!(UnitError::Zero(Quantity::Size)
            .to_string()
            .contains("64MiB"));
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod proptests {
    use super::*;
    use proptest::prelude::*;

    fn any_prefix() -> impl Strategy<Value = Prefix> {
        prop_oneof![
            Just(Prefix::None),
            Just(Prefix::Decimal),
            Just(Prefix::Binary)
        ]
    }

    proptest! {
        #[test]
        fn size_round_trips_in_each_family(bytes in 1u64..1_000_000_000_000_000, prefix in any_prefix()) {
            let b = ByteSize { bytes, prefix };
            let text = b.to_string();
            prop_assert_eq!(parse_size(&text), Ok(b), "text {}", text);
            // With a space between number and unit, and lower-case letters.
            let (num, unit) = split_number(&text);
            let spaced = format!("{num} {}", unit.to_lowercase());
            prop_assert_eq!(parse_size(&spaced).map(|s| s.bytes), Ok(bytes));
        }

        #[test]
        fn four_sig_fig_sizes_are_close(bytes in 1u64..1_000_000_000_000_000) {
            // The display forms are within half a unit in the 4th figure.
            let unit_bytes = |u: &str| match u {
                "B" => 1.0,
                "kB" => 1e3,
                "MB" => 1e6,
                "GB" => 1e9,
                "TB" => 1e12,
                "PB" => 1e15,
                "KiB" => 1024.0,
                "MiB" => 1_048_576.0,
                "GiB" => 1_073_741_824.0,
                "TiB" => 1_099_511_627_776.0,
                _ => f64::NAN,
            };
            for text in [format_decimal(bytes as f64), format_binary(bytes as f64)] {
                let (num, unit) = text.split_once(' ').expect("number and unit");
                let shown: f64 = num.parse().expect("a number");
                let rel = (shown * unit_bytes(unit) - bytes as f64).abs() / bytes as f64;
                prop_assert!(rel <= 5e-4, "{} vs {}", text, bytes);
            }
        }

        #[test]
        fn time_round_trips_in_ns(t in 0.0f64..1e3) {
            let text = format!("{}ns", t * 1e9);
            let back = parse_time(&text).expect("formatted time parses");
            prop_assert!((back - t).abs() <= 1e-12 * t.abs().max(f64::MIN_POSITIVE), "{} -> {}", t, back);
        }

        #[test]
        fn formatted_time_parses_back(t in 1e-10f64..1e3) {
            let back = parse_time(&format_time(t)).expect("format_time output parses");
            prop_assert!((back - t).abs() <= 5e-4 * t);
        }

        #[test]
        fn bandwidth_round_trips(x in 1.0f64..1e13) {
            let back = parse_bandwidth(&format_bandwidth(x)).expect("formatted bandwidth parses");
            prop_assert!((back.bytes_per_second - x).abs() <= 1e-3 * x);
            let bits = parse_bandwidth(&format_bit_rate(8.0 * x)).expect("formatted bit rate parses");
            prop_assert!(bits.typed_bits);
            prop_assert!((bits.bytes_per_second - x).abs() <= 1e-3 * x);
        }

        #[test]
        fn beta_round_trips(x in 1e-14f64..1e-3) {
            let back = parse_beta(&format_beta(x)).expect("formatted beta parses");
            prop_assert!((back - x).abs() <= 1e-3 * x);
        }
    }
}
