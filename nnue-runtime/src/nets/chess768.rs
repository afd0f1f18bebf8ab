//! Headerless `(768xK -> N)x2 -> 1xB` nets (bullet-style).

use super::{active_features, network_family};
use crate::features::{FeatureSet, KingLayout};
use crate::network::{Accumulator, Evaluation, Trace};
use crate::position::{Color, Position};
use crate::simd::portable;
use crate::simd::Kernels;

/// The scalars of a headerless net.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chess768Config {
    /// SCReLU (else CReLU).
    pub screlu: bool,
    /// Quantisation of the input layer: the activation clamps to `0..=qa`.
    pub qa: i16,
    /// Quantisation of the output layer.
    pub qb: i32,
    /// The eval is the output times `scale / (qa * qb)`.
    pub scale: i32,
    /// `qa * max |output weight| <= 32767`, so SCReLU may compute `v * (v * w)` in int16.
    pub screlu_in_i16: bool,
    /// King buckets and mirroring of the input layer.
    pub kings: KingLayout,
}

/// A headerless net with `N` hidden neurons, `INPUTS` = 768 x king buckets, `B` output buckets.
#[derive(Debug, Clone, Copy)]
pub struct Chess768<'a, const N: usize, const INPUTS: usize, const B: usize> {
    /// Input-layer biases.
    pub l0_biases: &'a [i16; N],
    /// Input-layer weights, one row of `N` per feature.
    pub l0_weights: &'a [[i16; N]; INPUTS],
    /// Output weights per bucket: the side to move's `N`, then the other side's.
    pub l1_weights: &'a [[[i16; N]; 2]; B],
    /// Output biases per bucket.
    pub l1_biases: &'a [i16; B],
    /// The scalars.
    pub config: Chess768Config,
}

impl<'a, const N: usize, const INPUTS: usize, const B: usize> Chess768<'a, N, INPUTS, B> {
    /// Takes the arrays in [`nnue_format::layout::fast_layout`] order.
    pub const fn new(
        l0_biases: &'a [i16; N],
        l0_weights: &'a [[i16; N]; INPUTS],
        l1_weights: &'a [[[i16; N]; 2]; B],
        l1_biases: &'a [i16; B],
        config: Chess768Config,
    ) -> Self {
        const { assert!(N.is_multiple_of(32) && INPUTS.is_multiple_of(768) && B >= 1 && B <= 32) };
        Self { l0_biases, l0_weights, l1_weights, l1_biases, config }
    }

    #[inline(always)]
    unsafe fn forward_k<K: Kernels>(
        &self,
        acc: &Accumulator<N, 0>,
        stm: Color,
        pieces: usize,
        trace: Option<&mut Trace>,
    ) -> Evaluation {
        let c = &self.config;
        let bucket = (pieces - 2) / 32usize.div_ceil(B);
        let (us, them) = (&acc.values[stm.index()], &acc.values[(!stm).index()]);
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        let mut sum =
            unsafe { K::chess768_output(us, them, &self.l1_weights[bucket], c.qa, c.screlu, c.screlu_in_i16) };
        if c.screlu {
            sum /= i32::from(c.qa);
        }
        if let Some(t) = trace {
            t.dense = vec![vec![sum]];
        }
        let out = sum.wrapping_add(i32::from(self.l1_biases[bucket])).wrapping_mul(c.scale) / (i32::from(c.qa) * c.qb);
        Evaluation { bucket, psqt: 0, positional: out }
    }

    #[inline(always)]
    unsafe fn plain_forward_k<K: Kernels>(&self, acc: &Accumulator<N, 0>, stm: Color, pieces: usize) -> Evaluation {
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        unsafe { self.forward_k::<K>(acc, stm, pieces, None) }
    }

    #[inline(always)]
    unsafe fn trace_k<K: Kernels>(&self, acc: &Accumulator<N, 0>, stm: Color, pieces: usize) -> (Evaluation, Trace) {
        let mut trace = Trace::default();
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        let eval = unsafe { self.forward_k::<K>(acc, stm, pieces, Some(&mut trace)) };
        (eval, trace)
    }

    #[inline(always)]
    unsafe fn refresh_k<K: Kernels>(&self, pos: &Position, perspective: Color, acc: &mut Accumulator<N, 0>) {
        let (list, n) = active_features(FeatureSet::Chess768(self.config.kings), pos, perspective);
        portable::refresh_rows(self.l0_biases, self.l0_weights, &list[..n], &mut acc.values[perspective.index()]);
    }

    #[inline(always)]
    unsafe fn update_k<K: Kernels>(
        &self,
        src: &Accumulator<N, 0>,
        dst: &mut Accumulator<N, 0>,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    ) {
        let p = perspective.index();
        portable::update_rows(self.l0_weights, &src.values[p], &mut dst.values[p], added, removed);
    }
}

network_family!([const N: usize, const INPUTS: usize, const B: usize] Chess768<'_, N, INPUTS, B>, Accumulator<N, 0>, |net| FeatureSet::Chess768(net.config.kings));
