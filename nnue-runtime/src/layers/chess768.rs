//! The output layer of single-layer nets (`(768xK -> N)x2 -> 1xB`): both perspectives'
//! activations dotted with their half of the bucket's weights in one pass.

use super::On;
use crate::network::Accumulator;
use crate::position::Color;
use crate::simd::Kernels;

/// `Σ clamp(us, 0, qa) · w[0] + clamp(them, 0, qa) · w[1]` (CReLU), int32 wrapping: the sum
/// before the bias.
#[inline(always)]
pub fn crelu_output<K: Kernels, const N: usize>(
    _: On<K>,
    acc: &Accumulator<N, 0>,
    stm: Color,
    w: &[[i16; N]; 2],
    qa: i16,
) -> i32 {
    let (us, them) = (&acc.values[stm.index()], &acc.values[(!stm).index()]);
    // SAFETY: an `On<K>` exists only where this CPU has `K`'s features (16-bit clamps,
    // multiply-adds into 32 bits).
    unsafe { K::chess768_output(us, them, w, qa, false, false) }
}

/// The same with SCReLU, `clamp(x, 0, qa)²`, before the division by `qa`: `in_i16` when the
/// macro proved every `clamp(x, 0, qa) · w` fits int16 (the kernel then multiplies in int16
/// first).
#[inline(always)]
pub fn screlu_output<K: Kernels, const N: usize>(
    _: On<K>,
    acc: &Accumulator<N, 0>,
    stm: Color,
    w: &[[i16; N]; 2],
    qa: i16,
    in_i16: bool,
) -> i32 {
    let (us, them) = (&acc.values[stm.index()], &acc.values[(!stm).index()]);
    // SAFETY: an `On<K>` exists only where this CPU has `K`'s features (16-bit clamps and
    // multiplies, multiply-adds into 32 bits).
    unsafe { K::chess768_output(us, them, w, qa, true, in_i16) }
}
