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
use crate::network::{Accumulator, Evaluation, Trace};
use crate::position::{Color, Position};
use crate::simd::{portable, Kernels};

pub use nnue_format::{LayeredArch, Numbers};

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

/// `f32` from its bits.
#[inline(always)]
fn f(bits: i32) -> f32 {
    f32::from_bits(bits as u32)
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
    unsafe fn transform<'o, K: Kernels>(
        &self,
        us: &[i16; L1],
        them: &[i16; L1],
        out: &'o mut std::mem::MaybeUninit<[[u8; HALF]; 2]>,
        nnz: &'o mut std::mem::MaybeUninit<[u16; CHUNKS]>,
    ) -> (&'o [[u8; HALF]; 2], &'o [u16]) {
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds (every arm).
        unsafe {
            match self.arch.ft_shift {
                9 => K::ft_pairwise_both::<L1, HALF, CHUNKS, 255, 9>(us, them, out, nnz),
                10 => K::ft_pairwise_both::<L1, HALF, CHUNKS, 255, 10>(us, them, out, nnz),
                11 => K::ft_pairwise_both::<L1, HALF, CHUNKS, 255, 11>(us, them, out, nnz),
                12 => K::ft_pairwise_both::<L1, HALF, CHUNKS, 255, 12>(us, them, out, nnz),
                13 => K::ft_pairwise_both::<L1, HALF, CHUNKS, 255, 13>(us, them, out, nnz),
                14 => K::ft_pairwise_both::<L1, HALF, CHUNKS, 255, 14>(us, them, out, nnz),
                _ => K::ft_pairwise_both::<L1, HALF, CHUNKS, 255, 15>(us, them, out, nnz),
            }
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
            || arch.dual != (L2F == 2 * L2)
        {
            bad_arch(arch);
        }
        let (us, them) = (stm.index(), (!stm).index());
        let (mut ft_out, mut nnz) = (std::mem::MaybeUninit::uninit(), std::mem::MaybeUninit::uninit());
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        let (ft_out, nnz) = unsafe { self.transform::<K>(&acc.values[us], &acc.values[them], &mut ft_out, &mut nnz) };
        let chunks: &[[u8; 4]; CHUNKS] = bytemuck::must_cast_ref(ft_out);
        let mut sums = [0i32; L2];
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        unsafe { K::affine_sparse_listed(chunks, &self.l1_weights[bucket], &[0; L2], &mut sums, nnz) };

        let (l1b, w2, b2, w3, b3) = (
            &self.l1_biases[bucket],
            &self.l2_weights[bucket],
            &self.l2_biases[bucket],
            &self.l3_weights[bucket],
            self.l3_biases[bucket],
        );
        let (positional, dense) = match arch.numbers {
            Numbers::F32 { num, den } => {
                let mul = num as f32 / den as f32;
                let z: [f32; L2] = std::array::from_fn(|j| (sums[j] as f32).mul_add(mul, f(l1b[j])));
                let mut a = [0f32; L2F];
                if L2F == 2 * L2 {
                    for j in 0..L2 {
                        a[j] = z[j].clamp(0.0, 1.0);
                        a[L2 + j] = (z[j] * z[j]).min(1.0);
                    }
                } else {
                    for j in 0..L2 {
                        let c = z[j].clamp(0.0, 1.0);
                        a[j] = c * c;
                    }
                }
                // Input-major: each input scales a run of outputs, every output summing in input order.
                let mut y: [f32; L3] = std::array::from_fn(|k| f(b2[k]));
                for (x, row) in a.iter().zip(w2) {
                    for (y, &w) in y.iter_mut().zip(row) {
                        *y = x.mul_add(f(w), *y);
                    }
                }
                let c: [f32; L3] = std::array::from_fn(|k| {
                    let c = y[k].clamp(0.0, 1.0);
                    c * c
                });
                let w3: &[f32; L3] = bytemuck::cast_ref(w3);
                let out = portable::dot16_f32(&c, w3, f(b3));
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits() as i32).collect::<Vec<i32>>();
                let dense = trace.is_some().then(|| vec![sums.to_vec(), bits(&z), bits(&y), bits(&[out])]);
                ((out * arch.scale as f32) as i32, dense)
            }
            Numbers::I32 { q_bits, l1_shift } => {
                let q = 1i32 << q_bits;
                let o: [i32; L2] = std::array::from_fn(|j| (sums[j] >> l1_shift).wrapping_add(l1b[j]));
                let mut a = [0i32; L2F];
                if L2F == 2 * L2 {
                    for j in 0..L2 {
                        a[j] = o[j].clamp(0, q) << q_bits;
                        a[L2 + j] = o[j].wrapping_mul(o[j]).min(q * q);
                    }
                } else {
                    for j in 0..L2 {
                        let c = o[j].clamp(0, q);
                        a[j] = c * c;
                    }
                }
                // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
                let y = unsafe { K::dense_i32(&a, w2, b2) };
                let one = q * q * q;
                // SAFETY: as above.
                let out = unsafe { K::clamped_dot_i32(&y, one, w3, b3) };
                let dense = trace.is_some().then(|| vec![sums.to_vec(), o.to_vec(), y.to_vec(), vec![out]]);
                // Stockfish-style two steps, as Stormphrax: `/ Q`, then `· scale / Q³` (int32, wrapping).
                (((out / q).wrapping_mul(arch.scale)) / one, dense)
            }
        };
        if let Some(t) = trace {
            t.ft_out = bytemuck::must_cast_ref::<_, [u8; L1]>(ft_out).to_vec();
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
