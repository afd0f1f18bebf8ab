//! The lite net of Stockfish 19 (lichess's `sf_19_smallnet`): 768 piece-square features,
//! `64 * (6 * colour + type) + square`, colour relative to the perspective, squares flipped
//! for Black and mirrored as HalfKAv2_hm mirrors them (so that the king sits on files e-h).

use super::halfka_v2_hm::mirror;
use super::{flip, relative};
use crate::position::{Color, Piece, Square};

/// Number of features.
pub const INPUTS: usize = 768;

/// The feature of `piece` on `sq` for `perspective`, whose king is on `king`.
#[inline(always)]
pub fn index(perspective: Color, king: Square, sq: Square, piece: Piece) -> usize {
    let o = mirror(king) ^ flip(perspective);
    (sq.index() ^ o) + 64 * (6 * relative(perspective, piece) + piece.kind.index())
}

/// Whether the king moving from `from` to `to` changes the mirroring (every feature).
#[inline(always)]
pub fn changes_orientation(from: Square, to: Square) -> bool {
    mirror(from) != mirror(to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::PieceType;

    #[test]
    fn layout() {
        let sq = |s| Square::parse(s).unwrap();
        let wp = Piece::new(Color::White, PieceType::Pawn);
        // King on e1: no mirror; pawn e2 = 12, own pawn block 0.
        assert_eq!(index(Color::White, sq("e1"), sq("e2"), wp), 12);
        // King on d1: mirrored, e2 -> d2 = 11.
        assert_eq!(index(Color::White, sq("d1"), sq("e2"), wp), 11);
        // Black's view (king e8): flipped, their pawn block 6: e2 -> e7 = 52.
        assert_eq!(index(Color::Black, sq("e8"), sq("e2"), wp), 52 + 64 * 6);
        let bk = Piece::new(Color::Black, PieceType::King);
        assert_eq!(index(Color::White, sq("h1"), sq("h8"), bk), 63 + 64 * 11);
        assert!(changes_orientation(sq("d1"), sq("e1")) && !changes_orientation(sq("e1"), sq("f2")));
    }
}
