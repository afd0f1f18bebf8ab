//! HalfKP (Stockfish 12-13): own king square times 10 non-king piece planes of 64 squares,
//! plus one unused "BONA_PIECE_ZERO" slot per king square (641 per king square).

use super::{is_king, relative};
use crate::position::{Color, Piece, Square};

/// Number of features, 41024: 64 king squares x 641 (10 piece planes of 64 squares, plus
/// Stockfish's unused index 0).
pub const INPUTS: usize = 64 * PER_KING;
const PER_KING: usize = 1 + 10 * 64;

/// Black's view rotates the board by 180 degrees (Stockfish 12-13 `orient`).
#[inline(always)]
fn orient(perspective: Color, sq: Square) -> usize {
    match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 63,
    }
}

/// `None` for kings, which are not features in HalfKP.
#[inline(always)]
pub fn index(perspective: Color, king: Square, sq: Square, piece: Piece) -> Option<usize> {
    if is_king(piece) {
        return None;
    }
    let plane = 2 * piece.kind.index() + relative(perspective, piece);
    Some(1 + 64 * plane + orient(perspective, sq) + PER_KING * orient(perspective, king))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::PieceType;

    #[test]
    fn matches_stockfish_layout() {
        let sq = |s| Square::parse(s).unwrap();
        let bn = Piece::new(Color::Black, PieceType::Knight);
        // PS_B_KNIGHT = 193 for white; for black the knight is friendly (129), board rotated.
        assert_eq!(index(Color::White, sq("e1"), sq("g8"), bn), Some(193 + 62 + 641 * 4));
        assert_eq!(index(Color::Black, sq("e8"), sq("g8"), bn), Some(129 + (62 ^ 63) + 641 * (60 ^ 63)));
        assert_eq!(index(Color::White, sq("e1"), sq("e8"), Piece::new(Color::Black, PieceType::King)), None);
    }
}
