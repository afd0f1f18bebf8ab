//! Stockfish SFNNv5-v9: HalfKAv2_hm -> L1x2 (+ 8 PSQT buckets) -> 8 x (15+1 -> 32 -> 1).

use super::{active_features, network_family};
use crate::features::{halfka_v2_hm, FeatureSet};
use crate::network::Accumulator;
use crate::position::{Color, Position};
use crate::simd::{portable, Kernels};

const INPUTS: usize = halfka_v2_hm::INPUTS;
const BUCKETS: usize = 8;

/// An SFNNv5+ net of width `L1` (`HALF` = L1 / 2, `CHUNKS` = L1 / 4), weights in the fast
/// layout: transformer doubled and pack-ordered, int8 layers `[stack][chunk][output][4]`.
/// The fields are the arrays of [`nnue_format::layout::SfnnLayout`], by the same names.
#[derive(Debug, Clone, Copy)]
pub struct Sfnn<'a, const L1: usize, const HALF: usize, const CHUNKS: usize> {
    /// Transformer biases, doubled and pack-ordered.
    pub ft_biases: &'a [i16; L1],
    /// Transformer weights, one doubled, pack-ordered row of `L1` per HalfKAv2_hm feature.
    pub ft_weights: &'a [[i16; L1]; INPUTS],
    /// PSQT weights, one per bucket and feature.
    pub psqt_weights: &'a [[i32; BUCKETS]; INPUTS],
    /// The 8 layer stacks.
    pub stacks: LayerStacks<'a, CHUNKS>,
}

impl<const L1: usize, const HALF: usize, const CHUNKS: usize> Sfnn<'_, L1, HALF, CHUNKS> {
    /// The shape the kernels need, checked when a method is instantiated.
    const SHAPE: () = assert!(L1.is_multiple_of(64) && 2 * HALF == L1 && 4 * CHUNKS == L1);

    #[inline(always)]
    unsafe fn refresh_k<K: Kernels>(&self, pos: &Position, perspective: Color, acc: &mut Accumulator<L1, BUCKETS>) {
        let () = Self::SHAPE;
        let (list, n) = active_features(FeatureSet::HalfKav2Hm, pos, perspective);
        let p = perspective.index();
        // The PSQT rows first, as in `update_k`.
        portable::update_psqt(self.psqt_weights, &[0; BUCKETS], &mut acc.psqt[p], &list[..n], &[]);
        // SAFETY: this function's caller holds `K`'s path.
        unsafe { (K::ROWS.i16)(self.ft_weights.as_flattened(), self.ft_biases, &mut acc.values[p], &list[..n], &[]) }
    }

    #[inline(always)]
    unsafe fn update_k<K: Kernels>(
        &self,
        src: &Accumulator<L1, BUCKETS>,
        dst: &mut Accumulator<L1, BUCKETS>,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    ) {
        let p = perspective.index();
        let rows = self.ft_weights.as_flattened();
        // The PSQT rows first: their loads (another array, as scattered) then overlap the rows'.
        portable::update_psqt(self.psqt_weights, &src.psqt[p], &mut dst.psqt[p], added, removed);
        // SAFETY: this function's caller holds `K`'s path.
        unsafe { (K::ROWS.i16)(rows, &src.values[p], &mut dst.values[p], added, removed) }
    }
}

network_family!(
    [const L1: usize, const HALF: usize, const CHUNKS: usize] Sfnn<'_, L1, HALF, CHUNKS>,
    Accumulator<L1, BUCKETS>,
    |_| FeatureSet::HalfKav2Hm,
    |_| INPUTS,
    |net| crate::network::WeightsId::of(net.ft_weights, net.stacks.fc2_weights)
);

/// The 8 layer stacks of a Stockfish net in the fast layout: for each bucket fc_0 (sparse
/// int8, `L1 -> FC0`), fc_1 (`4 * FC1_CHUNKS -> 32`) and fc_2 (`FC2_IN -> 1`). The defaults
/// are Stockfish 15.1 to 18's stacks (`L1 -> 15+1`, `30 -> 32` padded to 32, `32 -> 1`, their
/// fc_1 and fc_2 inputs in the order `packs` leaves the activations); [`Sf19Stacks`] names
/// Stockfish 19's (`L1 -> 32`, `64 -> 32`, `128 -> 1`, canonical input order).
#[derive(Debug, Clone, Copy)]
pub struct LayerStacks<
    'a,
    const CHUNKS: usize,
    const FC0: usize = 16,
    const FC1_CHUNKS: usize = 8,
    const FC2_IN: usize = 32,
> {
    /// fc_0 biases, per stack.
    pub fc0_biases: &'a [[i32; FC0]; BUCKETS],
    /// fc_0 weights per stack, as `[chunk of 4 inputs][output][4]`.
    pub fc0_weights: &'a [[[[i8; 4]; FC0]; CHUNKS]; BUCKETS],
    /// fc_1 biases, per stack.
    pub fc1_biases: &'a [[i32; 32]; BUCKETS],
    /// fc_1 weights per stack, as `[chunk][output][4]`.
    pub fc1_weights: &'a [[[[i8; 4]; 32]; FC1_CHUNKS]; BUCKETS],
    /// fc_2 bias, per stack.
    pub fc2_biases: &'a [[i32; 1]; BUCKETS],
    /// fc_2 weights per stack.
    pub fc2_weights: &'a [[i8; FC2_IN]; BUCKETS],
}

/// Stockfish 19's layer stacks: fc_0 `L1 -> 32`, fc_1 `64 -> 32`, fc_2 `128 -> 1`.
pub type Sf19Stacks<'a, const CHUNKS: usize> = LayerStacks<'a, CHUNKS, 32, 16, 128>;
