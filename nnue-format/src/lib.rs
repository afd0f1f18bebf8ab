//! NNUE net files, shared by the `nnue_net!` macro (which reads them at compile time)
//! and `nnue-runtime` (which reads them at run time for the generic evaluator).
//!
//! A leaf crate so that the runtime can re-export the macro without a dependency cycle.
//!
//! Files read and written byte for byte: Stockfish's (12–13 HalfKP; 15.1–17.1 and 18's small
//! net, SFNNv5–v9; 18's threat-input big net; 19's big net with threats and pawn pairs, and its
//! lite net), headerless chess-768 nets as bullet saves them (akimbo, pawnocchio; either output
//! order), and multi-layer nets in the layouts of Alexandria, Integral, Obsidian, Reckless,
//! PlentyChess and bullet's own save (headerless) and Stormphrax (a `CBNF` header, zstd or not).
//! A net without a Stockfish header is read with its description ([`Architecture`]'s text
//! form); [`known`] has the engines' descriptions.
//!
//! - [`Architecture`]: what a net is, derived from a Stockfish header or parsed from text.
//! - [`Net`]: the description and the [`Model`] (one variant per family: its architecture and
//!   its parameters in the canonical, file order), read by [`Net::from_bytes`] and written back
//!   byte-identically by [`Net::to_bytes`]; [`read_file`] opens and reads a file.
//! - [`layout`]: the fast paths' form of a net, [`layout::FastLayout`]: per family, its arrays
//!   by name, as the macro bakes them in and the runtime loads them.
//! - `synth` (with the `synth` feature): seeded synthetic nets of every family, for tests and
//!   benches; with it too, `position::random_positions`.
//! - [`position`], [`Dirty`] and [`features`]: a board-agnostic position, what a move changes,
//!   and the input feature sets' indices (HalfKAv2_hm, threats, pawn pairs, HalfKP, chess-768
//!   with king buckets, chess-704, Reckless's threats).
//! - [`Evaluator`]: the generic reference evaluator (the meaning of every layer, in integers),
//!   which `nnue-runtime`'s fast paths equal and `nnue_net!`'s `expect = [...]` runs.
//! - [`neuron_order`]: the order of a pairwise transform's neurons (the same net, another
//!   speed of its sparse layer): finding one from activations, applying it.

// Every public function's panics are documented (`# Panics`): clippy lists the ones missing.
#![warn(clippy::missing_panics_doc)]

mod arch;
mod chess768_format;
#[doc(hidden)]
pub mod dirty;
mod elem;
mod error;
pub mod evaluation;
pub mod features;
mod file;
mod frame;
mod grammar;
pub mod hash;
mod headerless;
mod kings;
pub mod known;
mod layered;
pub mod layers;
pub mod layout;
mod leb128;
pub mod lower;
mod net;
pub mod neuron_order;
mod plan;
pub mod position;
pub mod preset;
mod read;
pub mod reference;
#[cfg(any(test, feature = "synth"))]
mod rng;
mod shape_error;
mod stockfish_format;
#[cfg(any(test, feature = "synth"))]
pub mod synth;
mod write;

pub use arch::{
    Activation, Architecture, Chess768Arch, HalfKpArch, KingBuckets, OutputOrder, ParseArchError, Sf19Arch, Sf19Inputs,
    SfnnArch, ThreatsArch,
};
pub use dirty::Dirty;
pub use error::{shown, ErrorKind, FormatError, SHOWN_TEXT_CHARS};
pub use evaluation::{Evaluation, Trace};
pub use file::{read_file, read_file_bytes, FileError, FileErrorKind, FileKind, MAX_FILE_BYTES};
pub use layered::format as formats;
pub use layered::{Act, BucketRule, FileLayout, L1Sums, LayeredArch, Numbers, ThreatInputs};
pub use layers::{Bucket, Layers, Param, Step, Transform};
pub use net::{
    BindError, Chess768Params, Dense, Encoding, FeatureTransformer, HalfKpParams, LayeredParams, Model, Net, Padding,
    Sf19Params, SfnnParams, Stack, ThreatsParams, TransformerView,
};
pub use position::{Color, Piece, PieceType, Position, PositionError, Square};
pub use reference::{Evaluator, ExpectError, GenericAccumulator};
pub use shape_error::ShapeError;

/// Stockfish 15.1 to 18 (SFNNv5 to SFNNv10, threat nets included) and the 14-era HalfKAv2 nets.
pub const VERSION_SFNN: u32 = 0x7AF3_2F20;
/// Stockfish 12 and 13 (HalfKP).
pub const VERSION_HALFKP: u32 = 0x7AF3_2F16;
/// Stockfish 19 (threats redefined, pawn pairs, the new layer stacks; and its lite net).
pub const VERSION_SF19: u32 = 0x6A44_8AFA;

/// Whether `version` is a Stockfish file version this crate reads.
pub const fn is_known_version(version: u32) -> bool {
    let mut i = 0;
    while i < error::KNOWN_VERSIONS.len() {
        if error::KNOWN_VERSIONS[i].0 == version {
            return true;
        }
        i += 1;
    }
    false
}
