//! What the MPI library says about its eager limit, and which of Open MPI's
//! tuned all-reduce algorithms was forced: both written into the log's
//! annotation line (`eager=BYTES`, and `alg=` of the baseline's table) so
//! the measure view can name an eager → rendezvous breakpoint and fit
//! Open MPI's own algorithm.
//!
//! Where the limit comes from, in order:
//! 1. an MCA parameter set for this job: `mpirun --mca btl_vader_eager_limit N`
//!    reaches every rank as the environment variable
//!    `OMPI_MCA_btl_vader_eager_limit` (likewise `btl_sm_…` in Open MPI 5,
//!    `btl_tcp_…` between nodes);
//! 2. `ompi_info --parsable --param btl vader --level 9` (Open MPI 4.x; the
//!    shared-memory BTL is called `sm` in 5.x, `vader` being its alias),
//!    whose line `mca:btl:vader:param:btl_vader_eager_limit:value:4096`
//!    gives the default. Open MPI 5.0.10 sets 4 KiB in
//!    `opal/mca/btl/sm/btl_sm_component.c:204`, 4.1.8 in
//!    `opal/mca/btl/vader/btl_vader_component.c:242-252` (32 KiB when the
//!    single-copy mechanism is XPMEM); the TCP BTL's is 64 KiB
//!    (`opal/mca/btl/tcp/btl_tcp_component.c:317`). The limit counts the
//!    match header: a message of exactly the limit already goes rendezvous.
//!
//! A job on one node uses the shared-memory BTL; a job across nodes is
//! reported with the TCP BTL's limit (a job over UCX or another PML has no
//! BTL limit: the annotation then says nothing).

use collective_lab::core::collectives::Algorithm;

/// The eager limit and where it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EagerLimit {
    /// Bytes, including the match header.
    pub bytes: u64,
    /// Where it came from, e.g. "btl_vader_eager_limit from ompi_info (default)".
    pub source: String,
}

/// The BTLs asked, in order: the shared-memory one (Open MPI 4.x name, then
/// 5.x) for a one-node job, TCP between nodes.
pub fn btls(one_node: bool) -> &'static [&'static str] {
    if one_node {
        &["vader", "sm"]
    } else {
        &["tcp"]
    }
}

/// The limit from an `OMPI_MCA_btl_<btl>_eager_limit` variable (`env` looks
/// one up), for the first of `btls` that is set to a whole number.
pub fn from_env(btls: &[&str], env: impl Fn(&str) -> Option<String>) -> Option<EagerLimit> {
    btls.iter().find_map(|b| {
        let name = format!("btl_{b}_eager_limit");
        let v = env(&format!("OMPI_MCA_{name}"))?;
        let bytes = v.trim().parse::<u64>().ok()?;
        Some(EagerLimit {
            bytes,
            source: format!("{name} set for this job (OMPI_MCA_{name})"),
        })
    })
}

/// The value of `btl_<btl>_eager_limit` in `ompi_info --parsable` output
/// (`mca:btl:<btl>:param:btl_<btl>_eager_limit:value:<bytes>`) and its data
/// source (`…:source:default`), for the first of `btls` listed.
pub fn from_ompi_info(btls: &[&str], text: &str) -> Option<EagerLimit> {
    btls.iter().find_map(|b| {
        let key = format!("mca:btl:{b}:param:btl_{b}_eager_limit:");
        let field = |f: &str| {
            text.lines()
                .find_map(|l| l.trim().strip_prefix(&key)?.strip_prefix(f))
                .map(str::trim)
        };
        let bytes = field("value:")?.parse::<u64>().ok()?;
        let src = field("source:").unwrap_or("unknown source");
        Some(EagerLimit {
            bytes,
            source: format!("btl_{b}_eager_limit from ompi_info ({src})"),
        })
    })
}

/// Asks the library: the environment first, then `ompi_info` (a missing
/// `ompi_info`, as with MPICH, gives the reason instead).
///
/// # Errors
/// Why no limit could be read.
pub fn query(one_node: bool) -> Result<EagerLimit, String> {
    let btls = btls(one_node);
    if let Some(e) = from_env(btls, |k| std::env::var(k).ok()) {
        return Ok(e);
    }
    let mut tried = Vec::new();
    for b in btls {
        let out = std::process::Command::new("ompi_info")
            .args(["--parsable", "--param", "btl", b, "--level", "9"])
            .output()
            .map_err(|e| format!("ompi_info could not be run ({e}): not Open MPI?"))?;
        let text = String::from_utf8_lossy(&out.stdout);
        if let Some(e) = from_ompi_info(&[b], &text) {
            return Ok(e);
        }
        tried.push(format!("btl {b}"));
    }
    Err(format!(
        "ompi_info lists no eager limit for {}",
        tried.join(" or ")
    ))
}

/// Open MPI's tuned all-reduce algorithm forced for this job
/// (`--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm K`,
/// seen as `OMPI_MCA_…` variables) when it is one the registry has:
/// 3 recursive doubling, 4 ring, 6 Rabenseifner (the numbering `ompi_info
/// --param coll tuned --level 9` prints for Open MPI 4.1). `None` when
/// dynamic rules are off or the number is another algorithm.
pub fn tuned_allreduce(env: impl Fn(&str) -> Option<String>) -> Option<(u32, Algorithm)> {
    let on = env("OMPI_MCA_coll_tuned_use_dynamic_rules")
        .is_some_and(|v| matches!(v.trim(), "1" | "true" | "yes"));
    if !on {
        return None;
    }
    let k = env("OMPI_MCA_coll_tuned_allreduce_algorithm")?
        .trim()
        .parse::<u32>()
        .ok()?;
    let alg = match k {
        3 => Algorithm::RD,
        4 => Algorithm::RING,
        6 => Algorithm::RAB,
        _ => return None,
    };
    Some((k, alg))
}

/// Open MPI's name of tuned all-reduce algorithm `k`.
pub fn tuned_name(k: u32) -> &'static str {
    match k {
        3 => "recursive_doubling",
        4 => "ring",
        6 => "rabenseifner",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OMPI_INFO: &str = "mca:btl:vader:param:btl_vader_rndv_eager_limit:value:32768\n\
mca:btl:vader:param:btl_vader_eager_limit:value:4096\n\
mca:btl:vader:param:btl_vader_eager_limit:source:default\n\
mca:btl:vader:param:btl_vader_eager_limit:level:4\n";

    #[test]
    fn ompi_info_parsable_output_gives_the_vader_limit_not_the_rndv_one() {
        let e = from_ompi_info(&["vader", "sm"], OMPI_INFO).expect("a limit");
        assert_eq!(e.bytes, 4096);
        assert_eq!(e.source, "btl_vader_eager_limit from ompi_info (default)");
        assert_eq!(from_ompi_info(&["sm"], OMPI_INFO), None);
        let five = "mca:btl:sm:param:btl_sm_eager_limit:value:4096\n";
        let e = from_ompi_info(&["vader", "sm"], five).expect("Open MPI 5's name");
        assert_eq!(
            e.source,
            "btl_sm_eager_limit from ompi_info (unknown source)"
        );
    }

    #[test]
    fn an_mca_variable_wins_and_names_itself() {
        let env = |k: &str| (k == "OMPI_MCA_btl_vader_eager_limit").then(|| "8192".to_string());
        let e = from_env(btls(true), env).expect("set");
        assert_eq!(e.bytes, 8192);
        assert!(e.source.contains("OMPI_MCA_btl_vader_eager_limit"));
        assert_eq!(from_env(btls(false), env), None, "tcp between nodes");
        assert_eq!(from_env(btls(true), |_| Some("4k".into())), None);
    }

    #[test]
    fn the_forced_tuned_algorithm_maps_to_the_registry() {
        let env = |k: u32| {
            move |name: &str| match name {
                "OMPI_MCA_coll_tuned_use_dynamic_rules" => Some("1".to_string()),
                "OMPI_MCA_coll_tuned_allreduce_algorithm" => Some(k.to_string()),
                _ => None,
            }
        };
        assert_eq!(tuned_allreduce(env(3)), Some((3, Algorithm::RD)));
        assert_eq!(tuned_allreduce(env(4)), Some((4, Algorithm::RING)));
        assert_eq!(tuned_allreduce(env(6)), Some((6, Algorithm::RAB)));
        assert_eq!(tuned_allreduce(env(5)), None, "segmented ring");
        let off = |name: &str| {
            (name == "OMPI_MCA_coll_tuned_allreduce_algorithm").then(|| "4".to_string())
        };
        assert_eq!(tuned_allreduce(off), None, "dynamic rules off");
        assert_eq!(tuned_name(6), "rabenseifner");
    }
}
