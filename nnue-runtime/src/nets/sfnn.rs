//! Stockfish SFNNv5-v9: HalfKAv2_hm -> L1x2 (+ 8 PSQT buckets) -> 8 x (15+1 -> 32 -> 1).

use super::{active_features, network_family};
use crate::features::{halfka_v2_hm, FeatureSet};
use crate::network::{Accumulator, Evaluation, Trace};
use crate::position::{Color, Position};
use crate::simd::{portable, Kernels};
use nnue_format::layout::{sfnn_fc1_act_source, sfnn_fc1_input};

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

/// The layer stack and PSQT bucket of a position with `pieces` pieces, `(pieces - 1) / 4`, and
/// its PSQT part: half the difference of the side to move's and the other side's sums (before
/// the output scale).
#[inline(always)]
pub(super) fn bucket_psqt<const L1: usize>(acc: &Accumulator<L1, BUCKETS>, stm: Color, pieces: usize) -> (usize, i32) {
    let bucket = (pieces - 1) / 4;
    (bucket, acc.psqt[stm.index()][bucket].wrapping_sub(acc.psqt[(!stm).index()][bucket]) / 2)
}

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
    let (bucket, psqt) = bucket_psqt(acc, stm, pieces);
    let (us, them) = (stm.index(), (!stm).index());

    // Scratch the kernel fills completely (ft_out) or up to what it returns (nnz): not cleared.
    let (mut ft_out, mut nnz) = (std::mem::MaybeUninit::uninit(), std::mem::MaybeUninit::uninit());
    let (ft_out, nnz) =
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        unsafe { K::ft_pairwise_both::<L1, HALF, CHUNKS, MAX, 9>(&acc.values[us], &acc.values[them], &mut ft_out, &mut nnz) };
    let chunks: &[[u8; 4]; CHUNKS] = bytemuck::must_cast_ref(ft_out);

    let mut fc0 = [0i32; 16];
    let (weights, biases) = (&stacks.fc0_weights[bucket], &stacks.fc0_biases[bucket]);
    // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
    unsafe { K::affine_sparse_listed(chunks, weights, biases, &mut fc0, nnz) };
    // 15 squared then 15 plain activations, in pack order (fc_1's weights follow it); the
    // two bytes of fc0[15], which skips ahead to the output, meet zero weights.
    // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
    let fc1_in = unsafe { K::sfnn_fc0_act(&fc0) };
    let mut fc1 = [0i32; 32];
    // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
    unsafe {
        K::affine_dense(
            bytemuck::must_cast_ref(&fc1_in),
            &stacks.fc1_weights[bucket],
            &stacks.fc1_biases[bucket],
            &mut fc1,
        )
    };
    // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
    let fc2_in = unsafe { K::sfnn_fc1_act(&fc1) };
    // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
    let fc2 = unsafe { K::affine_one(&fc2_in, &stacks.fc2_weights[bucket], stacks.fc2_biases[bucket][0]) };
    // 1.0 is 127 * 64 in fc0's units and 600 * 16 in the output's.
    let forward = fc0[15].wrapping_mul(600 * 16) / (127 * 64);
    let positional = fc2.wrapping_add(forward);

    if let Some(t) = trace {
        t.ft_out = bytemuck::must_cast_ref::<_, [u8; L1]>(ft_out).to_vec();
        t.dense = vec![fc0.to_vec(), fc1.to_vec(), vec![fc2]];
        // Back in the canonical order.
        let (mut act0, mut act1) = (vec![0u8; 30], vec![0u8; 32]);
        for s in 0..32 {
            if let Some(i) = sfnn_fc1_input(s) {
                act0[i] = fc1_in[s];
            }
            act1[sfnn_fc1_act_source(s)] = fc2_in[s];
        }
        t.activations = vec![act0, act1];
    }
    Evaluation { bucket, psqt: psqt / 16, positional: positional / 16 }
}
