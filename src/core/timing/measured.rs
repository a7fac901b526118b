//! A measured trace beside the model (the trace view, `?view=trace`): the
//! Chrome trace-event JSON that the MPI runner writes with `--trace FILE`
//! (and that the timeline view exports), checked and turned into the same [`Gantt`] the model's clock
//! is drawn as, plus per-rank finishes to set beside the model's.
//!
//! The UI reads the JSON with the browser's parser into [`RawTrace`]; this
//! module validates it ([`measured`], [`TraceError`]) and builds
//! [`Measured`].
//!
//! What is drawn from the runner's events (complete events, `"ph": "X"`,
//! `ts`/`dur` in µs, `cat` one of `send`, `recv`, `wait`, `reduce`,
//! `args.round`, `args.peer`; the rank is `pid` − 1 when every such event
//! has a `pid` of 1 or more, as [`crate::core::trace_event`] writes a
//! process per rank, else `tid`, as the files written before it did): a `send` or `recv` bar runs from
//! its `MPI_Isend`/`MPI_Irecv` post to the end of the same round's
//! `MPI_Waitall` on that rank (the transfer happens inside the wait, so
//! waiting for a late peer is inside the bar; the model shades that time
//! separately); a `reduce` (or copy) is its own interval. Time not covered
//! by any event is shaded as waiting. Times are seconds from the earliest
//! event of the trace.

use std::fmt;

use super::clock::Clock;
use super::gantt::{gaps, merge_rounds, union, Bar, BarKind, Gantt, Row, BAR_BUDGET, MAX_ROWS};

/// Most ranks a trace may have: one row per rank, as the model draws up to
/// [`MAX_ROWS`].
pub const MAX_TRACE_RANKS: usize = MAX_ROWS;
/// Most complete events read (a ring at 64 ranks is 4 · 126 · 64 = 32 256).
pub const MAX_TRACE_EVENTS: usize = 200_000;

/// One trace event as the JSON holds it; `None` where the field is missing
/// or not a number.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TraceEvent {
    /// `ph`, the phase: `"X"` for a complete event.
    pub ph: String,
    /// `name`, e.g. `"send → 1"`.
    pub name: String,
    /// `cat`: `send`, `recv`, `wait` or `reduce`.
    pub cat: String,
    /// `pid`: the rank + 1 in the traces of [`crate::core::trace_event`]
    /// (0 or missing in traces written before it).
    pub pid: Option<f64>,
    /// `tid`: the rank, in traces whose `pid` is 0 (the runner's and the
    /// timeline's before [`crate::core::trace_event`]; a row otherwise).
    pub tid: Option<f64>,
    /// `ts`: start, µs.
    pub ts: Option<f64>,
    /// `dur`: duration, µs.
    pub dur: Option<f64>,
    /// `args.round`: the round, from 0.
    pub round: Option<f64>,
    /// `args.peer`: the other rank (else read from the name's last word).
    pub peer: Option<f64>,
}

/// What a trace says about its run: the runner's `otherData`
/// (`alg`, `p`, `bytes`, `segments`); all `None` for other traces.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TraceInfo {
    /// The registry key of the algorithm, e.g. `ring`.
    pub alg: Option<String>,
    /// Ranks.
    pub p: Option<f64>,
    /// Tensor bytes.
    pub bytes: Option<f64>,
    /// Segments per message.
    pub segments: Option<f64>,
}

/// A trace as read from JSON, before any check.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawTrace {
    /// `traceEvents`, in file order.
    pub events: Vec<TraceEvent>,
    /// `otherData`.
    pub info: TraceInfo,
}

/// Why a text is not a trace this view can draw.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceError {
    /// Nothing to read.
    Empty,
    /// The text is not JSON (the parser's message).
    NotJson(String),
    /// JSON without a `traceEvents` list.
    NotATrace,
    /// No complete event of a kind drawn; the number of events read.
    NoEvents(usize),
    /// More complete events than [`MAX_TRACE_EVENTS`].
    TooManyEvents(usize),
    /// Event (index in `traceEvents`) whose field is missing or out of range.
    BadField(usize, &'static str),
    /// Event with a negative `dur`.
    NegativeDuration(usize, f64),
    /// Ranks (highest `tid` + 1, or `otherData.p`) above [`MAX_TRACE_RANKS`].
    TooManyRanks(usize),
    /// Fewer than 2 ranks.
    OneRank,
    /// Ranks below p with no event, and which field held the rank
    /// (`"tid"`, or `"pid − 1"`).
    MissingRanks(Vec<usize>, usize, &'static str),
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::Empty => write!(f, "The trace is empty."),
            TraceError::NotJson(why) => write!(f, "This is not JSON ({why}). Paste the file that collective-lab-run --trace wrote."),
            TraceError::NotATrace => write!(f, "This JSON is not a Chrome trace: it has no traceEvents list."),
            TraceError::NoEvents(n) => write!(f, "The trace has {n} events but no complete (\"ph\": \"X\") send, recv, wait or reduce event."),
            TraceError::TooManyEvents(n) => write!(f, "The trace has {n} events; at most {MAX_TRACE_EVENTS} are read."),
            TraceError::BadField(i, field) => write!(f, "Event {i} has no valid {field}: pid, tid, round and peer must be whole numbers from 0 to 999999999, ts and dur finite numbers of µs."),
            TraceError::NegativeDuration(i, d) => write!(f, "Event {i} has a negative duration ({} µs).", crate::core::units::decimal::shortest(*d)),
            TraceError::TooManyRanks(p) => write!(f, "The trace has {p} ranks; this page draws at most {MAX_TRACE_RANKS}."),
            TraceError::OneRank => write!(f, "The trace has one rank: a collective needs at least 2."),
            TraceError::MissingRanks(m, p, field) => {
                let (who, has) = if m.len() == 1 { ("Rank", "has") } else { ("Ranks", "have") };
                let list = m.iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
                write!(f, "{who} {list} of 0 … {} {has} no event ({field} is the rank).", p - 1)
            }
        }
    }
}

/// A checked trace: what the trace view draws and compares.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// Ranks (rows).
    pub p: usize,
    /// Algorithm key, when the trace names one (1 to 32 ASCII letters,
    /// digits, `-` or `_`; anything else is dropped).
    pub alg: Option<String>,
    /// Tensor bytes, when the trace says.
    pub bytes: Option<u64>,
    /// Segments, when the trace says.
    pub segments: Option<usize>,
    /// Per rank, when its last event ends, seconds.
    pub finish: Vec<f64>,
    /// Per rank, its rounds in the order of their first event in the file
    /// (the runner writes each rank's events in time order).
    pub rounds: Vec<Vec<usize>>,
    /// The last finish, seconds.
    pub end: f64,
    /// The bars, one row per rank.
    pub gantt: Gantt,
    /// Complete events drawn.
    pub events: usize,
    /// Events not drawn (metadata, other phases or categories).
    pub skipped: usize,
}

fn whole(v: Option<f64>, i: usize, field: &'static str) -> Result<usize, TraceError> {
    match v {
        Some(x) if x >= 0.0 && x.fract() == 0.0 && x < 1e9 => Ok(x as usize),
        _ => Err(TraceError::BadField(i, field)),
    }
}

fn opt_whole(v: Option<f64>) -> Option<u64> {
    v.filter(|x| *x >= 1.0 && x.fract() == 0.0 && *x < 1e18)
        .map(|x| x as u64)
}

/// A drawn event: (rank, kind, round, peer, start, end), times µs.
type Ev = (usize, Option<BarKind>, usize, usize, f64, f64);

/// The kind of bar of a drawn event (`None` for a wait), or `Err` for an
/// event that is not drawn.
fn drawn(e: &TraceEvent) -> Result<Option<BarKind>, ()> {
    let kind = match e.cat.as_str() {
        "send" => Some(BarKind::Send),
        "recv" => Some(BarKind::Recv),
        "reduce" => Some(BarKind::Reduce),
        "wait" => None,
        _ => return Err(()),
    };
    if e.ph == "X" {
        Ok(kind)
    } else {
        Err(())
    }
}

/// True when the rank is `pid − 1`: every drawn event has a `pid` of 1 or
/// more (and there is one).
fn rank_is_pid(raw: &RawTrace) -> bool {
    let mut drawn_events = raw.events.iter().filter(|e| drawn(e).is_ok()).peekable();
    drawn_events.peek().is_some() && drawn_events.all(|e| e.pid.is_some_and(|p| p >= 1.0))
}

fn read(raw: &RawTrace, by_pid: bool) -> Result<Vec<Ev>, TraceError> {
    let mut out = Vec::new();
    for (i, e) in raw.events.iter().enumerate() {
        let Ok(kind) = drawn(e) else { continue };
        if out.len() == MAX_TRACE_EVENTS {
            return Err(TraceError::TooManyEvents(raw.events.len()));
        }
        let rank = if by_pid {
            whole(e.pid.map(|p| p - 1.0), i, "pid")?
        } else {
            whole(e.tid, i, "tid")?
        };
        if rank >= MAX_TRACE_RANKS {
            return Err(TraceError::TooManyRanks(rank + 1));
        }
        let ts =
            e.ts.filter(|t| t.is_finite())
                .ok_or(TraceError::BadField(i, "ts"))?;
        let dur = e
            .dur
            .filter(|t| t.is_finite())
            .ok_or(TraceError::BadField(i, "dur"))?;
        if dur < 0.0 {
            return Err(TraceError::NegativeDuration(i, dur));
        }
        let round = whole(e.round, i, "args.round")?;
        if round >= MAX_TRACE_EVENTS {
            return Err(TraceError::BadField(i, "args.round"));
        }
        // "send → 3": the peer is the last word
        let last = e.name.bytes().rposition(|c| c == b' ').map_or(0, |k| k + 1);
        let named = e
            .name
            .get(last..)
            .and_then(crate::core::units::decimal::parse);
        let peer = match kind {
            None => rank,
            Some(_) => whole(e.peer.or(named), i, "args.peer")?,
        };
        out.push((rank, kind, round, peer, ts, ts + dur));
    }
    Ok(out)
}

/// Checks `raw` and builds what the trace view draws (see the module doc).
///
/// # Errors
/// A [`TraceError`]: no drawable event, a bad `pid`, `tid`, `ts`, `dur`,
/// `args.round` or `args.peer`, a negative duration, more than
/// [`MAX_TRACE_RANKS`] ranks or [`MAX_TRACE_EVENTS`] events, one rank, or
/// a rank below p with no event.
pub fn measured(raw: &RawTrace) -> Result<Measured, TraceError> {
    let by_pid = rank_is_pid(raw);
    let evs = read(raw, by_pid)?;
    if evs.is_empty() {
        return Err(TraceError::NoEvents(raw.events.len()));
    }
    let named_p = opt_whole(raw.info.p).map_or(0, |p| p as usize);
    let p = evs.iter().map(|e| e.0 + 1).max().unwrap_or(0).max(named_p);
    if p > MAX_TRACE_RANKS {
        return Err(TraceError::TooManyRanks(p));
    }
    if p < 2 {
        return Err(TraceError::OneRank);
    }
    let missing: Vec<usize> = (0..p).filter(|r| !evs.iter().any(|e| e.0 == *r)).collect();
    if !missing.is_empty() {
        let field = if by_pid { "pid − 1" } else { "tid" };
        return Err(TraceError::MissingRanks(missing, p, field));
    }
    let t0 = evs.iter().map(|e| e.4).fold(f64::INFINITY, f64::min);
    let s = |t: f64| (t - t0) * 1e-6;
    let top = evs.iter().map(|e| e.2 + 1).max().unwrap_or(0);
    // per round of the rank at hand: the end of its waits (µs), and whether seen
    let (mut wait_end, mut seen) = (vec![f64::NEG_INFINITY; top], vec![false; top]);
    let mut rows = Vec::with_capacity(p);
    let (mut finish, mut rounds) = (vec![0.0; p], vec![Vec::new(); p]);
    for r in 0..p {
        let mine = || evs.iter().filter(move |e| e.0 == r);
        wait_end.fill(f64::NEG_INFINITY);
        seen.fill(false);
        for e in mine().filter(|e| e.1.is_none()) {
            wait_end[e.2] = wait_end[e.2].max(e.5);
        }
        let mut bars: Vec<Bar> = Vec::new();
        let mut busy: Vec<(f64, f64)> = Vec::new();
        for &(_, kind, round, peer, a, b) in mine() {
            if !seen[round] {
                seen[round] = true;
                rounds[r].push(round);
            }
            busy.push((s(a), s(b)));
            let Some(kind) = kind else { continue };
            let end = if kind == BarKind::Reduce {
                b
            } else {
                b.max(wait_end[round])
            };
            let same = bars
                .iter_mut()
                .rev()
                .take(32)
                .find(|x| x.kind == kind && x.round == round && x.peer == peer);
            match same {
                Some(x) => {
                    x.start = x.start.min(s(a));
                    x.end = x.end.max(s(end));
                    x.pieces += 1;
                }
                None => bars.push(Bar {
                    kind,
                    start: s(a),
                    end: s(end),
                    round,
                    peer,
                    pieces: 1,
                    critical: false,
                    cut: false,
                }),
            }
        }
        union(&mut busy);
        finish[r] = busy.iter().map(|x| x.1).fold(0.0, f64::max);
        rows.push(Row {
            ranks: (r, r + 1),
            bars,
            waits: gaps(&busy, 0.0, finish[r]),
            entered: 0.0,
            failed_at: None,
            shares: Vec::new(),
        });
    }
    let end = finish.iter().copied().fold(0.0, f64::max);
    let merged_rounds = rows.iter().map(|x| x.bars.len()).sum::<usize>() > BAR_BUDGET;
    for row in rows.iter_mut().filter(|_| merged_rounds) {
        merge_rounds(&mut row.bars, 1e-9 * end);
    }
    let merged_pieces = rows.iter().flat_map(|x| &x.bars).any(|b| b.pieces > 1);
    Ok(Measured {
        p,
        alg: raw.info.alg.clone().filter(|a| {
            (1..=32).contains(&a.len())
                && a.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        }),
        bytes: opt_whole(raw.info.bytes),
        segments: opt_whole(raw.info.segments).map(|k| k as usize),
        finish,
        rounds,
        end,
        gantt: Gantt {
            rows,
            end: end.max(1e-12),
            group: None,
            merged_pieces,
            merged_rounds,
        },
        events: evs.len(),
        skipped: raw.events.len() - evs.len(),
    })
}

/// The measured trace against the model's clock of the same case.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Per rank: measured finish, the model's finish (`None` where the
    /// model's rank does not finish), measured / model.
    pub ranks: Vec<(f64, Option<f64>, Option<f64>)>,
    /// The measured total: the last rank's finish, seconds.
    pub measured: f64,
    /// The model's total (its clock's end when it completes), seconds.
    pub model: Option<f64>,
    /// measured / model.
    pub ratio: Option<f64>,
}

/// Sets `m` beside `model` rank by rank (ranks the model lacks have no
/// model finish).
pub fn compare(m: &Measured, model: &Clock) -> Comparison {
    let ratio = |a: f64, b: Option<f64>| b.filter(|b| *b > 0.0).map(|b| a / b);
    let ranks = m
        .finish
        .iter()
        .enumerate()
        .map(|(r, &f)| {
            let mf = model.ranks.get(r).and_then(|c| c.finish);
            (f, mf, ratio(f, mf))
        })
        .collect();
    let total = model
        .ranks
        .iter()
        .map(|c| c.finish)
        .try_fold(0.0, |a: f64, f| f.map(|f| a.max(f)));
    Comparison {
        ranks,
        measured: m.end,
        model: total,
        ratio: ratio(m.end, total),
    }
}

/// How the trace's case differs from the page's (`alg`, `p`, tensor
/// `bytes`, `segments`): one phrase per difference, e.g.
/// `"p = 8 (the page: 4)"`; empty when they agree on all the trace says.
pub fn differences(m: &Measured, alg: &str, p: usize, bytes: u64, segments: usize) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(a) = m.alg.as_deref().filter(|a| *a != alg) {
        v.push(format!("algorithm {a} (the page: {alg})"));
    }
    if m.p != p {
        v.push(format!("p = {} (the page: {p})", m.p));
    }
    if let Some(b) = m.bytes.filter(|b| *b != bytes) {
        v.push(format!("size {b} B (the page: {bytes} B)"));
    }
    if let Some(k) = m.segments.filter(|k| *k != segments) {
        v.push(format!("segments = {k} (the page: {segments})"));
    }
    v
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
