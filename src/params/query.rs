//! The query string and its errors, shared by every view's parameters:
//! [`Query`] (lower-cased keys, last value wins), the [`ViewParams`] trait,
//! [`encode`] (`application/x-www-form-urlencoded`, via `form_urlencoded`),
//! [`FieldError`] and the integer parser.
//!
//! A leaf of `params`: each view's module reads these, and `params/mod.rs`
//! re-exports them, so `crate::params::Query` names the same type.

/// The parsed query: lower-case key → raw value (last one wins).
///
/// A list of pairs with unique keys, in the order first seen: a query holds
/// a dozen keys, so a scan is as fast as a map, and a page links no map
/// type of its own for it (smaller wasm binaries).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query(Vec<(String, String)>);

impl Query {
    /// Parses `a=1&b=x` (with or without a leading `?`): `+` is a space,
    /// `%XX` a byte, and bytes that are not UTF-8 become U+FFFD. Never fails.
    pub fn parse(search: &str) -> Self {
        let s = search.strip_prefix('?').unwrap_or(search);
        Query::from_pairs(form_urlencoded::parse(s.as_bytes()).into_owned())
    }

    /// The query of `pairs`, keys lower-cased and values trimmed; a later
    /// value of a key replaces an earlier one.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (String, String)>) -> Self {
        let mut q = Query::default();
        for (k, v) in pairs {
            q.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
        }
        q
    }

    /// Sets `key` to `value` (replacing its value when present).
    pub fn insert(&mut self, key: String, value: String) {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some(pair) => pair.1 = value,
            None => self.0.push((key, value)),
        }
    }

    /// True when the query has no key.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The raw value of `key`, if present and non-empty.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }

    /// True when `key` is `1`, `true` or `yes`.
    pub fn flag(&self, key: &str) -> bool {
        matches!(
            self.get(key).map(str::to_ascii_lowercase).as_deref(),
            Some("1" | "true" | "yes" | "on")
        )
    }
}

/// What every view's parameters provide: reading from a query field by
/// field (a bad field keeps its value from `base` and yields a
/// [`FieldError`]) and the canonical pairs written back to the URL.
pub trait ViewParams: Sized + Clone + PartialEq + Default + 'static {
    /// Builds the parameters from `q`, starting from `base`.
    fn from_query(q: &Query, base: &Self) -> (Self, Vec<FieldError>);
    /// The canonical query pairs (without `view`).
    fn to_pairs(&self) -> Vec<(&'static str, String)>;
}

/// Encodes pairs as a query string (without the leading `?`), as
/// `application/x-www-form-urlencoded`: a space is `+`, bytes other than
/// ASCII letters, digits and `*-._` are `%XX`.
pub fn encode(pairs: &[(&str, String)]) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs.iter().map(|(k, v)| (*k, v.as_str())))
        .finish()
}

/// A parameter that could not be used, with the message shown next to its field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The URL key / field name, e.g. "p".
    pub field: &'static str,
    /// What was wrong and what is expected.
    pub message: String,
}

impl FieldError {
    /// Builds an error for `field`.
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        FieldError {
            field,
            message: message.into(),
        }
    }
}

/// Parses an integer in `lo..=hi` for field `name`.
///
/// # Errors
/// A [`FieldError`] naming the field and the allowed range.
pub fn parse_int_in(name: &'static str, raw: &str, lo: u64, hi: u64) -> Result<u64, FieldError> {
    let v: u64 = raw.trim().parse().map_err(|_| {
        FieldError::new(
            name,
            format!("{name} must be a whole number from {lo} to {hi} (got “{raw}”)"),
        )
    })?;
    if v < lo || v > hi {
        return Err(FieldError::new(
            name,
            format!("{name} must be from {lo} to {hi} (got {v})"),
        ));
    }
    Ok(v)
}

/// Helpers shared by every view's parameter tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::{encode, FieldError, Query, ViewParams};

    /// The parameters of query `s` read on `T`'s defaults, and the errors.
    pub fn parse<T: ViewParams>(s: &str) -> (T, Vec<FieldError>) {
        T::from_query(&Query::parse(s), &T::default())
    }

    /// `p` written to its canonical query and read back on the defaults.
    pub fn reparse<T: ViewParams>(p: &T) -> T {
        parse::<T>(&encode(&p.to_pairs())).0
    }

    /// Each query of `bad` gives exactly one error and keeps the defaults.
    pub fn each_keeps_defaults<T: ViewParams + std::fmt::Debug>(bad: &[&str]) {
        for q in bad {
            let (p, e) = parse::<T>(q);
            assert_eq!(e.len(), 1, "{q} should give one error: {e:?}");
            assert_eq!(p, T::default(), "{q} should keep the defaults");
        }
    }
}
