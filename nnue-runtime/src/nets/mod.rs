//! Const-dimensioned networks for the fast paths: what `nnue_net!` instantiates with a net's
//! dimensions and weights, and what [`crate::loaded`] builds from a net read at run time.
//!
//! Each family is one struct of references to arrays in the fast layout
//! ([`nnue_format::layout`]); its methods are generic over the kernel set and instantiated per
//! path under that path's `#[target_feature]`.

mod halfkp;
mod sfnn;
mod simple;

pub use halfkp::HalfKp;
pub use sfnn::Sfnn;
pub use simple::{Chess768, Chess768Config};

use crate::features::FeatureSet;
use crate::position::{Color, Position};
use crate::reference::{Evaluation, Trace};
use crate::simd::KernelPath;

/// First-layer pre-activations of both perspectives (`values[color]`), in the fast layout.
#[derive(Debug, Clone, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator<const L1: usize, const PSQT: usize> {
    pub values: [[i16; L1]; 2],
    pub psqt: [[i32; PSQT]; 2],
}

impl<const L1: usize, const PSQT: usize> Default for Accumulator<L1, PSQT> {
    fn default() -> Self {
        Self { values: [[0; L1]; 2], psqt: [[0; PSQT]; 2] }
    }
}

/// What engines need from a net, fast or generic: accumulators, their updates, evaluation.
pub trait Network {
    type Accumulator: Clone;

    fn feature_set(&self) -> FeatureSet;

    /// An accumulator to refresh into (its contents are not meaningful yet).
    fn new_accumulator(&self) -> Self::Accumulator;

    /// Recomputes `perspective`'s half of `acc` from the position.
    fn refresh_on(&self, path: KernelPath, pos: &Position, perspective: Color, acc: &mut Self::Accumulator);

    /// `dst[perspective] = src[perspective] + added rows - removed rows`, in one pass.
    fn update_on(
        &self,
        path: KernelPath,
        src: &Self::Accumulator,
        dst: &mut Self::Accumulator,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    );

    /// The layers after the accumulator.
    fn forward_on(&self, path: KernelPath, acc: &Self::Accumulator, stm: Color, pieces: usize) -> Evaluation;

    /// Like [`Network::forward_on`], recording every layer's output.
    fn trace_on(&self, path: KernelPath, acc: &Self::Accumulator, stm: Color, pieces: usize) -> (Evaluation, Trace);

    fn refresh(&self, pos: &Position, perspective: Color, acc: &mut Self::Accumulator) {
        self.refresh_on(KernelPath::best(), pos, perspective, acc)
    }

    fn update(
        &self,
        src: &Self::Accumulator,
        dst: &mut Self::Accumulator,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    ) {
        self.update_on(KernelPath::best(), src, dst, perspective, added, removed)
    }

    fn forward(&self, acc: &Self::Accumulator, stm: Color, pieces: usize) -> Evaluation {
        self.forward_on(KernelPath::best(), acc, stm, pieces)
    }

    /// Refresh of both perspectives, then the forward pass.
    fn evaluate_on(&self, path: KernelPath, pos: &Position) -> Evaluation {
        let mut acc = self.new_accumulator();
        for perspective in Color::BOTH {
            self.refresh_on(path, pos, perspective, &mut acc);
        }
        self.forward_on(path, &acc, pos.side_to_move(), pos.piece_count())
    }

    fn evaluate(&self, pos: &Position) -> Evaluation {
        self.evaluate_on(KernelPath::best(), pos)
    }
}

/// Defines `$public(&self, path, args..)` that runs `$generic::<K>` with the kernel set of the
/// path, each x86 path in a method compiled under its `#[target_feature]`.
macro_rules! dispatch {
    ($(#[$meta:meta])* $vis:vis fn $public:ident(&self $(, $arg:ident: $ty:ty)*) $(-> $ret:ty)?
        => $generic:ident [$avx2:ident, $avxvnni:ident, $avx512:ident]) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,popcnt")]
        unsafe fn $avx2(&self $(, $arg: $ty)*) $(-> $ret)? {
            // SAFETY: only reached through a KernelPath proving AVX2.
            unsafe { self.$generic::<crate::simd::x86::Avx2>($($arg),*) }
        }
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,popcnt,avxvnni")]
        unsafe fn $avxvnni(&self $(, $arg: $ty)*) $(-> $ret)? {
            // SAFETY: only reached through a KernelPath proving AVX2 and AVX-VNNI.
            unsafe { self.$generic::<crate::simd::x86::AvxVnni>($($arg),*) }
        }
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,popcnt,avx512vnni,avx512vl")]
        unsafe fn $avx512(&self $(, $arg: $ty)*) $(-> $ret)? {
            // SAFETY: only reached through a KernelPath proving AVX2, AVX512-VNNI and AVX512-VL.
            unsafe { self.$generic::<crate::simd::x86::Avx512Vnni>($($arg),*) }
        }
        $(#[$meta])*
        #[inline]
        $vis fn $public(&self, path: crate::simd::KernelPath $(, $arg: $ty)*) $(-> $ret)? {
            match path.isa() {
                // SAFETY: the portable kernels need no target features.
                crate::simd::Isa::Scalar => unsafe { self.$generic::<crate::simd::scalar::Scalar>($($arg),*) },
                // SAFETY (all three): `path` is only constructed after detecting its features.
                #[cfg(target_arch = "x86_64")]
                crate::simd::Isa::Avx2 => unsafe { self.$avx2($($arg),*) },
                #[cfg(target_arch = "x86_64")]
                crate::simd::Isa::AvxVnni => unsafe { self.$avxvnni($($arg),*) },
                #[cfg(target_arch = "x86_64")]
                crate::simd::Isa::Avx512Vnni => unsafe { self.$avx512($($arg),*) },
                #[cfg(not(target_arch = "x86_64"))]
                _ => unreachable!("x86 paths are never available elsewhere"),
            }
        }
    };
}
pub(crate) use dispatch;

/// The per-path entry points and the [`Network`] impl of a family, from its `*_k` methods
/// (`plain_forward_k`, `trace_k`, `refresh_k`, `update_k`, generic over the kernel set).
macro_rules! network_family {
    ([$($generics:tt)*] $ty:ty, $acc:ty, $features:expr) => {
        impl<$($generics)*> $ty {
            crate::nets::dispatch! {
                /// The forward pass on `path`.
                pub fn forward_path(&self, acc: &$acc, stm: Color, pieces: usize) -> Evaluation
                    => plain_forward_k [forward_avx2, forward_avxvnni, forward_avx512vnni]
            }
            crate::nets::dispatch! {
                /// The forward pass on `path`, recording every layer.
                pub fn trace_path(&self, acc: &$acc, stm: Color, pieces: usize) -> (Evaluation, Trace)
                    => trace_k [trace_avx2, trace_avxvnni, trace_avx512vnni]
            }
            crate::nets::dispatch! {
                /// Recomputes `perspective`'s half of `acc` on `path`.
                pub fn refresh_path(&self, pos: &Position, perspective: Color, acc: &mut $acc)
                    => refresh_k [refresh_avx2, refresh_avxvnni, refresh_avx512vnni]
            }
            crate::nets::dispatch! {
                /// `dst[perspective] = src[perspective] + added - removed` on `path`.
                pub fn update_path(&self, src: &$acc, dst: &mut $acc, perspective: Color, added: &[usize], removed: &[usize])
                    => update_k [update_avx2, update_avxvnni, update_avx512vnni]
            }
        }

        impl<$($generics)*> crate::nets::Network for $ty {
            type Accumulator = $acc;

            fn feature_set(&self) -> FeatureSet {
                let features: fn(&Self) -> FeatureSet = $features;
                features(self)
            }
            fn new_accumulator(&self) -> $acc {
                Default::default()
            }
            fn refresh_on(&self, path: crate::KernelPath, pos: &Position, perspective: Color, acc: &mut $acc) {
                self.refresh_path(path, pos, perspective, acc)
            }
            fn update_on(&self, path: crate::KernelPath, src: &$acc, dst: &mut $acc, perspective: Color, added: &[usize], removed: &[usize]) {
                self.update_path(path, src, dst, perspective, added, removed)
            }
            fn forward_on(&self, path: crate::KernelPath, acc: &$acc, stm: Color, pieces: usize) -> Evaluation {
                self.forward_path(path, acc, stm, pieces)
            }
            fn trace_on(&self, path: crate::KernelPath, acc: &$acc, stm: Color, pieces: usize) -> (Evaluation, Trace) {
                self.trace_path(path, acc, stm, pieces)
            }
        }
    };
}
pub(crate) use network_family;

/// Accumulator work shared by the families: fused updates and tiled refreshes of int16 rows.
pub(crate) mod rows {
    use crate::simd::scalar::{fused_update, refresh_rows, update_rows};

    /// `dst = src + rows[added] - rows[removed]`, fused for the move shapes that occur.
    #[inline(always)]
    pub(crate) fn update<const L1: usize>(
        rows: &[[i16; L1]],
        src: &[i16; L1],
        dst: &mut [i16; L1],
        added: &[usize],
        removed: &[usize],
    ) {
        match (added, removed) {
            (&[a], &[s]) => fused_update(src, dst, [&rows[a]], [&rows[s]]),
            (&[a], &[s1, s2]) => fused_update(src, dst, [&rows[a]], [&rows[s1], &rows[s2]]),
            (&[a1, a2], &[s1, s2]) => fused_update(src, dst, [&rows[a1], &rows[a2]], [&rows[s1], &rows[s2]]),
            (&[a], &[]) => fused_update(src, dst, [&rows[a]], []),
            (&[], &[s]) => fused_update(src, dst, [], [&rows[s]]),
            _ => update_rows(src, rows, added, removed, dst),
        }
    }

    #[inline(always)]
    pub(crate) fn refresh<const L1: usize>(
        biases: &[i16; L1],
        rows: &[[i16; L1]],
        features: &[usize],
        dst: &mut [i16; L1],
    ) {
        refresh_rows(biases, rows, features, dst)
    }

    /// PSQT: `dst = src + sum(added) - sum(removed)` over `B` int32 buckets.
    #[inline(always)]
    pub(crate) fn update_psqt<const B: usize>(
        rows: &[[i32; B]],
        src: &[i32; B],
        dst: &mut [i32; B],
        added: &[usize],
        removed: &[usize],
    ) {
        let mut v = *src;
        for &a in added {
            for (x, &w) in v.iter_mut().zip(&rows[a]) {
                *x = x.wrapping_add(w);
            }
        }
        for &s in removed {
            for (x, &w) in v.iter_mut().zip(&rows[s]) {
                *x = x.wrapping_sub(w);
            }
        }
        *dst = v;
    }
}

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
