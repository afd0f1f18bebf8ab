//! Stockfish 18's threat-input nets: HalfKAv2_hm + FullThreats -> L1x2 (+ 8 PSQT buckets) ->
//! 8 x (15+1 -> 32 -> 1).
//!
//! One int16 accumulator per perspective holds biases + HalfKAv2_hm rows + threat rows (int8,
//! widened). Wrapping int16 adds are associative, so this equals Stockfish's sum of its two
//! accumulators (HalfKA and threats, added with wrapping before the transform); the PSQT sums
//! likewise. Feature indices are [`FeatureSet::HalfKav2HmThreats`]'s: threats first, then
//! HalfKAv2_hm. Columns are in the same pack order as [`super::Sfnn`]'s but not doubled (the
//! transform clamps to 0..=255 instead of 0..=254), so the forward pass is the SFNN one,
//! kernels and layer stacks included (`sfnn::forward_stacks`).

use super::network_family;
use super::sfnn::LayerStacks;
use crate::features::threats;
use crate::features::{halfka_v2_hm, FeatureSet};
use crate::network::Accumulator;
use crate::position::{Color, Position};

const THREAT_INPUTS: usize = threats::INPUTS;
const PIECE_INPUTS: usize = halfka_v2_hm::INPUTS;
const INPUTS: usize = THREAT_INPUTS + PIECE_INPUTS;
const BUCKETS: usize = 8;

/// A threat-input net of width `L1` (`HALF` = L1 / 2, `CHUNKS` = L1 / 4). The fields are the
/// arrays of [`nnue_format::layout::ThreatsLayout`], by the same names.
#[derive(Debug, Clone, Copy)]
pub struct SfnnThreats<'a, const L1: usize, const HALF: usize, const CHUNKS: usize> {
    /// Transformer biases (not doubled; columns pack-ordered as in [`super::Sfnn`]).
    pub ft_biases: &'a [i16; L1],
    /// FullThreats rows, int8, one pack-ordered row of `L1` per threat feature.
    pub threat_weights: &'a [[i8; L1]; THREAT_INPUTS],
    /// HalfKAv2_hm rows, int16, one pack-ordered row of `L1` per piece feature.
    pub ft_weights: &'a [[i16; L1]; PIECE_INPUTS],
    /// Threat rows, then HalfKAv2_hm rows.
    pub psqt_weights: &'a [[i32; BUCKETS]; INPUTS],
    /// The 8 layer stacks, as in [`super::Sfnn`].
    pub stacks: LayerStacks<'a, CHUNKS>,
}

impl<const L1: usize, const HALF: usize, const CHUNKS: usize> SfnnThreats<'_, L1, HALF, CHUNKS> {
    /// The shape the kernels need, checked when a method is instantiated.
    const SHAPE: () = assert!(L1.is_multiple_of(64) && 2 * HALF == L1 && 4 * CHUNKS == L1);

    /// The transformer's arrays, borrowed.
    #[inline(always)]
    fn transformer(&self) -> super::MixedRows<'_, L1> {
        super::MixedRows {
            biases: self.ft_biases,
            int8: self.threat_weights,
            int16: self.ft_weights,
            psqt: self.psqt_weights,
        }
    }
}

network_family!(
    [const L1: usize, const HALF: usize, const CHUNKS: usize] SfnnThreats<'_, L1, HALF, CHUNKS>,
    Accumulator<L1, BUCKETS>,
    |_| FeatureSet::HalfKav2HmThreats,
    |_| INPUTS,
    |net| crate::network::WeightsId::of(net.threat_weights, net.stacks.fc2_weights),
    refresh: transformer
);
