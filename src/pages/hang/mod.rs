//! `?view=hang`: what the hang page says of a set of Flight Recorder dumps
//! (read and analysed by [`crate::core::flight`]): one answer first, then
//! a table per process group and the mismatches. Everything is plain text
//! (the view escapes it), so a file's names cannot inject markup.

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::core::flight::{Analysis, Entry, GroupReport, MemberState};
use crate::core::units::{format_binary, group_thousands};

/// A rank list in words: `"0–3"`, `"0, 2, 5"`, `"0–3, 6"`.
pub fn ranks_text(r: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < r.len() {
        let mut j = i;
        while j + 1 < r.len() && r[j + 1] == r[j] + 1 {
            j += 1;
        }
        out.push(match j - i {
            0 => r[i].to_string(),
            1 => format!("{}, {}", r[i], r[j]),
            _ => format!("{}–{}", r[i], r[j]),
        });
        i = j + 1;
    }
    out.join(", ")
}

/// An entry in words: `"all_reduce #8 of 4,096 Float (16 KiB)"`.
pub fn entry_text(e: &Entry) -> String {
    let n = u64::try_from(e.elements()).unwrap_or(0);
    let dtype = e.dtypes.first().map_or("elements", String::as_str);
    let bytes = e
        .bytes()
        .map_or(String::new(), |b| format!(" ({})", format_binary(b as f64)));
    format!(
        "{} #{} of {} {dtype}{bytes}",
        e.op,
        e.seq,
        group_thousands(n)
    )
}

/// The group's name in words: `"process group 0 (default_pg, ranks 0–3)"`.
pub fn group_name(g: &GroupReport) -> String {
    let desc = if g.desc.is_empty() {
        String::new()
    } else {
        format!("{}, ", g.desc)
    };
    format!(
        "process group {} ({desc}ranks {})",
        g.name,
        ranks_text(&g.ranks)
    )
}

fn rank_word(r: &[usize]) -> String {
    if r.len() == 1 {
        format!("rank {}", r[0])
    } else {
        format!("ranks {}", ranks_text(r))
    }
}

/// The page's answer, one sentence per finding, the first one first: the
/// groups waiting for a rank, then mismatches, else that nothing is stuck.
pub fn answer(a: &Analysis) -> Vec<String> {
    let mut v = Vec::new();
    for g in &a.groups {
        if let Some((e, missing)) = &g.stuck {
            let mut s = format!(
                "{} is waiting for {}: {} never enqueued {}.",
                cap(&group_name(g)),
                rank_word(missing),
                if missing.len() == 1 { "it" } else { "they" },
                entry_text(e)
            );
            if g.timing_off {
                s.push_str(
                    " Timing was off, so whether the others' copies started cannot be told.",
                );
            }
            v.push(s);
        }
    }
    for g in &a.groups {
        if let Some(m) = g.mismatches.first() {
            v.push(format!(
                "{}: at #{} rank {} has {} where rank {} has {} (a {} mismatch{}).",
                cap(&group_name(g)),
                m.seq,
                m.rank,
                entry_text(&m.found),
                m.reference,
                entry_text(&m.expected),
                m.kind.word(),
                if g.mismatches.len() > 1 {
                    format!("; {} mismatches in all, below", g.mismatches.len())
                } else {
                    String::new()
                }
            ));
        }
    }
    if v.is_empty() {
        v.push(format!(
            "No process group is waiting: every loaded rank ({}) enqueued the same last collective in each of {} group{}, \
             with matching ops, sizes and dtypes.",
            ranks_text(&a.ranks),
            a.groups.len(),
            if a.groups.len() == 1 { "" } else { "s" }
        ));
    }
    v
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// What the dumps cannot tell, one sentence each.
pub fn caveats(a: &Analysis) -> Vec<String> {
    let mut v = Vec::new();
    for g in &a.groups {
        if !g.unloaded.is_empty() {
            v.push(format!(
                "{}: no dump of {} was loaded, so whether {} reached the group's last collective is unknown.",
                cap(&group_name(g)),
                rank_word(&g.unloaded),
                if g.unloaded.len() == 1 { "it" } else { "they" }
            ));
        }
        if g.wrapped {
            v.push(format!(
                "{}: a ring buffer wrapped (its oldest entries were overwritten; raise TORCH_FR_BUFFER_SIZE), \
                 so mismatches older than the kept entries are not seen.",
                cap(&group_name(g))
            ));
        }
        if !g.ranks_from_config {
            v.push(format!(
                "{}: no dump's pg_config lists its ranks, so its members are {}.",
                cap(&group_name(g)),
                if g.name == "0" || g.desc == "default_pg" {
                    "taken to be every loaded rank"
                } else {
                    "the loaded ranks with entries in it"
                }
            ));
        }
    }
    if !a.duplicates.is_empty() {
        v.push(format!(
            "Two files gave {}; the later one was kept.",
            rank_word(&a.duplicates)
        ));
    }
    v
}

/// One row of a group's table: rank, last enqueued, started, completed.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberRow {
    /// The rank.
    pub rank: usize,
    /// Its last enqueued collective in words (or why not).
    pub last: String,
    /// Its last started collective number, or "—".
    pub started: String,
    /// Its last completed collective number, or "—".
    pub completed: String,
    /// Whether this rank is one the group waits for.
    pub missing: bool,
}

/// The table rows of a group.
pub fn member_rows(g: &GroupReport) -> Vec<MemberRow> {
    let missing: &[usize] = g.stuck.as_ref().map_or(&[], |s| &s.1);
    g.members
        .iter()
        .map(|m: &MemberState| MemberRow {
            rank: m.rank,
            last: if !m.loaded {
                "no dump loaded".into()
            } else {
                m.last
                    .as_ref()
                    .map_or_else(|| "none recorded".into(), entry_text)
            },
            started: m
                .last_started
                .map_or_else(|| "—".into(), |s| format!("#{s}")),
            completed: m
                .last_completed
                .map_or_else(|| "—".into(), |s| format!("#{s}")),
            missing: missing.contains(&m.rank),
        })
        .collect()
}

/// The mismatch rows of a group: number, kind, rank, what it has, what
/// the reference rank has.
pub fn mismatch_rows(g: &GroupReport) -> Vec<[String; 4]> {
    g.mismatches
        .iter()
        .map(|m| {
            [
                format!("#{}", m.seq),
                m.kind.word().to_string(),
                format!("rank {}: {}", m.rank, entry_text(&m.found)),
                format!("rank {}: {}", m.reference, entry_text(&m.expected)),
            ]
        })
        .collect()
}

/// Why one opened file was not read: the message shown under the input,
/// naming the file. Each reason is worded here once.
#[derive(Clone, Debug, PartialEq)]
pub enum FileProblem {
    /// The name has no trailing rank digits.
    NoRank,
    /// Larger than the view's limit, in MB.
    TooLarge(u32),
    /// The browser could not read (or fetch) the file.
    Unreadable,
    /// `JSON.parse` failed, with its message.
    NotJson(String),
    /// The pickle reader or the dump reader refused it, with their message.
    Refused(String),
}

/// The message for `problem` with the file `name`.
pub fn file_message(name: &str, problem: &FileProblem) -> String {
    match problem {
        FileProblem::NoRank => format!(
            "{name}: the name does not end in the rank's digits (as rank_3 does), so its rank is unknown."
        ),
        FileProblem::TooLarge(mb) => format!("{name} is larger than {mb} MB; not read."),
        FileProblem::Unreadable => format!("Could not read {name}."),
        FileProblem::NotJson(why) => format!("{name}: not valid JSON ({why})."),
        FileProblem::Refused(why) => format!("{name}: {why}."),
    }
}

/// The line under the answer: how many dumps were read, and whose.
pub fn read_line(a: &Analysis) -> String {
    let n = a.ranks.len();
    format!(
        "{n} dump{} read: rank{} {}.",
        if n == 1 { "" } else { "s" },
        if n == 1 { "" } else { "s" },
        ranks_text(&a.ranks)
    )
}
