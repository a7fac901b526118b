//! Decimal text of `f64`s, both ways: the app's one float formatter and
//! its one float parser.
//!
//! Why not the standard library's? Its float formatting (`{}`, `{:.3}`,
//! `{:e}`: Grisu with a Dragon4 fallback over big integers) and its parser
//! (`str::parse::<f64>`: Eisel–Lemire with a 10 KB table of 128-bit powers of
//! five) add about 22 KB gzipped to every wasm page, a tenth of the page
//! budget; the tables are random bits that do not compress. The app shows
//! numbers of at most 17 significant digits and reads numbers typed by
//! people or printed by benchmarks, so exact arithmetic on small big
//! integers (`Big`, schoolbook, no tables) is fast enough and an order of
//! magnitude smaller.
//!
//! Every function here gives the same text (or the same `f64`) as the
//! standard library's for finite values: [`fixed`] is `format!("{:.d$}")`,
//! [`sci`] is `format!("{:.p$e}")`, [`shortest`] is `format!("{}")`,
//! [`shortest_exp`] is `format!("{:e}")` and [`parse`] is
//! `str::parse::<f64>` (the tests compare them on random and edge values).
//! Rounding is to nearest, ties to even, on the exact binary value, as the
//! standard library rounds (IEEE 754-2019 §5.12.2).

/// A non-negative integer of 32-bit limbs, least significant first, with
/// the few operations exact decimal ↔ binary conversion needs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(x: u64) -> Big {
        let mut b = Big(vec![x as u32, (x >> 32) as u32]);
        b.trim();
        b
    }

    fn trimmed(mut self) -> Big {
        self.trim();
        self
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    /// Number of significant bits (0 for zero).
    fn bits(&self) -> u32 {
        match self.0.last() {
            Some(&top) => 32 * (self.0.len() as u32 - 1) + (32 - top.leading_zeros()),
            None => 0,
        }
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
        self.trim();
    }

    /// Multiplies by 10^k.
    fn mul_pow10(&mut self, mut k: u32) {
        while k >= 9 {
            self.mul_small(1_000_000_000);
            k -= 9;
        }
        let mut p = 1u32;
        for _ in 0..k {
            p *= 10;
        }
        self.mul_small(p);
    }

    fn shl(&mut self, bits: u32) {
        if self.is_zero() {
            return;
        }
        let (words, rest) = ((bits / 32) as usize, bits % 32);
        if rest > 0 {
            let mut carry = 0u32;
            for limb in &mut self.0 {
                let v = (*limb << rest) | carry;
                carry = *limb >> (32 - rest);
                *limb = v;
            }
            if carry > 0 {
                self.0.push(carry);
            }
        }
        if words > 0 {
            self.0.splice(0..0, std::iter::repeat_n(0, words));
        }
    }

    fn cmp(&self, other: &Big) -> std::cmp::Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }

    /// `self − other`; `other ≤ self`.
    fn sub(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let v = i64::from(*limb) - i64::from(other.0.get(i).copied().unwrap_or(0)) - borrow;
            borrow = i64::from(v < 0);
            *limb = (v + (borrow << 32)) as u32;
        }
        self.trim();
    }

    /// `(⌊self / d⌋, self mod d)` for `d > 0`, by binary long division (one
    /// compare and subtract per quotient bit).
    fn div_rem(mut self, d: &Big) -> (Big, Big) {
        let mut q = Big(Vec::new());
        if self.cmp(d) == std::cmp::Ordering::Less {
            return (q, self);
        }
        let top = self.bits() - d.bits();
        q.0 = vec![0; top as usize / 32 + 1];
        let mut shifted = d.clone();
        shifted.shl(top);
        for bit in (0..=top).rev() {
            if shifted.cmp(&self) != std::cmp::Ordering::Greater {
                self.sub(&shifted);
                q.0[bit as usize / 32] |= 1 << (bit % 32);
            }
            shifted.shr1();
        }
        q.trim();
        (q, self)
    }

    fn shr1(&mut self) {
        let mut carry = 0u32;
        for limb in self.0.iter_mut().rev() {
            let v = (*limb >> 1) | (carry << 31);
            carry = *limb & 1;
            *limb = v;
        }
        self.trim();
    }

    /// The value when it is below 2⁶⁴.
    fn to_u64(&self) -> Option<u64> {
        match self.0.as_slice() {
            [] => Some(0),
            [a] => Some(u64::from(*a)),
            [a, b] => Some(u64::from(*a) | (u64::from(*b) << 32)),
            _ => None,
        }
    }

    fn add_one(&mut self) {
        for limb in &mut self.0 {
            let (v, carry) = limb.overflowing_add(1);
            *limb = v;
            if !carry {
                return;
            }
        }
        self.0.push(1);
    }

    /// The decimal digits (`"0"` for zero).
    fn decimal(mut self) -> String {
        let mut parts: Vec<u32> = Vec::new();
        while !self.is_zero() {
            let mut rem = 0u64;
            for limb in self.0.iter_mut().rev() {
                let v = (rem << 32) | u64::from(*limb);
                *limb = (v / 1_000_000_000) as u32;
                rem = v % 1_000_000_000;
            }
            self.trim();
            parts.push(rem as u32);
        }
        let mut out = parts
            .pop()
            .map_or_else(|| "0".to_string(), |p| p.to_string());
        for p in parts.into_iter().rev() {
            let s = p.to_string();
            out.push_str(&"0".repeat(9 - s.len()));
            out.push_str(&s);
        }
        out
    }
}

/// `x` (finite, positive) as `m · 2^e` with an integer `m < 2⁵³`.
fn decompose(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1 << 52) - 1);
    if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), exp - 1075)
    }
}

/// `round(x · 10^s)` for a finite positive `x`, ties to even (or up, with
/// `ties_up`: how the standard library breaks a tie in its shortest form).
fn scaled_as(x: f64, s: i32, ties_up: bool) -> Big {
    let (m, e) = decompose(x);
    if let Some(q) = scaled_small(m, e, s, ties_up) {
        return Big(vec![
            q as u32,
            (q >> 32) as u32,
            (q >> 64) as u32,
            (q >> 96) as u32,
        ])
        .trimmed();
    }
    let mut num = Big::from_u64(m);
    let mut den = Big::from_u64(1);
    if s >= 0 {
        num.mul_pow10(s as u32);
    } else {
        den.mul_pow10(s.unsigned_abs());
    }
    if e >= 0 {
        num.shl(e as u32);
    } else {
        den.shl(e.unsigned_abs());
    }
    let (mut q, r) = num.div_rem(&den);
    // compare 2r with den: above half rounds up, exactly half to even
    let mut twice = r;
    twice.shl(1);
    let up = match twice.cmp(&den) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => ties_up || q.0.first().is_some_and(|l| l & 1 == 1),
        std::cmp::Ordering::Less => false,
    };
    if up {
        q.add_one();
    }
    q
}

/// [`scaled_as`] for `x = m · 2^e` in 128-bit integers, when every
/// intermediate fits (the common case: a number of ordinary magnitude with
/// a few decimals); `None` when one would not.
fn scaled_small(m: u64, e: i32, s: i32, ties_up: bool) -> Option<u128> {
    let ten = |k: u32| 10u128.checked_pow(k);
    let mut num = u128::from(m);
    if s >= 0 {
        num = num.checked_mul(ten(s as u32)?)?;
    }
    if e >= 0 {
        if num.leading_zeros() <= e as u32 {
            return None;
        }
        num <<= e;
    }
    let mut den = if s < 0 { ten(s.unsigned_abs())? } else { 1 };
    if e < 0 {
        if den.leading_zeros() <= e.unsigned_abs() {
            return None;
        }
        den <<= e.unsigned_abs();
    }
    let (q, r) = (num / den, num % den);
    let up = match (2 * r).cmp(&den) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => ties_up || q & 1 == 1,
        std::cmp::Ordering::Less => false,
    };
    Some(q + u128::from(up))
}

/// `round(x · 10^s)`, ties to even.
fn scaled(x: f64, s: i32) -> Big {
    scaled_as(x, s, false)
}

/// `⌊log₁₀ x⌋` for a finite positive `x`, exactly.
fn exp10(x: f64) -> i32 {
    let (m, e) = decompose(x);
    let bits = 64 - m.leading_zeros() as i32 + e - 1; // ⌊log₂ x⌋
                                                      // ⌊bits · log₁₀ 2⌋ (78913 / 2¹⁸ ≈ log₁₀ 2), off by at most one: fix it.
    let mut k = (bits * 78913) >> 18;
    if scaled_floor_ge(x, k + 1) {
        k += 1;
    } else if !scaled_floor_ge(x, k) {
        k -= 1;
    }
    k
}

/// True when `x ≥ 10^k`.
fn scaled_floor_ge(x: f64, k: i32) -> bool {
    if (0..=22).contains(&k) {
        return x >= POW10[k as usize]; // 10^k is an exact double
    }
    let (m, e) = decompose(x);
    let mut lhs = Big::from_u64(m);
    let mut rhs = Big::from_u64(1);
    if e >= 0 {
        lhs.shl(e as u32);
    } else {
        rhs.shl(e.unsigned_abs());
    }
    if k >= 0 {
        rhs.mul_pow10(k as u32);
    } else {
        lhs.mul_pow10(k.unsigned_abs());
    }
    lhs.cmp(&rhs) != std::cmp::Ordering::Less
}

/// `x` (finite, positive) rounded to `k` significant digits (1 ≤ k ≤ 17):
/// the digits as an integer of exactly `k` digits and the power of ten of
/// the first one, `x ≈ D · 10^(exp − k + 1)`.
fn round_sig(x: f64, k: usize) -> (u64, i32) {
    round_sig_as(x, k, false)
}

/// [`round_sig`], ties up with `ties_up`.
fn round_sig_as(x: f64, k: usize, ties_up: bool) -> (u64, i32) {
    let k = k.clamp(1, 17) as i32;
    let mut e10 = exp10(x);
    let d = scaled_as(x, k - 1 - e10, ties_up).to_u64().unwrap_or(0);
    if d >= pow10(k as u32) {
        // 9.99… rounded up to 10.0…: one digit more, drop the last (a zero)
        e10 += 1;
        return (d / 10, e10);
    }
    (d, e10)
}

fn pow10(k: u32) -> u64 {
    let mut p = 1u64;
    for _ in 0..k {
        p *= 10;
    }
    p
}

/// The digits of `d` (no sign), at least `width` of them (zero-padded).
fn digits(d: u64, width: usize) -> String {
    let s = d.to_string();
    if s.len() < width {
        let mut out = "0".repeat(width - s.len());
        out.push_str(&s);
        out
    } else {
        s
    }
}

fn sign(x: f64) -> &'static str {
    if x.is_sign_negative() {
        "-"
    } else {
        ""
    }
}

/// Non-finite values as the standard library writes them.
fn non_finite(x: f64) -> Option<String> {
    if x.is_nan() {
        Some("NaN".into())
    } else if x.is_infinite() {
        Some(format!("{}inf", sign(x)))
    } else {
        None
    }
}

/// `x` with `decimals` digits after the point, as `format!("{x:.decimals$}")`
/// writes it: `fixed(0.125, 2)` = `"0.12"` (a tie, to even), `fixed(-1.5, 0)`
/// = `"-2"`, `fixed(2.0, 3)` = `"2.000"`.
pub fn fixed(x: f64, decimals: usize) -> String {
    if let Some(s) = non_finite(x) {
        return s;
    }
    let a = x.abs();
    let body = if a == 0.0 {
        "0".to_string()
    } else {
        scaled(a, decimals as i32).decimal()
    };
    let body = if body.len() <= decimals {
        format!("{}{body}", "0".repeat(decimals + 1 - body.len()))
    } else {
        body
    };
    let (int, frac) = body.split_at(body.len() - decimals);
    if decimals == 0 {
        format!("{}{int}", sign(x))
    } else {
        format!("{}{int}.{frac}", sign(x))
    }
}

/// `x` in scientific notation with `precision` digits after the point, as
/// `format!("{x:.precision$e}")` writes it: `sci(8053.0, 3)` = `"8.053e3"`,
/// `sci(0.00015, 1)` = `"1.5e-4"`, `sci(0.0, 2)` = `"0.00e0"`. At most 16
/// digits after the point (17 significant), which every `f64` needs at most.
pub fn sci(x: f64, precision: usize) -> String {
    if let Some(s) = non_finite(x) {
        return s;
    }
    let k = precision.min(16) + 1;
    let (d, e10) = if x == 0.0 {
        (0, 0)
    } else {
        round_sig(x.abs(), k)
    };
    let body = digits(d, k);
    let (first, rest) = body.split_at(1);
    let zeros = "0".repeat(precision.saturating_sub(16));
    if precision == 0 {
        format!("{}{first}e{e10}", sign(x))
    } else {
        format!("{}{first}.{rest}{zeros}e{e10}", sign(x))
    }
}

/// The fewest significant digits (1 to 17) that read back as `x` exactly
/// ([`parse`]): `(D, exp)` as in [`round_sig`], trailing zeros removed.
fn shortest_digits(x: f64) -> (u64, i32, usize) {
    for k in 1..=17 {
        let (d, e10) = round_sig_as(x, k, true);
        if from_decimal(d, e10 - k as i32 + 1) == x {
            let (mut d, mut k) = (d, k);
            while k > 1 && d % 10 == 0 {
                d /= 10;
                k -= 1;
            }
            return (d, e10, k);
        }
    }
    let (d, e10) = round_sig(x, 17);
    (d, e10, 17)
}

/// `x` with the fewest digits that read back as `x`, never in scientific
/// notation, as `format!("{x}")` writes it: `shortest(0.1)` = `"0.1"`,
/// `shortest(3.0)` = `"3"`, `shortest(1e-7)` = `"0.0000001"`,
/// `shortest(1e21)` = `"1000000000000000000000"`.
pub fn shortest(x: f64) -> String {
    if let Some(s) = non_finite(x) {
        return s;
    }
    if x == 0.0 {
        return format!("{}0", sign(x));
    }
    let (d, e10, k) = shortest_digits(x.abs());
    let body = d.to_string();
    let k = k as i32;
    let text = if e10 < 0 {
        format!("0.{}{body}", "0".repeat((-e10 - 1) as usize))
    } else if e10 + 1 >= k {
        format!("{body}{}", "0".repeat((e10 + 1 - k) as usize))
    } else {
        let (int, frac) = body.split_at((e10 + 1) as usize);
        format!("{int}.{frac}")
    };
    format!("{}{text}", sign(x))
}

/// `x` with the fewest digits that read back as `x`, in scientific
/// notation, as `format!("{x:e}")` writes it: `shortest_exp(1.0)` = `"1e0"`,
/// `shortest_exp(0.00125)` = `"1.25e-3"`.
pub fn shortest_exp(x: f64) -> String {
    if let Some(s) = non_finite(x) {
        return s;
    }
    if x == 0.0 {
        return format!("{}0e0", sign(x));
    }
    let (d, e10, _) = shortest_digits(x.abs());
    let body = d.to_string();
    let (first, rest) = body.split_at(1);
    if rest.is_empty() {
        format!("{}{first}e{e10}", sign(x))
    } else {
        format!("{}{first}.{rest}e{e10}", sign(x))
    }
}

/// 10⁰ … 10²², exact as doubles.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The `f64` nearest to `d · 10^e` (ties to even), exactly for every `d`
/// below 2⁶⁴; `inf` above the largest finite value, 0 below the smallest
/// subnormal.
fn from_decimal(d: u64, e: i32) -> f64 {
    if d == 0 {
        return 0.0;
    }
    // Clinger's fast path: d and 10^|e| are exact doubles, and one correctly
    // rounded multiplication or division gives the nearest double.
    if d < 1 << 53 && (-22..=22).contains(&e) {
        let p = POW10[e.unsigned_abs() as usize];
        return if e >= 0 { d as f64 * p } else { d as f64 / p };
    }
    if e > 310 {
        return f64::INFINITY;
    }
    if e < -343 {
        return 0.0;
    }
    let mut num = Big::from_u64(d);
    let mut den = Big::from_u64(1);
    if e >= 0 {
        num.mul_pow10(e as u32);
    } else {
        den.mul_pow10(e.unsigned_abs());
    }
    // value = num / den · 2^-shift with a quotient of 55 or 56 bits
    let shift = den.bits() as i32 - num.bits() as i32 + 55;
    if shift >= 0 {
        num.shl(shift as u32);
    } else {
        den.shl(shift.unsigned_abs());
    }
    let (q, r) = num.div_rem(&den);
    let q = q.to_u64().unwrap_or(u64::MAX);
    // the binary exponent of q's top bit, and how many bits a normal or
    // subnormal f64 keeps there
    let qbits = 64 - q.leading_zeros() as i32;
    let top = qbits - 1 - shift; // ⌊log₂ value⌋
    let keep = if top >= -1022 { 53 } else { 53 - (-1022 - top) };
    if keep < 0 {
        return 0.0; // below half the smallest subnormal
    }
    if keep == 0 {
        // between half the smallest subnormal and it: up, unless exactly
        // half (a tie, to the even 0)
        let half = q == 1 << (qbits - 1) && r.is_zero();
        return if half { 0.0 } else { f64::from_bits(1) };
    }
    let drop = qbits - keep;
    let mant = q >> drop;
    let rest = q & ((1u64 << drop) - 1);
    let half = 1u64 << (drop - 1);
    let up = rest > half || (rest == half && (!r.is_zero() || mant & 1 == 1));
    let mant = mant + u64::from(up);
    // mant · 2^(drop − shift), built from its bits
    let mut exp2 = drop - shift;
    let mut mant = mant;
    if mant >> 53 == 1 {
        mant >>= 1;
        exp2 += 1;
    }
    let top = 63 - mant.leading_zeros() as i32 + exp2;
    if top > 1023 {
        return f64::INFINITY;
    }
    if mant >> 52 == 1 && top >= -1022 {
        let bits = (((top + 1023) as u64) << 52) | (mant & ((1 << 52) - 1));
        f64::from_bits(bits)
    } else {
        // subnormal: the bits are the mantissa at 2^-1074
        f64::from_bits(mant << (exp2 + 1074).max(0))
    }
}

/// Parses a decimal number as `str::parse::<f64>` does: an optional sign,
/// digits with an optional point (`1`, `1.`, `.5`), an optional exponent
/// (`e` or `E`, signed), or `inf`, `infinity`, `nan` in any case; no
/// blanks. `None` for anything else. Exact (nearest, ties to even) for up
/// to 18 significant digits; beyond that the 18 first and a sticky last
/// digit stand for the rest, which can be one unit in the last place off
/// when a tie between two `f64`s falls within the dropped digits.
pub fn parse(s: &str) -> Option<f64> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let lower = body.to_ascii_lowercase();
    let v = match lower.as_str() {
        "inf" | "infinity" => f64::INFINITY,
        "nan" => f64::NAN,
        _ => parse_digits(body.as_bytes())?,
    };
    Some(if neg { -v } else { v })
}

fn parse_digits(b: &[u8]) -> Option<f64> {
    let mut d: u64 = 0;
    let mut kept = 0usize; // significant digits kept in d
    let mut dropped = false; // a non-zero digit beyond the 18th
    let mut scale: i64 = 0; // power of ten of d's last digit
    let mut seen = false;
    let mut point = false;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            c @ b'0'..=b'9' => {
                seen = true;
                let v = u64::from(c - b'0');
                if kept < 18 {
                    if d > 0 || v > 0 {
                        kept += 1;
                    }
                    d = d * 10 + v;
                    if point {
                        scale -= 1;
                    }
                } else {
                    dropped |= v > 0;
                    if !point {
                        scale += 1;
                    }
                }
            }
            b'.' if !point => point = true,
            b'e' | b'E' => break,
            _ => return None,
        }
        i += 1;
    }
    if !seen {
        return None;
    }
    if i < b.len() {
        let exp = &b[i + 1..];
        let (neg, digits) = match exp.first() {
            Some(b'-') => (true, &exp[1..]),
            Some(b'+') => (false, &exp[1..]),
            _ => (false, exp),
        };
        if digits.is_empty() {
            return None;
        }
        let mut e: i64 = 0;
        for &c in digits {
            if !c.is_ascii_digit() {
                return None;
            }
            e = (e * 10 + i64::from(c - b'0')).min(100_000);
        }
        scale += if neg { -e } else { e };
    }
    if dropped {
        // a digit beyond the 18th: a sticky 1 in a 19th place
        d = d.saturating_mul(10) + 1;
        scale -= 1;
    }
    let scale = scale.clamp(-100_000, 100_000) as i32;
    Some(from_decimal(d, scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values where rounding, ties and exponent boundaries are tested.
    fn samples() -> Vec<f64> {
        let mut v = vec![
            0.1,
            0.125,
            0.375,
            1.005,
            2.675,
            1.5,
            2.5,
            -1.5,
            9.995,
            99.95,
            999.5,
            0.5,
            1e-7,
            1e21,
            1e22,
            1e23,
            123456.0,
            22.6208,
            8.053e18,
            1e-24,
            5e-324,
            2.2250738585072014e-308,
            1.7976931348623157e308,
            12.5e9,
            8e-11,
            0.08e-9,
            654.72e-6,
            35.875e-3,
            1.0 / 3.0,
            2.0 / 3.0,
            100.0,
            1e15,
            1e16,
            1e17,
            4.35,
            0.045,
            1234.5,
            0.000_012_345,
        ];
        // a deterministic spread of magnitudes and mantissas
        let mut s: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..1500 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let x = f64::from_bits(s >> 1);
            if x.is_finite() {
                v.push(x);
            }
            let y = (s % 1_000_000_007) as f64 / 10f64.powi((s % 23) as i32 - 11);
            v.push(y);
        }
        let neg: Vec<f64> = v.iter().map(|x| -x).collect();
        v.extend(neg);
        v
    }

    #[test]
    fn formats_like_the_standard_library() {
        for x in samples() {
            assert_eq!(shortest(x), format!("{x}"), "{x:e}");
            assert_eq!(shortest_exp(x), format!("{x:e}"), "{x:e}");
            for p in [0, 1, 2, 3, 5, 16] {
                assert_eq!(sci(x, p), format!("{x:.p$e}"), "{x:e} p={p}");
            }
            if x.abs() < 1e15 {
                for d in [0, 1, 2, 3, 4, 6, 9] {
                    assert_eq!(fixed(x, d), format!("{x:.d$}"), "{x:e} d={d}");
                }
            }
        }
        for x in [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN] {
            assert_eq!(shortest(x), format!("{x}"));
            assert_eq!(shortest_exp(x), format!("{x:e}"));
            assert_eq!(fixed(x, 3), format!("{x:.3}"));
            assert_eq!(sci(x, 3), format!("{x:.3e}"));
        }
        // by hand: ties go to even on the exact binary value
        assert_eq!(fixed(0.125, 2), "0.12");
        assert_eq!(fixed(0.375, 2), "0.38");
        assert_eq!(fixed(2.5, 0), "2");
        assert_eq!(fixed(1.005, 2), "1.00"); // 1.00499999999999989…
        assert_eq!(sci(8053.0, 3), "8.053e3");
        assert_eq!(shortest(1e-7), "0.0000001");
    }

    #[test]
    fn parses_like_the_standard_library() {
        for x in samples() {
            for text in [
                format!("{x}"),
                format!("{x:e}"),
                format!("{x:.3}"),
                format!("{x:.5e}"),
            ] {
                let want: f64 = text.parse().expect("std parses");
                assert_eq!(
                    parse(&text).map(f64::to_bits),
                    Some(want.to_bits()),
                    "{text}"
                );
            }
        }
        for text in [
            "1",
            "1.",
            ".5",
            "+2.5",
            "-0",
            "1e5",
            "1E-5",
            "12.5e+9",
            "0.08",
            "inf",
            "-Infinity",
            "0.000000000000000000000000000000000001",
            "123456789012345678901234567890",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1e-400",
            "1e400",
        ] {
            let want: f64 = text.parse().expect("std parses");
            assert_eq!(
                parse(text).map(f64::to_bits),
                Some(want.to_bits()),
                "{text}"
            );
        }
        assert!(parse("nan").is_some_and(f64::is_nan));
        for bad in [
            "", ".", "e5", "1e", "1e+", "1.2.3", " 1", "1 ", "1_000", "0x10", "--1",
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
            assert!(bad.parse::<f64>().is_err(), "{bad:?}");
        }
    }
}
