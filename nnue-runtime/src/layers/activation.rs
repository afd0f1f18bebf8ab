//! Activations from int32 sums to the next layer's bytes, and their concatenation.

use nnue_format::layout::{sfnn_fc1_act_source, sfnn_fc1_input};

use super::On;
use crate::simd::Kernels;

/// Stockfish 15.1–18's fc_0 activations: `min(127, x² >> 19)` then `clamp(x >> 6, 0, 127)` of
/// outputs 0..15, packed in the byte order fc_1's stored weights follow
/// ([`nnue_format::layout::sfnn_fc0_act_source`]); output 15's two bytes meet zero weights.
pub struct SfnnFc0Act;

impl SfnnFc0Act {
    /// The 32 packed bytes.
    #[inline(always)]
    pub fn apply<K: Kernels>(_: On<K>, x: &[i32; 16]) -> [u8; 32] {
        // SAFETY: an `On<K>` exists only where this CPU has `K`'s features (shifts, a 16-bit
        // multiply-high and saturating packs).
        unsafe { K::sfnn_fc0_act(x) }
    }
}

/// Stockfish 15.1–18's fc_1 activation, `clamp(x >> 6, 0, 127)`, packed in the byte order
/// fc_2's stored weights follow ([`nnue_format::layout::sfnn_fc1_act_source`]).
pub struct SfnnFc1Act;

impl SfnnFc1Act {
    /// The 32 packed bytes.
    #[inline(always)]
    pub fn apply<K: Kernels>(_: On<K>, x: &[i32; 32]) -> [u8; 32] {
        // SAFETY: an `On<K>` exists only where this CPU has `K`'s features (shifts and
        // saturating packs).
        unsafe { K::sfnn_fc1_act(x) }
    }
}

/// The canonical fc_1 input (30 bytes: 15 squared, 15 clipped) of [`SfnnFc0Act`]'s bytes.
pub fn unpack_sfnn_fc0_act(packed: &[u8; 32]) -> Vec<u8> {
    let mut out = vec![0; 30];
    for (s, &b) in packed.iter().enumerate() {
        if let Some(i) = sfnn_fc1_input(s) {
            out[i] = b;
        }
    }
    out
}

/// The canonical order (output by output) of [`SfnnFc1Act`]'s bytes.
pub fn unpack_sfnn_fc1_act(packed: &[u8; 32]) -> Vec<u8> {
    let mut out = vec![0; 32];
    for (s, &b) in packed.iter().enumerate() {
        out[sfnn_fc1_act_source(s)] = b;
    }
    out
}

/// `clamp(x >> SHIFT, 0, 127)`, Stockfish's ClippedReLU, in order.
pub struct Clipped<const SHIFT: u32>;

impl<const SHIFT: u32> Clipped<SHIFT> {
    /// One byte per sum.
    #[inline(always)]
    pub fn apply<const N: usize>(x: &[i32; N]) -> [u8; N] {
        clipped(x, SHIFT)
    }
}

/// [`Clipped`] with the shift a run-time description gives (below 32).
#[inline(always)]
pub fn clipped<const N: usize>(x: &[i32; N], shift: u32) -> [u8; N] {
    x.map(|v| (v >> shift).clamp(0, 127) as u8)
}

/// Stockfish 19's dual activation: `[min(127, x² >> SQR); N] ++ [clamp(x >> SHIFT, 0, 127); N]`.
pub struct SqrClippedAndClipped<const SQR: u32, const SHIFT: u32>;

impl<const SQR: u32, const SHIFT: u32> SqrClippedAndClipped<SQR, SHIFT> {
    /// `2N` bytes (`M`): the squared half, then the clipped one.
    ///
    /// In int32 only, so that it vectorises: `|x|` is first capped at the smallest value whose
    /// square already gives 127, which leaves every result as it is and keeps the square in
    /// range (`SQR` at most 23).
    #[inline(always)]
    pub fn apply<const N: usize, const M: usize>(x: &[i32; N]) -> [u8; M] {
        const { assert!(SQR <= 23 && M == 2 * N) };
        let mut out = [0; M];
        sqr_clipped_and_clipped(x, SQR, SHIFT, &mut out);
        out
    }
}

/// [`SqrClippedAndClipped`] with the shifts a run-time description gives (`sqr` at most 23,
/// `shift` below 32), into `out` (`2N` bytes).
#[inline(always)]
pub fn sqr_clipped_and_clipped<const N: usize>(x: &[i32; N], sqr: u32, shift: u32, out: &mut [u8]) {
    let cap = (127u32 << sqr).isqrt() + 1;
    let (squared, clipped) = out.split_at_mut(N);
    for ((s, c), &v) in squared.iter_mut().zip(clipped.iter_mut()).zip(x) {
        let a = v.unsigned_abs().min(cap);
        *s = ((a * a) >> sqr).min(127) as u8;
        *c = (v >> shift).clamp(0, 127) as u8;
    }
}

/// `a ++ b` (`C` = A + B).
#[inline(always)]
pub fn concat<const A: usize, const B: usize, const C: usize>(a: &[u8; A], b: &[u8; B]) -> [u8; C] {
    const { assert!(A + B == C) };
    let mut out = [0; C];
    out[..A].copy_from_slice(a);
    out[A..].copy_from_slice(b);
    out
}
