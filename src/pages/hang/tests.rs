use super::*;
use crate::core::flight::pickle::read_pickle;
use crate::core::flight::{analyse, rank_of_name, read_dump};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/flight");

fn set(name: &str) -> Analysis {
    let dumps: Vec<_> = (0..4)
        .map(|r| {
            let f = format!("rank_{r}");
            let b = std::fs::read(format!("{DIR}/{name}/{f}")).expect("fixture");
            read_dump(
                &read_pickle(&b).expect("fixture"),
                rank_of_name(&f).expect("fixture"),
            )
            .expect("fixture")
        })
        .collect();
    analyse(&dumps)
}

#[test]
fn the_answer_names_the_group_the_rank_and_the_collective() {
    let a = set("skip");
    assert_eq!(
        answer(&a)[0],
        "Process group 0 (default_pg, ranks 0–3) is waiting for rank 3: it never enqueued \
         all_reduce #8 of 4,096 Float (16 KiB). Timing was off, so whether the others' copies started cannot be told."
    );
    let rows = member_rows(&a.groups[0]);
    assert_eq!(rows[3].last, "broadcast #7 of 1,024 Float (4 KiB)");
    assert!(rows[3].missing && !rows[0].missing);
    assert_eq!(rows[0].completed, "#7");
    assert_eq!(rows[0].started, "—");
    assert_eq!(read_line(&a), "4 dumps read: ranks 0–3.");
}

#[test]
fn a_healthy_set_says_so_and_names_the_guessed_members() {
    let a = set("ok");
    assert_eq!(
        answer(&a),
        vec!["No process group is waiting: every loaded rank (0–3) enqueued the same last collective in each of \
              2 groups, with matching ops, sizes and dtypes."
            .to_string()]
    );
    let c = caveats(&a);
    assert_eq!(c.len(), 2, "{c:?}");
    assert!(c[1].starts_with("Process group 1 (expert_parallel, ranks 0, 1): no dump's pg_config"));
}

#[test]
fn rank_lists_read_as_ranges() {
    assert_eq!(ranks_text(&[0, 1, 2, 3, 6, 8, 9]), "0–3, 6, 8, 9");
    assert_eq!(ranks_text(&[5]), "5");
    assert_eq!(ranks_text(&[]), "");
}

#[test]
fn file_messages_name_the_file() {
    assert_eq!(
        file_message("notes.txt", &FileProblem::NoRank),
        "notes.txt: the name does not end in the rank's digits (as rank_3 does), so its rank is unknown."
    );
    assert_eq!(
        file_message("rank_2", &FileProblem::TooLarge(64)),
        "rank_2 is larger than 64 MB; not read."
    );
}
