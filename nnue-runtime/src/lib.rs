//! Evaluate NNUE nets: the runtime that `nnue_net!`-generated code and engines call.
//!
//! - [`position`]: a board-agnostic position (pieces on squares, side to move).
//! - [`features`]: HalfKAv2_hm, HalfKP and chess-768 feature indices.
//! - [`reference`]: the generic evaluator, the bit-exact reference for every fast path.

pub mod features;
pub mod position;
pub mod reference;

pub use nnue_format as format;
pub use nnue_format::{Architecture, FormatError, Net};
pub use position::{Color, Piece, PieceType, Position, PositionError, Square};
pub use reference::{Evaluation, Evaluator};
pub mod loaded;
pub mod nets;
pub mod simd;

pub use nets::{Accumulator, Network};
pub use simd::{Isa, Path};

pub use nnue_macros::nnue_net;

/// A value aligned to a cache line: how `nnue_net!` stores its weight arrays.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
pub struct Aligned<T>(pub T);

pub mod accumulator;
pub use accumulator::{AccumulatorStack, Dirty, RefreshCache};

/// `path`, or the best one this CPU has.
pub(crate) fn path_or_best(path: Option<Path>) -> Path {
    path.unwrap_or_else(Path::best)
}
