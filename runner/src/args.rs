//! Command-line arguments: parsed the same way on every rank (every rank sees
//! the same argv), so every rank reaches the same decision about bad input.

use collective_lab::core::collectives::Algorithm;
use collective_lab::core::units::parse_size;

/// Bytes per element: the runner moves `f32` gradients.
pub const ELEM_BYTES: u64 = 4;

/// Largest tensor the runner allocates, bytes (each rank holds three copies).
pub const MAX_BYTES: u64 = 1 << 32;

/// The table format printed by rank 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// OSU micro-benchmarks' `# Size  Avg Latency(us) …` table.
    Osu,
    /// nccl-tests' `size count type redop root time algbw busbw #wrong` table.
    Nccl,
}

/// Everything the command line says.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The registry algorithm to run.
    pub alg: Algorithm,
    /// Tensor sizes in bytes, ascending.
    pub sizes: Vec<u64>,
    /// Timed iterations per size; `None` picks OSU's defaults by size.
    pub iters: Option<usize>,
    /// Untimed warm-up iterations per size; `None` picks OSU's defaults.
    pub warmup: Option<usize>,
    /// Pieces the tensor is cut into, each run as its own schedule, one after the other.
    pub segments: usize,
    /// Chrome trace-event file for one traced iteration of the largest size.
    pub trace: Option<String>,
    /// Output table format.
    pub format: Format,
    /// Also time the library's `MPI_Allreduce`.
    pub baseline: bool,
    /// Treat every this many consecutive ranks as one node instead of asking MPI.
    pub ranks_per_node: Option<usize>,
    /// `--eager-limit`: report the MPI library's eager limit in the
    /// annotation line (asked of the library, or as given).
    pub eager_limit: Option<EagerArg>,
    /// Hidden, for tests: break the schedule so that the self-check must fail.
    pub break_reduce: bool,
}

/// What `--eager-limit` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EagerArg {
    /// `auto`: ask the library (`crate::eager::query`).
    Auto,
    /// A size given by the user, bytes (e.g. the value passed to `--mca`).
    Bytes(u64),
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Run with these options.
    Run(Options),
    /// Print the help text and exit 0.
    Help,
    /// Print one line per registry algorithm (`key collective layout`, then
    /// `NCCL_ALGO=…` where NCCL has the algorithm) and exit 0.
    List,
    /// Print the version (and the MPI library's) and exit 0.
    Version,
}

/// True for the registry entries the runner runs
/// ([`Algorithm::runner_runs`]: all but the all-to-alls).
pub fn runs(a: Algorithm) -> bool {
    a.runner_runs()
}

/// The keys of [`runs`], in registry order.
fn run_keys() -> Vec<&'static str> {
    Algorithm::all()
        .filter(|&a| runs(a))
        .map(Algorithm::key)
        .collect()
}

/// The help text (the hidden `--break-reduce` is not listed).
pub fn usage() -> String {
    let keys = run_keys();
    format!(
        "usage: mpirun -n P collective-lab-run --alg KEY --sizes FROM:TO [options]\n\
         \x20      srun -n P collective-lab-run --alg KEY --sizes FROM:TO [options]\n\
         \n\
         Runs a Collective Lab schedule over MPI on real f32 buffers, times it,\n\
         and checks the result against the matching MPI collective.\n\
         \n\
         --alg KEY            one of {}\n\
         \x20                    (ring is NCCL's Ring, dbtree NCCL's Tree; tree is a binomial tree)\n\
         --sizes FROM:TO      tensor sizes, doubling from FROM up to TO (e.g. 8B:64MiB, 4B:16MiB);\n\
         \x20                    a single size (1MiB) runs one size; sizes are whole 4-byte floats\n\
         --iters N            timed iterations per size (default: OSU's, 1000 up to 8 KiB, else 100)\n\
         --warmup N           untimed iterations per size (default: OSU's, 200 up to 8 KiB, else 10)\n\
         --segments K         cut the tensor into K pieces, each its own schedule, run one after\n\
         \x20                    the other on every rank (pipelining; default 1)\n\
         --trace FILE         write one traced iteration of the largest size as Chrome trace JSON\n\
         \x20                    (a process per rank; send, recv, wait and reduce rows; flows)\n\
         --format osu|nccl    table format (default osu)\n\
         --baseline           also time MPI_Allreduce (the library's own choice) at the same sizes\n\
         --ranks-per-node G   treat every G consecutive ranks as a node (default: the layout MPI\n\
         \x20                    reports with MPI_Comm_split_type SHARED)\n\
         --eager-limit auto|SIZE  write the MPI library's eager limit into the annotation line\n\
         \x20                    (auto: an OMPI_MCA_btl_*_eager_limit variable, else ompi_info)\n\
         --list               one line per algorithm: key, collective, flat or nodes, and\n\
         \x20                    NCCL_ALGO=… where NCCL has the same algorithm\n\
         --version            the version of this program and of the MPI library\n\
         --help               this text\n\
         \n\
         --help, --list and --version need no mpirun.",
        keys.join(", ")
    )
}

/// NCCL's name for the algorithm (the value of `NCCL_ALGO`), where NCCL
/// runs the same one: `ring`, `rs` and `ag` are NCCL's `Ring` (NCCL runs
/// all-reduce, reduce-scatter and all-gather as rings), `dbtree` is its
/// `Tree` (the double binary tree, NCCL 2.4). The lab's `tree` is a
/// binomial tree, which NCCL does not run; the others have no NCCL name.
pub fn nccl_algo(alg: Algorithm) -> Option<&'static str> {
    match alg.key() {
        "ring" | "rs" | "ag" => Some("Ring"),
        "dbtree" => Some("Tree"),
        _ => None,
    }
}

/// This rank's number as the launcher says it in the environment, read
/// without MPI: `OMPI_COMM_WORLD_RANK` (Open MPI's mpirun), `PMI_RANK`
/// (MPICH's and Intel MPI's Hydra), `PMIX_RANK` (PMIx, e.g. `srun
/// --mpi=pmix`), `SLURM_PROCID` (srun). `None` outside a launcher.
pub fn launcher_rank_from(var: impl Fn(&str) -> Option<String>) -> Option<u64> {
    [
        "OMPI_COMM_WORLD_RANK",
        "PMI_RANK",
        "PMIX_RANK",
        "SLURM_PROCID",
    ]
    .iter()
    .find_map(|k| var(k)?.trim().parse().ok())
}

/// [`launcher_rank_from`] on this process's environment.
pub fn launcher_rank() -> Option<u64> {
    launcher_rank_from(|k| std::env::var(k).ok())
}

/// The `--version` lines: this program's version, then the MPI standard
/// version and the library's own description (`mpi_library`, the first
/// line of `MPI_Get_library_version`, which needs no `MPI_Init`).
pub fn version(mpi_standard: (i32, i32), mpi_library: &str) -> Vec<String> {
    let lib = mpi_library
        .lines()
        .next()
        .unwrap_or("")
        .trim_matches(|c: char| c == '\0' || c.is_whitespace());
    vec![
        format!("collective-lab-run {}", env!("CARGO_PKG_VERSION")),
        format!("MPI {}.{}: {lib}", mpi_standard.0, mpi_standard.1),
    ]
}

/// Reads a non-negative count.
fn count(flag: &str, v: &str) -> Result<usize, String> {
    v.trim()
        .parse::<usize>()
        .map_err(|_| format!("{flag} needs a whole number (got “{v}”)"))
}

/// The sizes of `FROM:TO` (or a single size): `FROM`, `2·FROM`, `4·FROM` …
/// up to `TO`.
///
/// # Errors
/// A size that does not parse, is not a whole number of 4-byte floats, is
/// above [`MAX_BYTES`], or `FROM > TO`.
pub fn parse_sizes(s: &str) -> Result<Vec<u64>, String> {
    let (a, b) = s.split_once(':').unwrap_or((s, s));
    let one = |t: &str| -> Result<u64, String> {
        let t = t.trim();
        if t.chars().all(|c| c.is_ascii_digit() || c == '.') && t.trim_matches('0').is_empty() {
            return Err(format!(
                "size “{t}” is 0: a collective needs at least one element"
            ));
        }
        let bytes = parse_size(t).map_err(|e| format!("--sizes: {e}"))?.bytes;
        if bytes % ELEM_BYTES != 0 {
            return Err(format!(
                "size {t} = {bytes} B is not a whole number of {ELEM_BYTES}-byte floats"
            ));
        }
        if bytes > MAX_BYTES {
            return Err(format!(
                "size {t} = {bytes} B is above the runner's limit of {MAX_BYTES} B (4 GiB)"
            ));
        }
        Ok(bytes)
    };
    let (from, to) = (one(a)?, one(b)?);
    if from > to {
        return Err(format!("--sizes {s}: FROM is larger than TO"));
    }
    let mut out = Vec::new();
    let mut n = from;
    while n <= to {
        out.push(n);
        match n.checked_mul(2) {
            Some(m) => n = m,
            None => break,
        }
    }
    Ok(out)
}

/// Parses the arguments after the program name.
///
/// # Errors
/// A message naming the bad argument (unknown flag or algorithm, a missing
/// value, a bad size or count).
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut alg = None;
    let mut sizes = None;
    let mut o = Options {
        alg: Algorithm::RING,
        sizes: Vec::new(),
        iters: None,
        warmup: None,
        segments: 1,
        trace: None,
        format: Format::Osu,
        baseline: false,
        ranks_per_node: None,
        eager_limit: None,
        break_reduce: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        let mut value = || -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag {
            "--help" | "-h" => return Ok(Command::Help),
            "--list" => return Ok(Command::List),
            "--version" | "-V" => return Ok(Command::Version),
            "--alg" => {
                let v = value()?;
                let a = Algorithm::from_key(&v).ok_or_else(|| {
                    format!(
                        "unknown algorithm “{v}”; --alg takes one of {}",
                        run_keys().join(", ")
                    )
                })?;
                if !runs(a) {
                    return Err(format!(
                        "{} is an all-to-all, which the runner does not run yet (it has no \
                         MPI_Alltoall check); --alg takes one of {}",
                        a.key(),
                        run_keys().join(", ")
                    ));
                }
                alg = Some(a);
            }
            "--sizes" => sizes = Some(parse_sizes(&value()?)?),
            "--iters" => {
                let n = count(flag, &value()?)?;
                if n == 0 {
                    return Err("--iters needs at least 1 timed iteration".into());
                }
                o.iters = Some(n);
            }
            "--warmup" => o.warmup = Some(count(flag, &value()?)?),
            "--segments" => {
                let k = count(flag, &value()?)?;
                if k == 0 {
                    return Err("--segments needs at least 1 piece".into());
                }
                o.segments = k;
            }
            "--trace" => o.trace = Some(value()?),
            "--format" => {
                o.format = match value()?.to_ascii_lowercase().as_str() {
                    "osu" => Format::Osu,
                    "nccl" => Format::Nccl,
                    v => return Err(format!("--format takes osu or nccl (got “{v}”)")),
                }
            }
            "--baseline" => o.baseline = true,
            "--ranks-per-node" => {
                let g = count(flag, &value()?)?;
                if g == 0 {
                    return Err("--ranks-per-node needs at least 1 rank".into());
                }
                o.ranks_per_node = Some(g);
            }
            "--eager-limit" => {
                let v = value()?;
                o.eager_limit = Some(if v.trim().eq_ignore_ascii_case("auto") {
                    EagerArg::Auto
                } else {
                    // parse_size refuses 0 B itself.
                    let b = parse_size(&v)
                        .map_err(|e| format!("--eager-limit takes auto or a size: {e}"))?;
                    EagerArg::Bytes(b.bytes)
                });
            }
            "--break-reduce" => o.break_reduce = true,
            _ => return Err(format!("unknown argument “{a}” (see --help)")),
        }
    }
    o.alg = alg.ok_or("--alg KEY is required (see --help)")?;
    o.sizes = sizes.ok_or("--sizes FROM:TO is required (e.g. --sizes 8B:64MiB)")?;
    Ok(Command::Run(o))
}

/// OSU's iteration counts (osu_util.h): 1000 timed and 200 warm-up
/// iterations up to 8 KiB, 100 and 10 above; `--iters` / `--warmup` win.
pub fn iterations(o: &Options, bytes: u64) -> (usize, usize) {
    let small = bytes <= 8192;
    let iters = o.iters.unwrap_or(if small { 1000 } else { 100 });
    let warmup = o.warmup.unwrap_or(if small { 200 } else { 10 });
    (warmup, iters)
}

/// The `--list` lines, one per algorithm the runner [`runs`]: `key collective layout`, then `NCCL_ALGO=NAME`
/// where NCCL runs the same algorithm ([`nccl_algo`]), e.g.
/// `ring all-reduce flat NCCL_ALGO=Ring`, `tree all-reduce flat`.
pub fn list() -> Vec<String> {
    Algorithm::all()
        .filter(|&a| runs(a))
        .map(|a| {
            let layout = if a.needs_nodes() { "nodes" } else { "flat" };
            let nccl = nccl_algo(a).map_or(String::new(), |n| format!(" NCCL_ALGO={n}"));
            format!("{} {} {layout}{nccl}", a.key(), a.collective().label())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    fn run(s: &str) -> Options {
        match parse(&args(s)) {
            Ok(Command::Run(o)) => o,
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn four_bytes_to_sixteen_mebibytes_is_twenty_three_sizes() {
        // 2² … 2²⁴ B: 24 − 2 + 1 = 23 sizes.
        let s = parse_sizes("4B:16MiB").expect("parses");
        assert_eq!(s.len(), 23);
        assert_eq!((s[0], s[1], s[22]), (4, 8, 16 * 1024 * 1024));
    }

    #[test]
    fn a_sweep_doubles_from_a_size_that_is_not_a_power_of_two() {
        assert_eq!(parse_sizes("28B:112B"), Ok(vec![28, 56, 112]));
        assert_eq!(parse_sizes("28B:200B"), Ok(vec![28, 56, 112]));
        assert_eq!(parse_sizes("1KiB"), Ok(vec![1024]));
    }

    #[test]
    fn bad_sizes_are_refused_with_a_reason() {
        assert!(parse_sizes("0B:8B")
            .expect_err("an error")
            .contains("greater than zero"));
        assert!(parse_sizes("0:8B").expect_err("an error").contains("is 0"));
        assert!(parse_sizes("6B").expect_err("an error").contains("4-byte"));
        assert!(parse_sizes("64MiB:8B")
            .expect_err("an error")
            .contains("FROM is larger"));
        assert!(parse_sizes("8Mb").is_err());
        assert!(parse_sizes("8GiB").expect_err("an error").contains("limit"));
    }

    #[test]
    fn flags_are_read() {
        let o = run("--alg RAB --sizes 8B:64B --iters 5 --warmup=0 --segments 3 --format nccl --baseline --trace t.json");
        assert_eq!(o.alg, Algorithm::RAB);
        assert_eq!(o.sizes, vec![8, 16, 32, 64]);
        assert_eq!((o.iters, o.warmup, o.segments), (Some(5), Some(0), 3));
        assert_eq!(o.format, Format::Nccl);
        assert!(o.baseline && !o.break_reduce);
        assert_eq!(o.trace.as_deref(), Some("t.json"));
        assert_eq!(iterations(&o, 8), (0, 5));
        assert_eq!(o.eager_limit, None);
        let e = run("--alg ring --sizes 8B --eager-limit AUTO");
        assert_eq!(e.eager_limit, Some(EagerArg::Auto));
        let e = run("--alg ring --sizes 8B --eager-limit=4KiB");
        assert_eq!(e.eager_limit, Some(EagerArg::Bytes(4096)));
        let d = run("--alg ring --sizes 8KiB:16KiB");
        assert_eq!(
            (iterations(&d, 8192), iterations(&d, 16384)),
            ((200, 1000), (10, 100))
        );
    }

    #[test]
    fn the_list_names_every_algorithm_once() {
        let l = list();
        // every entry but the 3 all-to-alls
        assert_eq!(l.len(), Algorithm::all().count() - 3);
        assert_eq!(l[0], "ring all-reduce flat NCCL_ALGO=Ring");
        assert!(l.contains(&"hier all-reduce nodes".to_string()));
        assert!(l.contains(&"rs reduce-scatter flat NCCL_ALGO=Ring".to_string()));
        // NCCL's Tree is the double binary tree; the lab's tree is binomial.
        assert!(l.contains(&"dbtree all-reduce flat NCCL_ALGO=Tree".to_string()));
        assert!(l.contains(&"tree all-reduce flat".to_string()));
        assert_eq!(l.iter().filter(|x| x.contains("NCCL_ALGO")).count(), 4);
    }

    #[test]
    fn the_launcher_says_the_rank_without_mpi() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(launcher_rank_from(env(&[])), None);
        assert_eq!(
            launcher_rank_from(env(&[("OMPI_COMM_WORLD_RANK", "3")])),
            Some(3)
        );
        assert_eq!(launcher_rank_from(env(&[("SLURM_PROCID", "0")])), Some(0));
        assert_eq!(
            launcher_rank_from(env(&[("PMI_RANK", "x"), ("PMIX_RANK", "2")])),
            Some(2)
        );
    }

    #[test]
    fn the_version_names_the_program_and_the_mpi_library() {
        let v = version((3, 1), "Open MPI v4.1.4, package: Debian OpenMPI\n\0");
        assert_eq!(
            v[0],
            format!("collective-lab-run {}", env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(v[1], "MPI 3.1: Open MPI v4.1.4, package: Debian OpenMPI");
        assert_eq!(parse(&args("--version")), Ok(Command::Version));
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        let err = |s: &str| parse(&args(s)).expect_err("an error");
        assert!(err("--alg nope --sizes 8B").contains("unknown algorithm “nope”"));
        assert!(err("--alg bruck --sizes 8B").starts_with("bruck is an all-to-all"));
        assert!(err("--sizes 8B").contains("--alg KEY is required"));
        assert!(err("--alg ring").contains("--sizes"));
        assert!(err("--alg ring --sizes 8B --iters 0").contains("at least 1"));
        assert!(err("--alg ring --sizes 8B --format csv").contains("osu or nccl"));
        assert!(err("--alg ring --sizes 8B --frobnicate").contains("unknown argument"));
        assert!(err("--alg").contains("needs a value"));
        assert!(err("--alg ring --sizes 8B --eager-limit lots").contains("auto or a size"));
        assert!(err("--alg ring --sizes 8B --eager-limit 0B").contains("--eager-limit"));
        assert_eq!(parse(&args("--help")), Ok(Command::Help));
        assert_eq!(parse(&args("--list")), Ok(Command::List));
    }
}
