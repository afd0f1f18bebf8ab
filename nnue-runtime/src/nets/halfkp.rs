//! Stockfish 12-13: HalfKP -> L1x2 -> 32 -> 32 -> 1.

use super::network_family;
use crate::features::{halfkp, FeatureSet};
use crate::network::{Accumulator, Evaluation, Trace};
use crate::position::{Color, Position};
use crate::simd::portable::clipped_relu;
use crate::simd::Kernels;

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

    #[inline(always)]
    unsafe fn forward_k<K: Kernels>(
        &self,
        acc: &Accumulator<L1, 0>,
        stm: Color,
        _pieces: usize,
        trace: Option<&mut Trace>,
    ) -> Evaluation {
        let () = Self::SHAPE;
        let mut ft_out = [[0u8; L1]; 2];
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        unsafe { K::ft_clamp(&acc.values[stm.index()], &mut ft_out[0]) };
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        unsafe { K::ft_clamp(&acc.values[(!stm).index()], &mut ft_out[1]) };
        let mut fc0 = [0i32; 32];
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        unsafe {
            K::affine_sparse(bytemuck::must_cast_ref(&ft_out), &self.fc0_weights[0], &self.fc0_biases[0], &mut fc0)
        };
        let mut fc1_in = [0u8; 32];
        for (a, &x) in fc1_in.iter_mut().zip(&fc0) {
            *a = clipped_relu(x);
        }
        let mut fc1 = [0i32; 32];
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        unsafe {
            K::affine_dense(bytemuck::must_cast_ref(&fc1_in), &self.fc1_weights[0], &self.fc1_biases[0], &mut fc1)
        };
        let mut fc2_in = [0u8; 32];
        for (a, &x) in fc2_in.iter_mut().zip(&fc1) {
            *a = clipped_relu(x);
        }
        // SAFETY: `K`'s kernels run only under its path's target features, which this function's caller holds.
        let fc2 = unsafe { K::affine_one(&fc2_in, &self.fc2_weights[0], self.fc2_biases[0][0]) };
        if let Some(t) = trace {
            t.ft_out = ft_out.concat();
            t.dense = vec![fc0.to_vec(), fc1.to_vec(), vec![fc2]];
            t.activations = vec![fc1_in.to_vec(), fc2_in.to_vec()];
        }
        Evaluation { bucket: 0, psqt: 0, positional: fc2 / 16 }
    }

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
