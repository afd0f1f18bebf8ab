//! Keeping accumulators current as moves are made and unmade.
//!
//! - [`Dirty`]: what a move changes on the board (at most two pieces off, two on).
//! - [`deltas`]: those changes as feature indices for one perspective, or "refresh" when the
//!   perspective's king changed them all.
//! - [`AccumulatorStack`]: make/unmake push and pop cheap records; accumulators are computed
//!   lazily when an evaluation needs them, from the last computed one or by a refresh.
//! - [`RefreshCache`]: per perspective and king square, an accumulator and the placement it
//!   reflects, so a refresh becomes an update by the difference ("Finny table").

mod cache;
mod stack;

pub use cache::RefreshCache;
pub use stack::AccumulatorStack;

use crate::features::FeatureSet;
use crate::position::{Color, Piece, PieceType, Square};

/// The pieces a move takes off and puts on the board.
///
/// Quiet move: one off, one on. Capture: two off (the mover and the captured piece), one on.
/// Castling: king and rook off, both on. Promotion: the pawn off, the new piece on (plus a
/// captured piece off). En passant: the pawn and the captured pawn off, the pawn on. Build
/// one with the constructor of the move's kind ([`Dirty::quiet`], [`Dirty::capture`],
/// [`Dirty::promotion`], [`Dirty::en_passant`], [`Dirty::castling`]) from your own board's move,
/// before the move is made on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Dirty {
    removed: [Option<(Square, Piece)>; 2],
    added: [Option<(Square, Piece)>; 2],
}

impl Dirty {
    /// A piece moving from `from` to `to`, capturing nothing.
    ///
    /// ```
    /// use nnue_runtime::{Color, Dirty, Piece, PieceType, Square};
    /// let sq = |s| Square::parse(s).unwrap();
    /// let knight = Piece::new(Color::White, PieceType::Knight);
    /// let d = Dirty::quiet(knight, sq("g1"), sq("f3"));
    /// assert_eq!(d.removed().collect::<Vec<_>>(), [(sq("g1"), knight)]);
    /// assert_eq!(d.added().collect::<Vec<_>>(), [(sq("f3"), knight)]);
    /// ```
    pub fn quiet(piece: Piece, from: Square, to: Square) -> Dirty {
        Dirty::default().remove(from, piece).add(to, piece)
    }

    /// A piece capturing `captured` on `to`.
    pub fn capture(piece: Piece, from: Square, to: Square, captured: Piece) -> Dirty {
        Dirty::default().remove(from, piece).remove(to, captured).add(to, piece)
    }

    /// A pawn of `color` promoting on `to` to `promoted`, capturing `captured` there if any.
    pub fn promotion(color: Color, from: Square, to: Square, promoted: PieceType, captured: Option<Piece>) -> Dirty {
        let mut d = Dirty::default().remove(from, Piece::new(color, PieceType::Pawn));
        if let Some(captured) = captured {
            d = d.remove(to, captured);
        }
        d.add(to, Piece::new(color, promoted))
    }

    /// A pawn of `color` capturing en passant: it goes from `from` to `to`, and the enemy pawn
    /// on `to`'s file and `from`'s rank leaves the board.
    pub fn en_passant(color: Color, from: Square, to: Square) -> Dirty {
        let pawn = |c| Piece::new(c, PieceType::Pawn);
        let captured = Square::from_file_rank(to.file(), from.rank());
        Dirty::default().remove(from, pawn(color)).remove(captured, pawn(!color)).add(to, pawn(color))
    }

    /// Castling of `color`: king and rook leave their squares and land on theirs (any of
    /// them may coincide, as in Chess960).
    pub fn castling(color: Color, king_from: Square, king_to: Square, rook_from: Square, rook_to: Square) -> Dirty {
        let (king, rook) = (Piece::new(color, PieceType::King), Piece::new(color, PieceType::Rook));
        Dirty::default().remove(king_from, king).remove(rook_from, rook).add(king_to, king).add(rook_to, rook)
    }

    /// Takes `piece` off `sq`. Panics past two removals (no chess move has more).
    pub fn remove(mut self, sq: Square, piece: Piece) -> Dirty {
        let slot = self.removed.iter_mut().find(|s| s.is_none()).expect("a move removes at most two pieces");
        *slot = Some((sq, piece));
        self
    }

    /// Puts `piece` on `sq`. Panics past two additions (no chess move has more).
    pub fn add(mut self, sq: Square, piece: Piece) -> Dirty {
        let slot = self.added.iter_mut().find(|s| s.is_none()).expect("a move adds at most two pieces");
        *slot = Some((sq, piece));
        self
    }

    /// The pieces taken off the board, with the squares they leave.
    pub fn removed(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.removed.iter().flatten().copied()
    }

    /// The pieces put on the board, with the squares they land on.
    pub fn added(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.added.iter().flatten().copied()
    }

    /// Where each side's king is after the move, given where they were before.
    pub(crate) fn kings_after(&self, mut kings: [Square; 2]) -> [Square; 2] {
        for (sq, piece) in self.added() {
            if piece.kind == PieceType::King {
                kings[piece.color.index()] = sq;
            }
        }
        kings
    }
}

/// Feature indices a move adds and removes for one perspective (a chess move changes at most
/// two of each).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Deltas {
    added: [usize; 2],
    removed: [usize; 2],
    n_added: u8,
    n_removed: u8,
}

impl Deltas {
    fn push_added(&mut self, f: usize) {
        self.added[self.n_added as usize] = f;
        self.n_added += 1;
    }
    fn push_removed(&mut self, f: usize) {
        self.removed[self.n_removed as usize] = f;
        self.n_removed += 1;
    }
    /// Features to add (at most two).
    pub fn added(&self) -> &[usize] {
        &self.added[..self.n_added as usize]
    }
    /// Features to remove (at most two).
    pub fn removed(&self) -> &[usize] {
        &self.removed[..self.n_removed as usize]
    }
}

/// The features `dirty` changes for `perspective`, whose king goes from `king_before` to
/// `king_after`; `None` when the move changes them all (a refresh is needed).
///
/// For threat nets these are the piece features only: a move's threat changes depend on the
/// board before it ([`crate::features::threats::move_deltas`]); [`AccumulatorStack`] adds them.
pub fn deltas(
    features: FeatureSet,
    perspective: Color,
    king_before: Square,
    king_after: Square,
    dirty: &Dirty,
) -> Option<Deltas> {
    if features.needs_refresh(perspective, king_before, king_after) {
        return None;
    }
    let mut d = Deltas::default();
    for (sq, piece) in dirty.removed() {
        if let Some(f) = features.index(perspective, king_after, sq, piece) {
            d.push_removed(f);
        }
    }
    for (sq, piece) in dirty.added() {
        if let Some(f) = features.index(perspective, king_after, sq, piece) {
            d.push_added(f);
        }
    }
    Some(d)
}
