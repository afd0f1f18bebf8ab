//! Multi-layer nets as bullet-trained engines ship them: `(768xK[hm] -> L1)x2 -> pairwise ->
//! (L2 -> L3 -> 1)xB`, the layers after the sparse one in f32 or int32 (see
//! [`nnue_format::LayeredArch`] for the exact arithmetic every path follows).
//!
//! The transformer and the sparse layer run on the SIMD kernels Stockfish's nets use (the
//! pairwise transform with its non-zero scan, the listed sparse int8 layer); the small layers
//! after it are plain loops over const-sized arrays, vectorised across outputs so that each
//! output's sum keeps the one order the description defines.

use super::network_family;
use crate::features::FeatureSet;
use crate::layers::{
    affine_f32, affine_i32, affine_listed, affine_listed_pairs, clamp_square, clamped_dot_i32, crelu_f32, dequant,
    dot_f32, dual_f32, dual_i32, f32_bits, f32_to_int, screlu_f32, shift_bias, On, Pairwise, PairwiseScratch, Sparse,
};
use crate::network::{Accumulator, Evaluation, Trace};
use crate::position::{Color, Position};
use crate::simd::Kernels;

pub use nnue_format::{Act, LayeredArch, Numbers};

/// A multi-layer net of width `L1` (`HALF` = L1 / 2, `CHUNKS` = L1 / 4) with `INPUTS`
/// features, `L2` sparse-layer outputs (`L2F`: doubled when the activation is dual), `L3`
/// dense-layer outputs and `B` output buckets. The fields are the arrays of
/// [`nnue_format::layout::LayeredLayout`], by the same names; f32 values as their bits.
#[derive(Debug, Clone, Copy)]
pub struct Layered<
    'a,
    const L1: usize,
    const HALF: usize,
    const CHUNKS: usize,
    const INPUTS: usize,
    const L2: usize,
    const L2F: usize,
    const L3: usize,
    const B: usize,
> {
    /// Transformer biases, pack-ordered.
    pub ft_biases: &'a [i16; L1],
    /// Transformer rows, pack-ordered.
    pub ft_weights: &'a [[i16; L1]; INPUTS],
    /// The sparse layer per bucket, `[chunk][output][4]`.
    pub l1_weights: &'a [[[[i8; 4]; L2]; CHUNKS]; B],
    /// The sparse layer's biases per bucket.
    pub l1_biases: &'a [[i32; L2]; B],
    /// The dense layer per bucket, input-major.
    pub l2_weights: &'a [[[i32; L3]; L2F]; B],
    /// The dense layer's biases per bucket.
    pub l2_biases: &'a [[i32; L3]; B],
    /// The output layer per bucket.
    pub l3_weights: &'a [[i32; L3]; B],
    /// The output biases.
    pub l3_biases: &'a [i32; B],
    /// Every scalar of the arithmetic.
    pub arch: LayeredArch,
}

/// `x` in an array of the length the arrays have (equal when this is called).
#[inline(always)]
fn pad<T: Copy + Default, const N: usize, const M: usize>(x: [T; N]) -> [T; M] {
    std::array::from_fn(|j| if j < N { x[j] } else { T::default() })
}

impl<
        const L1: usize,
        const HALF: usize,
        const CHUNKS: usize,
        const INPUTS: usize,
        const L2: usize,
        const L2F: usize,
        const L3: usize,
        const B: usize,
    > Layered<'_, L1, HALF, CHUNKS, INPUTS, L2, L2F, L3, B>
{
    /// The shape the kernels need, checked when a method is instantiated.
    const SHAPE: () = assert!(
        L1.is_multiple_of(64)
            && 2 * HALF == L1
            && 4 * CHUNKS == L1
            && (L2 == 16 || L2 == 32)
            && (L2F == L2 || L2F == 2 * L2)
            && L3.is_multiple_of(16)
            && B >= 1
    );

    /// The pairwise transform with the shift the description gives (one instantiation per
    /// shift the grammar allows).
    #[inline(always)]
    fn transform<'o, K: Kernels>(
        &self,
        k: On<K>,
        acc: &Accumulator<L1, 0>,
        stm: Color,
        scratch: &'o mut PairwiseScratch<HALF, CHUNKS>,
    ) -> Sparse<'o, HALF, CHUNKS> {
        match self.arch.ft_shift {
            9 => Pairwise::<255, 9>::apply(k, acc, stm, scratch),
            10 => Pairwise::<255, 10>::apply(k, acc, stm, scratch),
            11 => Pairwise::<255, 11>::apply(k, acc, stm, scratch),
            12 => Pairwise::<255, 12>::apply(k, acc, stm, scratch),
            13 => Pairwise::<255, 13>::apply(k, acc, stm, scratch),
            14 => Pairwise::<255, 14>::apply(k, acc, stm, scratch),
            _ => Pairwise::<255, 15>::apply(k, acc, stm, scratch),
        }
    }

    #[inline(always)]
    unsafe fn forward_k<K: Kernels>(
        &self,
        acc: &Accumulator<L1, 0>,
        stm: Color,
        pieces: usize,
        trace: Option<&mut Trace>,
    ) -> Evaluation {
        let () = Self::SHAPE;
        let arch = &self.arch;
        // The field is public: a description no reader produces (a shift or a Q out of range)
        // would overflow a shift on one build and wrap on another. A few comparisons a call.
        let bucket = arch.bucket_rule.bucket(pieces, B);
        if !LayeredArch::FT_SHIFTS.contains(&arch.ft_shift)
            || !arch.numbers.in_range()
            || bucket >= B
            || arch.dual() != (L2F == 2 * L2)
            || arch.acts_valid().is_err()
        {
            bad_arch(arch);
        }
        // SAFETY: this function's caller holds `K`'s path.
        let k = unsafe { On::<K>::new() };
        let mut scratch = PairwiseScratch::<HALF, CHUNKS>::new();
        let ft = self.transform(k, acc, stm, &mut scratch);
        // The bias comes after the rescaling.
        let l1 = if arch.i16_pairs {
            affine_listed_pairs(k, &ft, &self.l1_weights[bucket], &[0; L2])
        } else {
            affine_listed(k, &ft, &self.l1_weights[bucket], &[0; L2])
        };

        let (l1b, w2, b2, w3, b3) = (
            &self.l1_biases[bucket],
            &self.l2_weights[bucket],
            &self.l2_biases[bucket],
            &self.l3_weights[bucket],
            self.l3_biases[bucket],
        );
        let (positional, dense) = match arch.numbers {
            Numbers::F32 { num, den } => {
                let l1_out = dequant(&l1, num, den, l1b);
                let l2_in: [f32; L2F] = match arch.l1_act {
                    Act::Dual => dual_f32(&l1_out),
                    Act::Screlu => pad(screlu_f32(&l1_out)),
                    Act::Crelu => pad(crelu_f32(&l1_out)),
                };
                let l2 = affine_f32(&l2_in, w2, b2);
                let l2_out = if arch.l2_act == Act::Crelu { crelu_f32(&l2) } else { screlu_f32(&l2) };
                let l3 = dot_f32(&l2_out, w3, b3);
                let dense =
                    trace.is_some().then(|| vec![l1.to_vec(), f32_bits(&l1_out), f32_bits(&l2), f32_bits(&[l3])]);
                (f32_to_int(l3, arch.scale), dense)
            }
            Numbers::I32 { q_bits, l1_shift } => {
                let l1_out = shift_bias(&l1, l1_shift, l1b);
                let l2_in: [i32; L2F] =
                    if L2F == 2 * L2 { dual_i32(&l1_out, q_bits) } else { pad(clamp_square(&l1_out, q_bits)) };
                let l2 = affine_i32(k, &l2_in, w2, b2);
                let (q, one) = (1i32 << q_bits, 1i32 << (3 * q_bits));
                let l3 = clamped_dot_i32(k, &l2, one, w3, b3);
                let dense = trace.is_some().then(|| vec![l1.to_vec(), l1_out.to_vec(), l2.to_vec(), vec![l3]]);
                // Stockfish-style two steps, as Stormphrax: `/ Q`, then `· scale / Q³` (int32, wrapping).
                (((l3 / q).wrapping_mul(arch.scale)) / one, dense)
            }
        };
        if let Some(t) = trace {
            t.ft_out = ft.bytes().to_vec();
            t.dense = dense.unwrap_or_default();
        }
        Evaluation { bucket, psqt: 0, positional }
    }

    /// The transformer's arrays, borrowed.
    #[inline(always)]
    fn transformer(&self) -> super::Int16Rows<'_, L1> {
        super::Int16Rows { biases: self.ft_biases, rows: self.ft_weights }
    }

    /// The input features.
    fn features(&self) -> FeatureSet {
        FeatureSet::for_arch(&nnue_format::Architecture::Layered(self.arch))
    }
}

/// The panic of a description no reader produces, the same on every path.
#[cold]
#[inline(never)]
#[track_caller]
fn bad_arch(arch: &LayeredArch) -> ! {
    panic!("Layered: the description `{arch}` has a pairwise shift, numbers, bucket rule or activation its arrays can't take")
}

network_family!(
    [const L1: usize, const HALF: usize, const CHUNKS: usize, const INPUTS: usize, const L2: usize, const L2F: usize, const L3: usize, const B: usize]
    Layered<'_, L1, HALF, CHUNKS, INPUTS, L2, L2F, L3, B>,
    Accumulator<L1, 0>,
    |net| net.features(),
    |_| INPUTS,
    |net| crate::network::WeightsId::of(net.ft_weights, net.l1_weights),
    refresh: transformer
);
