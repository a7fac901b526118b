//! Flight Recorder dumps (the hang view, `?view=hang`): which rank a stuck
//! job is waiting for.
//!
//! PyTorch's flight recorder keeps, per rank, a ring buffer of the last
//! collectives and point-to-point operations each process group enqueued
//! (`TORCH_FR_BUFFER_SIZE` entries) and writes it on a timeout or on demand,
//! one file per rank. The keys and states read here are PyTorch's
//! `torch/csrc/distributed/c10d/FlightRecorder.hpp` (format `version_val`
//! "2.10" in PyTorch 2.15): the dump is a dictionary with `version`,
//! `pg_config` (per process group: `name`, `desc`, `ranks` as a text such
//! as `"[0, 1]"`), `pg_status` (per group id: `last_enqueued_collective`,
//! `last_started_collective`, `last_completed_collective`) and `entries`,
//! each with `record_id`, `pg_id`, `process_group` (name, description),
//! `collective_seq_id`, `p2p_seq_id`, `is_p2p`, `profiling_name` (e.g.
//! `nccl:all_reduce`), `input_sizes`, `input_dtypes`, `output_sizes`,
//! `state` (`scheduled`, `started`, `completed`) and the discovered start
//! and completion times (ns, or `None`/0 when timing was off).
//!
//! The analysis ([`analyse`]) follows the rule of PyTorch's
//! `torch/distributed/flight_recorder/components/builder.py`: within one
//! process group, collectives are numbered by `collective_seq_id` on every
//! member alike, so the first number some member never enqueued is where
//! the group stopped, and the members without it are the ranks it waits
//! for; at one number, every member must have the same op, sizes and
//! dtypes (`fr_trace`'s mismatch kinds: collective type, size, dtype,
//! state). The rank of a file is its name's trailing digits (`rank_3`, as
//! `fr_trace`'s loader takes it) unless the reader is told otherwise.
//!
//! Accepted formats: "2.x" with x from 2 up ([`MIN_MINOR`]); older dumps
//! lack `collective_seq_id` and are refused with their version.

pub mod pickle;
pub mod value;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use std::collections::BTreeMap;
use std::fmt;

use value::Value;

/// Oldest minor version of format 2 read (2.2 added per-group sequence numbers).
pub const MIN_MINOR: u32 = 2;
/// Most dumps (ranks) analysed at once.
pub const MAX_RANKS: usize = 4096;

/// A collective's state as the recorder last saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum State {
    /// Enqueued, not yet seen to start (or timing was off).
    Scheduled,
    /// Its kernel was seen to start.
    Started,
    /// Seen to complete.
    Completed,
}

impl State {
    /// The dump's word.
    pub fn word(self) -> &'static str {
        match self {
            State::Scheduled => "scheduled",
            State::Started => "started",
            State::Completed => "completed",
        }
    }
}

/// One recorded operation.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// `record_id`: the entry's place in the rank's whole history.
    pub record_id: i64,
    /// The group's name (`process_group[0]`, e.g. `"0"`).
    pub pg: String,
    /// The group's description (`process_group[1]`, e.g. `"default_pg"`).
    pub pg_desc: String,
    /// `collective_seq_id` (collectives) or `p2p_seq_id` (point-to-point).
    pub seq: i64,
    /// `is_p2p`.
    pub p2p: bool,
    /// `profiling_name` without its backend, e.g. `"all_reduce"`.
    pub op: String,
    /// The backend, e.g. `"nccl"` or `"gloo"`.
    pub backend: String,
    /// `input_sizes`: one shape per input tensor.
    pub sizes: Vec<Vec<i64>>,
    /// `input_dtypes`, e.g. `"Float"`, `"BFloat16"`.
    pub dtypes: Vec<String>,
    /// `state`.
    pub state: State,
    /// Discovered start, ns (None when timing was off).
    pub started_ns: Option<i64>,
    /// Discovered completion, ns.
    pub completed_ns: Option<i64>,
    /// `time_created_ns`.
    pub created_ns: Option<i64>,
}

impl Entry {
    /// Elements over all inputs.
    pub fn elements(&self) -> i64 {
        self.sizes.iter().map(|s| s.iter().product::<i64>()).sum()
    }

    /// Bytes over all inputs, when every dtype's width is known.
    pub fn bytes(&self) -> Option<i64> {
        let mut total = 0i64;
        for (i, s) in self.sizes.iter().enumerate() {
            let w = dtype_bytes(self.dtypes.get(i).or(self.dtypes.first())?)?;
            total = total.checked_add(s.iter().product::<i64>().checked_mul(w)?)?;
        }
        Some(total)
    }
}

/// Bytes per element of a PyTorch dtype as the recorder names it
/// (c10's `ScalarType` names).
pub fn dtype_bytes(d: &str) -> Option<i64> {
    Some(match d {
        "Double" | "Long" | "ComplexFloat" | "UInt64" => 8,
        "Float" | "Int" | "UInt32" | "ComplexHalf" => 4,
        "Half" | "BFloat16" | "Short" | "UInt16" => 2,
        "Byte" | "Char" | "Bool" | "Float8_e4m3fn" | "Float8_e5m2" | "Float8_e4m3fnuz"
        | "Float8_e5m2fnuz" => 1,
        "ComplexDouble" => 16,
        _ => return None,
    })
}

/// A process group as one rank's `pg_config` describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupConfig {
    /// `desc`, e.g. `"default_pg"`.
    pub desc: String,
    /// `ranks`, global ranks.
    pub ranks: Vec<usize>,
}

/// One rank's dump, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Dump {
    /// The global rank.
    pub rank: usize,
    /// `version`, e.g. `"2.10"`.
    pub version: String,
    /// `pg_config` by group name.
    pub groups: BTreeMap<String, GroupConfig>,
    /// `pg_status`' `last_completed_collective` by group name, where given.
    pub last_completed: BTreeMap<String, i64>,
    /// `entries`, in the file's order.
    pub entries: Vec<Entry>,
}

/// Why a dump cannot be read.
#[derive(Clone, Debug, PartialEq)]
pub enum DumpError {
    /// The top level is not a dictionary with `entries` and `version`.
    NotADump,
    /// A format version this reader does not take.
    Version(String),
    /// An entry lacks a key this reader needs.
    Entry {
        /// The entry's position in `entries`, from 0.
        index: usize,
        /// The key it lacks (or holds with the wrong type).
        key: &'static str,
    },
    /// No rank in the file name and none given.
    NoRank(String),
}

impl fmt::Display for DumpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DumpError::NotADump => write!(
                f,
                "not a Flight Recorder dump: no \"entries\" list and \"version\" at its top level"
            ),
            DumpError::Version(v) => write!(
                f,
                "format version {v} is not read here: this page reads 2.{MIN_MINOR} and later of format 2 \
                 (PyTorch 2.15 writes 2.10)"
            ),
            DumpError::Entry { index, key } => {
                write!(f, "entry {index} has no usable \"{key}\"")
            }
            DumpError::NoRank(name) => write!(
                f,
                "the file name {name} does not end in the rank's digits (as rank_3 does), so its rank is unknown"
            ),
        }
    }
}

/// The rank a file name gives, as `fr_trace`'s loader takes it: the digits
/// at its end (`"rank_12"` → 12, `"nccl_trace_rank_3.json"` → 3; a `.json`
/// or `.pkl` ending is dropped first).
pub fn rank_of_name(name: &str) -> Option<usize> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let base = base
        .strip_suffix(".json")
        .or_else(|| base.strip_suffix(".pkl"))
        .or_else(|| base.strip_suffix(".pickle"))
        .unwrap_or(base);
    let digits = base.len() - base.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 6 {
        return None;
    }
    base[base.len() - digits..].parse().ok()
}

/// A time field: `None` for `None`, 0 or a missing key.
fn time_ns(v: Option<&Value>) -> Option<i64> {
    v.and_then(Value::as_int).filter(|&t| t > 0)
}

/// A list of shapes (`[[1024], [2, 3]]`).
fn shapes(v: Option<&Value>) -> Vec<Vec<i64>> {
    v.and_then(Value::as_list)
        .map(|l| {
            l.iter()
                .map(|s| {
                    s.as_list()
                        .map(|d| d.iter().filter_map(Value::as_int).collect())
                        .unwrap_or_default()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A `ranks` text such as `"[0, 1, 2]"` (or a list of numbers).
fn rank_list(v: Option<&Value>) -> Vec<usize> {
    match v {
        Some(Value::Str(s)) => s
            .trim_matches(|c| c == '[' || c == ']')
            .split(',')
            .filter_map(|x| x.trim().parse().ok())
            .collect(),
        Some(Value::List(l)) => l
            .iter()
            .filter_map(|x| usize::try_from(x.as_int()?).ok())
            .collect(),
        _ => Vec::new(),
    }
}

/// Reads one rank's dump from its [`Value`].
///
/// # Errors
/// [`DumpError`] naming the version or the entry and key that is missing.
pub fn read_dump(v: &Value, rank: usize) -> Result<Dump, DumpError> {
    let (Some(list), Some(version)) = (
        v.get("entries").and_then(Value::as_list),
        v.get("version").and_then(Value::as_str),
    ) else {
        return Err(DumpError::NotADump);
    };
    let ok = version
        .split_once('.')
        .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
        .is_some_and(|(major, minor)| major == 2 && minor >= MIN_MINOR);
    if !ok {
        return Err(DumpError::Version(version.to_string()));
    }
    let mut groups = BTreeMap::new();
    for (k, g) in v
        .get("pg_config")
        .and_then(Value::as_dict)
        .unwrap_or_default()
    {
        let name = k.as_str().unwrap_or_default();
        let name = g
            .get("name")
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
            .unwrap_or(name);
        groups.insert(
            name.to_string(),
            GroupConfig {
                desc: g
                    .get("desc")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                ranks: rank_list(g.get("ranks")),
            },
        );
    }
    let mut last_completed = BTreeMap::new();
    for (k, s) in v
        .get("pg_status")
        .and_then(Value::as_dict)
        .unwrap_or_default()
    {
        if let (Some(k), Some(c)) = (
            k.as_str()
                .map(str::to_string)
                .or_else(|| k.as_int().map(|i| i.to_string())),
            s.get("last_completed_collective").and_then(Value::as_int),
        ) {
            last_completed.insert(k, c);
        }
    }
    let mut entries = Vec::with_capacity(list.len());
    for (index, e) in list.iter().enumerate() {
        let need = |key: &'static str| e.get(key).ok_or(DumpError::Entry { index, key });
        let pgv = need("process_group")?;
        let (pg, pg_desc) = match pgv.as_list() {
            Some([n, d, ..]) => (
                n.as_str().unwrap_or_default(),
                d.as_str().unwrap_or_default(),
            ),
            _ => {
                return Err(DumpError::Entry {
                    index,
                    key: "process_group",
                })
            }
        };
        let p2p = matches!(e.get("is_p2p"), Some(Value::Bool(true)));
        let seq_key = if p2p {
            "p2p_seq_id"
        } else {
            "collective_seq_id"
        };
        let seq = need(seq_key)?.as_int().ok_or(DumpError::Entry {
            index,
            key: if p2p {
                "p2p_seq_id"
            } else {
                "collective_seq_id"
            },
        })?;
        let name = need("profiling_name")?.as_str().unwrap_or_default();
        let (backend, op) = name.split_once(':').unwrap_or(("", name));
        let state = match e.get("state").and_then(Value::as_str) {
            Some("completed") => State::Completed,
            Some("started") => State::Started,
            Some("scheduled") => State::Scheduled,
            _ => {
                return Err(DumpError::Entry {
                    index,
                    key: "state",
                })
            }
        };
        entries.push(Entry {
            record_id: e
                .get("record_id")
                .and_then(Value::as_int)
                .unwrap_or(index as i64),
            pg: pg.to_string(),
            pg_desc: pg_desc.to_string(),
            seq,
            p2p,
            op: op.to_string(),
            backend: backend.to_string(),
            sizes: shapes(e.get("input_sizes")),
            dtypes: e
                .get("input_dtypes")
                .and_then(Value::as_list)
                .map(|l| {
                    l.iter()
                        .filter_map(|d| d.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            state,
            started_ns: time_ns(e.get("time_discovered_started_ns")),
            completed_ns: time_ns(e.get("time_discovered_completed_ns")),
            created_ns: time_ns(e.get("time_created_ns")),
        });
    }
    Ok(Dump {
        rank,
        version: version.to_string(),
        groups,
        last_completed,
        entries,
    })
}

/// How a rank's entry at one sequence number differs from the group's
/// first member that has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MismatchKind {
    /// Another op (e.g. all_gather against all_reduce).
    Op,
    /// Other input sizes.
    Size,
    /// Other input dtypes.
    Dtype,
}

impl MismatchKind {
    /// In words.
    pub fn word(self) -> &'static str {
        match self {
            MismatchKind::Op => "collective type",
            MismatchKind::Size => "size",
            MismatchKind::Dtype => "dtype",
        }
    }
}

/// A mismatch at one sequence number.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// The sequence number.
    pub seq: i64,
    /// What differs.
    pub kind: MismatchKind,
    /// The rank the others are compared with (the group's lowest that has it).
    pub reference: usize,
    /// The rank that differs.
    pub rank: usize,
    /// The reference's entry.
    pub expected: Entry,
    /// The differing rank's entry.
    pub found: Entry,
}

/// One member's place in a group.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberState {
    /// The global rank.
    pub rank: usize,
    /// Whether its dump was loaded.
    pub loaded: bool,
    /// Its last enqueued collective in this group.
    pub last: Option<Entry>,
    /// Its last collective seen to start or complete (timing on), by number.
    pub last_started: Option<i64>,
    /// Its last completed collective, by number (from `pg_status`, or the
    /// entries' states).
    pub last_completed: Option<i64>,
    /// The lowest collective number still in its ring buffer.
    pub first_kept: Option<i64>,
}

/// One process group across the loaded dumps.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupReport {
    /// The group's name (e.g. `"0"`).
    pub name: String,
    /// Its description (e.g. `"default_pg"`).
    pub desc: String,
    /// Its members, global ranks in order.
    pub ranks: Vec<usize>,
    /// Where the members came from: `pg_config`, or (when no dump
    /// describes the group) every loaded rank for the default group and
    /// the ranks with entries otherwise.
    pub ranks_from_config: bool,
    /// Per member.
    pub members: Vec<MemberState>,
    /// The first collective some member never enqueued: one member's entry
    /// for it, and the members without it.
    pub stuck: Option<(Entry, Vec<usize>)>,
    /// Members whose dump is missing from the set.
    pub unloaded: Vec<usize>,
    /// Op, size and dtype mismatches at one number, first ones first.
    pub mismatches: Vec<Mismatch>,
    /// Whether any member's ring buffer dropped older entries (its oldest
    /// kept `record_id` is above 0).
    pub wrapped: bool,
    /// Whether every collective entry is only `scheduled` with no start or
    /// completion time: timing was off, so enqueued is all the dumps tell.
    pub timing_off: bool,
}

/// The whole set of dumps.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The ranks loaded, in order.
    pub ranks: Vec<usize>,
    /// Groups by name in numeric-then-text order.
    pub groups: Vec<GroupReport>,
    /// Ranks loaded twice (the later file kept).
    pub duplicates: Vec<usize>,
}

/// Most mismatches listed per group.
pub const MISMATCH_CAP: usize = 20;

/// Analyses dumps of one job, one per rank (see the module's rule).
pub fn analyse(dumps: &[Dump]) -> Analysis {
    let mut by_rank: BTreeMap<usize, &Dump> = BTreeMap::new();
    let mut duplicates = Vec::new();
    for d in dumps.iter().take(MAX_RANKS) {
        if by_rank.insert(d.rank, d).is_some() {
            duplicates.push(d.rank);
        }
    }
    let loaded: Vec<usize> = by_rank.keys().copied().collect();
    // Every group any dump names, with its description and config.
    let mut names: BTreeMap<String, (String, Option<Vec<usize>>)> = BTreeMap::new();
    for d in by_rank.values() {
        for e in &d.entries {
            names
                .entry(e.pg.clone())
                .or_insert_with(|| (e.pg_desc.clone(), None));
        }
    }
    for d in by_rank.values() {
        for (n, g) in &d.groups {
            if let Some(slot) = names.get_mut(n) {
                if slot.1.is_none() && !g.ranks.is_empty() {
                    slot.1 = Some(g.ranks.clone());
                }
                if slot.0.is_empty() {
                    slot.0.clone_from(&g.desc);
                }
            }
        }
    }
    let mut order: Vec<_> = names.into_iter().collect();
    order.sort_by_key(|(n, _): &(String, _)| (n.parse::<u64>().unwrap_or(u64::MAX), n.clone()));
    let groups = order
        .into_iter()
        .map(|(name, (desc, config))| group(&name, desc, config, &by_rank, &loaded))
        .collect();
    Analysis {
        ranks: loaded,
        groups,
        duplicates,
    }
}

fn group(
    name: &str,
    desc: String,
    config: Option<Vec<usize>>,
    by_rank: &BTreeMap<usize, &Dump>,
    loaded: &[usize],
) -> GroupReport {
    let ranks_from_config = config.is_some();
    let mut ranks = config.unwrap_or_else(|| {
        if desc == "default_pg" || name == "0" {
            loaded.to_vec()
        } else {
            by_rank
                .iter()
                .filter(|(_, d)| d.entries.iter().any(|e| e.pg == name))
                .map(|(r, _)| *r)
                .collect()
        }
    });
    ranks.sort_unstable();
    ranks.dedup();
    let coll = |d: &Dump| -> Vec<Entry> {
        d.entries
            .iter()
            .filter(|e| e.pg == name && !e.p2p)
            .cloned()
            .collect()
    };
    let mut members = Vec::with_capacity(ranks.len());
    let mut unloaded = Vec::new();
    let mut wrapped = false;
    let mut any_timed = false;
    let mut kept: BTreeMap<usize, Vec<Entry>> = BTreeMap::new();
    for &r in &ranks {
        let Some(d) = by_rank.get(&r) else {
            unloaded.push(r);
            members.push(MemberState {
                rank: r,
                loaded: false,
                last: None,
                last_started: None,
                last_completed: None,
                first_kept: None,
            });
            continue;
        };
        let es = coll(d);
        wrapped |= d
            .entries
            .iter()
            .map(|e| e.record_id)
            .min()
            .is_some_and(|m| m > 0);
        any_timed |= es.iter().any(|e| {
            e.state != State::Scheduled || e.started_ns.is_some() || e.completed_ns.is_some()
        });
        let last = es.iter().max_by_key(|e| e.seq).cloned();
        let last_started = es
            .iter()
            .filter(|e| e.state >= State::Started)
            .map(|e| e.seq)
            .max();
        let last_completed = d
            .last_completed
            .get(name)
            .copied()
            .filter(|&c| c >= 0)
            .or_else(|| {
                es.iter()
                    .filter(|e| e.state == State::Completed)
                    .map(|e| e.seq)
                    .max()
            });
        members.push(MemberState {
            rank: r,
            loaded: true,
            first_kept: es.iter().map(|e| e.seq).min(),
            last,
            last_started,
            last_completed,
        });
        kept.insert(r, es);
    }
    // The first number some loaded member never enqueued.
    let lasts: Vec<(usize, i64)> = members
        .iter()
        .filter(|m| m.loaded)
        .map(|m| (m.rank, m.last.as_ref().map_or(0, |e| e.seq)))
        .collect();
    let stuck = match (
        lasts.iter().map(|x| x.1).min(),
        lasts.iter().map(|x| x.1).max(),
    ) {
        (Some(lo), Some(hi)) if hi > lo => {
            let at = lo + 1;
            let missing: Vec<usize> = lasts.iter().filter(|x| x.1 < at).map(|x| x.0).collect();
            let entry = kept.values().flatten().find(|e| e.seq == at).cloned();
            entry.map(|e| (e, missing))
        }
        _ => None,
    };
    // Mismatches at each number held by two or more members.
    let mut mismatches = Vec::new();
    let mut by_seq: BTreeMap<i64, Vec<(usize, &Entry)>> = BTreeMap::new();
    for (r, es) in &kept {
        for e in es {
            by_seq.entry(e.seq).or_default().push((*r, e));
        }
    }
    'seqs: for (seq, v) in &by_seq {
        let Some(&(r0, e0)) = v.first() else { continue };
        for &(r, e) in &v[1..] {
            let kind = if e.op != e0.op {
                Some(MismatchKind::Op)
            } else if e.sizes != e0.sizes {
                Some(MismatchKind::Size)
            } else if e.dtypes != e0.dtypes {
                Some(MismatchKind::Dtype)
            } else {
                None
            };
            if let Some(kind) = kind {
                mismatches.push(Mismatch {
                    seq: *seq,
                    kind,
                    reference: r0,
                    rank: r,
                    expected: e0.clone(),
                    found: e.clone(),
                });
                if mismatches.len() >= MISMATCH_CAP {
                    break 'seqs;
                }
            }
        }
    }
    GroupReport {
        name: name.to_string(),
        desc,
        ranks,
        ranks_from_config,
        members,
        stuck,
        unloaded,
        mismatches,
        wrapped,
        timing_off: !any_timed,
    }
}
