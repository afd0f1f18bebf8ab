//! Bridges from shakmaty (chess rules) to the runtime's board-agnostic types: what an engine
//! author writes once for their own board.

use nnue_runtime::{Color, Dirty, Piece, PieceType, Position, Square};
use shakmaty::{CastlingSide, Chess, Move, Position as _, Role};

pub fn color(c: shakmaty::Color) -> Color {
    match c {
        shakmaty::Color::White => Color::White,
        shakmaty::Color::Black => Color::Black,
    }
}

pub fn piece(p: shakmaty::Piece) -> Piece {
    let kind = match p.role {
        Role::Pawn => PieceType::Pawn,
        Role::Knight => PieceType::Knight,
        Role::Bishop => PieceType::Bishop,
        Role::Rook => PieceType::Rook,
        Role::Queen => PieceType::Queen,
        Role::King => PieceType::King,
    };
    Piece::new(color(p.color), kind)
}

pub fn square(sq: shakmaty::Square) -> Square {
    Square::new(sq.to_u32() as u8).expect("shakmaty squares are 0..64, a1 = 0")
}

/// The position as the evaluator sees it.
pub fn position(pos: &Chess) -> Position {
    Position::new(color(pos.turn()), pos.board().iter().map(|(sq, p)| (square(sq), piece(p))))
        .expect("a legal position has one king per side and at most 32 pieces")
}

/// What `mv` changes on the board of `pos` (before the move is played).
pub fn dirty(pos: &Chess, mv: &Move) -> Dirty {
    let us = pos.turn();
    let ours = |role| piece(shakmaty::Piece { color: us, role });
    let theirs = |role| piece(shakmaty::Piece { color: !us, role });
    match *mv {
        Move::Normal { role, from, capture, to, promotion } => {
            let mut d = Dirty::default().remove(square(from), ours(role));
            if let Some(captured) = capture {
                d = d.remove(square(to), theirs(captured));
            }
            d.add(square(to), ours(promotion.unwrap_or(role)))
        }
        Move::EnPassant { from, to } => {
            let captured = shakmaty::Square::from_coords(to.file(), from.rank());
            Dirty::default()
                .remove(square(from), ours(Role::Pawn))
                .remove(square(captured), theirs(Role::Pawn))
                .add(square(to), ours(Role::Pawn))
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_queen_side(rook < king);
            Dirty::default()
                .remove(square(king), ours(Role::King))
                .remove(square(rook), ours(Role::Rook))
                .add(square(side.king_to(us)), ours(Role::King))
                .add(square(side.rook_to(us)), ours(Role::Rook))
        }
        Move::Put { .. } => unreachable!("no drops in standard chess"),
    }
}
