//! A network whose forward pass is a composition of layers: what `nnue_net!` emits for a net,
//! and what [`FastWeights`](crate::loaded::FastWeights) builds for a net loaded at run time.

use super::On;
use crate::features::FeatureSet;
use crate::nets::FeatureTransformer;
use crate::network::{Evaluation, Network, Trace, WeightsId};
use crate::position::{Color, Position};
use crate::simd::{KernelPath, Kernels};

/// The layers after the accumulators, as one function over the path's kernels: `nnue_net!`
/// implements it for each net, one call per layer, on the net's own weights; a net loaded at
/// run time runs the same calls from its [`Program`](crate::loaded::Program).
pub trait Forward<Acc> {
    /// The evaluation of `acc` for `stm` to move with `pieces` (2..=32, checked by the
    /// caller) on the board, recording each layer in `trace` if given.
    fn forward<K: Kernels>(
        &self,
        k: On<K>,
        acc: &Acc,
        stm: Color,
        pieces: usize,
        trace: Option<&mut Trace>,
    ) -> Evaluation;
}

/// `net`'s features and accumulators (refresh, updates, the weights' identity) with the
/// forward pass of `layers`.
#[derive(Debug, Clone, Copy)]
pub struct Composed<N, F> {
    /// The network whose accumulators this one keeps.
    pub net: N,
    /// The forward pass.
    pub layers: F,
}

impl<N: FeatureTransformer, F: Forward<N::Accumulator>> Composed<N, F> {
    #[inline(always)]
    unsafe fn plain_forward_k<K: Kernels>(&self, acc: &N::Accumulator, stm: Color, pieces: usize) -> Evaluation {
        // SAFETY: this function's caller holds `K`'s path.
        let k = unsafe { On::<K>::new() };
        self.layers.forward(k, acc, stm, pieces, None)
    }

    #[inline(always)]
    unsafe fn trace_k<K: Kernels>(&self, acc: &N::Accumulator, stm: Color, pieces: usize) -> (Evaluation, Trace) {
        let mut trace = Trace::default();
        // SAFETY: this function's caller holds `K`'s path.
        let k = unsafe { On::<K>::new() };
        let eval = self.layers.forward(k, acc, stm, pieces, Some(&mut trace));
        (eval, trace)
    }

    crate::simd::entry_points!(fn plain_forward_k [forward_avx2, forward_avxvnni, forward_avx512vnni, forward_neon, forward_dotprod, forward_simd128]
        (&self, acc: &N::Accumulator, stm: Color, pieces: usize) -> Evaluation);
    crate::simd::entry_points!(fn trace_k [trace_avx2, trace_avxvnni, trace_avx512vnni, trace_neon, trace_dotprod, trace_simd128]
        (&self, acc: &N::Accumulator, stm: Color, pieces: usize) -> (Evaluation, Trace));
}

impl<N: FeatureTransformer, F: Forward<N::Accumulator>> Network for Composed<N, F> {
    type Accumulator = N::Accumulator;

    fn feature_set(&self) -> FeatureSet {
        self.net.feature_set()
    }
    fn weights_id(&self) -> WeightsId {
        self.net.weights_id()
    }
    fn new_accumulator(&self) -> Self::Accumulator {
        self.net.new_accumulator()
    }
    #[inline]
    fn refresh_on(&self, path: KernelPath, pos: &Position, perspective: Color, acc: &mut Self::Accumulator) {
        self.net.refresh_on(path, pos, perspective, acc)
    }
    #[inline]
    fn update_on(
        &self,
        path: KernelPath,
        src: &Self::Accumulator,
        dst: &mut Self::Accumulator,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    ) {
        self.net.update_on(path, src, dst, perspective, added, removed)
    }
    #[inline]
    fn refresh_pieces_on(&self, path: KernelPath, pos: &Position, perspective: Color, acc: &mut Self::Accumulator) {
        self.net.refresh_pieces_on(path, pos, perspective, acc)
    }
    #[inline]
    fn rebase_on(
        &self,
        path: KernelPath,
        acc: &mut Self::Accumulator,
        perspective: Color,
        plus: &Self::Accumulator,
        minus: &Self::Accumulator,
    ) {
        self.net.rebase_on(path, acc, perspective, plus, minus)
    }
    #[inline]
    fn forward_on(&self, path: KernelPath, acc: &Self::Accumulator, stm: Color, pieces: usize) -> Evaluation {
        crate::network::check_pieces(pieces);
        crate::simd::on_path!(self, path, plain_forward_k [forward_avx2, forward_avxvnni, forward_avx512vnni, forward_neon, forward_dotprod, forward_simd128](acc, stm, pieces))
    }
    #[inline]
    fn trace_on(&self, path: KernelPath, acc: &Self::Accumulator, stm: Color, pieces: usize) -> (Evaluation, Trace) {
        crate::network::check_pieces(pieces);
        crate::simd::on_path!(self, path, trace_k [trace_avx2, trace_avxvnni, trace_avx512vnni, trace_neon, trace_dotprod, trace_simd128](acc, stm, pieces))
    }
}
