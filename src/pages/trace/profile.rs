//! The trace page's profiler panel in words and rows: PyTorch profiler
//! traces read by [`crate::core::profiler`], one per rank, their steps'
//! communication split into hidden and exposed, each collective's algbw
//! and busbw, the collectives matched across ranks and who arrived last,
//! and a per-rank chart of the communication on one time axis.

use crate::core::flight::rank_of_name;
use crate::core::profiler::{step_case, Matched, ProfileError, RankProfile, Source};
use crate::core::units::decimal::fixed;
use crate::core::units::{format_bandwidth, format_binary, format_time, group_thousands};

/// One loaded trace: its file name, its rank and what it says.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    /// The file's name.
    pub file: String,
    /// The rank: `distributedInfo`'s, else the file name's last digits,
    /// else its place in the set.
    pub rank: usize,
    /// The reading.
    pub profile: RankProfile,
}

/// The rank of a trace: `distributedInfo`'s, else the digits that end its
/// file name (`rank_1.json.gz` → 1), else `fallback`.
pub fn rank_for(p: &RankProfile, file: &str, fallback: usize) -> usize {
    p.rank
        .or_else(|| rank_of_name(file.strip_suffix(".gz").unwrap_or(file)))
        .unwrap_or(fallback)
}

/// What went wrong with one file, for the page.
#[derive(Clone, Debug, PartialEq)]
pub enum FileProblem {
    /// Larger than the page reads, MB.
    TooLarge(u32),
    /// The browser could not read it.
    Unreadable,
    /// A gzip stream that ends early or is not gzip.
    BadGzip(String),
    /// The reader's reason.
    Trace(ProfileError),
    /// A second file of a rank already loaded.
    SameRank(usize),
}

/// One sentence about one file.
pub fn file_message(file: &str, p: &FileProblem) -> String {
    match p {
        FileProblem::TooLarge(mb) => format!("{file}: larger than {mb} MB, not read."),
        FileProblem::Unreadable => format!("{file}: the browser could not read it."),
        FileProblem::BadGzip(m) => {
            format!("{file}: it ends in .gz but does not decompress (a truncated or foreign gzip stream: {m}).")
        }
        FileProblem::Trace(e) => format!("{file}: not read: {e}."),
        FileProblem::SameRank(r) => {
            format!("{file}: rank {r} is loaded already; the first file of a rank is kept.")
        }
    }
}

fn ms(s: f64) -> String {
    format_time(s)
}

fn pct(part: f64, whole: f64) -> String {
    if whole > 0.0 {
        format!("{} %", fixed(100.0 * part / whole, 0))
    } else {
        "—".into()
    }
}

/// The step table: per rank and profiled step, its span, the number of
/// communication operations, their time, hidden, exposed (with its share)
/// and the compute time.
pub fn step_rows(set: &[Loaded]) -> Vec<[String; 8]> {
    set.iter()
        .flat_map(|l| {
            l.profile.steps.iter().map(move |s| {
                [
                    l.rank.to_string(),
                    s.name.clone(),
                    ms(s.span),
                    s.count.to_string(),
                    ms(s.comm),
                    ms(s.hidden),
                    format!("{} ({})", ms(s.exposed), pct(s.exposed, s.comm)),
                    ms(s.compute),
                ]
            })
        })
        .collect()
}

/// The collectives of one rank: what, the event's name, elements and S,
/// duration, algbw and busbw (nccl-tests' convention).
pub fn comm_rows(l: &Loaded) -> Vec<[String; 6]> {
    l.profile
        .comms
        .iter()
        .map(|c| {
            let size = match (c.nelems, c.bytes()) {
                (Some(n), Some(b)) => format!(
                    "{} × {} ({})",
                    group_thousands(n),
                    c.dtype.as_deref().unwrap_or("?"),
                    format_binary(b as f64)
                ),
                (Some(n), None) => format!("{} elements", group_thousands(n)),
                _ => "not recorded".into(),
            };
            let bw = |x: Option<f64>| x.map_or_else(|| "—".into(), format_bandwidth);
            [
                c.label.clone(),
                c.name.clone(),
                size,
                ms(c.dur * 1e-6),
                bw(c.algbw()),
                bw(c.busbw()),
            ]
        })
        .collect()
}

/// The matched table: group and place, what, S, start spread, the last
/// rank and the longest wait of another rank for it.
pub fn matched_rows(m: &[Matched]) -> Vec<[String; 6]> {
    m.iter()
        .map(|x| {
            let longest = x.arrivals.iter().map(|a| a.wait).fold(0.0, f64::max);
            [
                format!("group {} #{}", x.pg, x.index + 1),
                if x.agree {
                    x.label.clone()
                } else {
                    format!("{} (ranks disagree)", x.label)
                },
                x.bytes
                    .map_or_else(|| "—".into(), |b| format_binary(b as f64)),
                ms(x.spread),
                format!("rank {}", x.last),
                ms(longest),
            ]
        })
        .collect()
}

/// The answer first: per rank its exposed share of communication, and
/// across ranks who arrived last most often and the longest wait for it.
pub fn answer(set: &[Loaded], m: &[Matched]) -> Vec<String> {
    let mut out = Vec::new();
    for l in set {
        let (c, e, span): (f64, f64, f64) = l.profile.steps.iter().fold((0.0, 0.0, 0.0), |a, s| {
            (a.0 + s.comm, a.1 + s.exposed, a.2 + s.span)
        });
        let steps = l.profile.steps.len();
        out.push(format!(
            "Rank {}: {} of communication in {} step{} ({} in all), {} of it exposed ({}).",
            l.rank,
            ms(c),
            steps,
            if steps == 1 { "" } else { "s" },
            ms(span),
            ms(e),
            pct(e, c),
        ));
    }
    if let Some(worst) = m.iter().max_by(|a, b| a.spread.total_cmp(&b.spread)) {
        let mut counts: Vec<(usize, usize)> = Vec::new();
        for x in m {
            match counts.iter_mut().find(|(r, _)| *r == x.last) {
                Some(c) => c.1 += 1,
                None => counts.push((x.last, 1)),
            }
        }
        counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let (r, n) = counts[0];
        out.insert(
            0,
            format!(
                "Rank {r} arrived last at {n} of {} matched collectives; the widest spread of start times is {} (group {} #{}, {}, rank {} last).",
                m.len(),
                ms(worst.spread),
                worst.pg,
                worst.index + 1,
                worst.label,
                worst.last,
            ),
        );
    }
    out
}

/// What the traces cannot tell, for the set loaded.
pub fn caveats(set: &[Loaded]) -> Vec<String> {
    let mut v = vec![
        "An operation's time includes waiting for its peers, so its busbw is a lower bound on the link's, not the link's bandwidth.".to_string(),
    ];
    if set.iter().any(|l| {
        l.profile
            .comms
            .iter()
            .any(|c| c.source == Source::NcclKernel)
    }) {
        v.push("The protocol in an NCCL kernel's name (LL, LL128, SIMPLE) is not reliably the one that ran: one kernel serves every protocol (NVIDIA/nccl #502, #1595, #2196). NCCL_DEBUG_SUBSYS=TUNING prints the one chosen.".into());
    }
    if set.iter().any(|l| l.profile.kernels == 0) {
        v.push("CPU-only (gloo) trace: compute is the CPU operators' time on the threads that run no collective, less DDP's enqueue (c10d::*); waiting inside any other operator counts as compute.".into());
    }
    if set.len() > 1 {
        v.push("Start times are compared on the traces' own clocks: one host's ranks share a clock, ranks on different hosts are only as aligned as the hosts' clocks.".into());
    }
    v
}

/// One bar of the chart: its rank's row, start and end as fractions of the
/// axis, and its title.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Row (the set's order).
    pub row: usize,
    /// Start, 0..1 of the axis.
    pub x0: f64,
    /// End, 0..1 of the axis.
    pub x1: f64,
    /// "all-reduce, 1.127 MiB, 42.34 ms".
    pub title: String,
    /// True for the part of an operation spent waiting for the last rank
    /// (drawn over the operation's bar).
    pub wait: bool,
}

/// The chart: every rank's communication on one time axis from the
/// earliest start of any rank, then over it each matched collective's
/// waiting for the last rank (from a rank's start to the last start, at
/// most its own duration); the axis length in seconds.
pub fn chart(set: &[Loaded], m: &[Matched]) -> (Vec<Bar>, f64) {
    let all = || set.iter().flat_map(|l| l.profile.comms.iter());
    let lo = all().map(|c| c.start).fold(f64::INFINITY, f64::min);
    let hi = all()
        .map(|c| c.start + c.dur)
        .fold(f64::NEG_INFINITY, f64::max);
    if hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater) {
        return (Vec::new(), 0.0);
    }
    let w = hi - lo;
    let mut bars: Vec<Bar> = set
        .iter()
        .enumerate()
        .flat_map(|(row, l)| {
            l.profile.comms.iter().map(move |c| Bar {
                row,
                x0: (c.start - lo) / w,
                x1: (c.start + c.dur - lo) / w,
                title: format!(
                    "rank {}: {}, {}, {} from {}",
                    l.rank,
                    c.label,
                    c.bytes()
                        .map_or_else(|| "size not recorded".into(), |b| format_binary(b as f64)),
                    ms(c.dur * 1e-6),
                    ms((c.start - lo) * 1e-6),
                ),
                wait: false,
            })
        })
        .collect();
    for x in m {
        for a in x.arrivals.iter().filter(|a| a.wait > 0.0) {
            let Some(row) = set.iter().position(|l| l.rank == a.rank) else {
                continue;
            };
            let end = a.start + (a.wait * 1e6).min(a.dur);
            bars.push(Bar {
                row,
                x0: (a.start - lo) / w,
                x1: (end - lo) / w,
                title: format!(
                    "rank {} waited {} for rank {} ({} #{})",
                    a.rank,
                    ms(a.wait),
                    x.last,
                    x.label,
                    x.index + 1
                ),
                wait: true,
            });
        }
    }
    (bars, w * 1e-6)
}

/// The line under the chart: what it shows and its axis.
pub fn chart_caption(set: &[Loaded], axis: f64) -> String {
    format!(
        "Communication of {} rank{} on one time axis of {} from the first start; the lighter part of a bar is time spent waiting for the last rank.",
        set.len(),
        if set.len() == 1 { "" } else { "s" },
        ms(axis)
    )
}

/// What was read, one line per file.
pub fn read_line(set: &[Loaded]) -> String {
    let files: Vec<String> = set
        .iter()
        .map(|l| {
            let p = &l.profile;
            let what = if p.kernels > 0 {
                format!("{} GPU kernels", group_thousands(p.kernels as u64))
            } else {
                "CPU only".into()
            };
            let nccl = p
                .nccl_version
                .as_ref()
                .map(|v| format!(", NCCL {v}"))
                .unwrap_or_default();
            format!(
                "{} (rank {}, {}{}{}, {} communication operations)",
                l.file,
                l.rank,
                what,
                p.backend
                    .as_ref()
                    .map(|b| format!(", {b}"))
                    .unwrap_or_default(),
                nccl,
                p.comms.len()
            )
        })
        .collect();
    format!("Read: {}.", files.join("; "))
}

/// The step view's name for a dtype: "fp32", "bf16", "fp16"; `None` for
/// the others (the step view models only these).
fn step_dtype(t: &str) -> Option<&'static str> {
    match t
        .trim()
        .trim_start_matches("c10::")
        .to_ascii_lowercase()
        .as_str()
    {
        "float" | "float32" | "f32" => Some("fp32"),
        "bfloat16" | "bf16" => Some("bf16"),
        "half" | "float16" | "f16" => Some("fp16"),
        _ => None,
    }
}

/// Milliseconds for a URL field, to the nanosecond: 0.0050857 s → "5.085696ms".
fn ms_field(s: f64) -> String {
    format!(
        "{}ms",
        crate::core::units::decimal::shortest((s * 1e9).round() / 1e6)
    )
}

/// The link that opens the last profiled step of `l` in the training-step
/// view (its query, starting `view=step`), and a sentence of what it
/// carries; or why there is none. The buckets become layers in reverse
/// launch order with caps of 1 B, so each is a bucket of its own and they
/// launch in the trace's order; bw is the largest bucket's busbw (a lower
/// bound: its time includes waiting), α 0.
pub fn step_link(l: &Loaded) -> Result<(String, String), String> {
    let last = l.profile.steps.len().saturating_sub(1);
    let Some(c) = step_case(&l.profile, last) else {
        return Err(format!(
            "Rank {}'s last step has no all-reduce with its size, dtype and group recorded, so it cannot open in the training-step view.",
            l.rank
        ));
    };
    let Some(dt) = step_dtype(&c.dtype) else {
        return Err(format!(
            "The training-step view models fp32, bf16 and fp16, not {}.",
            c.dtype
        ));
    };
    let join = |v: Vec<String>| v.join(",");
    let mut pairs = vec![
        ("view", "step".to_string()),
        ("p", c.world.to_string()),
        ("layers", c.buckets.len().to_string()),
        (
            "params",
            join(c.buckets.iter().rev().map(|n| n.to_string()).collect()),
        ),
        ("dtype", dt.to_string()),
        ("bucket", "1B".into()),
        ("first", "1B".into()),
        ("fwd", ms_field(c.fwd)),
        (
            "bwd",
            join(c.bwd.iter().rev().map(|&t| ms_field(t)).collect()),
        ),
        ("alpha", "0us".into()),
    ];
    // The measured step and its exposed part, for the step view to show
    // beside its model (`measured=`); only when both fit its field.
    if c.span <= 3600.0 && c.exposed <= c.span {
        pairs.push((
            "measured",
            format!("{},{}", ms_field(c.span), ms_field(c.exposed)),
        ));
    }
    let bw = c.busbw.filter(|b| *b > 0.0);
    if let Some(b) = bw {
        pairs.push((
            "bw",
            format!(
                "{}MB/s",
                crate::core::units::decimal::shortest((b / 1e3).round() / 1e3)
            ),
        ));
    }
    let sizes: Vec<String> = c.buckets.iter().map(|&n| group_thousands(n)).collect();
    let link = bw.map_or_else(
        || "the page's link".to_string(),
        |b| format!("bw = {} (the largest bucket's busbw, a lower bound on the link: its time includes waiting)", format_bandwidth(b)),
    );
    let text = format!(
        "Rank {}'s {}: {} bucket{} of {} {} elements in launch order, p = {}, forward {}, backward {} before each launch, {}, α = 0. Measured: the step {}, its exposed communication {}, shown there beside the model's.",
        l.rank,
        c.step,
        c.buckets.len(),
        if c.buckets.len() == 1 { "" } else { "s" },
        sizes.join(", "),
        dt,
        c.world,
        ms(c.fwd),
        c.bwd.iter().map(|&t| ms(t)).collect::<Vec<_>>().join(", "),
        link,
        ms(c.span),
        ms(c.exposed),
    );
    Ok((crate::params::encode(&pairs), text))
}

/// The progress line while a file is read: "Reading rank_0.json.gz: 45 %
/// of 180.0 MiB", then "Parsing rank_0.json.gz (180.0 MiB)…".
pub fn progress_line(file: &str, fraction: f64, bytes: f64, parsing: bool) -> String {
    if parsing {
        format!("Parsing {file} ({})…", format_binary(bytes))
    } else {
        format!(
            "Reading {file}: {} % of {}",
            fixed(100.0 * fraction.clamp(0.0, 1.0), 0),
            format_binary(bytes)
        )
    }
}

/// Rows a table shows at most; the rest are counted in [`more_line`].
pub const MAX_ROWS: usize = 200;

/// "Showing the first 200 of 6,440 rows.", when a table was cut.
pub fn more_line(total: usize) -> Option<String> {
    (total > MAX_ROWS).then(|| {
        format!(
            "Showing the first {MAX_ROWS} of {} rows.",
            group_thousands(total as u64)
        )
    })
}
