//! Stockfish 12-13: HalfKP -> L1x2 -> 32 -> 32 -> 1.

use super::network_family;
use crate::features::{halfkp, FeatureSet};
use crate::network::Accumulator;
use crate::position::{Color, Position};

const INPUTS: usize = halfkp::INPUTS;

/// A HalfKP net of width `L1` (`CHUNKS` = 2 * L1 / 4, the first layer's input chunks),
/// transformer pack-ordered, int8 layers `[1][chunk][output][4]`. The fields are the arrays of
/// [`nnue_format::layout::HalfKpLayout`], by the same names.
#[derive(Debug, Clone, Copy)]
pub struct HalfKp<'a, const L1: usize, const CHUNKS: usize> {
    /// Transformer biases, pack-ordered.
    pub ft_biases: &'a [i16; L1],
    /// Transformer weights, one pack-ordered row of `L1` per HalfKP feature.
    pub ft_weights: &'a [[i16; L1]; INPUTS],
    /// First dense layer (2 x L1 -> 32): biases.
    pub fc0_biases: &'a [[i32; 32]; 1],
    /// First dense layer: weights as `[chunk of 4 inputs][output][4]`.
    pub fc0_weights: &'a [[[[i8; 4]; 32]; CHUNKS]; 1],
    /// Second dense layer (32 -> 32): biases.
    pub fc1_biases: &'a [[i32; 32]; 1],
    /// Second dense layer: weights as `[chunk of 4 inputs][output][4]`.
    pub fc1_weights: &'a [[[[i8; 4]; 32]; 8]; 1],
    /// Output layer (32 -> 1): bias.
    pub fc2_biases: &'a [[i32; 1]; 1],
    /// Output layer: weights.
    pub fc2_weights: &'a [[i8; 32]; 1],
}

impl<const L1: usize, const CHUNKS: usize> HalfKp<'_, L1, CHUNKS> {
    /// The shape the kernels need, checked when a method is instantiated.
    const SHAPE: () = assert!(L1.is_multiple_of(32) && 2 * L1 == 4 * CHUNKS);

    /// The transformer's arrays, borrowed.
    #[inline(always)]
    fn transformer(&self) -> super::Int16Rows<'_, L1> {
        super::Int16Rows { biases: self.ft_biases, rows: self.ft_weights }
    }
}

network_family!(
    [const L1: usize, const CHUNKS: usize] HalfKp<'_, L1, CHUNKS>,
    Accumulator<L1, 0>,
    |_| FeatureSet::HalfKp,
    |_| INPUTS,
    |net| crate::network::WeightsId::of(net.ft_weights, net.fc2_weights),
    refresh: transformer
);
