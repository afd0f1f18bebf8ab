//! HalfKAv2_hm (Stockfish 15.1-17.1): 32 king buckets over the half board the king is
//! mirrored into, times 11 piece planes (both kings share one) of 64 squares.

use super::{flip, is_king, relative};
use crate::position::{Color, Piece, Square};

/// Number of features: 32 king buckets x 11 piece planes x 64 squares (22528).
pub const INPUTS: usize = 32 * PLANES * 64;
const PLANES: usize = 11;

/// The horizontal mirror (xor mask) for a perspective whose king is on `king`: 7 when the king
/// is on files a-d, so that it sits on files e-h (the vertical flip keeps the file).
#[inline(always)]
pub(crate) fn mirror(king: Square) -> usize {
    if king.index() & 7 < 4 {
        7
    } else {
        0
    }
}

/// Stockfish's `make_index`: orient for the perspective, mirror so the king sits on files e-h.
#[inline(always)]
pub fn index(perspective: Color, king: Square, sq: Square, piece: Piece) -> usize {
    let mirror = mirror(king);
    let king = king.index() ^ flip(perspective) ^ mirror;
    // e1 -> 31, h1 -> 28, ..., e8 -> 3, h8 -> 0
    let bucket = (7 - (king >> 3)) * 4 + (7 - (king & 7));
    let plane = if is_king(piece) { 10 } else { 2 * piece.kind.index() + relative(perspective, piece) };
    (sq.index() ^ flip(perspective) ^ mirror) + 64 * plane + 64 * PLANES * bucket
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::PieceType;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn matches_stockfish_layout() {
        let wp = Piece::new(Color::White, PieceType::Pawn);
        // White king e1: bucket 31, no mirror; white pawn e2 is a friendly pawn on square 12.
        assert_eq!(index(Color::White, sq("e1"), sq("e2"), wp), 12 + 704 * 31);
        // Black's view of the same: vertical flip (e2 -> e7 = 52), enemy pawn plane (64);
        // black king e8 flips to e1: bucket 31.
        assert_eq!(index(Color::Black, sq("e8"), sq("e2"), wp), 52 + 64 + 704 * 31);
        // King on d1 mirrors to e1 (same bucket), squares mirror too (e2 -> d2 = 11).
        assert_eq!(index(Color::White, sq("d1"), sq("e2"), wp), 11 + 704 * 31);
        // Kings share plane 10; the largest index is inside the table.
        let bk = Piece::new(Color::Black, PieceType::King);
        assert_eq!(index(Color::White, sq("h8"), sq("a8"), bk), 56 + 640);
        assert!(index(Color::Black, sq("a1"), sq("h8"), bk) < INPUTS);
    }
}
