//! Stockfish 18's threat-input nets: HalfKAv2_hm + FullThreats -> L1x2 (+ 8 PSQT buckets) ->
//! 8 x (15+1 -> 32 -> 1).
//!
//! One int16 accumulator per perspective holds biases + HalfKAv2_hm rows + threat rows (int8,
//! widened). Wrapping int16 adds are associative, so this equals Stockfish's sum of its two
//! accumulators (HalfKA and threats, added with wrapping before the transform); the PSQT sums
//! likewise. Feature indices are [`FeatureSet::HalfKav2HmThreats`]'s: threats first, then
//! HalfKAv2_hm. Weights are in logical column order and not doubled (the transform clamps to
//! 0..255 and divides the product by 512: a plain loop the compiler vectorises under each
//! path's target features); the int8 layers are as in [`super::Sfnn`].

use super::network_family;
use crate::features::threats;
use crate::features::{halfka_v2_hm, FeatureSet};
use crate::network::{Accumulator, Evaluation, Trace};
use crate::position::{Color, Position};
use crate::simd::portable::{self, clipped_relu, sqr_clipped_relu};
use crate::simd::Kernels;

const THREAT_INPUTS: usize = threats::INPUTS;
const PIECE_INPUTS: usize = halfka_v2_hm::INPUTS;
const INPUTS: usize = THREAT_INPUTS + PIECE_INPUTS;
const BUCKETS: usize = 8;
/// Accumulator columns summed at once (kept in vector registers).
const TILE: usize = 128;

/// A threat-input net of width `L1` (`HALF` = L1 / 2, `CHUNKS` = L1 / 4).
#[derive(Debug, Clone, Copy)]
pub struct SfnnThreats<'a, const L1: usize, const HALF: usize, const CHUNKS: usize> {
    /// Transformer biases (not doubled, logical order).
    pub ft_biases: &'a [i16; L1],
    /// FullThreats rows, int8, one row of `L1` per threat feature.
    pub threat_weights: &'a [[i8; L1]; THREAT_INPUTS],
    /// HalfKAv2_hm rows, int16, one row of `L1` per piece feature.
    pub ft_weights: &'a [[i16; L1]; PIECE_INPUTS],
    /// Threat rows, then HalfKAv2_hm rows.
    pub psqt_weights: &'a [[i32; BUCKETS]; INPUTS],
    /// fc_0 (L1 -> 15+1) biases, per stack.
    pub fc0_biases: &'a [[i32; 16]; BUCKETS],
    /// fc_0 weights per stack, as `[chunk of 4 inputs][output][4]`.
    pub fc0_weights: &'a [[[[i8; 4]; 16]; CHUNKS]; BUCKETS],
    /// fc_1 (30 -> 32) biases, per stack.
    pub fc1_biases: &'a [[i32; 32]; BUCKETS],
    /// fc_1 weights per stack, as in [`super::Sfnn`].
    pub fc1_weights: &'a [[[[i8; 4]; 32]; 8]; BUCKETS],
    /// fc_2 (32 -> 1) bias, per stack.
    pub fc2_biases: &'a [[i32; 1]; BUCKETS],
    /// fc_2 weights per stack, as in [`super::Sfnn`].
    pub fc2_weights: &'a [[i8; 32]; BUCKETS],
}

/// For each 8-bit mask, the positions of its set bits, in order.
const NNZ_OFFSETS: [[u16; 8]; 256] = {
    let mut table = [[0u16; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if mask & (1 << bit) != 0 {
                table[mask][k] = bit as u16;
                k += 1;
            }
            bit += 1;
        }
        mask += 1;
    }
    table
};

/// The transform of both perspectives: `out[p][j] = clamp(a, 0, 255) * clamp(b, 0, 255) / 512`
/// for the halves a = acc[j], b = acc[j + HALF]; lists the non-zero 4-byte chunks in `nnz`.
#[inline(always)]
fn pairwise<const L1: usize, const HALF: usize, const CHUNKS: usize>(
    us: &[i16; L1],
    them: &[i16; L1],
    out: &mut [[u8; HALF]; 2],
    nnz: &mut [u16; CHUNKS],
) -> usize {
    for (acc, out) in [us, them].into_iter().zip(out.iter_mut()) {
        let (lo, hi) = acc.split_at(HALF);
        for ((o, &a), &b) in out.iter_mut().zip(lo).zip(hi) {
            // 255 * 255 fits a u16.
            let (a, b) = (a.clamp(0, 255) as u16, b.clamp(0, 255) as u16);
            *o = ((a * b) >> 9) as u8;
        }
    }
    let chunks: &[[u8; 4]; CHUNKS] = bytemuck::must_cast_ref(out);
    // Eight chunks at a time, without branches (about half the chunks are zero, at random):
    // the mask of the non-zero ones picks their offsets from a table. `count` never exceeds
    // the group's first chunk, so the 8-wide store stays inside `nnz` (CHUNKS is a multiple
    // of 16).
    let mut count = 0;
    for (g, group) in chunks.chunks_exact(8).enumerate() {
        let mut mask = 0usize;
        for (k, c) in group.iter().enumerate() {
            mask |= usize::from(u32::from_ne_bytes(*c) != 0) << k;
        }
        let base = (g * 8) as u16;
        for (slot, &offset) in nnz[count..count + 8].iter_mut().zip(&NNZ_OFFSETS[mask]) {
            *slot = base + offset;
        }
        count += mask.count_ones() as usize;
    }
    count
}

impl<'a, const L1: usize, const HALF: usize, const CHUNKS: usize> SfnnThreats<'a, L1, HALF, CHUNKS> {
    /// Takes the arrays in [`nnue_format::layout::fast_layout`] order.
    #[allow(clippy::too_many_arguments)]
    pub const fn new(
        ft_biases: &'a [i16; L1],
        threat_weights: &'a [[i8; L1]; THREAT_INPUTS],
        ft_weights: &'a [[i16; L1]; PIECE_INPUTS],
        psqt_weights: &'a [[i32; BUCKETS]; INPUTS],
        fc0_biases: &'a [[i32; 16]; BUCKETS],
        fc0_weights: &'a [[[[i8; 4]; 16]; CHUNKS]; BUCKETS],
        fc1_biases: &'a [[i32; 32]; BUCKETS],
        fc1_weights: &'a [[[[i8; 4]; 32]; 8]; BUCKETS],
        fc2_biases: &'a [[i32; 1]; BUCKETS],
        fc2_weights: &'a [[i8; 32]; BUCKETS],
    ) -> Self {
        const { assert!(L1.is_multiple_of(64) && 2 * HALF == L1 && 4 * CHUNKS == L1) };
        Self {
            ft_biases,
            threat_weights,
            ft_weights,
            psqt_weights,
            fc0_biases,
            fc0_weights,
            fc1_biases,
            fc1_weights,
            fc2_biases,
            fc2_weights,
        }
    }

    /// `dst = start + rows[added] - rows[removed]`, tile by tile, each tile written once.
    #[inline(always)]
    fn accumulate(&self, start: &[i16; L1], dst: &mut [i16; L1], added: &[usize], removed: &[usize]) {
        if L1.is_multiple_of(TILE) {
            self.accumulate_tiles::<TILE>(start, dst, added, removed)
        } else {
            self.accumulate_tiles::<64>(start, dst, added, removed)
        }
    }

    /// [`Self::accumulate`] with tiles of `T` columns (`T` divides L1): fixed-size loops that
    /// unroll and keep the tile in vector registers.
    #[inline(always)]
    fn accumulate_tiles<const T: usize>(
        &self,
        start: &[i16; L1],
        dst: &mut [i16; L1],
        added: &[usize],
        removed: &[usize],
    ) {
        for t in (0..L1).step_by(T) {
            let mut tile: [i16; T] = start[t..t + T].try_into().expect("T divides L1");
            for (list, add) in [(added, true), (removed, false)] {
                for &f in list {
                    if f < THREAT_INPUTS {
                        let row: &[i8; T] = self.threat_weights[f][t..t + T].try_into().expect("T divides L1");
                        for (v, &w) in tile.iter_mut().zip(row) {
                            *v = if add { v.wrapping_add(i16::from(w)) } else { v.wrapping_sub(i16::from(w)) };
                        }
                    } else {
                        let row: &[i16; T] =
                            self.ft_weights[f - THREAT_INPUTS][t..t + T].try_into().expect("T divides L1");
                        for (v, &w) in tile.iter_mut().zip(row) {
                            *v = if add { v.wrapping_add(w) } else { v.wrapping_sub(w) };
                        }
                    }
                }
            }
            dst[t..t + T].copy_from_slice(&tile);
        }
    }

    #[inline(always)]
    unsafe fn forward_k<K: Kernels>(
        &self,
        acc: &Accumulator<L1, BUCKETS>,
        stm: Color,
        pieces: usize,
        trace: Option<&mut Trace>,
    ) -> Evaluation {
        let bucket = (pieces - 1) / 4;
        let (us, them) = (stm.index(), (!stm).index());
        let psqt = acc.psqt[us][bucket].wrapping_sub(acc.psqt[them][bucket]) / 2;

        let (mut ft_out, mut nnz) = ([[0u8; HALF]; 2], [0u16; CHUNKS]);
        let count = pairwise(&acc.values[us], &acc.values[them], &mut ft_out, &mut nnz);
        let chunks: &[[u8; 4]; CHUNKS] = bytemuck::must_cast_ref(&ft_out);

        let mut fc0 = [0i32; 16];
        let (weights, biases) = (&self.fc0_weights[bucket], &self.fc0_biases[bucket]);
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        unsafe { K::affine_sparse_listed(chunks, weights, biases, &mut fc0, &nnz[..count]) };
        // 15 squared then 15 plain activations; fc0[15] skips ahead to the output.
        let mut fc1_in = [0u8; 32];
        for i in 0..15 {
            fc1_in[i] = sqr_clipped_relu(fc0[i]);
            fc1_in[15 + i] = clipped_relu(fc0[i]);
        }
        let mut fc1 = [0i32; 32];
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        unsafe {
            K::affine_dense(
                bytemuck::must_cast_ref(&fc1_in),
                &self.fc1_weights[bucket],
                &self.fc1_biases[bucket],
                &mut fc1,
            )
        };
        let mut fc2_in = [0u8; 32];
        for (a, &x) in fc2_in.iter_mut().zip(&fc1) {
            *a = clipped_relu(x);
        }
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        let fc2 = unsafe { K::affine_one(&fc2_in, &self.fc2_weights[bucket], self.fc2_biases[bucket][0]) };
        // 1.0 is 127 * 64 in fc0's units and 600 * 16 in the output's.
        let forward = fc0[15].wrapping_mul(600 * 16) / (127 * 64);
        let positional = fc2.wrapping_add(forward);

        if let Some(t) = trace {
            t.ft_out = bytemuck::must_cast_ref::<_, [u8; L1]>(&ft_out).to_vec();
            t.dense = vec![fc0.to_vec(), fc1.to_vec(), vec![fc2]];
            t.activations = vec![fc1_in[..30].to_vec(), fc2_in.to_vec()];
        }
        Evaluation { bucket, psqt: psqt / 16, positional: positional / 16 }
    }

    #[inline(always)]
    unsafe fn trace_k<K: Kernels>(
        &self,
        acc: &Accumulator<L1, BUCKETS>,
        stm: Color,
        pieces: usize,
    ) -> (Evaluation, Trace) {
        let mut trace = Trace::default();
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        let eval = unsafe { self.forward_k::<K>(acc, stm, pieces, Some(&mut trace)) };
        (eval, trace)
    }

    #[inline(always)]
    unsafe fn plain_forward_k<K: Kernels>(
        &self,
        acc: &Accumulator<L1, BUCKETS>,
        stm: Color,
        pieces: usize,
    ) -> Evaluation {
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        unsafe { self.forward_k::<K>(acc, stm, pieces, None) }
    }

    #[inline(always)]
    unsafe fn refresh_k<K: Kernels>(&self, pos: &Position, perspective: Color, acc: &mut Accumulator<L1, BUCKETS>) {
        let mut list = Vec::with_capacity(96);
        FeatureSet::HalfKav2HmThreats.active(pos, perspective, &mut list);
        let p = perspective.index();
        self.accumulate(self.ft_biases, &mut acc.values[p], &list, &[]);
        portable::update_psqt(self.psqt_weights, &[0; BUCKETS], &mut acc.psqt[p], &list, &[]);
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
        self.accumulate(&src.values[p], &mut dst.values[p], added, removed);
        portable::update_psqt(self.psqt_weights, &src.psqt[p], &mut dst.psqt[p], added, removed);
    }
}

network_family!([const L1: usize, const HALF: usize, const CHUNKS: usize] SfnnThreats<'_, L1, HALF, CHUNKS>, Accumulator<L1, BUCKETS>, |_| FeatureSet::HalfKav2HmThreats);
