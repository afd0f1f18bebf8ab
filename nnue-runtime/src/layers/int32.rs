//! The int32 layers of bullet's multi-layer nets (Stormphrax's arithmetic), wrapping.

use super::On;
use crate::simd::Kernels;

/// `(s >> shift) + bias`: the sparse layer's sums rescaled, then biased (`shift` below 32).
#[inline(always)]
pub fn shift_bias<const N: usize>(x: &[i32; N], shift: u32, b: &[i32; N]) -> [i32; N] {
    // A plain loop, as the f32 layers' (`float.rs`).
    let mut y = [0i32; N];
    for j in 0..N {
        y[j] = (x[j] >> shift).wrapping_add(b[j]);
    }
    y
}

/// `[clamp(o, 0, Q) · Q; N] ++ [min(o², Q²); N]`, Q = 2^q_bits (`M` = 2N; Q⁴ fits an i32).
///
/// # Panics
/// When `M` is not 2N.
#[inline(always)]
pub fn dual_i32<const N: usize, const M: usize>(o: &[i32; N], q_bits: u32) -> [i32; M] {
    // Not a const assertion: the run-time program instantiates this in a branch not taken.
    assert!(M == 2 * N, "a dual activation doubles its input");
    let q = 1i32 << q_bits;
    let mut a = [0; M];
    for j in 0..N {
        a[j] = o[j].clamp(0, q) << q_bits;
        a[N + j] = o[j].wrapping_mul(o[j]).min(q * q);
    }
    a
}

/// Stormphrax 8's dual activation: `[clamp(o, 0, Q²) · Q >> shift; N] ++ [min(o², Q⁴) >>
/// (q_bits + shift); N]`, Q = 2^q_bits (Q⁴ fits an i32), the square wrapping, the shifts
/// arithmetic (`M` = 2N).
///
/// # Panics
/// When `M` is not 2N.
#[inline(always)]
pub fn dual_wide_i32<const N: usize, const M: usize>(o: &[i32; N], q_bits: u32, shift: u32) -> [i32; M] {
    assert!(M == 2 * N, "a dual activation doubles its input");
    let (q2, q4) = (1i32 << (2 * q_bits), 1i32 << (4 * q_bits));
    let mut a = [0; M];
    for j in 0..N {
        a[j] = (o[j].clamp(0, q2) << q_bits) >> shift;
        a[N + j] = o[j].wrapping_mul(o[j]).min(q4) >> (q_bits + shift);
    }
    a
}

/// Stormphrax 8's output layer: `S = Σ (clamp(x[i], 0, max) + s[i]) · w[i]` wrapping (its
/// skip adds the sparse layer's activation `s` to the dense layer's clamped output), then
/// `(b + S) · scale / 2^bits` in int64, truncating (`bits` below 63).
#[inline(always)]
pub fn skip_output_wide_i32<const IN: usize>(
    x: &[i32; IN],
    max: i32,
    s: &[i32; IN],
    w: &[i32; IN],
    b: i32,
    scale: i32,
    bits: u32,
) -> i32 {
    let sum = (0..IN).fold(0i32, |y, i| y.wrapping_add(x[i].clamp(0, max).wrapping_add(s[i]).wrapping_mul(w[i])));
    ((i64::from(b) + i64::from(sum)) * i64::from(scale) / (1i64 << bits)) as i32
}

/// `clamp(o, 0, Q)²`, Q = 2^q_bits.
#[inline(always)]
pub fn clamp_square<const N: usize>(o: &[i32; N], q_bits: u32) -> [i32; N] {
    o.map(|o| {
        let c = o.clamp(0, 1 << q_bits);
        c * c
    })
}

/// `out[o] = b[o] + Σ x[i] · w[i][o]` over input-major weights.
#[inline(always)]
pub fn affine_i32<K: Kernels, const IN: usize, const OUT: usize>(
    _: On<K>,
    x: &[i32; IN],
    w: &[[i32; OUT]; IN],
    b: &[i32; OUT],
) -> [i32; OUT] {
    // SAFETY: an `On<K>` exists only where this CPU has `K`'s features (32-bit multiplies
    // and adds).
    unsafe { K::dense_i32(x, w, b) }
}

/// The output: `b + Σ clamp(x[i], 0, max) · w[i]`.
#[inline(always)]
pub fn clamped_dot_i32<K: Kernels, const IN: usize>(_: On<K>, x: &[i32; IN], max: i32, w: &[i32; IN], b: i32) -> i32 {
    // SAFETY: an `On<K>` exists only where this CPU has `K`'s features (32-bit clamps,
    // multiplies and a horizontal sum).
    unsafe { K::clamped_dot_i32(x, max, w, b) }
}
