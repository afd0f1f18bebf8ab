//! The int8 affine layers: `out[o] = bias[o] + Σ w[o][i] · x[i]` over weights stored
//! `[chunk of 4 inputs][output][4]` (one 4-byte dot product per output and chunk).

use super::{On, Sparse};
use crate::simd::Kernels;

/// The sparse first layer over a pairwise transform's output: only its listed chunks.
#[inline(always)]
pub fn affine_listed<K: Kernels, const HALF: usize, const CHUNKS: usize, const OUT: usize>(
    _: On<K>,
    x: &Sparse<'_, HALF, CHUNKS>,
    w: &[[[i8; 4]; OUT]; CHUNKS],
    b: &[i32; OUT],
) -> [i32; OUT] {
    let mut out = [0; OUT];
    // SAFETY: an `On<K>` exists only where this CPU has `K`'s features; `Sparse` lists only
    // chunks below CHUNKS (the pairwise kernel's scan). The kernel broadcasts each listed
    // chunk and accumulates unsigned-by-signed byte dot products (`vpdpbusd` or its emulation).
    unsafe { K::affine_sparse_listed(x.chunks(), w, b, &mut out, x.nnz()) };
    out
}

/// [`affine_listed`] as Integral sums (`l1sums=i16pairs`): the listed chunks two at a time,
/// each pair's products added in int16 (wrapping) before widening.
#[inline(always)]
pub fn affine_listed_pairs<K: Kernels, const HALF: usize, const CHUNKS: usize, const OUT: usize>(
    _: On<K>,
    x: &Sparse<'_, HALF, CHUNKS>,
    w: &[[[i8; 4]; OUT]; CHUNKS],
    b: &[i32; OUT],
) -> [i32; OUT] {
    let mut out = [0; OUT];
    // SAFETY: an `On<K>` exists only where this CPU has `K`'s features; `Sparse` lists only
    // chunks below CHUNKS. The kernel broadcasts two listed chunks at a time, adds their
    // `maddubs` products in int16 and widens them with `madd`.
    unsafe { K::affine_sparse_listed_pairs(x.chunks(), w, b, &mut out, x.nnz()) };
    out
}

/// [`affine_listed_pairs`] as Viridithas's AVX2 build sums (`l1sums=viridithas-avx2`, the
/// neurons already in its order): the listed chunks four at a time, paired within each four;
/// the last `n mod 4` chunks alone, each widened on its own.
#[inline(always)]
pub fn affine_listed_fours<K: Kernels, const HALF: usize, const CHUNKS: usize, const OUT: usize>(
    _: On<K>,
    x: &Sparse<'_, HALF, CHUNKS>,
    w: &[[[i8; 4]; OUT]; CHUNKS],
    b: &[i32; OUT],
) -> [i32; OUT] {
    let mut out = [0; OUT];
    let nnz = x.nnz();
    let (paired, alone) = nnz.split_at(nnz.len() / 4 * 4);
    // SAFETY: as `affine_listed_pairs`: an `On<K>` exists only where this CPU has `K`'s
    // features, and every listed chunk is below CHUNKS. A list of one chunk has no pair: the
    // kernel widens it alone, on top of the sums so far passed as the biases.
    unsafe {
        K::affine_sparse_listed_pairs(x.chunks(), w, b, &mut out, paired);
        for chunk in alone {
            let sums = out;
            K::affine_sparse_listed_pairs(x.chunks(), w, &sums, &mut out, std::slice::from_ref(chunk));
        }
    }
    out
}

/// The first layer over bytes that are mostly zero (HalfKP's), skipping all-zero chunks.
#[inline(always)]
pub fn affine_sparse<K: Kernels, const L1: usize, const CHUNKS: usize, const OUT: usize>(
    _: On<K>,
    x: &[[u8; L1]; 2],
    w: &[[[i8; 4]; OUT]; CHUNKS],
    b: &[i32; OUT],
) -> [i32; OUT] {
    let mut out = [0; OUT];
    // SAFETY: an `On<K>` exists only where this CPU has `K`'s features; byte dot products of
    // the non-zero chunks (`must_cast_ref` checks the sizes agree).
    unsafe { K::affine_sparse(bytemuck::must_cast_ref(x), w, b, &mut out) };
    out
}

/// A dense int8 layer of `IN` bytes (`IN` = 4 · CHUNKS).
#[inline(always)]
pub fn affine_dense<K: Kernels, const IN: usize, const CHUNKS: usize, const OUT: usize>(
    _: On<K>,
    x: &[u8; IN],
    w: &[[[i8; 4]; OUT]; CHUNKS],
    b: &[i32; OUT],
) -> [i32; OUT] {
    let mut out = [0; OUT];
    // SAFETY: an `On<K>` exists only where this CPU has `K`'s features; byte dot products of
    // every chunk (`must_cast_ref` checks the sizes agree).
    unsafe { K::affine_dense(bytemuck::must_cast_ref(x), w, b, &mut out) };
    out
}

/// A layer of one output: `b + Σ w[i] · x[i]`.
#[inline(always)]
pub fn affine_one<K: Kernels, const IN: usize>(_: On<K>, x: &[u8; IN], w: &[i8; IN], b: i32) -> i32 {
    // SAFETY: an `On<K>` exists only where this CPU has `K`'s features; byte dot products
    // summed horizontally.
    unsafe { K::affine_one(x, w, b) }
}
