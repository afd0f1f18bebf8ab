//! The output bucket and the PSQT part of Stockfish's nets.

use crate::network::Accumulator;
use crate::position::Color;

/// Stockfish's layer stack (and PSQT bucket) of a position with `pieces` pieces (2..=32):
/// `(pieces - 1) / 4`.
#[inline(always)]
pub fn stockfish_bucket(pieces: usize) -> usize {
    (pieces - 1) / 4
}

/// Half the difference of the side to move's and the other side's PSQT sums of `bucket`
/// (before the output scale).
#[inline(always)]
pub fn psqt<const L1: usize, const P: usize>(acc: &Accumulator<L1, P>, stm: Color, bucket: usize) -> i32 {
    acc.psqt[stm.index()][bucket].wrapping_sub(acc.psqt[(!stm).index()][bucket]) / 2
}
