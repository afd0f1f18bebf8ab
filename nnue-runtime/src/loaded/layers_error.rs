//! Why a net's lowered layers don't run on the run-time kernels.

use nnue_format::layers::{Reg, Transform};
use thiserror::Error;

/// What the loaded program's builder could not place or find (see [`super::LoadError::Layers`]);
/// `nnue_net!` compiles every size, so each names the generated path as the way out.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum LayersError {
    /// The output-bucket rule picks a bucket the net doesn't have.
    #[error("the bucket rule reaches bucket {bucket} of {buckets}")]
    Bucket {
        /// The largest bucket the rule picks.
        bucket: usize,
        /// The net's output buckets.
        buckets: usize,
    },
    /// The view's input kind doesn't compute this transform.
    #[error("the view's input kind doesn't run the transform {0:?}")]
    Transform(Transform),
    /// No layer reads the transform's output.
    #[error("no layer reads the transform")]
    NoFirstLayer,
    /// A register is read before any layer writes it.
    #[error("r{0} is read before it is written")]
    Unwritten(Reg),
    /// More values between two layers than the program's arena holds.
    #[error("more than {limit} values of one kind between layers")]
    Arena {
        /// Values per kind the arena holds.
        limit: usize,
    },
    /// A layer's array is missing from the fast layout.
    #[error("the layout has no array {0}")]
    NoArray(String),
    /// A layer's array has another shape or element type than the layer takes.
    #[error("{array} has shape {dims:?} of {elem}, not {buckets} × {per_bucket} of {wanted}")]
    ArrayShape {
        /// The array's name in the layout.
        array: String,
        /// Its shape.
        dims: Vec<usize>,
        /// Its element type.
        elem: &'static str,
        /// The net's output buckets.
        buckets: usize,
        /// Values per bucket the layer takes.
        per_bucket: usize,
        /// The element type the layer takes.
        wanted: &'static str,
    },
    /// A layer's array doesn't cast to its element type.
    #[error("{array}: {reason}")]
    Cast {
        /// The array's name in the layout.
        array: String,
        /// Why (`bytemuck`'s words).
        reason: String,
    },
    /// A layer of a size no run-time kernel is compiled for.
    #[error("{what} of {n} values (run-time kernels take {sizes:?}; nnue_net! compiles any size)")]
    Size {
        /// Which layer.
        what: &'static str,
        /// Its size.
        n: usize,
        /// The sizes the run-time kernels take.
        sizes: Vec<usize>,
    },
    /// A sparse layer of a width (or int16-pair summing) no run-time kernel is compiled for.
    #[error(
        "r{reg}: no run-time kernel for a sparse layer of {n} outputs{} here (nnue_net! compiles any size)",
        if *pairs { " in int16 pairs" } else { "" }
    )]
    Sparse {
        /// Its output register.
        reg: Reg,
        /// Its outputs.
        n: usize,
        /// Whether it sums in int16 pairs.
        pairs: bool,
    },
    /// The first sparse layer has no biases, which its kernel starts from.
    #[error("r{0}: a sparse layer without biases")]
    SparseWithoutBiases(Reg),
    /// A dense int8 layer of a shape no run-time kernel is compiled for.
    #[error("an int8 layer of {inputs} → {n} (run-time kernels take {sizes:?}; nnue_net! compiles any size)")]
    Dense {
        /// Its inputs.
        inputs: usize,
        /// Its outputs.
        n: usize,
        /// The (inputs, outputs) the run-time kernels take.
        sizes: Vec<(usize, usize)>,
    },
}
