//! URL parameters of the `cost` view:
//! `?view=cost&p=16&alpha=5us&bw=100Gb/s&size=8KiB` (or `beta=0.08ns/B`
//! instead of `bw`), plus optional `gamma=0.01ns/B` (reduction cost per byte),
//! `alg=` one of the compared all-reduces ([`Algorithm::compared`], the
//! registry's flat all-reduces: the algorithm whose algbw/busbw is shown;
//! default: the fastest) and `preset=seed|100gbe|ib400|nvlink`.
//!
//! The protocol layer: `proto=none|mpi|nccl` and its fields
//! ([`super::protocol`]; nothing in the URL without `proto=`).
//!
//! A preset fills in `p`, `alpha` and `bw` first; explicit fields in the same
//! query override it. Every preset is an illustrative round number for a link
//! class, not a measurement of a product.

use super::fields::{self, Field};
use super::protocol::ProtoParams;
use super::{parse_int_in, FieldError, Query};
use crate::core::collectives::Algorithm;
use crate::core::cost::CostParams;
use crate::core::units::{
    check_link_beta, format_beta, parse_beta, parse_size, Bandwidth, ByteSize, Prefix,
};

/// The view's panels in the page's order: the names `show=` takes
/// ([`super::embed::Embed`]).
pub const PANELS: &[&str] = &[
    "title",
    "controls",
    "protocol",
    "nccl-table",
    "nccl-switches",
    "nccl-map",
    "table",
    "calculation",
    "crossovers",
    "bandwidths",
    "size-chart",
    "p-chart",
    "winner-map",
    "all-to-all",
    "assumptions",
];

/// Largest p the cost view accepts.
pub const MAX_P: u64 = 65_536;

/// How the per-byte cost was given.
#[derive(Clone, Debug, PartialEq)]
pub enum Link {
    /// As a bandwidth (`bw=100Gb/s`); β = 1 / bandwidth.
    Bandwidth(Field<Bandwidth>),
    /// Directly as β in seconds per byte (`beta=0.08ns/B`).
    Beta(Field<f64>),
}

impl Link {
    /// β in seconds per byte.
    pub fn beta(&self) -> f64 {
        match self {
            Link::Bandwidth(f) => f.value.beta(),
            Link::Beta(f) => f.value,
        }
    }

    /// The URL key and text: `("bw", "100Gb/s")` or `("beta", "0.08ns/B")`.
    pub fn pair(&self) -> (&'static str, String) {
        match self {
            Link::Bandwidth(f) => ("bw", f.text.clone()),
            Link::Beta(f) => ("beta", f.text.clone()),
        }
    }
}

/// Illustrative parameter sets (round numbers for link classes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// The course's §9 example: 16 workers, α = 5 µs, 100 Gb/s.
    Course,
    /// 100 Gb Ethernet with a kernel-network-stack start-up: 32 ranks, 20 µs.
    Ethernet100,
    /// 400 Gb/s InfiniBand-class fabric: 64 ranks, α = 2 µs.
    InfiniBand400,
    /// NVLink-class intra-node link: 8 GPUs, α = 1 µs, 450 GB/s per direction.
    NvLink,
}

impl Preset {
    /// Every preset, in menu order.
    pub fn all() -> [Preset; 4] {
        [
            Preset::Course,
            Preset::Ethernet100,
            Preset::InfiniBand400,
            Preset::NvLink,
        ]
    }

    /// URL value.
    pub fn key(self) -> &'static str {
        match self {
            Preset::Course => "seed",
            Preset::Ethernet100 => "100gbe",
            Preset::InfiniBand400 => "ib400",
            Preset::NvLink => "nvlink",
        }
    }

    /// Menu label; every label says the values are illustrative.
    pub fn label(self) -> &'static str {
        match self {
            Preset::Course => "Course example: 16 workers, α = 5 µs, 100 Gb/s (illustrative)",
            Preset::Ethernet100 => {
                "100 GbE, TCP-class start-up: 32 ranks, α = 20 µs (illustrative)"
            }
            Preset::InfiniBand400 => "400 Gb/s InfiniBand-class: 64 ranks, α = 2 µs (illustrative)",
            Preset::NvLink => "NVLink-class intra-node: 8 GPUs, α = 1 µs, 450 GB/s (illustrative)",
        }
    }

    /// `(p, alpha text, bw text)` of the preset.
    pub fn values(self) -> (usize, &'static str, &'static str) {
        match self {
            Preset::Course => (16, "5us", "100Gb/s"),
            Preset::Ethernet100 => (32, "20us", "100Gb/s"),
            Preset::InfiniBand400 => (64, "2us", "400Gb/s"),
            Preset::NvLink => (8, "1us", "450GB/s"),
        }
    }

    /// Parses a `preset` URL value (case-insensitive).
    ///
    /// # Errors
    /// A [`FieldError`] for field `preset` listing the valid values.
    pub fn parse(raw: &str) -> Result<Preset, FieldError> {
        let s = raw.trim().to_ascii_lowercase();
        Preset::all()
            .into_iter()
            .find(|p| p.key() == s)
            .ok_or_else(|| {
                FieldError::new(
                    "preset",
                    format!("preset must be one of seed, 100gbe, ib400, nvlink (got “{raw}”)"),
                )
            })
    }
}

/// Parameters of the cost view.
#[derive(Clone, Debug, PartialEq)]
pub struct CostViewParams {
    /// Number of ranks, 2..=[`MAX_P`].
    pub p: usize,
    /// Start-up latency α, seconds (0 ..= 1 s).
    pub alpha: Field<f64>,
    /// The per-byte transfer cost, as a bandwidth or as β.
    pub link: Link,
    /// The chosen message size.
    pub size: Field<ByteSize>,
    /// Reduction cost γ, seconds per byte; `None` means 0 (not in the URL).
    pub gamma: Option<Field<f64>>,
    /// The algorithm whose algbw/busbw is shown; `None` = the fastest.
    pub alg: Option<Algorithm>,
    /// The preset the values came from, if any.
    pub preset: Option<Preset>,
    /// The protocol layer (`proto=`, default none).
    pub proto: ProtoParams,
    /// `cross=rd,ring`: the pair whose crossover the crossovers panel
    /// names first (a practice question's link asks about it).
    pub cross: Option<(Algorithm, Algorithm)>,
}

impl Default for CostViewParams {
    /// The course's §9 example at 8 KiB.
    fn default() -> Self {
        CostViewParams {
            p: 16,
            alpha: Field {
                text: "5us".into(),
                value: 5e-6,
            },
            link: Link::Bandwidth(Field {
                text: "100Gb/s".into(),
                value: Bandwidth {
                    bytes_per_second: 12.5e9,
                    typed_bits: true,
                },
            }),
            size: Field {
                text: "8KiB".into(),
                value: ByteSize {
                    bytes: 8192,
                    prefix: Prefix::Binary,
                },
            },
            gamma: None,
            alg: None,
            preset: None,
            proto: ProtoParams::default(),
            cross: None,
        }
    }
}

fn field<T>(raw: &str, value: T) -> Field<T> {
    Field {
        text: raw.trim().to_string(),
        value,
    }
}

/// Parses `bw`: a positive bandwidth.
///
/// # Errors
/// A [`FieldError`] for field `bw`.
pub fn parse_bw(raw: &str) -> Result<Link, FieldError> {
    Ok(Link::Bandwidth(fields::bandwidth("bw", raw)?))
}

/// Parses `beta` (β) or `gamma` (γ): a positive time per byte for β, a
/// non-negative one for γ, at most 1 s/B.
///
/// # Errors
/// A [`FieldError`] for the field.
pub fn parse_per_byte(
    name: &'static str,
    raw: &str,
    allow_zero: bool,
) -> Result<Field<f64>, FieldError> {
    let sym = if name == "gamma" { "γ" } else { "β" };
    let v = parse_beta(raw).map_err(|e| {
        // The unit messages name β; γ is parsed the same way, so its
        // message names γ instead.
        let msg = if name == "gamma" {
            e.to_string().replace('β', "γ")
        } else {
            e.to_string()
        };
        FieldError::new(name, msg)
    })?;
    if v == 0.0 && !allow_zero {
        return Err(FieldError::new(
            name,
            format!(
                "{sym} must be positive, e.g. 0.08ns/B (got {})",
                format_beta(v)
            ),
        ));
    }
    if v > 1.0 {
        return Err(FieldError::new(
            name,
            format!("{sym} must be at most 1 s/B"),
        ));
    }
    if name == "beta" {
        // β is a link's time per byte: the same bounds as a bandwidth field.
        check_link_beta(v).map_err(|m| FieldError::new(name, m))?;
    }
    Ok(field(raw, v))
}

/// Parses `size`: 1 B to 1 PiB.
///
/// # Errors
/// A [`FieldError`] for field `size`.
pub fn parse_message_size(raw: &str) -> Result<Field<ByteSize>, FieldError> {
    parse_size(raw)
        .map(|s| field(raw, s))
        .map_err(|e| FieldError::new("size", e.to_string()))
}

/// Parses `alg`: one of the compared all-reduce algorithms
/// ([`Algorithm::compared`]: every flat all-reduce of the registry).
///
/// # Errors
/// A [`FieldError`] for field `alg` listing the valid values.
pub fn parse_alg(raw: &str) -> Result<Algorithm, FieldError> {
    Algorithm::from_key(raw)
        .filter(|a| Algorithm::compared().contains(a))
        .ok_or_else(|| {
            let keys: Vec<&str> = Algorithm::compared().iter().map(|a| a.key()).collect();
            FieldError::new(
                "alg",
                format!("alg must be one of {} (got “{raw}”)", keys.join(", ")),
            )
        })
}

/// Parses `cross=A,B`: two different algorithms of the table, by key.
///
/// # Errors
/// A [`FieldError`] on `cross` naming the keys, when either is not one of
/// them, when there are not exactly two, or when they are the same.
pub fn parse_cross(raw: &str) -> Result<(Algorithm, Algorithm), FieldError> {
    let bad = |why: String| FieldError::new("cross", why);
    let parts: Vec<&str> = raw.split(',').map(str::trim).collect();
    let [a, b] = parts.as_slice() else {
        return Err(bad(format!(
            "cross takes two algorithms, e.g. rd,ring (got “{raw}”)"
        )));
    };
    let one = |k: &str| {
        parse_alg(k).map_err(|e| bad(e.message.replacen("alg must", "each of cross must", 1)))
    };
    let (a, b) = (one(a)?, one(b)?);
    if a == b {
        return Err(bad(format!(
            "cross takes two different algorithms (got “{raw}”)"
        )));
    }
    Ok((a, b))
}

impl CostViewParams {
    /// The model constants α, β, γ for [`crate::core::cost`].
    pub fn model(&self) -> CostParams {
        CostParams::new(self.alpha.value, self.link.beta())
            .with_gamma(self.gamma.as_ref().map_or(0.0, |g| g.value))
    }

    /// The chosen size in bytes, as `f64` for the cost formulas.
    pub fn n_bytes(&self) -> f64 {
        self.size.value.bytes as f64
    }

    /// Applies a preset's `p`, `alpha` and `bw` (and records it).
    pub fn apply_preset(&mut self, preset: Preset) {
        let (p, alpha, bw) = preset.values();
        self.p = p;
        if let Ok(a) = fields::alpha("alpha", alpha) {
            self.alpha = a;
        }
        if let Ok(l) = parse_bw(bw) {
            self.link = l;
        }
        self.preset = Some(preset);
    }

    /// Builds the parameters from a query; each bad field keeps its value from
    /// `base` and yields a [`FieldError`]. `preset` is applied first, then the
    /// explicit fields. Giving both `bw` and `beta` keeps `bw` and reports it.
    pub fn from_query(q: &Query, base: &CostViewParams) -> (CostViewParams, Vec<FieldError>) {
        let mut out = base.clone();
        let mut errs = Vec::new();
        if let Some(raw) = q.get("preset") {
            match Preset::parse(raw) {
                Ok(pr) => out.apply_preset(pr),
                Err(e) => errs.push(e),
            }
        }
        if let Some(raw) = q.get("p") {
            match parse_int_in("p", raw, 2, MAX_P) {
                Ok(v) => out.p = v as usize,
                Err(e) => errs.push(e),
            }
        }
        if let Some(raw) = q.get("alpha") {
            match fields::alpha("alpha", raw) {
                Ok(v) => out.alpha = v,
                Err(e) => errs.push(e),
            }
        }
        match (q.get("bw"), q.get("beta")) {
            (Some(raw), beta) => {
                match parse_bw(raw) {
                    Ok(v) => out.link = v,
                    Err(e) => errs.push(e),
                }
                if beta.is_some() {
                    errs.push(FieldError::new(
                        "beta",
                        "give either bw or beta, not both (bw is used)",
                    ));
                }
            }
            (None, Some(raw)) => match parse_per_byte("beta", raw, false) {
                Ok(v) => out.link = Link::Beta(v),
                Err(e) => errs.push(e),
            },
            (None, None) => {}
        }
        if let Some(raw) = q.get("size") {
            match parse_message_size(raw) {
                Ok(v) => out.size = v,
                Err(e) => errs.push(e),
            }
        }
        if let Some(raw) = q.get("gamma") {
            match parse_per_byte("gamma", raw, true) {
                Ok(v) => out.gamma = if v.value == 0.0 { None } else { Some(v) },
                Err(e) => errs.push(e),
            }
        }
        if let Some(raw) = q.get("alg") {
            match parse_alg(raw) {
                Ok(a) => out.alg = Some(a),
                Err(e) => errs.push(e),
            }
        }
        if let Some(raw) = q.get("cross") {
            match parse_cross(raw) {
                Ok(pair) => out.cross = Some(pair),
                Err(e) => errs.push(e),
            }
        }
        let p = out.p;
        out.proto.read(q, p, &mut errs);
        (out, errs)
    }

    /// The canonical query pairs (without `view`).
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut v = Vec::new();
        if let Some(pr) = self.preset {
            v.push(("preset", pr.key().to_string()));
        }
        v.push(("p", self.p.to_string()));
        v.push(("alpha", self.alpha.text.clone()));
        v.push(self.link.pair());
        v.push(("size", self.size.text.clone()));
        if let Some(g) = &self.gamma {
            v.push(("gamma", g.text.clone()));
        }
        if let Some(a) = self.alg {
            v.push(("alg", a.key().to_string()));
        }
        if let Some((a, b)) = self.cross {
            v.push(("cross", format!("{},{}", a.key(), b.key())));
        }
        self.proto.pairs(&mut v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::encode;

    fn parse(s: &str) -> (CostViewParams, Vec<FieldError>) {
        CostViewParams::from_query(&Query::parse(s), &CostViewParams::default())
    }

    fn round_trip(p: &CostViewParams) -> CostViewParams {
        CostViewParams::from_query(
            &Query::parse(&encode(&p.to_pairs())),
            &CostViewParams::default(),
        )
        .0
    }

    #[test]
    fn issue_url_parses_to_the_course_example() {
        let (p, e) = parse("view=cost&p=16&alpha=5us&bw=100Gb/s&size=8KiB");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(p, CostViewParams::default());
        let m = p.model();
        assert_eq!(m.alpha, 5e-6);
        // 100 Gb/s = 12.5 GB/s → β = 0.08 ns/B.
        assert!((m.beta - 8e-11).abs() < 1e-24);
        assert_eq!(m.gamma, 0.0);
        assert_eq!(p.n_bytes(), 8192.0);
    }

    #[test]
    fn bw_and_beta_give_the_same_beta() {
        let (a, e1) = parse("bw=100Gb/s");
        let (b, e2) = parse("bw=12.5GB/s");
        let (c, e3) = parse("beta=0.08ns/B");
        assert!(e1.is_empty() && e2.is_empty() && e3.is_empty());
        assert!((a.link.beta() - b.link.beta()).abs() < 1e-24);
        assert!((a.link.beta() - c.link.beta()).abs() < 1e-24);
        assert_eq!(c.link.pair(), ("beta", "0.08ns/B".to_string()));
    }

    #[test]
    fn round_trips() {
        for s in [
            "p=1024&alpha=5us&bw=100Gb/s&size=64MiB",
            "p=12&alpha=2ms&beta=0.5ns/B&size=100MB&gamma=0.01ns/B&alg=rab",
            "preset=nvlink&size=1GiB",
            "preset=ib400&p=128",
            "p=8&alpha=1us&bw=450GB/s&size=64KiB&proto=nccl&nccl_ver=2.30&ch=12&intra=20GB/s&inter=20GB/s&netlat=0us&nodes=1&cc=80&link=nvl",
            "p=2&alpha=1us&bw=4GB/s&size=4KiB&proto=mpi&eager=4KiB",
        ] {
            let (p, e) = parse(s);
            assert!(e.is_empty(), "{s}: {e:?}");
            assert_eq!(round_trip(&p), p, "{s}");
        }
        let (p, _) = parse("p=12&beta=0.5ns/B&gamma=0.01ns/B&alg=rab");
        assert_eq!(p.alg, Some(Algorithm::RAB));
        assert!((p.model().gamma - 1e-11).abs() < 1e-24);
        assert!((p.model().beta - 5e-10).abs() < 1e-24);
    }

    #[test]
    fn a_bad_gamma_names_gamma() {
        // γ is read like β (a time per byte); its message must name γ only.
        let e = parse_per_byte("gamma", "5", true).expect_err("no unit");
        assert_eq!(e.field, "gamma");
        assert!(e.message.starts_with("γ "), "{}", e.message);
        assert!(!e.message.contains('β'), "{}", e.message);
        let e = parse_per_byte("beta", "5", false).expect_err("no unit");
        assert!(e.message.starts_with("β "), "{}", e.message);
    }

    #[test]
    fn presets_fill_in_and_fields_override() {
        let (p, e) = parse("preset=ib400&p=128");
        assert!(e.is_empty());
        assert_eq!(p.p, 128);
        assert_eq!(p.alpha.value, 2e-6);
        // 400 Gb/s = 50 GB/s → β = 0.02 ns/B.
        assert!((p.link.beta() - 2e-11).abs() < 1e-24);
        let (p, _) = parse("preset=seed");
        assert_eq!((p.p, p.alpha.value), (16, 5e-6));
        assert!((p.link.beta() - 8e-11).abs() < 1e-24);
        let (p, _) = parse("preset=nvlink");
        assert_eq!(p.p, 8);
        assert!((p.link.beta() - 1.0 / 450e9).abs() < 1e-24);
        for pr in Preset::all() {
            assert!(pr.label().contains("illustrative"));
            assert_eq!(Preset::parse(pr.key()), Ok(pr));
        }
    }

    #[test]
    fn bad_values_keep_the_defaults_with_messages() {
        for (bad, field) in [
            ("p=abc", "p"),
            ("p=1", "p"),
            ("p=100000", "p"),
            ("size=12parsecs", "size"),
            ("size=0B", "size"),
            ("bw=-1GB/s", "bw"),
            ("bw=12.5GB", "bw"),
            ("alpha=5", "alpha"),
            ("alpha=2s", "alpha"),
            ("beta=0ns/B", "beta"),
            ("gamma=fast", "gamma"),
            ("alg=best", "alg"),
            ("preset=dialup", "preset"),
        ] {
            let (p, e) = parse(bad);
            assert_eq!(e.len(), 1, "{bad} should give one error: {e:?}");
            assert_eq!(e[0].field, field, "{bad}");
            assert!(!e[0].message.is_empty());
            assert_eq!(
                p,
                CostViewParams::default(),
                "{bad} should keep the defaults"
            );
        }
        let (_, e) = parse("p=abc");
        assert!(e[0].message.contains("from 2 to 65536"), "{}", e[0].message);
        let (_, e) = parse("size=12parsecs");
        assert!(e[0].message.contains("parsecs"), "{}", e[0].message);
        let (_, e) = parse("bw=-1GB/s");
        assert!(e[0].message.starts_with("bandwidth"), "{}", e[0].message);
        // One bad field does not spoil the good ones.
        let (p, e) = parse("p=abc&size=64MiB");
        assert_eq!(e.len(), 1);
        assert_eq!(p.size.value.bytes, 67_108_864);
        // Both bw and beta: bw wins, with a message.
        let (p, e) = parse("bw=400Gb/s&beta=1ns/B");
        assert_eq!(e.len(), 1);
        assert!((p.link.beta() - 2e-11).abs() < 1e-24);
    }

    #[test]
    fn bandwidth_and_beta_outside_1_kbps_to_100_pbps_are_refused() {
        for (bad, field) in [
            ("bw=1e-300B/s", "bw"),
            ("bw=1e-9B/s", "bw"),
            ("bw=999B/s", "bw"),
            ("bw=1e300B/s", "bw"),
            ("bw=100.1e15B/s", "bw"),
            ("beta=1e-300ns/B", "beta"),
            ("beta=2ms/B", "beta"),
            ("beta=0.5s/B", "beta"),
            ("beta=1e-9ps/B", "beta"),
        ] {
            let (p, e) = parse(bad);
            assert_eq!(e.len(), 1, "{bad}: {e:?}");
            assert_eq!(e[0].field, field, "{bad}");
            assert!(
                e[0].message.contains("1 kB/s") && e[0].message.contains("100 PB/s"),
                "{bad}: {}",
                e[0].message
            );
            assert_eq!(
                p,
                CostViewParams::default(),
                "{bad} keeps the last good state"
            );
        }
        let (_, e) = parse("bw=1e-300B/s");
        assert_eq!(
            e[0].message,
            "bandwidth must be between 1 kB/s and 100 PB/s (got 1e-300 B/s)"
        );
        // The bounds themselves are accepted: 1 kB/s → β = 1 ms/B, 100 PB/s → 1e-17 s/B.
        for ok in [
            "bw=1kB/s",
            "bw=8kb/s",
            "bw=100000TB/s",
            "beta=1ms/B",
            "beta=1e-8ns/B",
        ] {
            let (_, e) = parse(ok);
            assert!(e.is_empty(), "{ok}: {e:?}");
        }
        let (p, _) = parse("bw=1kB/s");
        assert!((p.link.beta() - 1e-3).abs() < 1e-15);
    }
}
