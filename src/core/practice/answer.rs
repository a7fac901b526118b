//! Reading a typed answer: a number with an optional unit.
//!
//! The unit is recognised by the parsers of [`crate::core::units`] (each is
//! asked about "1 `<unit>`"), so practice accepts exactly the units the rest of
//! the app accepts: sizes (`B`, `kB`, `MB`, `GB`, `KiB`, `MiB`, `GiB`, and bit
//! units such as `Mb`, converted at 8 bits per byte), times (`s`, `ms`, `µs`,
//! `us`, `ns`) and bandwidths (`GB/s`, `Gb/s`, …). Unlike a message size, an
//! answer need not be a whole number of bytes: `106.8 MiB` is accepted.

use std::fmt;

use crate::core::units::{parse_bandwidth, parse_size, parse_time, UnitError};

/// The kind of quantity an answer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A plain number: a count (rounds, exchanges) or a dimensionless value
    /// (a loss, ρ, a model value).
    Number,
    /// Bytes.
    Size,
    /// Seconds.
    Time,
    /// Bytes per second.
    Bandwidth,
}

impl Kind {
    /// "a size", "a time", …
    pub fn with_article(self) -> &'static str {
        match self {
            Kind::Number => "a plain number",
            Kind::Size => "a size",
            Kind::Time => "a time",
            Kind::Bandwidth => "a bandwidth",
        }
    }

    /// An example answer of this kind.
    pub fn example(self) -> &'static str {
        match self {
            Kind::Number => "14 or 0.36",
            Kind::Size => "112 MB, 0.112 GB or 106.8 MiB",
            Kind::Time => "22.62 µs or 10.11 ms",
            Kind::Bandwidth => "12.5 GB/s or 100 Gb/s",
        }
    }
}

/// A parsed answer: its value in base units (bytes, seconds, bytes per
/// second, or the plain number) and its kind; `kind` is `None` for a bare
/// number, which is read in the unit the question names.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Parsed {
    /// Value in base units (or the bare number as typed).
    pub value: f64,
    /// Kind of the unit typed; `None` when no unit was typed.
    pub kind: Option<Kind>,
}

/// Why an answer could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnswerError {
    /// Nothing typed.
    Empty,
    /// The answer does not start with a number.
    NotANumber(String),
    /// A unit that none of the unit parsers knows.
    UnknownUnit(String),
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnswerError::Empty => f.write_str("Type a number first, with a unit if it has one."),
            AnswerError::NotANumber(t) => write!(
                f,
                "“{t}” does not start with a number: type e.g. 14, 0.36 or 112 MB."
            ),
            AnswerError::UnknownUnit(u) => write!(
                f,
                "“{u}” is not a unit this page knows: use B, kB, MB, GB, KiB, MiB, GiB; \
                 s, ms, µs, ns; or GB/s, Gb/s."
            ),
        }
    }
}

impl std::error::Error for AnswerError {}

/// Words accepted after a count ("14 rounds").
const COUNT_WORDS: [&str; 8] = [
    "round",
    "rounds",
    "exchange",
    "exchanges",
    "step",
    "steps",
    "start-ups",
    "startups",
];

/// Removes thousands separators: `112,000,000` and `112 000 000` become
/// `112000000`. A single comma not followed by exactly three digits is a
/// decimal comma (`0,36`).
fn normalise(s: &str) -> String {
    let t: String = s
        .trim()
        .trim_start_matches(['≈', '~', '='])
        .trim()
        .chars()
        .filter(|c| *c != '_' && *c != '\u{202f}' && *c != '\u{2009}')
        .map(|c| if c == '\u{2212}' { '-' } else { c })
        .collect();
    // Spaces between digit groups of three.
    let mut out = String::with_capacity(t.len());
    let chars: Vec<char> = t.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let prev_digit = i > 0 && chars.get(i - 1).is_some_and(char::is_ascii_digit);
            let next3 = chars
                .get(i + 1..i + 4)
                .is_some_and(|w| w.iter().all(char::is_ascii_digit))
                && !chars.get(i + 4).is_some_and(char::is_ascii_digit);
            if prev_digit && next3 {
                continue;
            }
        }
        out.push(c);
    }
    let commas = out.matches(',').count();
    if commas == 0 {
        return out;
    }
    let groups_of_three = out
        .split(',')
        .skip(1)
        .all(|g| g.chars().take_while(char::is_ascii_digit).count() == 3);
    if groups_of_three {
        out.replace(',', "")
    } else if commas == 1 {
        out.replace(',', ".")
    } else {
        out
    }
}

/// Splits a leading decimal number (`[+-]digits[.digits][e[+-]digits]`) from
/// the rest. Only ASCII is consumed, so the split is on a char boundary.
fn split_number(t: &str) -> (&str, &str) {
    let b = t.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i = 1;
    }
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if b.get(j).is_some_and(u8::is_ascii_digit) {
            while b.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            i = j;
        }
    }
    (&t[..i], t[i..].trim())
}

/// The kind and base-unit factor of `unit`, asked of the unit parsers.
fn unit_factor(unit: &str) -> Option<(Kind, f64)> {
    if COUNT_WORDS.iter().any(|w| unit.eq_ignore_ascii_case(w)) {
        return Some((Kind::Number, 1.0));
    }
    let one = format!("1{unit}");
    match parse_size(&one) {
        Ok(b) => return Some((Kind::Size, b.bytes as f64)),
        Err(UnitError::BitsNotBytes { .. }) => {
            // A size in bits (Mb, Gbit): the rate parser knows bit prefixes.
            if let Ok(bw) = parse_bandwidth(&format!("{one}/s")) {
                return Some((Kind::Size, bw.bytes_per_second));
            }
        }
        Err(_) => {}
    }
    if let Ok(t) = parse_time(&one) {
        return Some((Kind::Time, t));
    }
    if let Ok(bw) = parse_bandwidth(&one) {
        return Some((Kind::Bandwidth, bw.bytes_per_second));
    }
    None
}

/// Parses an answer such as `0.36`, `14 rounds`, `112 MB`, `0.112GB`,
/// `112,000,000 B`, `106.8 MiB`, `22.6 µs` or `12.5 GB/s`.
///
/// # Errors
/// [`AnswerError::Empty`], [`AnswerError::NotANumber`] (no leading number,
/// or a number that is not finite) and [`AnswerError::UnknownUnit`].
pub fn parse_answer(s: &str) -> Result<Parsed, AnswerError> {
    let t = normalise(s);
    if t.is_empty() {
        return Err(AnswerError::Empty);
    }
    let (num, unit) = split_number(&t);
    if !num.bytes().any(|c| c.is_ascii_digit()) {
        return Err(AnswerError::NotANumber(t.clone()));
    }
    let v: f64 = crate::core::units::decimal::parse(num)
        .ok_or_else(|| AnswerError::NotANumber(t.clone()))?;
    if !v.is_finite() {
        return Err(AnswerError::NotANumber(t.clone()));
    }
    if unit.is_empty() {
        return Ok(Parsed {
            value: v,
            kind: None,
        });
    }
    let (kind, factor) = unit_factor(unit).ok_or_else(|| AnswerError::UnknownUnit(unit.into()))?;
    let value = v * factor;
    if !value.is_finite() {
        return Err(AnswerError::NotANumber(t.clone()));
    }
    Ok(Parsed {
        value,
        kind: Some(kind),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(s: &str) -> f64 {
        let p = parse_answer(s).expect("parses");
        assert_eq!(p.kind, Some(Kind::Size), "{s}");
        p.value
    }

    #[test]
    fn the_four_forms_of_112_mb() {
        assert_eq!(size("112 MB"), 112e6);
        assert_eq!(size("0.112 GB"), 112e6);
        assert_eq!(size("112000000 B"), 112e6);
        assert_eq!(size("112,000,000 B"), 112e6);
        assert_eq!(size("112 000 000 B"), 112e6);
        let mib = size("106.8 MiB");
        assert!((mib / 112e6 - 1.0).abs() < 0.005, "{mib}");
        assert_eq!(size("896 Mb"), 112e6);
    }

    #[test]
    fn kinds_and_bare_numbers() {
        assert_eq!(
            parse_answer("0.36"),
            Ok(Parsed {
                value: 0.36,
                kind: None
            })
        );
        assert_eq!(parse_answer("0,36").map(|p| p.value), Ok(0.36));
        assert_eq!(parse_answer("\u{2212}2.5").map(|p| p.value), Ok(-2.5));
        assert_eq!(
            parse_answer("14 rounds").map(|p| p.kind),
            Ok(Some(Kind::Number))
        );
        let t = parse_answer("22.62 µs").expect("time");
        assert_eq!(t.kind, Some(Kind::Time));
        assert!((t.value - 22.62e-6).abs() < 1e-15);
        let b = parse_answer("100 Gb/s").expect("bandwidth");
        assert_eq!(b.kind, Some(Kind::Bandwidth));
        assert_eq!(b.value, 12.5e9);
    }

    #[test]
    fn errors_say_what_is_expected() {
        assert_eq!(parse_answer("  "), Err(AnswerError::Empty));
        assert!(matches!(
            parse_answer("abc"),
            Err(AnswerError::NotANumber(_))
        ));
        assert!(matches!(
            parse_answer("inf"),
            Err(AnswerError::NotANumber(_))
        ));
        assert!(matches!(
            parse_answer("12 parsecs"),
            Err(AnswerError::UnknownUnit(u)) if u == "parsecs"
        ));
        assert!(parse_answer("1e999 MB").is_err());
        assert!(AnswerError::Empty.to_string().contains("number"));
    }
}
