//! Byte sizes: parsing with decimal (SI) and binary (IEC) prefixes, exactly.

use super::*;

// ---------------------------------------------------------------------------
// Sizes
// ---------------------------------------------------------------------------

/// A size unit: (decimal name, binary name) tables with multiplier 2^twos · 5^fives.
pub(super) struct SizeUnit {
    pub(super) name: &'static str,
    pub(super) twos: u32,
    pub(super) fives: u32,
}

pub(super) const DECIMAL_UNITS: [SizeUnit; 5] = [
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

pub(super) const BINARY_UNITS: [SizeUnit; 5] = [
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
pub(super) fn size_unit(unit: &str) -> Result<(Prefix, usize), UnitError> {
    let lower = unit_lowercase(unit);
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

pub(super) fn checked_pow(base: u128, exp: u32) -> Option<u128> {
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
