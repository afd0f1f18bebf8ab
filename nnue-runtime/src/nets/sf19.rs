//! Stockfish 19: inputs -> L1x2 (+ 8 PSQT buckets) -> 8 x (fc_0 32 -> squared ++ clipped ->
//! fc_1 32 -> squared ++ clipped -> fc_2 over all 128 activations -> 1, plus a skip).
//!
//! One int16 accumulator per perspective sums the biases, the int8 rows (the big net's threats
//! and pawn pairs, widened) and the int16 rows (HalfKAv2_hm, or the lite net's 768). Columns
//! are pack-ordered and not doubled, as for Stockfish 18, so the transform is the SFNN kernel
//! with the clamp at 255.

use super::{network_family, Sf19Stacks};
use crate::features::FeatureSet;
use crate::network::Accumulator;
use crate::position::{Color, Position};

const BUCKETS: usize = 8;

/// A Stockfish 19 net of width `L1` (`HALF` = L1 / 2, `CHUNKS` = L1 / 4) with `INT8` int8
/// rows (59808 threats + 4560 pawn pairs in the big net, none in the lite net) and `INT16`
/// int16 rows; `ROWS` = `INT8 + INT16`. The fields are the arrays of
/// [`nnue_format::layout::Sf19Layout`] (or `Sf19LiteLayout`, whose `int8_weights` is empty).
#[derive(Debug, Clone, Copy)]
pub struct Sf19<
    'a,
    const L1: usize,
    const HALF: usize,
    const CHUNKS: usize,
    const INT8: usize,
    const INT16: usize,
    const ROWS: usize,
> {
    /// Transformer biases (pack-ordered, not doubled).
    pub ft_biases: &'a [i16; L1],
    /// The int8 rows, pack-ordered: features `0..INT8`.
    pub int8_weights: &'a [[i8; L1]; INT8],
    /// The int16 rows, pack-ordered: features `INT8..ROWS`.
    pub ft_weights: &'a [[i16; L1]; INT16],
    /// PSQT weights of every feature.
    pub psqt_weights: &'a [[i32; BUCKETS]; ROWS],
    /// The 8 layer stacks.
    pub stacks: Sf19Stacks<'a, CHUNKS>,
}

impl<
        const L1: usize,
        const HALF: usize,
        const CHUNKS: usize,
        const INT8: usize,
        const INT16: usize,
        const ROWS: usize,
    > Sf19<'_, L1, HALF, CHUNKS, INT8, INT16, ROWS>
{
    /// The big net has int8 rows, the lite net none.
    const FEATURES: FeatureSet = if INT8 == 0 { FeatureSet::Sf19Lite } else { FeatureSet::Sf19 };

    /// The shape the kernels need, checked when a method is instantiated.
    const SHAPE: () = assert!(L1.is_multiple_of(64) && 2 * HALF == L1 && 4 * CHUNKS == L1 && INT8 + INT16 == ROWS);

    /// The transformer's arrays, borrowed.
    #[inline(always)]
    fn transformer(&self) -> super::MixedRows<'_, L1> {
        super::MixedRows {
            biases: self.ft_biases,
            int8: self.int8_weights,
            int16: self.ft_weights,
            psqt: self.psqt_weights,
        }
    }
}

network_family!(
    [const L1: usize, const HALF: usize, const CHUNKS: usize, const INT8: usize, const INT16: usize, const ROWS: usize]
    Sf19<'_, L1, HALF, CHUNKS, INT8, INT16, ROWS>,
    Accumulator<L1, BUCKETS>,
    |_| Self::FEATURES,
    |_| ROWS,
    |net| crate::network::WeightsId::of(net.ft_biases, net.stacks.fc2_weights),
    refresh: transformer
);
