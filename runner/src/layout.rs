//! The job's node layout and the topology schedules are generated on.

use collective_lab::core::collectives::{flat, Algorithm};
use collective_lab::core::topology::{Link, Topology};
use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// Each rank's node, as the lowest world rank on the same node: from
/// `MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)` (a min-reduce inside each node's
/// communicator, then an all-gather). Called by every rank.
pub fn node_leaders(world: &SimpleCommunicator) -> Vec<i32> {
    let shared = world.split_shared(world.rank());
    let me = world.rank();
    let mut leader = me;
    shared.all_reduce_into(&me, &mut leader, SystemOperation::min());
    let mut all = vec![0i32; world.size() as usize];
    world.all_gather_into(&leader, &mut all[..]);
    all
}

/// Node sizes from each rank's node leader: the ranks of a node must be
/// consecutive (the numbering the schedules assume, node by node).
///
/// # Errors
/// When a node's ranks are not consecutive, naming the first rank out of place.
pub fn node_sizes(leaders: &[i32]) -> Result<Vec<usize>, String> {
    let mut sizes: Vec<usize> = Vec::new();
    let mut seen: Vec<i32> = Vec::new();
    for (r, &l) in leaders.iter().enumerate() {
        if seen.last() == Some(&l) {
            if let Some(s) = sizes.last_mut() {
                *s += 1;
            }
            continue;
        }
        if seen.contains(&l) {
            return Err(format!(
                "the ranks of a node are not consecutive (rank {r} is back on the node of rank {l}); \
                 place ranks node by node (Open MPI: --map-by slot, Slurm: --distribution=block)"
            ));
        }
        seen.push(l);
        sizes.push(1);
    }
    Ok(sizes)
}

/// Nodes of `g` consecutive ranks (the last one smaller when `g` does not
/// divide `p`).
pub fn even_nodes(p: usize, g: usize) -> Vec<usize> {
    let g = g.max(1);
    let mut out = vec![g; p / g];
    if !p.is_multiple_of(g) {
        out.push(p % g);
    }
    out
}

/// The topology `alg` is generated on: flat for a flat algorithm, else the
/// nodes of `sizes` (placeholder links: generators never read them).
///
/// # Errors
/// When a node has no ranks.
pub fn topology(alg: Algorithm, p: usize, sizes: &[usize]) -> Result<Topology, String> {
    if !alg.needs_nodes() {
        return Ok(flat(p));
    }
    let link = Link::new(0.0, 1.0);
    Topology::unequal(sizes.to_vec(), 1, 1, link, link, 1.0).map_err(|e| e.to_string())
}

/// A short description of the layout, e.g. "2 nodes of 2 ranks".
pub fn describe(sizes: &[usize]) -> String {
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    match sizes {
        [] => "no ranks".into(),
        [first, rest @ ..] if rest.iter().all(|s| s == first) => format!(
            "{} of {}",
            plural(sizes.len(), "node"),
            plural(*first, "rank")
        ),
        _ => format!(
            "{} of {} ranks",
            plural(sizes.len(), "node"),
            sizes
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_leaders_make_nodes() {
        assert_eq!(node_sizes(&[0, 0, 2, 2, 2]), Ok(vec![2, 3]));
        assert_eq!(node_sizes(&[0, 0, 0, 0]), Ok(vec![4]));
        let err = node_sizes(&[0, 1, 0, 1]).expect_err("an error");
        assert!(
            err.contains("rank 2 is back on the node of rank 0"),
            "{err}"
        );
    }

    #[test]
    fn even_nodes_keep_the_remainder_last() {
        assert_eq!(even_nodes(4, 2), vec![2, 2]);
        assert_eq!(even_nodes(5, 2), vec![2, 2, 1]);
        assert_eq!(even_nodes(3, 4), vec![3]);
    }

    #[test]
    fn layouts_are_described() {
        assert_eq!(describe(&[2, 2]), "2 nodes of 2 ranks");
        assert_eq!(describe(&[4]), "1 node of 4 ranks");
        assert_eq!(describe(&[2, 2, 1]), "3 nodes of 2, 2, 1 ranks");
    }

    #[test]
    fn only_node_following_algorithms_get_nodes() {
        let t = topology(Algorithm::RING, 4, &[2, 2]).expect("flat");
        assert_eq!(t.nodes(), 4);
        let t = topology(Algorithm::HIER, 4, &[2, 2]).expect("nodes");
        assert_eq!((t.nodes(), t.node_sizes()), (2, vec![2, 2]));
    }
}
