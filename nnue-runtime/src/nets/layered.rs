//! Multi-layer nets as bullet-trained engines ship them: `(768xK[hm] -> L1)x2 -> pairwise ->
//! (L2 -> L3 -> 1)xB`, the layers after the sparse one in f32 or int32 (see
//! [`nnue_format::LayeredArch`] for the exact arithmetic every path follows).
//!
//! The transformer's rows are int16; the layers after the accumulators (the pairwise
//! transform, the listed sparse int8 layer, the f32 or int32 layers) are the description's,
//! composed from `crate::layers`.

use super::network_family;
use crate::features::FeatureSet;
use crate::network::Accumulator;
use crate::position::{Color, Position};

use nnue_format::LayeredArch;

/// A multi-layer net of width `L1` (`HALF` = L1 / 2, `CHUNKS` = L1 / 4) with `INPUTS`
/// features, `L2` sparse-layer outputs (`L2F`: doubled when the activation is dual), `L3`
/// dense-layer outputs and `B` output buckets. The fields are the arrays of
/// [`nnue_format::layout::LayeredLayout`], by the same names; f32 values as their bits.
#[derive(Debug, Clone, Copy)]
pub struct Layered<
    'a,
    const L1: usize,
    const HALF: usize,
    const CHUNKS: usize,
    const INPUTS: usize,
    const L2: usize,
    const L2F: usize,
    const L3: usize,
    const B: usize,
> {
    /// Transformer biases, pack-ordered.
    pub ft_biases: &'a [i16; L1],
    /// Transformer rows, pack-ordered.
    pub ft_weights: &'a [[i16; L1]; INPUTS],
    /// The sparse layer per bucket, `[chunk][output][4]`.
    pub l1_weights: &'a [[[[i8; 4]; L2]; CHUNKS]; B],
    /// The sparse layer's biases per bucket.
    pub l1_biases: &'a [[i32; L2]; B],
    /// The dense layer per bucket, input-major.
    pub l2_weights: &'a [[[i32; L3]; L2F]; B],
    /// The dense layer's biases per bucket.
    pub l2_biases: &'a [[i32; L3]; B],
    /// The output layer per bucket.
    pub l3_weights: &'a [[i32; L3]; B],
    /// The output biases.
    pub l3_biases: &'a [i32; B],
    /// Every scalar of the arithmetic.
    pub arch: LayeredArch,
}

impl<
        const L1: usize,
        const HALF: usize,
        const CHUNKS: usize,
        const INPUTS: usize,
        const L2: usize,
        const L2F: usize,
        const L3: usize,
        const B: usize,
    > Layered<'_, L1, HALF, CHUNKS, INPUTS, L2, L2F, L3, B>
{
    /// The shape the kernels need, checked when a method is instantiated.
    const SHAPE: () = assert!(
        L1.is_multiple_of(64)
            && 2 * HALF == L1
            && 4 * CHUNKS == L1
            && (L2 == 16 || L2 == 32)
            && (L2F == L2 || L2F == 2 * L2)
            && L3.is_multiple_of(16)
            && B >= 1
    );

    /// The transformer's arrays, borrowed.
    #[inline(always)]
    fn transformer(&self) -> super::Int16Rows<'_, L1> {
        super::Int16Rows { biases: self.ft_biases, rows: self.ft_weights }
    }

    /// The input features.
    fn features(&self) -> FeatureSet {
        FeatureSet::for_arch(&nnue_format::Architecture::Layered(self.arch))
    }
}

network_family!(
    [const L1: usize, const HALF: usize, const CHUNKS: usize, const INPUTS: usize, const L2: usize, const L2F: usize, const L3: usize, const B: usize]
    Layered<'_, L1, HALF, CHUNKS, INPUTS, L2, L2F, L3, B>,
    Accumulator<L1, 0>,
    |net| net.features(),
    |_| INPUTS,
    |net| crate::network::WeightsId::of(net.ft_weights, net.l1_weights),
    refresh: transformer
);
