//! From the two accumulators to the first layer's bytes, side to move first.

use std::mem::MaybeUninit;

use super::On;
use crate::network::Accumulator;
use crate::position::Color;
use crate::simd::Kernels;

/// Stockfish's pairwise transform (and bullet's pairwise CReLU): per perspective,
/// `clamp(a[i], 0, MAX) · clamp(a[i + L1/2], 0, MAX) >> SHIFT` over pack-ordered columns
/// (`ROUND`: plus `2^(SHIFT − 1)` before the shift, cinder's), listing the non-zero 4-byte
/// chunks for the next layer as it goes.
pub struct Pairwise<const MAX: i16, const SHIFT: u32, const ROUND: bool = false>;

/// What [`Pairwise`] writes: all of `out`, the front of `nnz`. Never cleared. Cache-line
/// aligned, as the kernels' stores are.
#[repr(C, align(64))]
pub struct PairwiseScratch<const HALF: usize, const CHUNKS: usize> {
    out: MaybeUninit<[[u8; HALF]; 2]>,
    nnz: MaybeUninit<[u16; CHUNKS]>,
}

impl<const HALF: usize, const CHUNKS: usize> PairwiseScratch<HALF, CHUNKS> {
    /// Uninitialised space.
    #[inline(always)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        PairwiseScratch { out: MaybeUninit::uninit(), nnz: MaybeUninit::uninit() }
    }
}

/// The bytes of a pairwise transform (`[side to move's HALF, the other's HALF]`, read as
/// `CHUNKS` chunks of 4) and the indices of the chunks that aren't all zero.
#[derive(Clone, Copy)]
pub struct Sparse<'a, const HALF: usize, const CHUNKS: usize> {
    out: &'a [[u8; HALF]; 2],
    nnz: &'a [u16],
}

impl<'a, const HALF: usize, const CHUNKS: usize> Sparse<'a, HALF, CHUNKS> {
    /// The bytes as 4-byte chunks, the sparse layer's input.
    #[inline(always)]
    pub fn chunks(&self) -> &'a [[u8; 4]; CHUNKS] {
        bytemuck::must_cast_ref(self.out)
    }

    /// The non-zero chunks, each below `CHUNKS`.
    #[inline(always)]
    pub fn nnz(&self) -> &'a [u16] {
        self.nnz
    }

    /// The bytes in order (for a trace).
    pub fn bytes(&self) -> &'a [u8] {
        self.out.as_flattened()
    }
}

impl<const MAX: i16, const SHIFT: u32, const ROUND: bool> Pairwise<MAX, SHIFT, ROUND> {
    /// The transform of `acc`, `stm`'s half first, into `scratch`.
    #[inline(always)]
    pub fn apply<'o, K: Kernels, const L1: usize, const P: usize, const HALF: usize, const CHUNKS: usize>(
        _: On<K>,
        acc: &Accumulator<L1, P>,
        stm: Color,
        scratch: &'o mut PairwiseScratch<HALF, CHUNKS>,
    ) -> Sparse<'o, HALF, CHUNKS> {
        let (us, them) = (&acc.values[stm.index()], &acc.values[(!stm).index()]);
        // SAFETY: an `On<K>` exists only where this CPU has `K`'s features; the kernel
        // (saturating packs, clamps, 16-bit products) writes all of `out` and the front of
        // `nnz` it returns.
        let (out, nnz) = unsafe {
            K::ft_pairwise_both::<L1, HALF, CHUNKS, MAX, SHIFT, ROUND>(us, them, &mut scratch.out, &mut scratch.nnz)
        };
        Sparse { out, nnz }
    }
}

/// HalfKP's transform: `clamp(x, 0, 127)` of each perspective's accumulator, `stm`'s first.
#[inline(always)]
pub fn clipped_both<K: Kernels, const L1: usize, const P: usize>(
    _: On<K>,
    acc: &Accumulator<L1, P>,
    stm: Color,
) -> [[u8; L1]; 2] {
    let mut out = [[0u8; L1]; 2];
    // SAFETY: an `On<K>` exists only where this CPU has `K`'s features (a saturating pack of
    // 16-bit lanes to bytes).
    unsafe {
        K::ft_clamp(&acc.values[stm.index()], &mut out[0]);
        K::ft_clamp(&acc.values[(!stm).index()], &mut out[1]);
    }
    out
}
