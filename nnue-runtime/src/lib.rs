#![doc = include_str!("../README.md")]
//!
//! ## Modules
//!
//! - [`nnue_net!`]: compiles a net file into a module with a const-dimensioned `NETWORK`.
//! - [`position`]: a board-agnostic position (pieces on squares, side to move).
//! - [`Dirty`]: what a move changes on the board, as engines describe their moves.
//! - [`features`]: feature indices of HalfKAv2_hm, FullThreats (Stockfish 18), Stockfish 19's
//!   threats and pawn pairs, the lite net's PSQ768hm, HalfKP, chess-768 (king buckets,
//!   mirroring), chess-704 (Stormphrax's merged kings) and Reckless's threat inputs.
//! - [`network`]: what every evaluator shares: the [`Network`] trait, [`Accumulator`],
//!   [`Evaluation`], [`Trace`].
//! - [`nets`]: the const-dimensioned transformer every fast network starts with, and `Composed`.
//! - [`accumulator`]: the accumulator stack with lazy updates and the refresh cache.
//! - [`simd`]: the kernel paths and the one place that picks among them.
//! - [`reference`](mod@reference): the generic evaluator, the bit-exact reference for every fast
//!   path.
//! - [`loaded`]: the fast network types filled from a net read at run time.
//! - `shakmaty` (feature `shakmaty`): positions and moves of the shakmaty crate as ours.

// Every public function's panics are documented (`# Panics`): clippy lists the ones missing.
#![warn(clippy::missing_panics_doc)]

pub mod accumulator;
pub(crate) use nnue_format::dirty;
pub use nnue_format::features;
mod layers;
pub mod loaded;
pub mod nets;
pub mod network;
pub use nnue_format::position;
pub mod reference;
#[cfg(feature = "shakmaty")]
pub mod shakmaty;
pub mod simd;

pub use accumulator::{AccumulatorStack, EngineBoard, RefreshCache};
pub use dirty::Dirty;
pub use network::{Accumulator, Evaluation, Network, Trace, WeightsId};
pub use nnue_format as format;
pub use nnue_format::{Architecture, FormatError, Net};
/// Compiles an NNUE net file into your crate at build time: a module with the net's weights,
/// laid out for the SIMD kernels, a const-dimensioned `NETWORK` and `evaluate`.
///
/// # Example
///
/// The generated module holds the net's `NETWORK`, its `Accumulator` type, the constants
/// `ARCHITECTURE`, `PATH` and `L1`, and `evaluate`:
///
/// ```
/// use nnue_runtime::{Network, Position};
///
/// nnue_runtime::nnue_net! {
///     name = small, // the module's name (default `net`)
///     path = "nets/default.nnue",
///     arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
///     // Evaluations the engine is known to give: the build fails at the first that differs.
///     expect = [
///         ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0),
///         ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1", -289),
///     ],
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// assert_eq!(small::L1, 32);
/// assert_eq!(small::ARCHITECTURE, "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400");
/// let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")?;
/// assert_eq!(small::evaluate(&pos), small::NETWORK.evaluate(&pos));
/// let acc: small::Accumulator = small::NETWORK.new_accumulator();
/// assert_eq!(acc.values[0].len(), small::L1);
/// # Ok(())
/// # }
/// ```
///
/// # The macro
///
pub use nnue_macros::nnue_net;
pub use position::{Color, Piece, PieceType, Position, PositionError, Square};
pub use reference::{Evaluator, GenericAccumulator};
pub use simd::{Isa, KernelPath};

/// What the code `nnue_net!` emits calls: the layer kernels, each safe given the path's kernel
/// set ([`On`](__private::On)). Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use crate::layers::*;
    pub use crate::simd::Kernels;
}

/// A value aligned to a cache line.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
pub struct Aligned<T>(pub T);
