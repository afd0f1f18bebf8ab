//! The shakmaty bridge, as the examples and tests use it: the runtime's own (feature
//! `shakmaty`).

pub use nnue_runtime::shakmaty::{color, dirty, piece, position, square};
