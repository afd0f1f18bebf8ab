//! Headerless `(768xK -> N)x2 -> 1xB` nets (bullet-style).

use super::network_family;
use crate::features::FeatureSet;
use crate::layers::{crelu_output, screlu_output, On};
use crate::network::{Accumulator, Evaluation, Trace};
use crate::position::{Color, Position};
use crate::simd::Kernels;

pub use nnue_format::layout::Chess768Config;

/// A headerless net with `N` hidden neurons, `INPUTS` = 768 x king buckets, `B` output buckets.
/// The fields are the arrays of [`nnue_format::layout::Chess768Layout`], by the same names.
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

impl<const N: usize, const INPUTS: usize, const B: usize> Chess768<'_, N, INPUTS, B> {
    /// The shape the kernels need, checked when a method is instantiated.
    const SHAPE: () = assert!(N.is_multiple_of(32) && INPUTS.is_multiple_of(768) && B >= 1 && B <= 32);

    #[inline(always)]
    unsafe fn forward_k<K: Kernels>(
        &self,
        acc: &Accumulator<N, 0>,
        stm: Color,
        pieces: usize,
        trace: Option<&mut Trace>,
    ) -> Evaluation {
        let () = Self::SHAPE;
        let c = &self.config;
        // The fields are public: a config the reader can't produce would panic on one path
        // and return 0 on another. (One comparison per forward pass.)
        if c.qa <= 0 || c.qb <= 0 || i32::from(c.qa).checked_mul(c.qb).is_none() {
            bad_config(c);
        }
        let bucket = (pieces - 2) / 32usize.div_ceil(B);
        // SAFETY: this function's caller holds `K`'s path.
        let k = unsafe { On::<K>::new() };
        let w = &self.l1_weights[bucket];
        let sum = if c.screlu {
            screlu_output(k, acc, stm, w, c.qa, c.screlu_in_i16) / i32::from(c.qa)
        } else {
            crelu_output(k, acc, stm, w, c.qa)
        };
        if let Some(t) = trace {
            t.dense = vec![vec![sum]];
        }
        let out = sum.wrapping_add(i32::from(self.l1_biases[bucket])).wrapping_mul(c.scale) / (i32::from(c.qa) * c.qb);
        Evaluation { bucket, psqt: 0, positional: out }
    }

    /// The transformer's arrays, borrowed.
    #[inline(always)]
    fn transformer(&self) -> super::Int16Rows<'_, N> {
        super::Int16Rows { biases: self.l0_biases, rows: self.l0_weights }
    }
}

/// The panic of a config no net has, the same on every path.
#[cold]
#[inline(never)]
#[track_caller]
fn bad_config(c: &Chess768Config) -> ! {
    panic!(
        "Chess768Config: qa and qb must be positive and qa * qb fit an i32, got qa={}, qb={} (build it with Chess768Config::new)",
        c.qa, c.qb
    )
}

network_family!(
    [const N: usize, const INPUTS: usize, const B: usize] Chess768<'_, N, INPUTS, B>,
    Accumulator<N, 0>,
    |net| FeatureSet::Chess768(net.config.kings),
    |_| INPUTS,
    |net| crate::network::WeightsId::of(net.l0_weights, net.l1_weights),
    refresh: transformer
);
