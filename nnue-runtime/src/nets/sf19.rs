//! Stockfish 19: inputs -> L1x2 (+ 8 PSQT buckets) -> 8 x (fc_0 32 -> squared ++ clipped ->
//! fc_1 32 -> squared ++ clipped -> fc_2 over all 128 activations -> 1, plus a skip).
//!
//! One int16 accumulator per perspective sums the biases, the int8 rows (the big net's threats
//! and pawn pairs, widened) and the int16 rows (HalfKAv2_hm, or the lite net's 768). Columns
//! are pack-ordered and not doubled, as for Stockfish 18, so the transform is the SFNN kernel
//! with the clamp at 255.

use super::{network_family, Sf19Stacks};
use crate::features::FeatureSet;
use crate::network::{Accumulator, Evaluation, Trace};
use crate::position::{Color, Position};
use crate::simd::Kernels;

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

/// Squared and clipped activations of 32 outputs, `[squared; 32] ++ [clipped; 32]`:
/// `min(127, x² >> SQR)` and `clamp(x >> SHIFT, 0, 127)`.
///
/// In int32 only, so that it vectorises: `|x|` is first capped at the smallest value whose
/// square already gives 127, which leaves every result as it is and keeps the square in
/// range (`SQR` at most 23).
#[inline(always)]
fn dual_activation<const SQR: u32, const SHIFT: u32>(x: &[i32; 32], out: &mut [u8]) {
    const { assert!(SQR <= 23) };
    let cap = (127u32 << SQR).isqrt() + 1;
    let (squared, clipped) = out.split_at_mut(32);
    for ((s, c), &v) in squared.iter_mut().zip(clipped.iter_mut()).zip(x) {
        let a = v.unsigned_abs().min(cap);
        *s = ((a * a) >> SQR).min(127) as u8;
        *c = (v >> SHIFT).clamp(0, 127) as u8;
    }
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

    #[inline(always)]
    unsafe fn forward_k<K: Kernels>(
        &self,
        acc: &Accumulator<L1, BUCKETS>,
        stm: Color,
        pieces: usize,
        trace: Option<&mut Trace>,
    ) -> Evaluation {
        let () = Self::SHAPE;
        let (bucket, psqt) = super::sfnn::bucket_psqt(acc, stm, pieces);
        let (us, them) = (stm.index(), (!stm).index());

        let (mut ft_out, mut nnz) = (std::mem::MaybeUninit::uninit(), std::mem::MaybeUninit::uninit());
        let (ft_out, nnz) =
            // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
            unsafe { K::ft_pairwise_both::<L1, HALF, CHUNKS, 255, 9>(&acc.values[us], &acc.values[them], &mut ft_out, &mut nnz) };
        let chunks: &[[u8; 4]; CHUNKS] = bytemuck::must_cast_ref(ft_out);
        let stack = &self.stacks;

        let mut fc0 = [0i32; 32];
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        unsafe {
            K::affine_sparse_listed(chunks, &stack.fc0_weights[bucket], &stack.fc0_biases[bucket], &mut fc0, nnz)
        };
        // fc_2 reads both layers' activations: fc_0's in the first half, fc_1's in the second.
        let mut acts = [0u8; 128];
        dual_activation::<21, 7>(&fc0, &mut acts[..64]);
        let mut fc1 = [0i32; 32];
        let fc1_in: &[u8; 64] = acts[..64].try_into().expect("64 bytes");
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        unsafe {
            K::affine_dense(
                bytemuck::must_cast_ref(fc1_in),
                &stack.fc1_weights[bucket],
                &stack.fc1_biases[bucket],
                &mut fc1,
            )
        };
        dual_activation::<19, 6>(&fc1, &mut acts[64..]);
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        let fc2 = unsafe { K::affine_one(&acts, &stack.fc2_weights[bucket], stack.fc2_biases[bucket][0]) };
        let skip = fc0[30].wrapping_sub(fc0[31]);
        let positional = fc2.wrapping_add(skip).wrapping_mul(9600) / 16384;

        if let Some(t) = trace {
            t.ft_out = bytemuck::must_cast_ref::<_, [u8; L1]>(ft_out).to_vec();
            t.dense = vec![fc0.to_vec(), fc1.to_vec(), vec![fc2]];
            t.activations = vec![acts[..64].to_vec(), acts.to_vec()];
        }
        Evaluation { bucket, psqt: psqt / 16, positional: positional / 16 }
    }

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
