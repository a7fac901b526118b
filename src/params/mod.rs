//! View parameters and their URL query form: the embedding API.
//!
//! The query string is parsed with `form_urlencoded` into a [`Query`] (keys
//! lower-cased). Each view has its own typed `Params` built field by field:
//! a bad field yields a [`FieldError`] with a message for the inline display and
//! the field keeps its previous (or default) value, so a bad URL never blanks
//! the page. `to_pairs` writes the canonical form back, and parsing that form
//! gives the same `Params` (round-trip tests in each module).

pub mod collectives;
pub mod cost;
pub mod embed;
pub mod fields;
pub mod gossip;
pub mod hang;
pub mod measure;
pub mod practice;
pub mod protocol;
pub mod query;
pub mod ring;
pub mod sgd;
pub mod step;
pub mod timeline;
pub mod topology;
pub mod trace;

#[cfg(test)]
pub(crate) use query::testing;
pub use query::{encode, parse_int_in, FieldError, Query, ViewParams};

macro_rules! view_params {
    ($($t:ty),*) => {$(
        impl ViewParams for $t {
            fn from_query(q: &Query, base: &Self) -> (Self, Vec<FieldError>) {
                <$t>::from_query(q, base)
            }
            fn to_pairs(&self) -> Vec<(&'static str, String)> {
                <$t>::to_pairs(self)
            }
        }
    )*};
}

view_params!(
    ring::RingParams,
    collectives::CollectivesParams,
    cost::CostViewParams,
    gossip::GossipParams,
    sgd::SgdParams,
    practice::PracticeParams,
    topology::TopologyParams,
    timeline::TimelineParams,
    trace::TraceParams,
    step::StepParams
);
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_lowercases_keys() {
        let q = Query::parse("?View=ring&p=4&size=100MB&embed=1");
        assert_eq!(q.get("view"), Some("ring"));
        assert_eq!(q.get("size"), Some("100MB"));
        assert!(q.flag("embed"));
        assert_eq!(q.get("missing"), None);
    }

    #[test]
    fn int_errors_name_the_range() {
        assert_eq!(parse_int_in("p", "8", 2, 1024), Ok(8));
        let e = parse_int_in("p", "abc", 2, 1024).expect_err("not a number");
        assert!(e.message.contains("from 2 to 1024"));
        assert!(parse_int_in("p", "1", 2, 1024).is_err());
        assert!(parse_int_in("p", "100000", 2, 1024).is_err());
    }

    #[test]
    fn view_params_trait_uses_each_views_parser() {
        let q = Query::parse("p=8&size=64MB");
        let via_trait = <ring::RingParams as ViewParams>::from_query(&q, &Default::default());
        assert_eq!(via_trait.0.p, 8);
        assert_eq!(
            via_trait,
            ring::RingParams::from_query(&q, &Default::default())
        );
        assert_eq!(ViewParams::to_pairs(&via_trait.0), via_trait.0.to_pairs());
    }

    #[test]
    fn encode_escapes() {
        assert_eq!(encode(&[("bw", "12.5GB/s".into())]), "bw=12.5GB%2Fs");
        assert_eq!(Query::parse("bw=12.5GB%2Fs").get("bw"), Some("12.5GB/s"));
    }
}
