//! The field parsers that several views share: a validated text [`Field`],
//! one start-up latency parser ([`alpha`]) and one link bandwidth parser
//! ([`bandwidth`]). Every view's `alpha`, `bw`, `intra_alpha`, `inter_bw`,
//! `core_bw`, … goes through these, so the same text means the same value
//! and gets the same message on every page.

use super::FieldError;
use crate::core::units::{check_link_bandwidth, parse_bandwidth, parse_time, Bandwidth};

/// A validated text field: what was typed and what it means.
#[derive(Clone, Debug, PartialEq)]
pub struct Field<T> {
    /// The accepted text, trimmed (written back to the URL as is).
    pub text: String,
    /// Its parsed value.
    pub value: T,
}

impl<T> Field<T> {
    /// A field typed as `text` meaning `value`.
    pub fn new(text: &str, value: T) -> Self {
        Field {
            text: text.to_string(),
            value,
        }
    }

    /// `raw`, trimmed, meaning `value`.
    fn typed(raw: &str, value: T) -> Self {
        Field {
            text: raw.trim().to_string(),
            value,
        }
    }
}

/// How a message names the field: `α` for `alpha`, nothing for `bw` (the
/// bandwidth parser's own message says "bandwidth"), the URL key otherwise.
fn prefix(name: &str) -> String {
    match name {
        "alpha" => "α: ".into(),
        "bw" => String::new(),
        _ => format!("{name}: "),
    }
}

/// Parses a start-up latency α (`alpha`, `intra_alpha`, `inter_alpha`): a
/// time from 0 to 1 s, e.g. `5us`, `0.5 ms`, `2e-6 s`. Value in seconds.
///
/// # Errors
/// A [`FieldError`] for field `name`: not a time (see
/// [`parse_time`]), negative, or over 1 s.
pub fn alpha(name: &'static str, raw: &str) -> Result<Field<f64>, FieldError> {
    let v = parse_time(raw).map_err(|e| FieldError::new(name, format!("{}{e}", prefix(name))))?;
    if v > 1.0 {
        let who = if name == "alpha" { "α" } else { name };
        return Err(FieldError::new(name, format!("{who} must be at most 1 s")));
    }
    Ok(Field::typed(raw, v))
}

/// Parses a link bandwidth (`bw`, `intra_bw`, `inter_bw`, `core_bw`) in bytes
/// or bits per second with SI or binary prefixes, e.g. `12.5GB/s`,
/// `100Gb/s`; the value keeps whether bits were typed.
///
/// # Errors
/// A [`FieldError`] for field `name`: not a bandwidth (see
/// [`parse_bandwidth`]), or outside
/// [`check_link_bandwidth`]'s
/// range (1 kB/s to 100 PB/s).
pub fn bandwidth(name: &'static str, raw: &str) -> Result<Field<Bandwidth>, FieldError> {
    let b =
        parse_bandwidth(raw).map_err(|e| FieldError::new(name, format!("{}{e}", prefix(name))))?;
    check_link_bandwidth(b.bytes_per_second)
        .map_err(|m| FieldError::new(name, format!("{}{m}", prefix(name))))?;
    Ok(Field::typed(raw, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alpha_reads_microseconds_and_refuses_over_one_second() {
        // 5 µs = 5 × 10⁻⁶ s; 1 s is the largest accepted value.
        let f = alpha("alpha", " 5us ").expect("5us is a time");
        assert_eq!(f.text, "5us");
        assert!((f.value - 5e-6).abs() < 1e-18);
        assert!((alpha("inter_alpha", "1s").expect("1 s is allowed").value - 1.0).abs() < 1e-15);
        let e = alpha("inter_alpha", "2s").expect_err("2 s is over the limit");
        assert_eq!(e.field, "inter_alpha");
        assert_eq!(e.message, "inter_alpha must be at most 1 s");
        assert_eq!(
            alpha("alpha", "2s").expect_err("over").message,
            "α must be at most 1 s"
        );
        assert!(alpha("alpha", "fast")
            .expect_err("not a time")
            .message
            .starts_with("α: "));
    }

    #[test]
    fn bandwidth_reads_bytes_and_bits_and_names_the_field() {
        // 100 Gb/s = 100 × 10⁹ / 8 B/s = 12.5 × 10⁹ B/s.
        let f = bandwidth("inter_bw", "100Gb/s").expect("a bandwidth");
        assert!((f.value.bytes_per_second - 12.5e9).abs() < 1.0);
        assert!(f.value.typed_bits);
        let e = bandwidth("core_bw", "0GB/s").expect_err("zero is refused");
        assert_eq!(e.field, "core_bw");
        assert!(e.message.starts_with("core_bw: "), "{}", e.message);
        assert!(!bandwidth("bw", "x")
            .expect_err("not a bandwidth")
            .message
            .starts_with("bw: "));
    }
}
