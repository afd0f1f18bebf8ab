//! Stockfish 19's pawn-pair features (`PP_3Wide`): one feature per unordered pair of pawns,
//! of either colour, on the same or adjacent files.
//!
//! A pawn's slot is `48 * colour + square - 8` (0..96), colour relative to the perspective and
//! the square oriented as the threat features are (`threats::orientation`: flipped for
//! Black, mirrored when the perspective's king is on files e-h). The pair of slots `hi > lo` is
//! feature `hi * (hi - 1) / 2 + lo`: every unordered pair of the 96 slots has an index (4560),
//! though only pawns at most one file apart make active features. A pawn on the first or last
//! rank (not a chess position, but a [`crate::Position`] allows it) has no slot and makes none.

use super::attacks::{squares, Bitboard};
use super::threats::{orientation, Board};
use crate::position::{Color, PieceType};

/// Number of pawn-pair features.
pub const INPUTS: usize = 96 * 95 / 2;

/// A pawn's slot, from its colour and square relative to the perspective.
#[inline(always)]
fn slot(relative_colour: usize, oriented_square: usize) -> usize {
    48 * relative_colour + oriented_square - 8
}

#[inline(always)]
fn pair(a: usize, b: usize) -> usize {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi * (hi - 1) / 2 + lo
}

/// Whether two squares are on the same or adjacent files.
#[inline(always)]
fn near(a: usize, b: usize) -> bool {
    (a % 8).abs_diff(b % 8) <= 1
}

/// The squares on the file of `s` and the files beside it.
#[inline(always)]
fn near_files(s: usize) -> Bitboard {
    const FILE_A: Bitboard = 0x0101_0101_0101_0101;
    let f = s % 8;
    let mut m = FILE_A << f;
    if f > 0 {
        m |= FILE_A << (f - 1);
    }
    if f < 7 {
        m |= FILE_A << (f + 1);
    }
    m
}

/// Ranks 2 to 7: the squares a pawn has a slot on.
const SLOTTED: Bitboard = 0x00FF_FFFF_FFFF_FF00;

/// The pawns of `colour` on `board` that have a slot.
fn pawn_bb(board: &Board, colour: Color) -> Bitboard {
    board.bb(colour, PieceType::Pawn) & SLOTTED
}

/// The pawns of `board` as (colour relative to `perspective`, absolute square).
fn pawns(board: &Board, perspective: Color) -> impl Iterator<Item = (usize, usize)> + '_ {
    Color::BOTH.into_iter().flat_map(move |c| {
        let rel = usize::from(c != perspective);
        squares(pawn_bb(board, c)).map(move |s| (rel, s))
    })
}

/// Appends the active pawn-pair features of `perspective` (king on `king`), plus `offset`.
pub fn active(board: &Board, perspective: Color, king: usize, offset: usize, out: &mut Vec<usize>) {
    let o = orientation(perspective, king);
    let all: Vec<(usize, usize)> = pawns(board, perspective).collect();
    for (i, &(ca, a)) in all.iter().enumerate() {
        for &(cb, b) in &all[i + 1..] {
            if near(a, b) {
                out.push(offset + pair(slot(ca, a ^ o), slot(cb, b ^ o)));
            }
        }
    }
}

/// Pawns (by colour index, absolute) on `a` and not on `b`.
fn only_in(a: &Board, b: &Board) -> [Bitboard; 2] {
    Color::BOTH.map(|c| pawn_bb(a, c) & !pawn_bb(b, c))
}

/// Appends (plus `offset`) the pawn-pair features a move changes for `perspective` (king on
/// `king`, in the same board half before and after): the pairs of each pawn that vanished
/// with the pawns before the move are removed, those of each pawn that appeared with the
/// pawns after it are added, each pair once.
#[doc(hidden)]
pub fn changes(
    before: &Board,
    after: &Board,
    perspective: Color,
    king: usize,
    offset: usize,
    added: &mut Vec<usize>,
    removed: &mut Vec<usize>,
) {
    let (gone, came) = (only_in(before, after), only_in(after, before));
    // Most moves move no pawn: nothing to walk (this ran on every ply of a threat net).
    if (gone[0] | gone[1] | came[0] | came[1]) == 0 {
        return;
    }
    let o = orientation(perspective, king);
    for (board, moved, out) in [(before, gone, removed), (after, came, added)] {
        for c in Color::BOTH {
            let rel = usize::from(c != perspective);
            for s in squares(moved[c.index()]) {
                // Only pawns on the same or adjacent files pair with it.
                for other in Color::BOTH {
                    let rel_b = usize::from(other != perspective);
                    for t in squares(pawn_bb(board, other) & near_files(s)) {
                        let also_moved = moved[other.index()] & (1 << t) != 0;
                        // A pair of two moved pawns is counted from the one that comes first.
                        if (rel_b, t) == (rel, s) || (also_moved && (rel_b, t) < (rel, s)) {
                            continue;
                        }
                        out.push(offset + pair(slot(rel, s ^ o), slot(rel_b, t ^ o)));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dirty::Dirty;
    use crate::position::{random_positions, Piece, Square};

    #[test]
    fn pairs_cover_the_index_space_once() {
        let mut seen = vec![false; INPUTS];
        for a in 0..96 {
            for b in 0..a {
                let i = pair(a, b);
                assert!(!seen[i]);
                seen[i] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    fn active_of(board: &Board, perspective: Color, king: usize) -> Vec<usize> {
        let mut v = Vec::new();
        active(board, perspective, king, 0, &mut v);
        v.sort_unstable();
        v
    }

    /// Changes equal the difference of the active sets, for random pawn moves, captures and
    /// promotions.
    #[test]
    fn changes_equal_set_differences() {
        let mut rng = crate::synth::Rng::new(19);
        for pos in random_positions(21, 400) {
            let pawns: Vec<(Square, Piece)> = pos.pieces().filter(|(_, p)| p.kind == PieceType::Pawn).collect();
            if pawns.is_empty() {
                continue;
            }
            let (from, piece) = pawns[rng.range(0, pawns.len() as i64 - 1) as usize];
            let empty: Vec<Square> =
                (8..56u8).map(|s| Square::new(s).unwrap()).filter(|&s| pos.piece_at(s).is_none()).collect();
            let to = empty[rng.range(0, empty.len() as i64 - 1) as usize];
            let promoted = Piece::new(piece.color, PieceType::Queen);
            let mut dirty =
                Dirty::default().remove(from, piece).add(to, if rng.range(0, 5) == 0 { promoted } else { piece });
            if pawns.len() > 1 && rng.range(0, 1) == 0 {
                let (sq, p) = pawns.iter().copied().find(|&(s, _)| s != from).unwrap();
                dirty = dirty.remove(sq, p);
            }
            let before = Board::new(&pos);
            let mut after = before.clone();
            after.apply(&dirty);
            for perspective in Color::BOTH {
                let king = pos.king(perspective).index();
                let (mut added, mut removed) = (Vec::new(), Vec::new());
                changes(&before, &after, perspective, king, 0, &mut added, &mut removed);
                let (was, now) = (active_of(&before, perspective, king), active_of(&after, perspective, king));
                let mut want_added: Vec<usize> = now.iter().copied().filter(|f| !was.contains(f)).collect();
                let mut want_removed: Vec<usize> = was.iter().copied().filter(|f| !now.contains(f)).collect();
                for v in [&mut added, &mut removed, &mut want_added, &mut want_removed] {
                    v.sort_unstable();
                }
                assert_eq!((added, removed), (want_added, want_removed), "{pos:?} {dirty:?}");
            }
        }
    }
}
