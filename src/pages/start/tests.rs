use super::*;
use crate::params::{
    collectives::CollectivesParams, cost::CostViewParams, gossip::GossipParams,
    practice::PracticeParams, ring::RingParams, sgd::SgdParams, timeline::TimelineParams,
    topology::TopologyParams, FieldError, Query, ViewParams,
};

/// The case parsed by its view's own parser: its errors and its canonical
/// pairs.
fn parse(stop: &Stop) -> (Vec<FieldError>, Vec<(&'static str, String)>) {
    fn with<P: ViewParams + Default>(q: &Query) -> (Vec<FieldError>, Vec<(&'static str, String)>) {
        let (p, errs) = P::from_query(q, &P::default());
        (errs, p.to_pairs())
    }
    let q = Query::parse(stop.case);
    match stop.view {
        "sgd" => with::<SgdParams>(&q),
        "gossip" => with::<GossipParams>(&q),
        "ring" => with::<RingParams>(&q),
        "cost" => with::<CostViewParams>(&q),
        "collectives" => with::<CollectivesParams>(&q),
        "topology" => with::<TopologyParams>(&q),
        "timeline" => with::<TimelineParams>(&q),
        "practice" => with::<PracticeParams>(&q),
        other => panic!("the path names a view with no parser here: {other}"),
    }
}

#[test]
fn every_case_parses_without_error_in_its_canonical_form() {
    for stop in PATH {
        let (errs, canonical) = parse(stop);
        assert!(errs.is_empty(), "{}: {errs:?}", stop.section);
        // Every pair of the case is one the view writes back, unchanged:
        // the page the link opens keeps the link's address.
        for (k, v) in form_urlencoded::parse(stop.case.as_bytes()) {
            assert!(
                canonical.iter().any(|(ck, cv)| *ck == k && *cv == v),
                "{}: {k}={v} is not canonical ({canonical:?})",
                stop.section
            );
        }
    }
}

#[test]
fn the_path_follows_the_chapter_and_asks_each_question_once() {
    let numbers: Vec<u8> = PATH.iter().map(|s| s.chapter).collect();
    assert_eq!(numbers, (1..=12).collect::<Vec<_>>());
    assert_eq!(PATH[5].section, "Ring all-reduce");
    let mut asked: Vec<u8> = PATH
        .iter()
        .flat_map(|s| s.questions.iter().copied())
        .collect();
    asked.sort_unstable();
    assert_eq!(asked, vec![1, 2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn links_are_relative_and_name_their_view() {
    assert_eq!(
        PATH[0].href(),
        "?view=sgd&shards=600,300,100&losses=0.2,0.5,0.9"
    );
    assert_eq!(PATH[9].href(), "?view=topology");
    assert_eq!(Stop::question_href(4), "?view=practice&set=course&q=4");
    for door in DOORS {
        for (_, href) in door.links {
            assert!(!href.starts_with('/') && !href.contains("://"), "{href}");
        }
    }
}
