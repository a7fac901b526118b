//! One training run from validated settings ([`LabSetup`]): generate the
//! problem, build the mixing matrix, run the three strategies. The sgd
//! view's parameters translate into a [`LabSetup`]
//! (`crate::params::sgd::SgdParams::lab_setup`); running it is the core's.

use nalgebra::DMatrix;

use super::problem::{Problem, ProblemConfig};
use super::train::{mixing_for, run_lab, Lab, TrainConfig, TrainError};
use crate::core::consensus::{GraphKind, WeightRule};

/// What one run of the three strategies needs.
#[derive(Clone, Debug, PartialEq)]
pub struct LabSetup {
    /// The synthetic problem (shards, d, IID or not, seed, noise).
    pub problem: ProblemConfig,
    /// The gossip graph of the m = `problem.shard_sizes.len()` workers (a
    /// torus takes its shape from m, [`mixing_for`]).
    pub graph: GraphKind,
    /// The mixing weight rule on that graph.
    pub weights: WeightRule,
    /// Steps, learning rate, decay, batch, sampling seed, element bytes.
    pub train: TrainConfig,
}

impl LabSetup {
    /// Number of workers m (one per shard).
    pub fn workers(&self) -> usize {
        self.problem.shard_sizes.len()
    }

    /// The m × m mixing matrix of the graph and weight rule ([`mixing_for`];
    /// a random graph is drawn from the problem's seed).
    ///
    /// # Errors
    /// [`TrainError::Graph`] when the graph or rule does not fit m workers
    /// (e.g. a hypercube on 3).
    pub fn mixing(&self) -> Result<DMatrix<f64>, TrainError> {
        mixing_for(self.graph, self.weights, self.workers(), self.problem.seed)
    }

    /// Generates the problem and runs the three strategies on it
    /// ([`Problem::generate`], [`LabSetup::mixing`], [`run_lab`]).
    ///
    /// # Errors
    /// [`TrainError::Problem`] when the problem cannot be generated (e.g. an
    /// empty shard, allowed in the calculator, not in training), and the
    /// errors of [`LabSetup::mixing`] and [`run_lab`].
    pub fn run(&self) -> Result<(Problem, DMatrix<f64>, Lab), TrainError> {
        let problem = Problem::generate(&self.problem).map_err(TrainError::Problem)?;
        let mixing = self.mixing()?;
        let lab = run_lab(&problem, &mixing, &self.train)?;
        Ok((problem, mixing, lab))
    }
}
