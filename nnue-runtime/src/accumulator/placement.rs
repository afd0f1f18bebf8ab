//! Where the pieces stand, as twelve bitboards: what a cached accumulator reflects, and what
//! the accumulator stack keeps of a ply for nets without board blocks, so that their refreshes
//! read no position (an engine's board would build one: 8% of a tree node of Caissa's net).

use crate::dirty::Dirty;
use crate::position::{Color, Piece, PieceType, Position, Square};

/// Bitboards of each (color, piece type), white pawn to black king (bit `i`: square `i`).
pub(super) type Placement = [u64; 12];

/// The placement of `pos`.
pub(super) fn of(pos: &Position) -> Placement {
    let mut bb = [0u64; 12];
    for (sq, piece) in pos.pieces() {
        bb[slot(piece)] |= 1 << sq.index();
    }
    bb
}

fn slot(piece: Piece) -> usize {
    piece.color.index() * 6 + piece.kind.index()
}

/// Plays `dirty` as a board plays it (the threat nets' boards do the same): its removals take
/// whatever stands on their squares, its additions take the occupant off first, so that each
/// square keeps at most one piece whatever the `Dirty` says.
#[inline]
pub(super) fn play(placement: &mut Placement, dirty: &Dirty) {
    for (sq, _) in dirty.removed() {
        placement.iter_mut().for_each(|bb| *bb &= !(1 << sq.index()));
    }
    for (sq, piece) in dirty.added() {
        placement.iter_mut().for_each(|bb| *bb &= !(1 << sq.index()));
        placement[slot(piece)] |= 1 << sq.index();
    }
}

/// The square of `color`'s king, if it has exactly one.
pub(super) fn king(placement: &Placement, color: Color) -> Option<Square> {
    let bb = placement[color.index() * 6 + PieceType::King.index()];
    (bb.count_ones() == 1).then(|| Square::new(bb.trailing_zeros() as u8)).flatten()
}

/// The position of `placement` (White to move), if it is one: one king each, at most 32 pieces.
pub(super) fn to_position(placement: &Placement) -> Option<Position> {
    let kings = [king(placement, Color::White)?, king(placement, Color::Black)?];
    let (mut squares, mut occupied) = ([None; 64], 0u64);
    for (i, &bb) in placement.iter().enumerate() {
        let piece = Piece::new(Color::BOTH[i / 6], PieceType::ALL[i % 6]);
        let mut bits = bb;
        while bits != 0 {
            squares[bits.trailing_zeros() as usize] = Some(piece);
            bits &= bits - 1;
        }
        occupied |= bb;
    }
    Position::from_board(Color::White, squares, occupied, kings)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Moves, captures, promotions and castling played on placements equal the positions
    /// they lead to; `Dirty` values that describe no move leave one piece a square.
    #[test]
    fn played_moves_are_the_positions_they_lead_to() {
        let fen = |f: &str| Position::from_fen(f).unwrap();
        let sq = |s: &str| Square::parse(s).unwrap();
        let p = |c, k| Piece::new(c, k);
        let (w, b) = (Color::White, Color::Black);
        let start = fen("r3k2r/1P6/8/3p4/4P3/8/8/R3K2R w KQkq - 0 1");
        let plies = [
            (
                Dirty::capture(p(w, PieceType::Pawn), sq("e4"), sq("d5"), p(b, PieceType::Pawn)),
                "r3k2r/1P6/8/3P4/8/8/8/R3K2R b KQkq - 0 1",
            ),
            (
                Dirty::default()
                    .remove(sq("e8"), p(b, PieceType::King))
                    .remove(sq("h8"), p(b, PieceType::Rook))
                    .add(sq("g8"), p(b, PieceType::King))
                    .add(sq("f8"), p(b, PieceType::Rook)),
                "r4rk1/1P6/8/3P4/8/8/8/R3K2R w KQ - 1 2",
            ),
            (
                Dirty::default()
                    .remove(sq("b7"), p(w, PieceType::Pawn))
                    .remove(sq("a8"), p(b, PieceType::Rook))
                    .add(sq("a8"), p(w, PieceType::Queen)),
                "Q4rk1/8/8/3P4/8/8/8/R3K2R b KQ - 0 2",
            ),
        ];
        let mut placement = of(&start);
        for (dirty, after) in plies {
            play(&mut placement, &dirty);
            let after = fen(after);
            assert_eq!(placement, of(&after));
            assert_eq!(to_position(&placement).map(|pos| of(&pos)), Some(of(&after)));
        }
        // A knight put on an occupied square replaces the occupant; a removal from an empty
        // square removes nothing; a king taken off makes no position.
        let mut placement = of(&start);
        play(&mut placement, &Dirty::default().add(sq("e4"), p(w, PieceType::Knight)));
        play(&mut placement, &Dirty::default().remove(sq("c3"), p(w, PieceType::Queen)));
        let squares: u32 = placement.iter().map(|bb| bb.count_ones()).sum();
        assert_eq!(placement.iter().fold(0, |all, bb| all | bb).count_ones(), squares);
        assert_eq!(squares as usize, start.piece_count());
        play(&mut placement, &Dirty::default().remove(sq("e1"), p(w, PieceType::King)));
        assert_eq!((king(&placement, w), to_position(&placement)), (None, None));
    }
}
