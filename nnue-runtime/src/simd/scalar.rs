//! The portable path, and the plain loops the x86 paths reuse where the compiler vectorises
//! them as well as intrinsics would (small activations, accumulator adds).

use std::mem::MaybeUninit;

use super::Kernels;
use nnue_format::layout::{pack_slot, sfnn_fc0_act_source, sfnn_fc1_act_source};

pub(crate) struct Scalar;

// SAFETY: plain Rust, no instructions beyond the target's baseline.
unsafe impl Kernels for Scalar {
    #[inline(always)]
    unsafe fn ft_pairwise_both<'o, const L1: usize, const HALF: usize, const CHUNKS: usize>(
        us: &[i16; L1],
        them: &[i16; L1],
        out: &'o mut MaybeUninit<[[u8; HALF]; 2]>,
        nnz: &'o mut MaybeUninit<[u16; CHUNKS]>,
    ) -> (&'o [[u8; HALF]; 2], &'o [u16]) {
        let (out, nnz) = (out.write([[0; HALF]; 2]), nnz.write([0; CHUNKS]));
        for (acc, out) in [us, them].into_iter().zip(out.iter_mut()) {
            for j in 0..HALF {
                let a = i32::from(acc[j]).clamp(0, 254);
                let b = i32::from(acc[j + HALF]).clamp(0, 254);
                out[pack_slot(j)] = (a * b / 512) as u8;
            }
        }
        let chunks: &[[u8; 4]; CHUNKS] = bytemuck::must_cast_ref(out);
        let mut count = 0;
        for (i, c) in chunks.iter().enumerate() {
            if *c != [0; 4] {
                nnz[count] = i as u16;
                count += 1;
            }
        }
        (out, &nnz[..count])
    }

    #[inline(always)]
    unsafe fn sfnn_fc0_act(fc0: &[i32; 16]) -> [u8; 32] {
        std::array::from_fn(|s| match sfnn_fc0_act_source(s) {
            (i, true) => sqr_clipped_relu(fc0[i]),
            (i, false) => clipped_relu(fc0[i]),
        })
    }

    #[inline(always)]
    unsafe fn sfnn_fc1_act(fc1: &[i32; 32]) -> [u8; 32] {
        std::array::from_fn(|s| clipped_relu(fc1[sfnn_fc1_act_source(s)]))
    }

    #[inline(always)]
    unsafe fn ft_clamp<const L1: usize>(acc: &[i16; L1], out: &mut [u8; L1]) {
        for j in 0..L1 {
            out[pack_slot(j)] = acc[j].clamp(0, 127) as u8;
        }
    }

    #[inline(always)]
    unsafe fn affine_sparse<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
    ) {
        *out = *biases;
        for (chunk, w) in input.iter().zip(weights) {
            if *chunk != [0; 4] {
                accumulate_chunk(chunk, w, out);
            }
        }
    }

    #[inline(always)]
    unsafe fn affine_sparse_listed<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
        nnz: &[u16],
    ) {
        *out = *biases;
        for &i in nnz {
            accumulate_chunk(&input[i as usize], &weights[i as usize], out);
        }
    }

    #[inline(always)]
    unsafe fn affine_dense<const CHUNKS: usize, const OUT: usize>(
        input: &[[u8; 4]; CHUNKS],
        weights: &[[[i8; 4]; OUT]; CHUNKS],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
    ) {
        *out = *biases;
        for (chunk, w) in input.iter().zip(weights) {
            accumulate_chunk(chunk, w, out);
        }
    }

    #[inline(always)]
    unsafe fn affine_one<const IN: usize>(input: &[u8; IN], weights: &[i8; IN], bias: i32) -> i32 {
        input.iter().zip(weights).fold(bias, |s, (&x, &w)| s.wrapping_add(i32::from(x) * i32::from(w)))
    }

    #[inline(always)]
    unsafe fn chess768_output<const N: usize>(
        us: &[i16; N],
        them: &[i16; N],
        weights: &[[i16; N]; 2],
        qa: i16,
        screlu: bool,
        _lizard: bool,
    ) -> i32 {
        let mut sum = 0i32;
        for (side, w) in [us, them].into_iter().zip(weights) {
            for (&x, &w) in side.iter().zip(w) {
                let v = i32::from(x.clamp(0, qa));
                let term = if screlu { (v * v).wrapping_mul(i32::from(w)) } else { v * i32::from(w) };
                sum = sum.wrapping_add(term);
            }
        }
        sum
    }
}

#[inline(always)]
fn accumulate_chunk<const OUT: usize>(chunk: &[u8; 4], w: &[[i8; 4]; OUT], out: &mut [i32; OUT]) {
    // Per input byte across all outputs: the inner loop vectorises over the outputs.
    // Wrapping, as the SIMD adds do.
    for (k, &x) in chunk.iter().enumerate() {
        let x = i32::from(x);
        if x != 0 {
            for (o, wo) in out.iter_mut().zip(w) {
                *o = o.wrapping_add(x * i32::from(wo[k]));
            }
        }
    }
}

/// `clamp(x >> 6, 0, 127)` of Stockfish's ClippedReLU.
#[inline(always)]
pub(crate) fn clipped_relu(x: i32) -> u8 {
    (x >> 6).clamp(0, 127) as u8
}

/// `min(127, x * x >> 19)` of Stockfish's SqrClippedReLU.
#[inline(always)]
pub(crate) fn sqr_clipped_relu(x: i32) -> u8 {
    ((i64::from(x) * i64::from(x)) >> 19).min(127) as u8
}

/// `dst = src + sum(adds) - sum(subs)` in one pass (int16, wrapping as Stockfish's adds do).
/// Fixed arities unroll fully; the caller's target features decide the vector width.
#[inline(always)]
pub(crate) fn fused_update<const L1: usize, const A: usize, const S: usize>(
    src: &[i16; L1],
    dst: &mut [i16; L1],
    adds: [&[i16; L1]; A],
    subs: [&[i16; L1]; S],
) {
    for i in 0..L1 {
        let mut v = src[i];
        for a in &adds {
            v = v.wrapping_add(a[i]);
        }
        for s in &subs {
            v = v.wrapping_sub(s[i]);
        }
        dst[i] = v;
    }
}

/// `dst = src + sum of rows[added] - sum of rows[removed]` for any number of rows (a refresh
/// from a cached accumulator), tile by tile like [`refresh_rows`] so that `dst` is written
/// once instead of once per row (wrapping int16: the order of the terms doesn't matter).
#[inline(always)]
pub(crate) fn update_rows<const L1: usize>(
    src: &[i16; L1],
    rows: &[[i16; L1]],
    added: &[usize],
    removed: &[usize],
    dst: &mut [i16; L1],
) {
    if !L1.is_multiple_of(TILE) {
        *dst = *src;
        for &f in added {
            for (d, &w) in dst.iter_mut().zip(&rows[f]) {
                *d = d.wrapping_add(w);
            }
        }
        for &f in removed {
            for (d, &w) in dst.iter_mut().zip(&rows[f]) {
                *d = d.wrapping_sub(w);
            }
        }
        return;
    }
    for t in (0..L1).step_by(TILE) {
        let mut tile = [0i16; TILE];
        tile.copy_from_slice(&src[t..t + TILE]);
        for &f in added {
            let row = &rows[f][t..t + TILE];
            for i in 0..TILE {
                tile[i] = tile[i].wrapping_add(row[i]);
            }
        }
        for &f in removed {
            let row = &rows[f][t..t + TILE];
            for i in 0..TILE {
                tile[i] = tile[i].wrapping_sub(row[i]);
            }
        }
        dst[t..t + TILE].copy_from_slice(&tile);
    }
}

/// Register tile of a refresh: big enough to amortise the row loop, small enough to stay in
/// vector registers.
const TILE: usize = 128;

/// `dst = biases + sum of rows[f]` for the given features, tile by tile so that each tile is
/// written once.
#[inline(always)]
pub(crate) fn refresh_rows<const L1: usize>(
    biases: &[i16; L1],
    rows: &[[i16; L1]],
    features: &[usize],
    dst: &mut [i16; L1],
) {
    if !L1.is_multiple_of(TILE) {
        *dst = *biases;
        for &f in features {
            for (d, &w) in dst.iter_mut().zip(&rows[f]) {
                *d = d.wrapping_add(w);
            }
        }
        return;
    }
    for t in (0..L1).step_by(TILE) {
        let mut tile = [0i16; TILE];
        tile.copy_from_slice(&biases[t..t + TILE]);
        for &f in features {
            let row = &rows[f][t..t + TILE];
            for i in 0..TILE {
                tile[i] = tile[i].wrapping_add(row[i]);
            }
        }
        dst[t..t + TILE].copy_from_slice(&tile);
    }
}
