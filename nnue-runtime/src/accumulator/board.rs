//! What the accumulator stack reads of the position it evaluates, as a trait an engine
//! implements on its own board.

use crate::position::{Color, Position};

/// An engine's board as [`AccumulatorStack::evaluate`](super::AccumulatorStack::evaluate)
/// reads it: the side to move and the piece count on every evaluation. The stack computes
/// everything else from the pushed moves, refreshes included (it keeps the board they lead
/// to); the whole [`Position`] is built only in debug builds, to check the pushes against it,
/// and when the pushes make no position (a `Dirty` that describes no move: the refreshed
/// perspective then reads the engine's).
///
/// Implement it on your board and pass the board itself. Building a [`Position`] from a
/// 64-square mailbox on every evaluation cost a sixth of a node of the bench's tree walk on
/// Stockfish 19's big net (620–641 against 525–568 ns a node, 4 interleaved runs, AMD Zen 5,
/// avx512vnni path); building it on each refresh alone, 8% of a node on Caissa's net, whose
/// 32 king buckets refresh on every king move. [`Position`] implements it, and so does
/// shakmaty's `Chess` (feature `shakmaty`).
///
/// ```
/// use nnue_runtime::{AccumulatorStack, Color, Dirty, EngineBoard, Network, Piece, PieceType, Position, Square};
///
/// nnue_runtime::nnue_net! {
///     path = "nets/default.nnue",
///     arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
/// }
///
/// /// An engine's mailbox.
/// struct Board {
///     squares: [Option<Piece>; 64],
///     pieces: usize,
///     side_to_move: Color,
/// }
///
/// impl EngineBoard for Board {
///     fn side_to_move(&self) -> Color {
///         self.side_to_move
///     }
///     fn piece_count(&self) -> usize {
///         self.pieces
///     }
///     fn position(&self) -> Position {
///         let pieces = (0..64).filter_map(|i| Some((Square::new(i)?, self.squares[usize::from(i)]?)));
///         Position::new(self.side_to_move, pieces).expect("one king a side, at most 32 pieces")
///     }
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let start = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")?;
/// let mut board = Board { squares: [None; 64], pieces: 3, side_to_move: Color::White };
/// for (sq, piece) in start.pieces() {
///     board.squares[sq.index()] = Some(piece);
/// }
/// let mut stack = AccumulatorStack::new(&net::NETWORK, &start);
///
/// // e2e4: push the change, make the move on the board, evaluate the board.
/// let (e2, e4) = (Square::parse("e2").unwrap(), Square::parse("e4").unwrap());
/// let pawn = Piece::new(Color::White, PieceType::Pawn);
/// stack.push(Dirty::quiet(pawn, e2, e4));
/// (board.squares[e2.index()], board.squares[e4.index()]) = (None, Some(pawn));
/// board.side_to_move = Color::Black;
/// let after = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1")?;
/// assert_eq!(stack.evaluate(&net::NETWORK, &board), net::NETWORK.evaluate(&after));
/// # Ok(())
/// # }
/// ```
pub trait EngineBoard {
    /// The side to move.
    fn side_to_move(&self) -> Color;
    /// The pieces on the board, kings included (it picks Stockfish's layer stack and bullet's
    /// output bucket, and tells an update from a refresh).
    fn piece_count(&self) -> usize;
    /// The whole position. Called in debug builds on every evaluation (to check it against the
    /// pushed moves, and the two answers above against it), and otherwise only to refresh a
    /// perspective whose pushes made no position.
    fn position(&self) -> Position;
}

impl EngineBoard for Position {
    fn side_to_move(&self) -> Color {
        Position::side_to_move(self)
    }
    fn piece_count(&self) -> usize {
        Position::piece_count(self)
    }
    fn position(&self) -> Position {
        self.clone()
    }
}
