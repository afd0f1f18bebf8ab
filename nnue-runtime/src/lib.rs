//! Evaluate NNUE nets: the runtime that `nnue_net!`-generated code and engines call.
//!
//! - [`nnue_net!`]: compiles a net file into a module with a const-dimensioned `NETWORK`.
//! - [`position`]: a board-agnostic position (pieces on squares, side to move).
//! - [`features`]: HalfKAv2_hm, HalfKP and chess-768 feature indices and move deltas.
//! - [`nets`]: the const-dimensioned network types and the [`Network`] trait.
//! - [`accumulator`]: the accumulator stack with lazy updates and the refresh cache.
//! - [`simd`]: the kernel paths and the one place that picks among them.
//! - [`reference`]: the generic evaluator, the bit-exact reference for every fast path.
//! - [`loaded`]: the fast network types filled from a net read at run time.

pub mod accumulator;
pub mod features;
pub mod loaded;
pub mod nets;
pub mod position;
pub mod reference;
pub mod simd;

pub use accumulator::{AccumulatorStack, Dirty, RefreshCache};
pub use nets::{Accumulator, Network};
pub use nnue_format as format;
pub use nnue_format::{Architecture, FormatError, Net};
pub use nnue_macros::nnue_net;
pub use position::{Color, Piece, PieceType, Position, PositionError, Square};
pub use reference::{Evaluation, Evaluator};
pub use simd::{Isa, Path};

/// A value aligned to a cache line.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
pub struct Aligned<T>(pub T);

/// `path`, or the best one this CPU has.
pub(crate) fn path_or_best(path: Option<Path>) -> Path {
    path.unwrap_or_else(Path::best)
}
