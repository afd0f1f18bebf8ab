//! The portable path: every kernel in plain Rust, for CPUs without the x86 paths' features
//! and as the readable statement of what each kernel computes.

use std::mem::MaybeUninit;

use super::portable::{clipped_relu, sqr_clipped_relu};
use super::Kernels;
use nnue_format::layout::{pack_slot, sfnn_fc0_act_source, sfnn_fc1_act_source};

pub(crate) struct Scalar;

impl super::sealed::Sealed for Scalar {}

// SAFETY: plain Rust, no instructions beyond the target's baseline.
unsafe impl Kernels for Scalar {
    const ROWS: super::rows::RowKernels = super::rows::SCALAR;
    const ISA: super::Isa = super::Isa::Scalar;

    #[inline(always)]
    unsafe fn ft_pairwise_both<
        'o,
        const L1: usize,
        const HALF: usize,
        const CHUNKS: usize,
        const MAX: i16,
        const SHIFT: u32,
        const ROUND: bool,
    >(
        us: &[i16; L1],
        them: &[i16; L1],
        out: &'o mut MaybeUninit<[[u8; HALF]; 2]>,
        nnz: &'o mut MaybeUninit<[u16; CHUNKS]>,
    ) -> (&'o [[u8; HALF]; 2], &'o [u16]) {
        let (out, nnz) = (out.write([[0; HALF]; 2]), nnz.write([0; CHUNKS]));
        for (acc, out) in [us, them].into_iter().zip(out.iter_mut()) {
            for j in 0..HALF {
                let a = i32::from(acc[j]).clamp(0, i32::from(MAX));
                let b = i32::from(acc[j + HALF]).clamp(0, i32::from(MAX));
                let half = if ROUND { 1 << (SHIFT - 1) } else { 0 };
                out[pack_slot(j)] = ((a * b + half) >> SHIFT) as u8;
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
        screlu_in_i16: bool,
    ) -> i32 {
        let mut sum = 0i32;
        for (side, w) in [us, them].into_iter().zip(weights) {
            for (&x, &w) in side.iter().zip(w) {
                let v = i32::from(x.clamp(0, qa));
                // With `screlu_in_i16`, `v * w` in int16 as the SIMD paths take it: the same
                // value when the flag holds (as the layout sets it), and the same wrap on every
                // path when a hand-built config claims it falsely.
                let term = match (screlu, screlu_in_i16) {
                    (true, true) => v * i32::from((v as i16).wrapping_mul(w)),
                    (true, false) => (v * v).wrapping_mul(i32::from(w)),
                    (false, _) => v * i32::from(w),
                };
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
