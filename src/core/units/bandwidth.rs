//! Link bandwidths in bytes per second (bits or bytes typed).

use super::*;

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
        "p" => 1e15,
        "ki" => 1024.0,
        "mi" => 1_048_576.0,
        "gi" => 1_073_741_824.0,
        "ti" => 1_099_511_627_776.0,
        "pi" => 1_125_899_906_842_624.0,
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

/// Smallest link bandwidth a view accepts: 1 kB/s (β = 1 ms/B), far below
/// any real network link yet still a finite, printable time per byte.
pub const MIN_LINK_BYTES_PER_SECOND: f64 = 1e3;
/// Largest link bandwidth a view accepts: 100 PB/s (β = 0.01 fs/B), far
/// above any real link (400 Gb/s = 50 GB/s NICs, ~900 GB/s NVLink).
pub const MAX_LINK_BYTES_PER_SECOND: f64 = 1e17;

/// Checks that a link bandwidth (bytes per second) lies in
/// [`MIN_LINK_BYTES_PER_SECOND`] … [`MAX_LINK_BYTES_PER_SECOND`], i.e.
/// 1 kB/s … 100 PB/s.
///
/// # Errors
/// A message naming the range and the value given, e.g.
/// `"bandwidth must be between 1 kB/s and 100 PB/s (got 1e-300 B/s)"`.
pub fn check_link_bandwidth(bytes_per_second: f64) -> Result<(), String> {
    if (MIN_LINK_BYTES_PER_SECOND..=MAX_LINK_BYTES_PER_SECOND).contains(&bytes_per_second) {
        Ok(())
    } else {
        Err(format!(
            "bandwidth must be between 1 kB/s and 100 PB/s (got {})",
            super::format_bandwidth(bytes_per_second)
        ))
    }
}

/// Checks that β (seconds per byte) is the β of a link bandwidth accepted by
/// [`check_link_bandwidth`]: 0.01 fs/B (1e-17 s/B, 100 PB/s) … 1 ms/B (1 kB/s).
///
/// # Errors
/// A message naming the range and the value given.
pub fn check_link_beta(seconds_per_byte: f64) -> Result<(), String> {
    let lo = 1.0 / MAX_LINK_BYTES_PER_SECOND;
    let hi = 1.0 / MIN_LINK_BYTES_PER_SECOND;
    if (lo * (1.0 - 1e-12)..=hi * (1.0 + 1e-12)).contains(&seconds_per_byte) {
        Ok(())
    } else {
        Err(format!(
            "β must be between 1e-17 s/B (100 PB/s) and 1 ms/B (1 kB/s) (got {})",
            super::format_beta(seconds_per_byte)
        ))
    }
}
