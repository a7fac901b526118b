//! What the importer reads into: a log's tables and rows ([`Log`],
//! [`Series`], [`Row`]), the numbers as printed ([`Printed`]), the messages
//! about lines ([`LineMessage`]), the import's options and errors, and the
//! helpers every parser shares (numbered lines, the message and row caps).

use super::model::CollectiveKind;
use crate::core::collectives::Algorithm;

/// A numbered line (1-based) of owned text.
pub type Line = (usize, String);

/// What an annotation line says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Annotation {
    /// 1-based line of the annotation.
    pub line: usize,
    /// The algorithm named by `alg=` (a key of [`Algorithm::all`]); `None`
    /// when `alg=` is missing or unknown (then `error` says so).
    pub alg: Option<Algorithm>,
    /// The rank count named by `p=` (≥ 2), if any and valid.
    pub p: Option<usize>,
    /// The MPI library's eager limit named by `eager=` (bytes, ≥ 1), if any
    /// and valid: the measure view names a breakpoint near it.
    pub eager: Option<u64>,
}

/// Largest paste the importer reads, in bytes (larger input is cut there and
/// the cut is reported).
pub const MAX_INPUT_BYTES: usize = 16 * 1024 * 1024;
/// Most data rows kept per table (further rows are reported and skipped).
pub const MAX_ROWS: usize = 200_000;
/// Most line messages kept per log (further ones are dropped).
pub const MAX_MESSAGES: usize = 200;

/// The formats the importer reads, as named in messages.
pub const FORMATS: &str = "nccl-tests tables (all_reduce_perf, all_gather_perf, reduce_scatter_perf, \
broadcast_perf, reduce_perf, alltoall_perf; launcher prefixes such as [1,0]<stdout>: and two logs side \
by side separated by |), OSU micro-benchmark collectives (osu_allreduce and friends: # Size, Avg Latency(us), \
optional Min/Max/Iterations), nccl-tests rows pasted without their header, and generic CSV or whitespace columns with a header naming size and time \
(units in the header, e.g. size(MB), time(us))";

/// Which parser read a log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// NVIDIA nccl-tests (`*_perf`).
    NcclTests,
    /// OSU micro-benchmarks (`osu_allreduce` …).
    Osu,
    /// Generic CSV or whitespace columns with a header.
    Generic,
    /// UCC perftest (`ucc_perftest`): recognised and named in the
    /// rejection, not read.
    Ucc,
    /// gloo's benchmark (gloo/benchmark): recognised and named in the
    /// rejection, not read.
    Gloo,
}

impl Format {
    /// Display name.
    pub fn label(self) -> &'static str {
        match self {
            Format::NcclTests => "nccl-tests",
            Format::Osu => "OSU micro-benchmarks",
            Format::Generic => "generic columns",
            Format::Ucc => "UCC perftest",
            Format::Gloo => "gloo benchmark",
        }
    }
}

/// A number as printed in the log, in SI units, with the rounding of its
/// printed form: the true value lies in `value ± half_ulp`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Printed {
    /// The value in SI units (bytes, seconds or bytes per second).
    pub value: f64,
    /// Half a unit in the last printed digit, in the same SI unit
    /// (`2560.7` µs → 0.05 µs = 5e-8 s). 0 for exact integers.
    pub half_ulp: f64,
    /// Number of decimals printed (for re-printing at the same precision).
    pub decimals: u32,
}

impl Printed {
    /// Lower end of the interval the printed value stands for.
    pub fn lo(&self) -> f64 {
        self.value - self.half_ulp
    }
    /// Upper end of the interval the printed value stands for.
    pub fn hi(&self) -> f64 {
        self.value + self.half_ulp
    }
}

/// Parses a printed number and scales it by `scale` (the unit's size in SI).
/// Returns `None` for text that is not a finite number.
pub fn printed(tok: &str, scale: f64) -> Option<Printed> {
    let t = tok.trim();
    if t.is_empty()
        || !t
            .bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
    {
        return None;
    }
    let v: f64 = crate::core::units::decimal::parse(t)?;
    if !v.is_finite() {
        return None;
    }
    let (mant, exp) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], t[i + 1..].parse::<i32>().ok()?),
        None => (t, 0),
    };
    let decimals = mant.split_once('.').map(|(_, f)| f.len()).unwrap_or(0) as i32;
    let half = 0.5 * 10f64.powi(exp - decimals);
    Some(Printed {
        value: v * scale,
        half_ulp: half * scale.abs(),
        decimals: decimals.max(0) as u32,
    })
}

/// One data row of a table, in SI units.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// 1-based line number in the pasted text.
    pub line: usize,
    /// Message size, bytes (as the tool defines it: nccl-tests prints the
    /// total buffer size; OSU the per-rank message size).
    pub size: Printed,
    /// Time of one operation, seconds (nccl-tests `time`, OSU average latency).
    pub time: Printed,
    /// Printed algbw, bytes per second.
    pub algbw: Option<Printed>,
    /// Printed busbw, bytes per second.
    pub busbw: Option<Printed>,
    /// A printed bandwidth whose kind (algbw or busbw) the header does not
    /// say; [`checks::check`](crate::core::measure::checks::check) decides it from the numbers.
    pub bw_unknown: Option<Printed>,
    /// nccl-tests `#wrong` (or `error`) count; `None` when printed as `N/A`.
    pub wrong: Option<f64>,
    /// Minimum time, seconds (OSU `Min Latency`, generic `tmin`).
    pub min_time: Option<f64>,
    /// Maximum time, seconds.
    pub max_time: Option<f64>,
    /// Iterations (OSU `Iterations`).
    pub iterations: Option<u64>,
}

/// One table of rows: nccl-tests prints two per log (out-of-place and
/// in-place); OSU and generic logs have one.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// "out-of-place", "in-place", "avg latency", …
    pub label: String,
    /// The rows in the order printed.
    pub rows: Vec<Row>,
}

/// Where the rank count came from.
#[derive(Clone, Debug, PartialEq)]
pub enum RankSource {
    /// The highest `# Rank k` line: p = k + 1 (line number of that line).
    RankLines {
        /// Line of the highest rank.
        line: usize,
    },
    /// An `nranks N` field.
    NRanks {
        /// Line of the field.
        line: usize,
    },
    /// A launcher's `-np N` / `--nproc_per_node N` on a command line
    /// (times nThread·nGpus for nccl-tests).
    Launcher {
        /// Line of the command.
        line: usize,
    },
    /// Inferred from busbw / algbw = the collective's factor.
    Inferred,
    /// Not stated and not inferable: a default was assumed.
    Assumed,
    /// The printed digits fit several rank counts (`lo ..= hi`, `hi = None`
    /// when unbounded) or none: the user must set p. `RankCount::p` is then
    /// only provisional (`lo`, used for the row checks); no fit is made.
    Undetermined {
        /// Smallest p that fits every row.
        lo: usize,
        /// Largest p that fits every row (`None`: every p ≥ `lo` fits).
        hi: Option<usize>,
    },
    /// Typed by the user.
    User,
    /// The `p=` of the annotation line (wins over the log's own statement
    /// and the inference).
    Annotation {
        /// Line of the annotation.
        line: usize,
    },
}

/// The rank count p and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct RankCount {
    /// Number of ranks.
    pub p: usize,
    /// Its source.
    pub source: RankSource,
    /// One sentence saying how p was found, shown next to it.
    pub note: String,
}

/// A line the parser could not use (or wants to point out), 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineMessage {
    /// 1-based line number (0 for the whole paste).
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

/// One imported log.
#[derive(Clone, Debug, PartialEq)]
pub struct Log {
    /// The parser that read it.
    pub format: Format,
    /// "left" / "right" for two logs side by side ("left, log 2" when each
    /// side holds several annotated logs), "log 2" for logs one after the
    /// other, else "".
    pub part: String,
    /// The collective (from the tool name, the OSU title or the numbers).
    pub collective: CollectiveKind,
    /// How the collective was found.
    pub collective_note: String,
    /// The tables.
    pub series: Vec<Series>,
    /// p as stated by the log (rank lines, nranks, launcher), if any.
    pub stated_p: Option<RankCount>,
    /// A rank count mentioned only in a comment (e.g. `# command: mpirun -np
    /// 24`): used as a cross-check, not as a statement. `(p, line)`.
    pub comment_p: Option<(usize, usize)>,
    /// The printed `# Avg bus bandwidth` (B/s) and its line.
    pub avg_busbw: Option<(Printed, usize)>,
    /// The title or first comment line (for display; may contain anything).
    pub title: String,
    /// Notes about how the log was read (units, column roles, steps).
    pub notes: Vec<String>,
    /// The annotation line `# collective-lab-run alg=… p=…`, if any.
    pub annotation: Option<Annotation>,
}

/// A measured series for a chart or a data table: its label and
/// `(size B, value)` points.
pub type Points = (String, Vec<(f64, f64)>);

impl Log {
    /// The title for display: at most `max` characters, cut at the last
    /// space before that with "…" added, so no word is cut in half (a
    /// title without a space within `max` is cut at `max`).
    pub fn short_title(&self, max: usize) -> String {
        let t = &self.title;
        let Some((end, _)) = t.char_indices().nth(max) else {
            return t.clone();
        };
        let head = &t[..end];
        let cut = head.rfind(' ').filter(|&i| i > 0).unwrap_or(end);
        let mut out = head[..cut]
            .trim_end_matches([' ', ',', ';', ':'])
            .to_string();
        out.push('…');
        out
    }

    /// Every series as `(size B, time s)` points, in log order.
    pub fn time_points(&self) -> Vec<Points> {
        self.series
            .iter()
            .map(|sr| {
                let pts = sr.rows.iter().map(|r| (r.size.value, r.time.value));
                (sr.label.clone(), pts.collect())
            })
            .collect()
    }
}

/// Everything [`import`](crate::core::measure::pipeline::import) found.
#[derive(Clone, Debug, PartialEq)]
pub struct Import {
    /// The logs (two for a side-by-side paste).
    pub logs: Vec<Log>,
    /// Lines that could not be read, in line order.
    pub messages: Vec<LineMessage>,
}

/// Options a user may set to help the parsers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportOptions {
    /// Size unit for generic columns whose header has none (e.g. "MB", "KiB").
    pub size_unit: Option<String>,
    /// Time unit for generic columns whose header has none (e.g. "us").
    pub time_unit: Option<String>,
    /// What a generic bandwidth column holds when its name does not say.
    pub bw_kind: Option<BwKind>,
    /// The collective, when the log does not name it.
    pub collective: Option<CollectiveKind>,
}

/// What a bandwidth column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BwKind {
    /// size / time.
    Alg,
    /// algbw × the collective's factor.
    Bus,
}

/// Why nothing could be imported.
#[derive(Clone, Debug, PartialEq)]
pub enum ImportError {
    /// The paste is empty or only whitespace.
    Empty,
    /// No table of a known format was found; the line messages say why.
    Unrecognised {
        /// Line-numbered reasons (may be empty).
        messages: Vec<LineMessage>,
    },
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImportError::Empty => write!(f, "The paste is empty. We read {FORMATS}."),
            ImportError::Unrecognised { .. } => write!(
                f,
                "No table of a known format was found. We read {FORMATS}."
            ),
        }
    }
}

/// Splits `text` into lines with 1-based numbers.
pub(crate) fn numbered_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect()
}

/// Pushes a message unless [`MAX_MESSAGES`] were already kept.
pub(crate) fn push_msg(out: &mut Vec<LineMessage>, line: usize, reason: impl Into<String>) {
    if out.len() < MAX_MESSAGES {
        out.push(LineMessage {
            line,
            reason: reason.into(),
        });
    }
}

/// True once `rows` rows are kept and [`MAX_ROWS`] is reached, with the
/// message at line `line` that the rest was skipped.
pub(crate) fn rows_full(rows: usize, out: &mut Vec<LineMessage>, line: usize) -> bool {
    let full = rows >= MAX_ROWS;
    if full {
        push_msg(
            out,
            line,
            format!("more than {MAX_ROWS} rows; the rest was skipped"),
        );
    }
    full
}

/// A row's printed size, read.
pub(crate) enum RowSize {
    /// Positive: the row goes on.
    Positive(Printed),
    /// Negative or zero: the row is skipped and a message says why.
    Skipped,
    /// Not a number: the caller says why.
    Unread,
}

/// Reads a row's printed size `got`: a negative size or a zero size gets a
/// message at line `line` ("negative size; row skipped", or `zero`).
pub(crate) fn row_size(
    got: Option<Printed>,
    out: &mut Vec<LineMessage>,
    line: usize,
    zero: &str,
) -> RowSize {
    match got {
        Some(s) if s.value > 0.0 => RowSize::Positive(s),
        Some(s) if s.value < 0.0 => {
            push_msg(out, line, "negative size; row skipped");
            RowSize::Skipped
        }
        Some(_) => {
            push_msg(out, line, zero);
            RowSize::Skipped
        }
        None => RowSize::Unread,
    }
}
