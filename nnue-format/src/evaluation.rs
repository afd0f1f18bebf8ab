//! What an evaluation returns: the [`Evaluation`] and the [`Trace`] of its layers, shared by
//! the reference evaluator here and every fast network of `nnue-runtime`.

use std::fmt;

/// What a network says about a position, from the side to move's view, in Stockfish's internal
/// units: for SFNNv5+ nets what `Network::evaluate` returns (both parts divided by the output
/// scale 16); for HalfKP what Stockfish 13's `NNUE::evaluate` returns (`psqt` = 0); for
/// headerless nets the scaled output (`psqt` = 0, `bucket` = the output bucket).
///
/// # Centipawns
///
/// [`Evaluation::total`] is the score. A headerless (bullet-style) net's is in centipawns
/// already: its description's `scale` converts the output; with `scale=none` it is the
/// engine's own raw unit (Caissa's: 1/16384 of a trained unit, which its evaluation divides by
/// 94 for centipawns before its own terms). A Stockfish net's is in Stockfish's
/// internal units, where a pawn is worth 208 (`PawnValueEg`): `total() * 100 / 208` gives
/// centipawns as Stockfish 12–15 reported them, and is what `examples/engine.rs` prints.
/// (Later Stockfish versions normalise their reported score with a win-rate model, and blend
/// the net's output with material; this is the net's own judgement, not their UCI score.)
///
/// ```
/// use nnue_format::{synth, Encoding, Evaluator, Position};
///
/// let net = synth::sfnn(64, 1, Encoding::Raw);
/// let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1")?;
/// let eval = Evaluator::new(&net).evaluate(&pos);
/// assert_eq!(eval.total(), eval.psqt + eval.positional);
/// assert_eq!(eval.bucket, (pos.piece_count() - 1) / 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Evaluation {
    /// The layer stack (and PSQT bucket) used: `(pieces - 1) / 4` for SFNNv5+, 0 for HalfKP,
    /// the output bucket for headerless nets.
    pub bucket: usize,
    /// The PSQT part (0 for HalfKP and headerless nets).
    pub psqt: i32,
    /// The layer stack's output.
    pub positional: i32,
}

impl Evaluation {
    /// `psqt + positional`: the evaluation.
    pub fn total(&self) -> i32 {
        self.psqt + self.positional
    }
}

/// The line format of the eval example and the engine's `eval` command.
impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bucket={} psqt={} positional={} total={}", self.bucket, self.psqt, self.positional, self.total())
    }
}

/// Every layer's output of one forward pass, for layer-by-layer comparisons.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trace {
    /// Feature-transformer output (side to move first); empty for headerless nets.
    pub ft_out: Vec<u8>,
    /// Each dense layer's int32 output, in order. Headerless nets: the output sum before the
    /// bias (after the SCReLU division by QA).
    pub dense: Vec<Vec<i32>>,
    /// The uint8 input of each dense layer after the first.
    pub activations: Vec<Vec<u8>>,
}

/// The number of pieces a forward pass accepts: what a [`Position`](crate::Position) can hold.
pub const PIECES: std::ops::RangeInclusive<usize> = 2..=32;

/// Panics unless `pieces` is in [`PIECES`] (every network and path, the same message).
#[inline(always)]
#[track_caller]
#[doc(hidden)]
pub fn check_pieces(pieces: usize) {
    #[cold]
    #[inline(never)]
    #[track_caller]
    fn fail(pieces: usize) -> ! {
        panic!("forward: pieces must be 2..=32 (a position's piece count), got {pieces}")
    }
    if !(2..=32).contains(&pieces) {
        fail(pieces)
    }
}

/// Panics unless every feature index is below `inputs` (every network and path, the same
/// message).
#[inline(always)]
#[track_caller]
#[doc(hidden)]
pub fn check_features(inputs: usize, added: &[usize], removed: &[usize]) {
    #[cold]
    #[inline(never)]
    #[track_caller]
    fn fail(inputs: usize, feature: usize) -> ! {
        panic!("update: feature index {feature} is past the net's {inputs} features")
    }
    for &f in added.iter().chain(removed) {
        if f >= inputs {
            fail(inputs, f)
        }
    }
}
