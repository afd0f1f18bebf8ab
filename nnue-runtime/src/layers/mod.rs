//! The layers after the accumulators, one kernel per layer kind, composed into a forward pass:
//! by `nnue_net!` for one net (a `Forward` impl in the generated module, read off the
//! description's [`layers`](nnue_format::Architecture::layers)), and by a
//! [`Program`](crate::loaded::Program) for nets loaded at run time. Both call the same functions.
//!
//! Every function here is safe: it takes the path's kernel set as an [`On`], which only an
//! entry point compiled for that path (on a CPU that has it) can make.

mod activation;
mod affine;
mod chess768;
mod composed;
mod float;
mod int32;
mod output;
mod transform;

use std::marker::PhantomData;

pub use activation::{
    clipped, concat, sqr_clipped_and_clipped, unpack_sfnn_fc0_act, unpack_sfnn_fc1_act, Clipped, SfnnFc0Act,
    SfnnFc1Act, SqrClippedAndClipped,
};
pub use affine::{affine_dense, affine_listed, affine_listed_fours, affine_listed_pairs, affine_one, affine_sparse};
pub use chess768::{crelu_output, screlu_output};
pub use composed::{Composed, Forward};
pub use float::{
    add_f32, affine_chains_f32, affine_f32, concat_f32, crelu_f32, dequant, dot_f32, dual_f32, f32_bits, f32_to_int,
    hard_swish_f32, lanes_f32, screlu_f32, signed_square_f32, swiglu_f32, MAX_CHAINS,
};
pub use int32::{affine_i32, clamp_square, clamped_dot_i32, dual_i32, dual_wide_i32, shift_bias, skip_output_wide_i32};
pub use output::{psqt, stockfish_bucket};
pub use transform::{clipped_both, Pairwise, PairwiseScratch, Sparse};

use crate::simd::Kernels;

/// The kernel set `K` of a path this CPU runs: what makes the layer functions safe.
///
/// Made only by `On::new`, which the entry points of the path table (compiled under the
/// path's target features, reached only through a [`KernelPath`](crate::KernelPath)) call.
pub struct On<K>(PhantomData<fn() -> K>);

impl<K> Clone for On<K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K> Copy for On<K> {}

impl<K: Kernels> On<K> {
    /// # Safety
    /// This CPU has `K`'s target features (the caller holds its [`KernelPath`](crate::KernelPath)).
    #[inline(always)]
    pub(crate) unsafe fn new() -> On<K> {
        On(PhantomData)
    }
}
