//! Number formatting: the only place the app turns numbers into text.
//! Results use 4 significant figures ([`sig`], [`format_time`], …); inputs
//! and coefficients are shown trimmed ([`trim_decimal`], [`format_input_time`]).

use super::decimal;
use super::size::{checked_pow, SizeUnit, BINARY_UNITS, DECIMAL_UNITS};
use super::*;

/// trailing zeros, if it fits in 38 significant digits.
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
// Formatting
// ---------------------------------------------------------------------------

/// `x` rounded to `digits` significant figures, as an `f64`.
fn round_sig(x: f64, digits: usize) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let digits = digits.clamp(1, 17);
    decimal::parse(&decimal::sci(x, digits - 1)).unwrap_or(x)
}

/// `x` to `digits` significant figures, keeping trailing zeros:
/// `sig(22.6208, 4)` = `"22.62"`, `sig(12.0, 4)` = `"12.00"`,
/// `sig(123456.0, 4)` = `"123500"`, `sig(0.0, 4)` = `"0"`.
/// `digits` is clamped to 1..=17. Non-finite values print as `inf`/`NaN`.
pub fn sig(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return decimal::shortest(x);
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let digits = digits.clamp(1, 17);
    let sci = decimal::sci(x, digits - 1);
    let exp: i64 = sci
        .rsplit_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let rounded = decimal::parse(&sci).unwrap_or(x);
    let decimals = (digits as i64 - 1 - exp).max(0) as usize;
    decimal::fixed(rounded, decimals)
}

/// `x` (finite, non-zero) in scientific notation with `digits` significant
/// figures, `e` exponent: `sci(8.053e18, 4, false)` = `"8.053e18"`,
/// `sci(1e-24, 4, true)` = `"1e-24"` (trailing zeros of the mantissa
/// trimmed when `trim`). Used so that no formatter prints a huge or tiny
/// magnitude as a long run of digits.
fn sci(x: f64, digits: usize, trim: bool) -> String {
    let t = decimal::sci(x, digits.clamp(1, 17) - 1);
    match t.split_once('e') {
        Some((mant, exp)) if trim && mant.contains('.') => {
            format!("{}e{exp}", mant.trim_end_matches('0').trim_end_matches('.'))
        }
        _ => t,
    }
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
    format_scaled_as(x, base, units, true)
}

/// [`format_scaled`], trailing zeros kept unless `trim`.
fn format_scaled_as(x: f64, base: f64, units: &[&str], trim: bool) -> String {
    let first = units.first().copied().unwrap_or("");
    if !x.is_finite() {
        return format!("{} {first}", decimal::shortest(x));
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
    // Beyond the largest unit or below 10⁻³ of the smallest: scientific
    // notation in the base unit, never a long run of digits.
    if !(1e-3..1e6).contains(&v) {
        return format!("{sign}{} {first}", sci(a, 4, true));
    }
    let digits = sig(v, 4);
    let digits = if trim { trim_zeros(digits) } else { digits };
    format!("{sign}{digits} {}", units[i])
}

/// A byte count auto-scaled in decimal (SI) units B, kB, MB, GB, TB, PB with up
/// to 4 significant figures, trailing zeros trimmed: 25e6 → `"25 MB"`,
/// 117647.06 → `"117.6 kB"`, 512 → `"512 B"`.
pub fn format_decimal(bytes: f64) -> String {
    format_scaled(bytes, 1000.0, &["B", "kB", "MB", "GB", "TB", "PB"])
}

/// An amount of memory in decimal units, as [`format_decimal`] but with 4
/// significant figures kept, so that figures side by side line up:
/// 1.6e9 → `"1.600 GB"`, 5.5e8 → `"550.0 MB"`, 1.6e10 → `"16.00 GB"`.
pub fn format_memory(bytes: f64) -> String {
    format_scaled_as(bytes, 1000.0, &["B", "kB", "MB", "GB", "TB", "PB"], false)
}

/// A byte count auto-scaled in binary (IEC) units B, KiB, MiB, GiB, TiB, PiB
/// with up to 4 significant figures, trailing zeros trimmed:
/// 67108864 → `"64 MiB"`, 117647.06 → `"114.9 KiB"`.
pub fn format_binary(bytes: f64) -> String {
    format_scaled(bytes, 1024.0, &["B", "KiB", "MiB", "GiB", "TiB", "PiB"])
}

/// A byte count in both prefix systems: the decimal form, and the binary
/// one where it reads differently: 117647.06 → `("117.6 kB",
/// Some("114.9 KiB"))`, 512 → `("512 B", None)`. What [`format_both`] and
/// the charts' labels join, each in its own way.
pub fn both_prefixes(bytes: f64) -> (String, Option<String>) {
    let d = format_decimal(bytes);
    let b = format_binary(bytes);
    let binary = (b != d).then_some(b);
    (d, binary)
}

/// A byte count in both prefix systems where they differ, the binary one in
/// parentheses: 117647.06 → `"117.6 kB (114.9 KiB)"`; where both read the
/// same (512 → `"512 B"`) once.
pub fn format_both(bytes: f64) -> String {
    match both_prefixes(bytes) {
        (d, Some(b)) => format!("{d} ({b})"),
        (d, None) => d,
    }
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
    format_time_sig(seconds, 4)
}

/// [`format_time`] with `digits` significant figures (clamped to 1..=17)
/// instead of 4, trailing zeros kept: `format_time_sig(8.5833344e-3, 7)` =
/// `"8.583334 ms"`, `format_time_sig(8.5833333e-3, 7)` = `"8.583333 ms"`.
/// For two times that differ by less than 4 digits show: printed with enough
/// digits, they print differently.
pub fn format_time_sig(seconds: f64, digits: usize) -> String {
    if !seconds.is_finite() {
        return format!("{} s", decimal::shortest(seconds));
    }
    if seconds == 0.0 {
        return "0 s".to_string();
    }
    let digits = digits.clamp(1, 17);
    let sign = if seconds < 0.0 { "-" } else { "" };
    let a = seconds.abs();
    let r = round_sig(a, digits);
    // From 10⁶ s (11.6 days) up and below 1 ps: scientific notation in
    // seconds ("8.053e18 s", "1.000e-24 s"), never a long run of digits.
    if !(1e-12..1e6).contains(&r) {
        return format!("{sign}{} s", sci(a, digits, false));
    }
    let (scale, unit) = if r >= 1.0 {
        (1.0, "s")
    } else if r >= 1e-3 {
        (1e3, "ms")
    } else if r >= 1e-6 {
        (1e6, "\u{b5}s")
    } else {
        (1e9, "ns")
    };
    format!("{sign}{} {unit}", sig(a * scale, digits))
}

/// A signed time difference, [`format_time`] with an explicit sign:
/// 1.067e-9 → `"+1.067 ns"`, -2e-6 → `"−2.000 µs"` (U+2212).
pub fn format_signed_time(d: f64) -> String {
    let sign = if d >= 0.0 { "+" } else { "−" };
    format!("{sign}{}", format_time(d.abs()))
}

/// β in seconds per byte, auto-scaled with up to 4 significant figures and
/// trailing zeros trimmed. ns/B is the working unit for 0.001 ns/B ≤ β <
/// 1000 ns/B; smaller values use ps/B and larger ones µs/B, ms/B, s/B:
/// 8e-11 → `"0.08 ns/B"`, 1e-9 → `"1 ns/B"`, 2e-6 → `"2 µs/B"`,
/// 5e-13 → `"0.5 ps/B"`, 0 → `"0 ns/B"`.
pub fn format_beta(seconds_per_byte: f64) -> String {
    if !seconds_per_byte.is_finite() {
        return format!("{} s/B", decimal::shortest(seconds_per_byte));
    }
    if seconds_per_byte == 0.0 {
        return "0 ns/B".to_string();
    }
    let sign = if seconds_per_byte < 0.0 { "-" } else { "" };
    let a = seconds_per_byte.abs();
    let r = round_sig(a, 4);
    // From 10⁶ s/B up and below 0.001 ps/B: scientific notation in s/B.
    if !(1e-15..1e6).contains(&r) {
        return format!("{sign}{} s/B", sci(a, 4, true));
    }
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

/// `digits` significant figures with trailing zeros (and a bare point)
/// removed; scientific notation (`2.71e-5`, `9.98e+12`) below 10⁻⁴ and from
/// 10⁶ on, so that tiny and huge values stay short.
pub fn sig_trimmed(v: f64, digits: usize) -> String {
    if !v.is_finite() {
        return if v.is_nan() {
            "NaN".into()
        } else if v > 0.0 {
            "∞".into()
        } else {
            "−∞".into()
        };
    }
    let a = v.abs();
    if a != 0.0 && !(1e-4..1e6).contains(&a) {
        let t = decimal::sci(v, digits.clamp(1, 17) - 1);
        return match t.split_once('e') {
            Some((mant, exp)) => {
                let mant = if mant.contains('.') {
                    mant.trim_end_matches('0').trim_end_matches('.')
                } else {
                    mant
                };
                format!("{mant}e{exp}")
            }
            None => t,
        };
    }
    let s = sig(v, digits);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Formats a number for narration: up to 4 decimals, trailing zeros dropped
/// (4, 4.5, 0.7454, −1.25); "−0" is printed as 0.
pub fn format_number(v: f64) -> String {
    if !v.is_finite() {
        return decimal::shortest(v);
    }
    let s = decimal::fixed(v, 4);
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" {
        "0".into()
    } else {
        s.replace('-', "−")
    }
}

/// Formats ρ (or any value in [0, 1]) so that a value close to 1 stays
/// readable: `1 − 1.255e-5` when 1 − v < 10⁻³, else
/// [`format_exact_or_approx`] with the fraction when it is a simple one
/// (`≈ 0.3333 = 1/3`, `0.5 = 1/2`).
pub fn format_rate(v: f64) -> String {
    let gap = 1.0 - v;
    if v.is_finite() && gap > 0.0 && gap < 1e-3 {
        return format!("1 − {}", format_small(gap));
    }
    let f = format_weight(v);
    if f.contains('/') {
        format!("{} = {f}", format_exact_or_approx(v))
    } else {
        format_exact_or_approx(v)
    }
}

/// Formats a small positive number with 4 significant digits, in scientific
/// notation below 10⁻³ (`2.511e-5`), else as [`format_exact_or_approx`].
pub fn format_small(v: f64) -> String {
    if v != 0.0 && v.is_finite() && v.abs() < 1e-3 {
        decimal::sci(v, 3)
    } else {
        format_exact_or_approx(v)
    }
}

/// Formats a weight as a fraction n/d with d ≤ 64 when it is one (1/3,
/// 5/12), otherwise as a decimal (see [`format_exact_or_approx`]).
pub fn format_weight(w: f64) -> String {
    for d in 1..=64u32 {
        let n = (w * f64::from(d)).round();
        if (n / f64::from(d) - w).abs() <= 1e-12 {
            let n = decimal::shortest(n);
            return if d == 1 { n } else { format!("{n}/{d}") };
        }
    }
    format_exact_or_approx(w)
}

/// Compact element count: `16000000` → `"16M"`, `2500` → `"2.5k"`, `37` → `"37"`.
pub fn format_count_compact(x: u64) -> String {
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if x >= 1_000_000_000 {
        format!("{}G", trim(sig(x as f64 / 1e9, 4)))
    } else if x >= 1_000_000 {
        format!("{}M", trim(sig(x as f64 / 1e6, 4)))
    } else if x >= 10_000 {
        format!("{}k", trim(sig(x as f64 / 1e3, 4)))
    } else {
        x.to_string()
    }
}

/// A value for display: integers without decimals, else 4 significant figures.
pub fn format_value(v: f64) -> String {
    let r = v.round();
    if (v - r).abs() <= 1e-9 * v.abs().max(1.0) && v.abs() < 1e15 {
        decimal::fixed(r, 0)
    } else {
        sig(v, 4)
    }
}

/// Bytes with a decimal prefix for axis ticks (0 B, 750 B, 1.5 kB, 2 MB).
pub fn format_bytes_tick(v: f64) -> String {
    let a = v.abs();
    if a < 1e3 {
        format!("{} B", decimal::fixed(v, 0))
    } else if a < 1e6 {
        format!("{} kB", decimal::fixed(v / 1e3, 1))
    } else if a < 1e9 {
        format!("{} MB", decimal::fixed(v / 1e6, 1))
    } else {
        format!("{} GB", decimal::fixed(v / 1e9, 1))
    }
}

/// Norms are shown with three decimals, as in the course (6.708, 2.236, 0.745).
pub fn format_norm3(v: f64) -> String {
    if v != 0.0 && v.abs() < 1e-3 {
        decimal::sci(v, 3)
    } else {
        decimal::fixed(v, 3)
    }
}

// ---------------------------------------------------------------------------
// Formatting: results with 4 significant figures (units module); inputs
// and coefficients with trailing zeros trimmed, as a student writes them.

/// Drops trailing zeros (and a bare point) of a decimal string: `5.000` → `5`.
pub fn trim_decimal(s: String) -> String {
    if let Some((mant, exp)) = s.split_once('e') {
        return format!("{}e{exp}", trim_decimal(mant.to_string()));
    }
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// An input time, trailing zeros trimmed: "5 µs".
pub fn format_input_time(s: f64) -> String {
    match format_time(s).split_once(' ') {
        Some((v, u)) => format!("{} {u}", trim_decimal(v.to_string())),
        None => format_time(s),
    }
}

/// Bytes for a written-out calculation: the exact count with thousands
/// separators (`8,192 B`), or 4 significant figures trimmed when not whole.
pub fn format_bytes_exact(n: f64) -> String {
    if n.fract() == 0.0 && (0.0..1e15).contains(&n) {
        format!("{} B", group_thousands(n as u64))
    } else if n != 0.0 && n.is_finite() && !(1e-3..1e7).contains(&n.abs()) {
        format!("{} B", sci(n, 4, true))
    } else {
        format!("{} B", trim_decimal(sig(n, 4)))
    }
}

/// A coefficient, 4 significant figures with trailing zeros trimmed: `1.875`, `30`.
pub fn format_coeff(x: f64) -> String {
    if x != 0.0 && x.is_finite() && !(1e-4..1e7).contains(&x.abs()) {
        return sci(x, 4, true);
    }
    trim_decimal(sig(x, 4))
}

/// A vector with every entry as [`format_exact_or_approx`], e.g.
/// "(0.5, ≈ 0.3333)" (the sgd view's optima).
pub fn format_vector(w: &[f64]) -> String {
    let inner: Vec<String> = w.iter().map(|v| format_exact_or_approx(*v)).collect();
    format!("({})", inner.join(", "))
}

/// A vector's first four entries to 3 significant digits
/// ([`sig_trimmed`]), with "…" when it has more, e.g. "(1.23, 4.56, …)"
/// (the sgd narration).
pub fn format_vector_brief(w: &[f64]) -> String {
    let inner: Vec<String> = w.iter().take(4).map(|v| sig_trimmed(*v, 3)).collect();
    if w.len() > 4 {
        format!("({}, …)", inner.join(", "))
    } else {
        format!("({})", inner.join(", "))
    }
}

/// The one rule for a shown number: the value **exactly** when it has at most
/// 6 significant digits, otherwise **4 significant digits after "≈ "**.
///
/// - Exact: `1.2375` → `"1.2375"`, `0.36` → `"0.36"`, `112` → `"112"`,
///   `0.1 + 0.2` → `"0.3"` (float noise below a relative 10⁻¹² is not a digit).
/// - Approximate: `1.6 / 3` → `"≈ 0.5333"`, `√45` → `"≈ 6.708"`,
///   `1234567` → `"≈ 1235000"` (trailing zeros of the 4 digits are kept:
///   `1.0000001` → `"≈ 1.000"`).
/// - Positional notation for 10⁻⁴ ≤ |x| < 10¹⁵ (exact) or < 10⁷ (rounded),
///   scientific outside it (`8.053e18` → `"≈ 8.053e18"`)
///   (`1e308` → `"1e308"`, `1.23456789e-9` → `"≈ 1.235e-9"`).
/// - Negative values use the minus sign U+2212 (`"−0.5"`, `"≈ −0.3333"`);
///   `−0` prints `"0"`; non-finite values print `"NaN"`, `"∞"`, `"−∞"`.
///
/// No unit: callers append it (`format!("{} MB", …)`).
pub fn format_exact_or_approx(x: f64) -> String {
    /// Relative error below which the 6-digit rounding counts as exact.
    const NOISE: f64 = 1e-12;
    if !x.is_finite() {
        return if x.is_nan() {
            "NaN".into()
        } else if x > 0.0 {
            "∞".into()
        } else {
            "−∞".into()
        };
    }
    if x == 0.0 {
        return "0".into();
    }
    let r6 = round_sig(x, 6);
    let exact = (x - r6).abs() <= NOISE * x.abs();
    let (value, digits) = if exact { (r6, 6) } else { (x, 4) };
    let a = value.abs();
    // Exact values (≤ 6 significant digits) stay positional up to 10¹⁵;
    // rounded ones from 10⁷ on use scientific notation, so that a shown
    // number never has more than 7 digits of which only 4 are meaningful.
    let upper = if exact { 1e15 } else { 1e7 };
    let body = if (1e-4..upper).contains(&a) {
        let s = sig(value, digits);
        if exact {
            trim_decimal(s)
        } else {
            s
        }
    } else {
        let t = decimal::sci(value, digits - 1);
        match t.split_once('e') {
            Some((mant, exp)) if exact => format!("{}e{exp}", trim_decimal(mant.to_string())),
            _ => t,
        }
    };
    let body = match body.strip_prefix('-') {
        Some(rest) => format!("−{rest}"),
        None => body,
    };
    if exact {
        body
    } else {
        format!("≈ {body}")
    }
}

/// `s` with its first letter in upper case, for a label that starts a
/// sentence. Every label starts with an ASCII letter, so ASCII upper-casing
/// is enough and keeps the Unicode case tables out of the wasm binaries.
pub fn capitalise(s: &str) -> String {
    let mut out = s.to_string();
    if let Some(first) = out.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    out
}

/// `name = value` for an exact value and `name ≈ value` for an approximate
/// one (a shown value from [`format_exact_or_approx`] and the formatters built
/// on it, which start with "≈ " when rounded): `("ρ", "≈ 0.8047")` →
/// `"ρ ≈ 0.8047"`, `("ρ", "0.5 = 1/2")` → `"ρ = 0.5 = 1/2"`.
pub fn equation(name: &str, shown: &str) -> String {
    match shown.strip_prefix("≈ ") {
        Some(rest) => format!("{name} ≈ {rest}"),
        None => format!("{name} = {shown}"),
    }
}

#[cfg(test)]
mod moved_tests {
    use super::*;

    #[test]
    fn calculation_formatters() {
        assert_eq!(trim_decimal("5.000".into()), "5");
        assert_eq!(trim_decimal("1.5e3".into()), "1.5e3");
        assert_eq!(format_input_time(5e-6), "5 µs");
        assert_eq!(format_bytes_exact(8192.0), "8,192 B");
        assert_eq!(format_bytes_exact(117_647.06), "117600 B");
        assert_eq!(format_coeff(1.875), "1.875");
        assert_eq!(format_coeff(30.0), "30");
    }

    #[test]
    fn display_formatters() {
        assert_eq!(format_count_compact(16_000_000), "16M");
        assert_eq!(format_count_compact(2_500), "2500");
        assert_eq!(format_count_compact(25_000), "25k");
        assert_eq!(format_value(21.0), "21");
        assert_eq!(format_value(2.5), "2.500");
        assert_eq!(format_bytes_tick(1500.0), "1.5 kB");
        assert_eq!(format_norm3(6.7082), "6.708");
        assert_eq!(format_norm3(2e-5), "2.000e-5");
        assert_eq!(sig_trimmed(0.5000, 4), "0.5");
        assert_eq!(sig_trimmed(2.71e-5, 3), "2.71e-5");
        assert_eq!(format_number(-1.25), "−1.25");
        assert_eq!(format_weight(1.0 / 3.0), "1/3");
        assert_eq!(format_rate(1.0 / 3.0), "≈ 0.3333 = 1/3");
        assert_eq!(format_small(2.511e-5), "2.511e-5");
        assert_eq!(equation("ρ", &format_rate(0.8047378541)), "ρ ≈ 0.8047");
        assert_eq!(equation("ρ", &format_rate(0.5)), "ρ = 0.5 = 1/2");
    }
}

#[cfg(test)]
mod exact_or_approx_tests {
    use super::format_exact_or_approx as f;
    use super::*;
    use crate::core::consensus::{GossipRun, GraphKind, InitPattern, WeightRule};
    use crate::core::sgd::objective;

    #[test]
    fn exact_up_to_six_significant_digits() {
        assert_eq!(f(1.2375), "1.2375");
        assert_eq!(f(0.36), "0.36");
        assert_eq!(f(112.0), "112");
        assert_eq!(f(123_456.0), "123456");
        assert_eq!(f(0.123456), "0.123456");
        assert_eq!(f(16_000_000.0), "16000000");
        assert_eq!(f(2.5), "2.5");
        assert_eq!(f(1.0), "1");
    }

    #[test]
    fn float_noise_is_not_a_digit() {
        assert_eq!(0.1 + 0.2, 0.30000000000000004);
        assert_eq!(f(0.1 + 0.2), "0.3");
        assert_eq!(f(1.0 / 3.0 * 3.0), "1");
        assert_eq!(f(9.9 / 8.0), "1.2375");
    }

    #[test]
    fn four_significant_digits_with_approx_sign_otherwise() {
        assert_eq!(f(1.6 / 3.0), "≈ 0.5333");
        assert_eq!(f(1.0 / 3.0), "≈ 0.3333");
        assert_eq!(f(1_234_567.0), "≈ 1235000");
        assert_eq!(f(0.1234567), "≈ 0.1235");
        // The 4 digits keep their trailing zeros: this is 1 to 4 digits, not exactly 1.
        assert_eq!(f(1.000_000_1), "≈ 1.000");
        assert_eq!(f(999_999.7), "≈ 1000000");
    }

    #[test]
    fn signs_zero_and_non_finite() {
        assert_eq!(f(0.0), "0");
        assert_eq!(f(-0.0), "0");
        assert_eq!(f(-0.5), "−0.5");
        assert_eq!(f(-1.0 / 3.0), "≈ −0.3333");
        assert_eq!(f(-112.0), "−112");
        assert_eq!(f(f64::NAN), "NaN");
        assert_eq!(f(f64::INFINITY), "∞");
        assert_eq!(f(f64::NEG_INFINITY), "−∞");
    }

    #[test]
    fn very_large_and_very_small_use_scientific_notation() {
        assert_eq!(f(1e308), "1e308");
        assert_eq!(f(-1e308), "−1e308");
        assert_eq!(f(f64::MAX), "≈ 1.798e308");
        assert_eq!(f(1e15), "1e15");
        assert_eq!(f(123_456e12), "1.23456e17");
        assert_eq!(f(1e14), "100000000000000");
        assert_eq!(f(5e-5), "5e-5");
        assert_eq!(f(1.23456789e-9), "≈ 1.235e-9");
        assert_eq!(f(-2.5e-7), "−2.5e-7");
        assert_eq!(f(1e-4), "0.0001");
        assert_eq!(f(f64::MIN_POSITIVE), "≈ 2.225e-308");
    }

    #[test]
    fn course_answers_come_out_unrounded() {
        // Shards of 5 and 3 samples with losses 1.2 and 1.3:
        // (5·1.2 + 3·1.3) / 8 = 9.9 / 8 = 1.2375 exactly (the page showed 1.238).
        let o = objective(&[5, 3], &[1.2, 1.3]).expect("valid table");
        assert_eq!(f(o.global_mean), "1.2375");
        // The course's three shards: 0.6·0.2 + 0.3·0.5 + 0.1·0.9 = 0.36; the
        // plain average 1.6/3 is not a short decimal.
        let o = objective(&[600, 300, 100], &[0.2, 0.5, 0.9]).expect("valid table");
        assert_eq!(f(o.global_mean), "0.36");
        assert_eq!(f(o.plain_mean), "≈ 0.5333");
        // Ring of 4 with weights 1/3, initial 0, 3, 6, 9: disagreement
        // √45 ≈ 6.708, √5 ≈ 2.236, √5/3 ≈ 0.7454 (the course rounds to 0.745).
        let run = crate::core::consensus::course_ring_run();
        let shown: Vec<String> = run.rounds.iter().map(|r| f(r.disagreement)).collect();
        assert_eq!(shown, ["≈ 6.708", "≈ 2.236", "≈ 0.7454"]);
    }

    /// Number of digits (0-9) in a shown string.
    fn digit_count(s: &str) -> usize {
        s.chars().filter(char::is_ascii_digit).count()
    }

    #[test]
    fn huge_and_tiny_magnitudes_use_scientific_notation() {
        // β = 1/(1 B/s ÷ 1e-9) at 4 GiB: the page printed "8053000000000000000 s".
        assert_eq!(format_time(8.053e18), "8.053e18 s");
        assert_eq!(format_time(1e18), "1.000e18 s");
        assert_eq!(format_time(1e300), "1.000e300 s");
        assert_eq!(format_time(1e-24), "1.000e-24 s");
        assert_eq!(format_time(1e-300), "1.000e-300 s");
        assert_eq!(format_time(-1e18), "-1.000e18 s");
        assert_eq!(format_time(0.0), "0 s");
        assert_eq!(format_time(-0.0), "0 s");
        // The last positional forms stay as they were.
        assert_eq!(format_time(999_900.0), "999900 s");
        assert_eq!(format_time(1e-12), "0.001000 ns");
        assert_eq!(format_input_time(1e18), "1e18 s");
        assert_eq!(format_beta(1e300), "1e300 s/B");
        assert_eq!(format_beta(1e-300), "1e-300 s/B");
        assert_eq!(format_beta(1e-24), "1e-24 s/B");
        assert_eq!(format_beta(-0.0), "0 ns/B");
        assert_eq!(format_bandwidth(1e-300), "1e-300 B/s");
        assert_eq!(format_bandwidth(1e300), "1e300 B/s");
        assert_eq!(format_bandwidth(1e17), "100 PB/s");
        assert_eq!(format_bandwidth(0.0), "0 B/s");
        assert_eq!(format_decimal(1e18), "1000 PB");
        assert_eq!(format_decimal(1e24), "1e24 B");
        assert_eq!(format_bytes_exact(1.5e300), "1.5e300 B");
        assert_eq!(format_coeff(1e-24), "1e-24");
        assert_eq!(f(8.053_123_4e18), "≈ 8.053e18");
        assert_eq!(f(12_345_678.0), "≈ 1.235e7");
        assert_eq!(f(1e-24), "1e-24");
        assert_eq!(f(1e-300), "1e-300");
        assert_eq!(f(-0.0), "0");
        for x in [
            1e18,
            1e-24,
            1e300,
            1e-300,
            3.1e-24,
            8.053e18,
            1.0 / 3.0 * 1e12,
        ] {
            for shown in [
                format_time(x),
                format_beta(x),
                format_bandwidth(x),
                format_decimal(x),
                format_bytes_exact(x),
                format_coeff(x),
                f(x),
            ] {
                // Mantissa ≤ 7 digits plus an exponent of at most 3.
                assert!(digit_count(&shown) <= 10, "{x} → {shown}");
            }
        }
    }

    #[test]
    fn gossip_disagreement_near_zero_is_not_shown_as_zero() {
        // A ring of 4 with weights 1/3 (ρ = 1/3): after 50 rounds the
        // disagreement is about 7e-24 — positive, and shown as such (the
        // page showed "0.000").
        let run = GossipRun::new(
            GraphKind::Ring,
            4,
            0,
            WeightRule::Uniform,
            &InitPattern::List(vec![0.1, 3.7, 6.2, 9.9]),
            50,
            100.0,
        )
        .expect("the course's ring");
        let mut tiny = 0;
        for r in run.rounds.iter().filter(|r| r.disagreement != 0.0) {
            let shown = f(r.disagreement);
            assert!(!shown.starts_with("0.0") && shown != "0", "{shown}");
            assert!(digit_count(&shown) <= 10, "{shown}");
            if r.disagreement < 1e-12 {
                assert!(shown.contains('e'), "{shown}");
                tiny += 1;
            }
        }
        assert!(tiny > 0, "the run reaches a tiny, non-zero disagreement");
        assert_eq!(f(3.1e-24), "3.1e-24");
        assert_eq!(f(3.123_456_7e-24), "≈ 3.123e-24");
    }
}

/// The spacing of about six axis ticks over `span`: 1, 2 or 5 × a power
/// of ten, in the unit of `span` (the timeline's and the step view's time
/// axes, in seconds).
pub fn tick_step(span: f64) -> f64 {
    let raw = (span / 6.0).max(1e-12);
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
}
