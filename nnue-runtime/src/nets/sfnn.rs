//! Stockfish SFNNv5-v9: HalfKAv2_hm -> L1x2 (+ 8 PSQT buckets) -> 8 x (15+1 -> 32 -> 1).

use super::{active_features, network_family};
use crate::features::{halfka_v2_hm, FeatureSet};
use crate::layers::{
    self, affine_dense, affine_listed, affine_one, stockfish_bucket, unpack_sfnn_fc0_act, unpack_sfnn_fc1_act, On,
    Pairwise, PairwiseScratch, SfnnFc0Act, SfnnFc1Act,
};
use crate::network::{Accumulator, Evaluation, Trace};
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
    unsafe fn forward_k<K: Kernels>(
        &self,
        acc: &Accumulator<L1, BUCKETS>,
        stm: Color,
        pieces: usize,
        trace: Option<&mut Trace>,
    ) -> Evaluation {
        let () = Self::SHAPE;
        // Doubled accumulators: Stockfish's `clamp(2x, 0, 254)` is `clamp(x, 0, 127)` doubled.
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        unsafe { forward_stacks::<K, L1, HALF, CHUNKS, 254>(&self.stacks, acc, stm, pieces, trace) }
    }

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

/// The forward pass of the SFNN families from pack-ordered accumulators: the pairwise
/// transform clamped to `0..=MAX` (254 on Stockfish 15.1-17.1's doubled accumulators, 255 on
/// Stockfish 18's threat nets), then the bucket's layer stack.
///
/// # Safety
/// The caller holds a `KernelPath` for `K`'s target features.
#[inline(always)]
pub(super) unsafe fn forward_stacks<
    K: Kernels,
    const L1: usize,
    const HALF: usize,
    const CHUNKS: usize,
    const MAX: i16,
>(
    stacks: &LayerStacks<'_, CHUNKS>,
    acc: &Accumulator<L1, BUCKETS>,
    stm: Color,
    pieces: usize,
    trace: Option<&mut Trace>,
) -> Evaluation {
    // SAFETY: this function's caller holds `K`'s path.
    let k = unsafe { On::<K>::new() };
    let bucket = stockfish_bucket(pieces);
    let psqt = layers::psqt(acc, stm, bucket);
    let mut scratch = PairwiseScratch::<HALF, CHUNKS>::new();
    let ft = Pairwise::<MAX, 9>::apply(k, acc, stm, &mut scratch);
    let fc0 = affine_listed(k, &ft, &stacks.fc0_weights[bucket], &stacks.fc0_biases[bucket]);
    // 15 squared then 15 plain activations, in pack order (fc_1's weights follow it); the
    // two bytes of fc0[15], which skips ahead to the output, meet zero weights.
    let fc1_in = SfnnFc0Act::apply(k, &fc0);
    let fc1 = affine_dense(k, &fc1_in, &stacks.fc1_weights[bucket], &stacks.fc1_biases[bucket]);
    let fc2_in = SfnnFc1Act::apply(k, &fc1);
    let fc2 = affine_one(k, &fc2_in, &stacks.fc2_weights[bucket], stacks.fc2_biases[bucket][0]);
    // 1.0 is 127 * 64 in fc0's units and 600 * 16 in the output's.
    let forward = fc0[15].wrapping_mul(600 * 16) / (127 * 64);
    let positional = fc2.wrapping_add(forward);

    if let Some(t) = trace {
        t.ft_out = ft.bytes().to_vec();
        t.dense = vec![fc0.to_vec(), fc1.to_vec(), vec![fc2]];
        // Back in the canonical order.
        t.activations = vec![unpack_sfnn_fc0_act(&fc1_in), unpack_sfnn_fc1_act(&fc2_in)];
    }
    Evaluation { bucket, psqt: psqt / 16, positional: positional / 16 }
}
