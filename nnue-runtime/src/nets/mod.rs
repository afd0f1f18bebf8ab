//! Const-dimensioned networks for the fast paths: what `nnue_net!` instantiates with a net's
//! dimensions and weights, and what [`crate::loaded`] builds from a net read at run time.
//!
//! Each family is one struct of references to arrays in the fast layout
//! ([`nnue_format::layout`]); its methods are generic over the kernel set and instantiated per
//! path under that path's `#[target_feature]`.

mod chess768;
mod halfkp;
mod sfnn;
mod sfnn_threats;

pub use chess768::{Chess768, Chess768Config};
pub use halfkp::HalfKp;
pub use sfnn::{LayerStacks, Sfnn};
pub use sfnn_threats::SfnnThreats;

use crate::features::FeatureSet;
use crate::position::{Color, Position};

/// The [`Network`] impl of a family, from its `*_k` methods (`forward_k`, `refresh_k`,
/// `update_k`, generic over the kernel set): each trait method runs the kernel set of the path
/// it is given (see [`crate::simd::entry_points`]).
macro_rules! network_family {
    ([$($generics:tt)*] $ty:ty, $acc:ty, $features:expr) => {
        impl<$($generics)*> $ty {
            #[inline(always)]
            unsafe fn plain_forward_k<K: crate::simd::Kernels>(&self, acc: &$acc, stm: Color, pieces: usize) -> Evaluation {
                // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
                unsafe { self.forward_k::<K>(acc, stm, pieces, None) }
            }

            #[inline(always)]
            unsafe fn trace_k<K: crate::simd::Kernels>(&self, acc: &$acc, stm: Color, pieces: usize) -> (Evaluation, Trace) {
                let mut trace = Trace::default();
                // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
                let eval = unsafe { self.forward_k::<K>(acc, stm, pieces, Some(&mut trace)) };
                (eval, trace)
            }

            crate::simd::entry_points!(fn plain_forward_k [forward_avx2, forward_avxvnni, forward_avx512vnni, forward_neon, forward_dotprod]
                (&self, acc: &$acc, stm: Color, pieces: usize) -> Evaluation);
            crate::simd::entry_points!(fn trace_k [trace_avx2, trace_avxvnni, trace_avx512vnni, trace_neon, trace_dotprod]
                (&self, acc: &$acc, stm: Color, pieces: usize) -> (Evaluation, Trace));
            crate::simd::entry_points!(fn refresh_k [refresh_avx2, refresh_avxvnni, refresh_avx512vnni, refresh_neon, refresh_dotprod]
                (&self, pos: &Position, perspective: Color, acc: &mut $acc));
            crate::simd::entry_points!(fn update_k [update_avx2, update_avxvnni, update_avx512vnni, update_neon, update_dotprod]
                (&self, src: &$acc, dst: &mut $acc, perspective: Color, added: &[usize], removed: &[usize]));
        }

        impl<$($generics)*> crate::network::Network for $ty {
            type Accumulator = $acc;

            fn feature_set(&self) -> FeatureSet {
                let features: fn(&Self) -> FeatureSet = $features;
                features(self)
            }
            fn new_accumulator(&self) -> $acc {
                Default::default()
            }
            #[inline]
            fn refresh_on(&self, path: crate::KernelPath, pos: &Position, perspective: Color, acc: &mut $acc) {
                crate::simd::on_path!(self, path, refresh_k [refresh_avx2, refresh_avxvnni, refresh_avx512vnni, refresh_neon, refresh_dotprod](pos, perspective, acc))
            }
            #[inline]
            fn update_on(&self, path: crate::KernelPath, src: &$acc, dst: &mut $acc, perspective: Color, added: &[usize], removed: &[usize]) {
                crate::simd::on_path!(self, path, update_k [update_avx2, update_avxvnni, update_avx512vnni, update_neon, update_dotprod](src, dst, perspective, added, removed))
            }
            #[inline]
            fn forward_on(&self, path: crate::KernelPath, acc: &$acc, stm: Color, pieces: usize) -> Evaluation {
                crate::simd::on_path!(self, path, plain_forward_k [forward_avx2, forward_avxvnni, forward_avx512vnni, forward_neon, forward_dotprod](acc, stm, pieces))
            }
            #[inline]
            fn trace_on(&self, path: crate::KernelPath, acc: &$acc, stm: Color, pieces: usize) -> (Evaluation, Trace) {
                crate::simd::on_path!(self, path, trace_k [trace_avx2, trace_avxvnni, trace_avx512vnni, trace_neon, trace_dotprod](acc, stm, pieces))
            }
        }
    };
}
pub(crate) use network_family;

/// Active features of `perspective`, in a fixed-capacity buffer (a position has at most 32).
#[inline(always)]
pub(crate) fn active_features(features: FeatureSet, pos: &Position, perspective: Color) -> ([usize; 32], usize) {
    let (mut list, mut n) = ([0usize; 32], 0);
    let king = pos.king(perspective);
    for (sq, piece) in pos.pieces() {
        if let Some(f) = features.index(perspective, king, sq, piece) {
            list[n] = f;
            n += 1;
        }
    }
    (list, n)
}
