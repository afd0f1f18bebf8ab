//! Chess-768 (bullet's `Chess768` / `ChessBucketsMirrored`): per king bucket, 2 sides times
//! 6 piece types of 64 squares, from the perspective's side of the board.

use crate::KingBuckets;

use super::{flip, relative};
use crate::position::{Color, Piece, Square};

/// (bucket, horizontal mirror) of `perspective`'s king on `king`.
#[inline(always)]
pub fn orientation(kings: &KingBuckets, perspective: Color, king: Square) -> (u8, usize) {
    let king = king.index() ^ flip(perspective);
    let mirror = if kings.mirrored && king & 7 > 3 { 7 } else { 0 };
    (kings.table[king ^ mirror], mirror)
}

/// The feature of `piece` on `sq` for `perspective`, whose king is on `king` (bullet's index).
#[inline(always)]
pub fn index(kings: &KingBuckets, perspective: Color, king: Square, sq: Square, piece: Piece) -> usize {
    let (bucket, mirror) = orientation(kings, perspective, king);
    768 * bucket as usize
        + 384 * relative(perspective, piece)
        + 64 * piece.kind.index()
        + (sq.index() ^ flip(perspective) ^ mirror)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::PieceType;

    #[test]
    fn bullet_layout() {
        let sq = |s| Square::parse(s).unwrap();
        let l = KingBuckets::SINGLE;
        let wq = Piece::new(Color::White, PieceType::Queen);
        assert_eq!(index(&l, Color::White, sq("e1"), sq("d1"), wq), 256 + 3);
        assert_eq!(index(&l, Color::Black, sq("e8"), sq("d1"), wq), 384 + 256 + (3 ^ 56));
        let map: Vec<u8> = (0..32).map(|i| (i % 4 / 2) as u8).collect();
        let m = KingBuckets::from_map(true, &map).unwrap();
        // King on g1 mirrors to b1 (bucket 0); the queen on d1 mirrors to e1.
        assert_eq!(index(&m, Color::White, sq("g1"), sq("d1"), wq), 256 + 4);
        // King on c1 is bucket 1, no mirror.
        assert_eq!(index(&m, Color::White, sq("c1"), sq("d1"), wq), 768 + 256 + 3);
    }
}
