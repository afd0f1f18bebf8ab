//! Chess-704 (Stormphrax's merged-king sets): chess-768 with both kings on one plane. The
//! other side's king takes the own king's plane, so per king bucket there are 11 planes of 64
//! squares: the own side's six piece types, then the other side's five, kings excluded.

use crate::KingBuckets;

use super::chess768::orientation;
use super::{flip, relative};
use crate::position::{Color, Piece, PieceType, Square};

/// The feature of `piece` on `sq` for `perspective`, whose king is on `king`.
#[inline(always)]
pub fn index(kings: &KingBuckets, perspective: Color, king: Square, sq: Square, piece: Piece) -> usize {
    let (bucket, mirror) = orientation(kings, perspective, king);
    let plane = if piece.kind == PieceType::King { 5 } else { 6 * relative(perspective, piece) + piece.kind.index() };
    704 * bucket as usize + 64 * plane + (sq.index() ^ flip(perspective) ^ mirror)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_kings_share_a_plane() {
        let sq = |s| Square::parse(s).unwrap();
        let l = KingBuckets::SINGLE;
        let (wk, bk) = (Piece::new(Color::White, PieceType::King), Piece::new(Color::Black, PieceType::King));
        let bq = Piece::new(Color::Black, PieceType::Queen);
        assert_eq!(index(&l, Color::White, sq("e1"), sq("e1"), wk), 320 + 4);
        assert_eq!(index(&l, Color::White, sq("e1"), sq("e8"), bk), 320 + 60);
        assert_eq!(index(&l, Color::White, sq("e1"), sq("d8"), bq), 64 * 10 + 59);
        // Black's view flips the board: its own king on e8 is square e1.
        assert_eq!(index(&l, Color::Black, sq("e8"), sq("e8"), bk), 320 + 4);
        assert_eq!(index(&l, Color::Black, sq("e8"), sq("e1"), wk), 320 + 60);
    }
}
