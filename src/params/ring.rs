//! URL parameters of the `ring` view:
//! `?view=ring&p=4&size=100MB&step=3&bw=12.5GB/s&alpha=0us&mean=1&count=sent`.

use super::fields::{self, Field};
use super::{parse_int_in, FieldError, Query};
use crate::core::units::{parse_size, Bandwidth};

/// The view's panels in the page's order: the names `show=` takes
/// ([`super::embed::Embed`]).
pub const PANELS: &[&str] = &[
    "title",
    "controls",
    "steps",
    "picture",
    "counters",
    "log",
    "check",
    "comparison",
    "clock",
];

/// Largest p that the ring and collectives views draw as a ring of ranks;
/// above it they draw a p × p chunk grid (a ring of 64 boxes of 64 cells is
/// slow to restyle on every step and too small to read).
pub const RING_MAX_P: usize = 32;

/// Largest p drawn as a chunk grid (65 536 cells); above it numbers only.
pub const CHUNK_GRID_MAX_P: usize = 256;

/// Largest p the ring view accepts (numbers only above [`MAX_DRAWN_P`]).
pub const MAX_P: u64 = 1024;
/// Largest p that is drawn and animated.
pub const MAX_DRAWN_P: usize = 64;
/// Bytes per tensor element: the tensor is f32 gradients.
pub const ELEM_BYTES: u64 = 4;

/// Which bytes the per-rank counters add up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Accounting {
    /// Bytes sent only (the usual 2(p−1)/p·n figure).
    #[default]
    Sent,
    /// Bytes sent plus bytes received (twice the above for the ring).
    SentAndReceived,
}

impl Accounting {
    /// URL value: `sent` or `both`.
    pub fn key(self) -> &'static str {
        match self {
            Accounting::Sent => "sent",
            Accounting::SentAndReceived => "both",
        }
    }
}

/// The course's link bandwidth field, "12.5GB/s" (β = 0.08 ns/B).
pub fn course_bw() -> Field<Bandwidth> {
    Field::new(
        "12.5GB/s",
        Bandwidth {
            bytes_per_second: 12.5e9,
            typed_bits: false,
        },
    )
}

/// Parameters of the ring view.
#[derive(Clone, Debug, PartialEq)]
pub struct RingParams {
    /// Number of ranks, 2..=[`MAX_P`].
    pub p: usize,
    /// Tensor size in bytes (a whole number of f32 elements).
    pub size: Field<u64>,
    /// Step shown: 0 = before any round, k = after round k (the mean step,
    /// when on, is the last).
    pub step: usize,
    /// Link bandwidth; β = 1 / bandwidth.
    pub bw: Field<Bandwidth>,
    /// Start-up latency α, seconds.
    pub alpha: Field<f64>,
    /// Show the division by p as an explicit last step.
    pub mean: bool,
    /// Counter convention.
    pub count: Accounting,
}

impl Default for RingParams {
    fn default() -> Self {
        RingParams {
            p: 4,
            size: Field::new("100MB", 100_000_000),
            step: 0,
            bw: course_bw(),
            alpha: Field::new("0us", 0.0),
            mean: false,
            count: Accounting::Sent,
        }
    }
}

/// Parses a tensor size: a positive whole number of f32 elements.
///
/// # Errors
/// A [`FieldError`] for field `size` with the expected form.
pub fn parse_tensor_size(raw: &str) -> Result<Field<u64>, FieldError> {
    let s = parse_size(raw).map_err(|e| FieldError::new("size", e.to_string()))?;
    if s.bytes % ELEM_BYTES != 0 {
        return Err(FieldError::new(
            "size",
            format!(
                "size must be a whole number of 4-byte f32 elements ({} B is not a multiple of 4)",
                s.bytes
            ),
        ));
    }
    if s.bytes > 1_000_000_000_000 {
        return Err(FieldError::new("size", "size must be at most 1 TB"));
    }
    Ok(Field {
        text: raw.trim().to_string(),
        value: s.bytes,
    })
}

/// Mutable access to the link fields `(p, size, bw, alpha)` of a view's
/// parameters.
pub type LinkMut<'a> = (
    &'a mut usize,
    &'a mut Field<u64>,
    &'a mut Field<Bandwidth>,
    &'a mut Field<f64>,
);

/// The link fields shared by the ring and collectives views: `p`, `size`,
/// `bw` and `alpha`.
pub trait LinkFields {
    /// Mutable access to (p, size, bw, α).
    fn link_mut(&mut self) -> LinkMut<'_>;
    /// Clamps the shown step to the schedule after p changed.
    fn clamp_step(&mut self);
}

/// Parses one link field (`p` in `2..=max_p`, `size`, `bw` or `alpha`) from
/// `text` into `params`. Other field names are ignored.
///
/// # Errors
/// A [`FieldError`] for that field; `params` is then unchanged.
pub fn set_link_field(
    params: &mut impl LinkFields,
    field: &str,
    text: &str,
    max_p: u64,
) -> Result<(), FieldError> {
    let (p, size, bw, alpha) = params.link_mut();
    match field {
        "p" => *p = parse_int_in("p", text, 2, max_p)? as usize,
        "size" => *size = parse_tensor_size(text)?,
        "bw" => *bw = fields::bandwidth("bw", text)?,
        "alpha" => *alpha = fields::alpha("alpha", text)?,
        _ => {}
    }
    Ok(())
}

/// Reads every link field present in `q` into `params`, collecting the
/// errors; a bad field keeps its previous value.
pub fn read_link_fields(
    q: &Query,
    params: &mut impl LinkFields,
    max_p: u64,
    errs: &mut Vec<FieldError>,
) {
    for key in ["p", "size", "bw", "alpha"] {
        if let Some(raw) = q.get(key) {
            if let Err(e) = set_link_field(params, key, raw, max_p) {
                errs.push(e);
            }
        }
    }
}

impl LinkFields for RingParams {
    fn link_mut(&mut self) -> LinkMut<'_> {
        (&mut self.p, &mut self.size, &mut self.bw, &mut self.alpha)
    }
    fn clamp_step(&mut self) {
        self.step = self.step.min(self.last_step());
    }
}

impl RingParams {
    /// Number of steps after step 0: `2(p − 1)` rounds, plus 1 for the mean.
    pub fn last_step(&self) -> usize {
        2 * (self.p - 1) + usize::from(self.mean)
    }

    /// Builds the parameters from a query; each bad field keeps its value
    /// from `base` and yields a [`FieldError`].
    pub fn from_query(q: &Query, base: &RingParams) -> (RingParams, Vec<FieldError>) {
        let mut out = base.clone();
        let mut errs = Vec::new();
        read_link_fields(q, &mut out, MAX_P, &mut errs);
        if q.get("mean").is_some() {
            out.mean = q.flag("mean");
        }
        match q.get("count").map(str::to_ascii_lowercase).as_deref() {
            None => {}
            Some("sent") => out.count = Accounting::Sent,
            Some("both" | "sent+received") => out.count = Accounting::SentAndReceived,
            Some(other) => errs.push(FieldError::new(
                "count",
                format!("count must be “sent” or “both” (got “{other}”)"),
            )),
        }
        if let Some(raw) = q.get("step") {
            let last = out.last_step() as u64;
            match parse_int_in("step", raw, 0, last) {
                Ok(v) => out.step = v as usize,
                Err(e) => {
                    errs.push(e);
                    out.step = out.step.min(out.last_step());
                }
            }
        }
        out.step = out.step.min(out.last_step());
        (out, errs)
    }

    /// The canonical query pairs (without `view`).
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut v = vec![
            ("p", self.p.to_string()),
            ("size", self.size.text.clone()),
            ("step", self.step.to_string()),
            ("bw", self.bw.text.clone()),
            ("alpha", self.alpha.text.clone()),
        ];
        if self.mean {
            v.push(("mean", "1".into()));
        }
        if self.count != Accounting::Sent {
            v.push(("count", self.count.key().into()));
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::testing;

    fn parse(s: &str) -> (RingParams, Vec<FieldError>) {
        testing::parse(s)
    }

    #[test]
    fn course_url_parses() {
        let (p, e) = parse("view=ring&p=4&size=100MB&step=3&bw=12.5GB/s&alpha=0us&embed=1");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!((p.p, p.size.value, p.step), (4, 100_000_000, 3));
        assert!((p.bw.value.beta() - 8e-11).abs() < 1e-24);
        assert_eq!(p.last_step(), 6);
    }

    #[test]
    fn link_bandwidth_outside_1_kbps_to_100_pbps_is_refused() {
        for bad in ["bw=1e-300B/s", "bw=1e-9B/s", "bw=1e300B/s", "bw=7999b/s"] {
            let (p, e) = parse(bad);
            assert_eq!(e.len(), 1, "{bad}: {e:?}");
            assert_eq!(e[0].field, "bw");
            assert!(
                e[0].message.contains("between 1 kB/s and 100 PB/s"),
                "{}",
                e[0].message
            );
            assert!(
                (p.bw.value.beta() - 8e-11).abs() < 1e-24,
                "{bad} keeps 12.5 GB/s"
            );
        }
        let (p, e) = parse("bw=1kB/s");
        assert!(e.is_empty(), "{e:?}");
        assert!((p.bw.value.beta() - 1e-3).abs() < 1e-15);
    }

    #[test]
    fn round_trips() {
        let (p, _) = parse("p=7&size=64MiB&step=5&bw=100Gb/s&alpha=5us&mean=1&count=both");
        let again = testing::reparse(&p);
        assert_eq!(p, again);
        assert_eq!(again.count, Accounting::SentAndReceived);
        assert_eq!(again.last_step(), 13);
    }

    #[test]
    fn bad_values_keep_a_valid_state() {
        testing::each_keeps_defaults::<RingParams>(&[
            "p=abc",
            "p=1",
            "p=100000",
            "size=-3MB",
            "size=12parsecs",
            "size=10B",
            "bw=fast",
            "alpha=-1ms",
            "count=x",
        ]);
        let (_, e) = parse("p=abc");
        assert_eq!(e[0].field, "p");
        assert!(e[0].message.contains("from 2 to 1024"));
        let (_, e) = parse("size=12parsecs");
        assert_eq!(e[0].field, "size");
    }

    #[test]
    fn step_is_clamped_to_the_schedule() {
        let (p, e) = parse("p=4&step=99");
        assert_eq!(e.len(), 1);
        assert_eq!(p.step, 0);
        let (p, e) = parse("p=4&step=7&mean=1");
        assert!(e.is_empty());
        assert_eq!(p.step, 7);
    }
}
