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

    /// Whether every value the int8 layers read is proven to be in `0..=127`
    /// ([`nnue_format::Layers::int8_inputs_fit_7_bits`] of the layers computed), which the
    /// relaxed-SIMD path's kernels require: `nnue_net!` states it for the net it compiles, a
    /// [`Program`](crate::loaded::Program) for the layers it was built from. Where it doesn't
    /// hold (the default), that path runs SIMD128's kernels for the net instead.
    fn int8_inputs_fit_7_bits(&self) -> bool {
        false
    }
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
    fn update_in_place_on(
        &self,
        path: KernelPath,
        acc: &mut Self::Accumulator,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    ) {
        self.net.update_in_place_on(path, acc, perspective, added, removed)
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
    /// [`KernelPath::all`], less relaxed SIMD unless the layers prove its kernels exact
    /// ([`Forward::int8_inputs_fit_7_bits`]).
    fn paths(&self) -> Vec<KernelPath> {
        KernelPath::all().into_iter().filter(|&p| p.for_net(self.layers.int8_inputs_fit_7_bits()) == p).collect()
    }
    #[inline]
    fn forward_on(&self, path: KernelPath, acc: &Self::Accumulator, stm: Color, pieces: usize) -> Evaluation {
        crate::network::check_pieces(pieces);
        // Relaxed SIMD's kernels only where the layers allow them (SIMD128's otherwise).
        let path = path.for_net(self.layers.int8_inputs_fit_7_bits());
        crate::simd::on_path!(self, path, plain_forward_k [forward_avx2, forward_avxvnni, forward_avx512vnni, forward_neon, forward_dotprod, forward_simd128](acc, stm, pieces))
    }
    #[inline]
    fn trace_on(&self, path: KernelPath, acc: &Self::Accumulator, stm: Color, pieces: usize) -> (Evaluation, Trace) {
        crate::network::check_pieces(pieces);
        let path = path.for_net(self.layers.int8_inputs_fit_7_bits());
        crate::simd::on_path!(self, path, trace_k [trace_avx2, trace_avxvnni, trace_avx512vnni, trace_neon, trace_dotprod, trace_simd128](acc, stm, pieces))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loaded::FastWeights;
    use crate::simd::Isa;
    use nnue_format::{synth, Encoding};

    /// Layers that don't claim their int8 inputs fit 7 bits (the trait's default).
    struct Unproven<F>(F);

    impl<A, F: Forward<A>> Forward<A> for Unproven<F> {
        fn forward<K: Kernels>(
            &self,
            k: On<K>,
            acc: &A,
            stm: Color,
            pieces: usize,
            trace: Option<&mut Trace>,
        ) -> Evaluation {
            self.0.forward(k, acc, stm, pieces, trace)
        }
    }

    /// A network offers relaxed SIMD only where its layers prove its kernels exact: an SFNN
    /// net's do (and a run-time loaded one says so); the same layers without the proof don't
    /// list it, and given it anyway run SIMD128's kernels, to the same integers.
    #[test]
    fn relaxed_simd_is_offered_only_where_the_layers_prove_it_exact() {
        let net = synth::sfnn(64, 11, Encoding::Raw);
        let weights = FastWeights::new(&net).unwrap();
        let fast = weights.sfnn::<64, 32, 16>().unwrap();
        assert_eq!(fast.paths(), KernelPath::all());
        let unproven = Composed { net: fast.net, layers: Unproven(fast.layers.clone()) };
        let paths = unproven.paths();
        assert!(paths.iter().all(|p| p.isa() != Isa::RelaxedSimd), "{paths:?}");
        let others: Vec<KernelPath> = KernelPath::all().into_iter().filter(|p| p.isa() != Isa::RelaxedSimd).collect();
        assert_eq!(paths, others);
        let pos = Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4").unwrap();
        let want = fast.evaluate_on(KernelPath::SCALAR, &pos);
        for path in KernelPath::all() {
            assert_eq!(fast.evaluate_on(path, &pos), want, "{path}");
            assert_eq!(unproven.evaluate_on(path, &pos), want, "{path}");
            let acc = {
                let mut acc = unproven.new_accumulator();
                Color::BOTH.iter().for_each(|&c| unproven.refresh_on(path, &pos, c, &mut acc));
                acc
            };
            let (eval, _) = unproven.trace_on(path, &acc, pos.side_to_move(), pos.piece_count());
            assert_eq!(eval, want, "{path}");
        }
    }
}
