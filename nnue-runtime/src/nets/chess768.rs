//! Headerless `(768xK -> N)x2 -> 1xB` nets (bullet-style).

use super::network_family;
use crate::features::FeatureSet;
use crate::network::Accumulator;
use crate::position::{Color, Position};

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

    /// The transformer's arrays, borrowed.
    #[inline(always)]
    fn transformer(&self) -> super::Int16Rows<'_, N> {
        super::Int16Rows { biases: self.l0_biases, rows: self.l0_weights }
    }
}

network_family!(
    [const N: usize, const INPUTS: usize, const B: usize] Chess768<'_, N, INPUTS, B>,
    Accumulator<N, 0>,
    |net| FeatureSet::Chess768(net.config.kings),
    |_| INPUTS,
    |net| crate::network::WeightsId::of(net.l0_weights, net.l1_weights),
    refresh: transformer
);
