//! A bridge from [shakmaty](https://docs.rs/shakmaty) (feature `shakmaty`): its positions and
//! moves as this crate's [`Position`] and [`Dirty`], and its `Chess` as an [`EngineBoard`] (an
//! accumulator stack evaluates it directly). What an engine on another board writes once for
//! its own types; the constructors of [`Dirty`] do the rest.
//!
//! shakmaty is GPL-3.0: enabling this feature makes the binary you build a GPL-3.0 work. This
//! crate's own code stays MIT OR Apache-2.0.
//!
//! ```
//! use nnue_runtime::shakmaty::{dirty, position};
//! use shakmaty::{Chess, Position as _};
//!
//! let game = Chess::default();
//! let mv = game.legal_moves()[0];
//! let change = dirty(&game, &mv); // before playing it
//! let after = position(&game.play(mv).unwrap());
//! assert_eq!(after.piece_count(), 32);
//! # let _ = change;
//! ```

use shakmaty::{CastlingSide, Chess, Move, Position as _, Role};

use crate::accumulator::EngineBoard;
use crate::dirty::Dirty;
use crate::position::{Color, Piece, PieceType, Position, Square};

/// shakmaty's color as ours.
pub fn color(c: shakmaty::Color) -> Color {
    match c {
        shakmaty::Color::White => Color::White,
        shakmaty::Color::Black => Color::Black,
    }
}

/// shakmaty's role as our piece type.
pub fn piece_type(role: Role) -> PieceType {
    match role {
        Role::Pawn => PieceType::Pawn,
        Role::Knight => PieceType::Knight,
        Role::Bishop => PieceType::Bishop,
        Role::Rook => PieceType::Rook,
        Role::Queen => PieceType::Queen,
        Role::King => PieceType::King,
    }
}

/// shakmaty's piece as ours.
pub fn piece(p: shakmaty::Piece) -> Piece {
    Piece::new(color(p.color), piece_type(p.role))
}

/// shakmaty's square as ours (both number a1 = 0 … h8 = 63).
pub fn square(sq: shakmaty::Square) -> Square {
    Square::from_file_rank(sq.file() as u8, sq.rank() as u8)
}

/// The position as the evaluator sees it.
///
/// # Panics
/// When `pos` has not one king per side or has more than 32 pieces: shakmaty's checks allow
/// neither unless they were relaxed when `pos` was set up.
pub fn position(pos: &Chess) -> Position {
    let pieces = pos.board().iter().map(|(sq, p)| (square(sq), piece(p)));
    Position::new(color(pos.turn()), pieces).expect("a legal position has one king per side and at most 32 pieces")
}

/// An accumulator stack reads the turn and the piece count of a `Chess` on every evaluation
/// and builds its [`Position`] only in debug builds (see [`EngineBoard`]).
///
/// # Panics
/// `position`, as [`position`].
impl EngineBoard for Chess {
    fn side_to_move(&self) -> Color {
        color(self.turn())
    }
    fn piece_count(&self) -> usize {
        self.board().occupied().count()
    }
    fn position(&self) -> Position {
        position(self)
    }
}

/// What `mv` changes on the board of `pos` (before the move is played).
pub fn dirty(pos: &Chess, mv: &Move) -> Dirty {
    let us = color(pos.turn());
    let captured = |role| Piece::new(!us, piece_type(role));
    match *mv {
        Move::Normal { role, from, capture, to, promotion: Some(promoted) } => {
            debug_assert_eq!(role, Role::Pawn);
            Dirty::promotion(us, square(from), square(to), piece_type(promoted), capture.map(captured))
        }
        Move::Normal { role, from, capture: Some(taken), to, promotion: None } => {
            Dirty::capture(Piece::new(us, piece_type(role)), square(from), square(to), captured(taken))
        }
        Move::Normal { role, from, capture: None, to, promotion: None } => {
            Dirty::quiet(Piece::new(us, piece_type(role)), square(from), square(to))
        }
        Move::EnPassant { from, to } => Dirty::en_passant(us, square(from), square(to)),
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_queen_side(rook < king);
            let (king_to, rook_to) = (side.king_to(pos.turn()), side.rook_to(pos.turn()));
            Dirty::castling(us, square(king), square(king_to), square(rook), square(rook_to))
        }
        Move::Put { .. } => unreachable!("no drops in standard chess"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{fen::Fen, CastlingMode};

    /// A `Chess` read as an engine board is the position [`position`] makes of it.
    #[test]
    fn a_chess_board_reads_as_its_position() {
        for fen in ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "8/8/4k3/8/8/8/3PK3/8 w - - 0 1"] {
            let game: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            let pos = position(&game);
            assert_eq!(EngineBoard::side_to_move(&game), pos.side_to_move());
            assert_eq!(EngineBoard::piece_count(&game), pos.piece_count());
            assert_eq!(EngineBoard::position(&game), pos);
        }
    }
}
