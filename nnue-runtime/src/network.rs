//! The vocabulary every evaluator shares: the [`Network`] trait, the fast [`Accumulator`], the
//! [`Evaluation`] a net returns and the [`Trace`] of its layers. The fast networks (`nets`) and
//! the generic reference (`reference`) both build on this module and on nothing of each other.

use std::fmt;

use crate::features::FeatureSet;
use crate::position::{Color, Position};
use crate::simd::KernelPath;

/// What a network says about a position, from the side to move's view, in Stockfish's internal
/// units: for SFNNv5+ nets what `Network::evaluate` returns (both parts divided by the output
/// scale 16); for HalfKP what Stockfish 13's `NNUE::evaluate` returns (`psqt` = 0); for
/// headerless nets the scaled output (`psqt` = 0, `bucket` = the output bucket).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Evaluation {
    pub bucket: usize,
    pub psqt: i32,
    pub positional: i32,
}

impl Evaluation {
    pub fn total(&self) -> i32 {
        self.psqt + self.positional
    }
}

/// The line format of the eval example and the engine's `eval` command.
impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bucket={} psqt={} positional={} total={}", self.bucket, self.psqt, self.positional, self.total())
    }
}

/// Every layer's output of one forward pass, for layer-by-layer comparisons.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trace {
    /// Feature-transformer output (side to move first); empty for headerless nets.
    pub ft_out: Vec<u8>,
    /// Each dense layer's int32 output, in order. Headerless nets: the output sum before the
    /// bias (after the SCReLU division by QA).
    pub dense: Vec<Vec<i32>>,
    /// The uint8 input of each dense layer after the first.
    pub activations: Vec<Vec<u8>>,
}

/// First-layer pre-activations of both perspectives (`values[color]`), in the fast layout.
#[derive(Debug, Clone, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator<const L1: usize, const PSQT: usize> {
    pub values: [[i16; L1]; 2],
    pub psqt: [[i32; PSQT]; 2],
}

impl<const L1: usize, const PSQT: usize> Default for Accumulator<L1, PSQT> {
    fn default() -> Self {
        Self { values: [[0; L1]; 2], psqt: [[0; PSQT]; 2] }
    }
}

/// What engines need from a net, fast or generic: accumulators, their updates, evaluation.
pub trait Network {
    type Accumulator: Clone;

    fn feature_set(&self) -> FeatureSet;

    /// An accumulator to refresh into (its contents are not meaningful yet).
    fn new_accumulator(&self) -> Self::Accumulator;

    /// Recomputes `perspective`'s half of `acc` from the position.
    fn refresh_on(&self, path: KernelPath, pos: &Position, perspective: Color, acc: &mut Self::Accumulator);

    /// `dst[perspective] = src[perspective] + added rows - removed rows`, in one pass.
    fn update_on(
        &self,
        path: KernelPath,
        src: &Self::Accumulator,
        dst: &mut Self::Accumulator,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    );

    /// The layers after the accumulator.
    fn forward_on(&self, path: KernelPath, acc: &Self::Accumulator, stm: Color, pieces: usize) -> Evaluation;

    /// Like [`Network::forward_on`], recording every layer's output.
    fn trace_on(&self, path: KernelPath, acc: &Self::Accumulator, stm: Color, pieces: usize) -> (Evaluation, Trace);

    fn refresh(&self, pos: &Position, perspective: Color, acc: &mut Self::Accumulator) {
        self.refresh_on(KernelPath::best(), pos, perspective, acc)
    }

    fn update(
        &self,
        src: &Self::Accumulator,
        dst: &mut Self::Accumulator,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    ) {
        self.update_on(KernelPath::best(), src, dst, perspective, added, removed)
    }

    fn forward(&self, acc: &Self::Accumulator, stm: Color, pieces: usize) -> Evaluation {
        self.forward_on(KernelPath::best(), acc, stm, pieces)
    }

    /// Refresh of both perspectives, then the forward pass.
    fn evaluate_on(&self, path: KernelPath, pos: &Position) -> Evaluation {
        let mut acc = self.new_accumulator();
        for perspective in Color::BOTH {
            self.refresh_on(path, pos, perspective, &mut acc);
        }
        self.forward_on(path, &acc, pos.side_to_move(), pos.piece_count())
    }

    fn evaluate(&self, pos: &Position) -> Evaluation {
        self.evaluate_on(KernelPath::best(), pos)
    }
}
