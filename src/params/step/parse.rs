//! The step view's own fields: their limits and one parser per field
//! (the kinds of field they share are in [`crate::params::fields`]).

use crate::core::collectives::Algorithm;
use crate::core::sgd::Strategy;
use crate::core::step::failure::Failure;
use crate::core::step::Sharding;
use crate::core::step::{parse_count, Straggler};
use crate::core::units::{parse_size, parse_time};
use crate::params::fields::Field;
use crate::params::FieldError;

/// Largest p.
pub const MAX_P: u64 = 256;
/// Largest number of layers.
pub const MAX_LAYERS: u64 = 1000;
/// Largest bucket cap, 1 TiB.
pub const MAX_CAP: u64 = 1 << 40;
/// Largest step number of `fail` and `ckpt`.
pub const MAX_STEP: u64 = 1_000_000;

fn list(raw: &str) -> Vec<&str> {
    raw.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// Parses `params`: one count or a comma list of counts (at most
/// [`MAX_LAYERS`]).
///
/// # Errors
/// A [`FieldError`] for `params` naming the bad item.
pub fn parse_params(raw: &str) -> Result<Field<Vec<u64>>, FieldError> {
    let items = list(raw);
    if items.is_empty() || items.len() as u64 > MAX_LAYERS {
        return Err(FieldError::new(
            "params",
            format!("params needs 1 to {MAX_LAYERS} parameter counts, e.g. 25M or 1M,4M,1M"),
        ));
    }
    let v = items
        .iter()
        .map(|s| parse_count(s).map_err(|e| FieldError::new("params", format!("params: {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Field {
        text: items.join(","),
        value: v,
    })
}

/// Parses `bwd` (or `fwd` with one item): times of at most 1 h each.
///
/// # Errors
/// A [`FieldError`] for the field.
pub fn parse_times(name: &'static str, raw: &str) -> Result<Field<Vec<f64>>, FieldError> {
    let items = list(raw);
    if items.is_empty() || items.len() as u64 > MAX_LAYERS {
        return Err(FieldError::new(
            name,
            format!("{name} needs a time, or one per layer, e.g. 10ms"),
        ));
    }
    let v = items
        .iter()
        .map(|s| match parse_time(s) {
            Ok(t) if t <= 3600.0 => Ok(t),
            Ok(_) => Err(FieldError::new(name, format!("{name}: at most 1 h"))),
            Err(e) => Err(FieldError::new(name, format!("{name}: {e}"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Field {
        text: items.join(","),
        value: v,
    })
}

/// Parses `alg`: a flat all-reduce of the registry
/// ([`Algorithm::is_flat_all_reduce`]).
///
/// # Errors
/// A [`FieldError`] for `alg` listing the accepted keys.
pub fn parse_alg(raw: &str) -> Result<Algorithm, FieldError> {
    let flat = Algorithm::from_key(raw).filter(|a| a.is_flat_all_reduce());
    flat.ok_or_else(|| {
        let keys: Vec<&str> = Algorithm::compared().iter().map(|a| a.key()).collect();
        FieldError::new(
            "alg",
            format!(
                "alg must be an all-reduce on flat ranks: {} (got “{}”)",
                keys.join(", "),
                raw.trim()
            ),
        )
    })
}

/// Largest K of `optim`, bytes per parameter.
pub const MAX_OPTIM: f64 = 1000.0;

/// Parses `optim`: K, bytes of optimizer state per parameter, a number
/// from 0 to [`MAX_OPTIM`] (12 for mixed-precision Adam; 0 for plain SGD).
///
/// # Errors
/// A [`FieldError`] for `optim`.
pub fn parse_optim(raw: &str) -> Result<Field<f64>, FieldError> {
    let t = raw.trim();
    match crate::core::units::decimal::parse(t).ok_or(()) {
        Ok(k) if (0.0..=MAX_OPTIM).contains(&k) => Ok(Field::new(t, k)),
        _ => Err(FieldError::new(
            "optim",
            format!(
                "optim is K, the bytes of optimizer state per parameter: a number from 0 to 1000, \
                 e.g. 12 for mixed-precision Adam (got “{t}”)"
            ),
        )),
    }
}

/// Parses `mode`: a strategy (`allreduce`, `gossip`, `local`) or a sharded
/// all-reduce SGD (`zero2`, `fsdp`).
///
/// # Errors
/// A [`FieldError`] for `mode` listing the values.
pub fn parse_mode(raw: &str) -> Result<(Strategy, Sharding), FieldError> {
    if let Some(s) = Strategy::parse(raw) {
        return Ok((s, Sharding::Ddp));
    }
    Sharding::parse(raw)
        .map(|z| (Strategy::AllReduce, z))
        .ok_or_else(|| {
            FieldError::new(
                "mode",
                format!(
                    "mode must be ddp (also written allreduce), zero2, fsdp, gossip or local (got “{}”)",
                    raw.trim()
                ),
            )
        })
}

/// Parses a bucket cap: a size (`25MiB`, `100MB`) or a plain number of
/// MiB (DDP's `bucket_cap_mb`), above 0 and at most 1 TiB.
///
/// # Errors
/// A [`FieldError`] for the field.
pub fn parse_cap(name: &'static str, raw: &str) -> Result<Field<u64>, FieldError> {
    let t = raw.trim();
    let bytes = if let Some(mib) = crate::core::units::decimal::parse(t) {
        if mib.is_nan() || mib <= 0.0 || !mib.is_finite() {
            return Err(FieldError::new(
                name,
                format!("{name} must be above 0 (a size like 25MiB, or a number of MiB)"),
            ));
        }
        (mib * 1_048_576.0).round() as u64
    } else {
        parse_size(t)
            .map_err(|e| FieldError::new(name, format!("{name}: {e}")))?
            .bytes
    };
    if bytes == 0 || bytes > MAX_CAP {
        return Err(FieldError::new(
            name,
            format!("{name} must be above 0 B and at most 1 TiB"),
        ));
    }
    Ok(Field::new(t, bytes))
}

/// Parses `straggler=RANK:FACTOR` (`-` or `none`: no straggler).
///
/// # Errors
/// A [`FieldError`] for `straggler`.
pub fn parse_straggler(raw: &str) -> Result<Option<Straggler>, FieldError> {
    let t = raw.trim();
    if t == "-" || t.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let bad = || {
        FieldError::new(
            "straggler",
            format!("straggler must be RANK:FACTOR with 0 < FACTOR ≤ 1, e.g. straggler=3:0.5 (got “{t}”)"),
        )
    };
    let (r, f) = t.split_once(':').ok_or_else(bad)?;
    let rank: usize = r.trim().parse().map_err(|_| bad())?;
    let factor: f64 = crate::core::units::decimal::parse(f.trim()).ok_or_else(bad)?;
    if !(factor > 0.0 && factor <= 1.0) {
        return Err(bad());
    }
    Ok(Some(Straggler { rank, factor }))
}

/// Parses `fail=RANK@STEP` (`-` or `none`: no failure). STEP is a step
/// number from 1, not a time.
///
/// # Errors
/// A [`FieldError`] for `fail`.
pub fn parse_fail(raw: &str) -> Result<Option<Failure>, FieldError> {
    let t = raw.trim();
    if t == "-" || t.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let bad = |why: &str| {
        FieldError::new(
            "fail",
            format!("fail must be RANK@STEP, a rank and a step number from 1 to {MAX_STEP}, e.g. fail=3@25 ({why})"),
        )
    };
    let (r, s) = t.split_once('@').ok_or_else(|| bad("no “@”"))?;
    let rank: usize = r.trim().parse().map_err(|_| bad("not a rank"))?;
    let step: u64 = s
        .trim()
        .parse()
        .map_err(|_| bad("here the part after @ is a step number, not a time"))?;
    if step == 0 || step > MAX_STEP {
        return Err(bad("steps count from 1"));
    }
    Ok(Some(Failure {
        rank,
        step: step as usize,
    }))
}

/// Parses `measured`: a measured step and its exposed communication (the
/// trace view's link carries them from a profiler trace), two times of at
/// most 1 h each, the exposed part no longer than the step, e.g.
/// `57.38ms,1.114ms`.
///
/// # Errors
/// A [`FieldError`] for `measured`.
pub fn parse_measured(raw: &str) -> Result<Field<Vec<f64>>, FieldError> {
    let f = parse_times("measured", raw)?;
    match f.value[..] {
        [step, exposed] if exposed <= step => Ok(f),
        [_, _] => Err(FieldError::new(
            "measured",
            "measured: the exposed communication cannot be longer than the step",
        )),
        _ => Err(FieldError::new(
            "measured",
            "measured needs two times, the step and its exposed communication, e.g. 57.38ms,1.114ms",
        )),
    }
}
