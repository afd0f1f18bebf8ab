//! What a move changes on the board: at most two pieces off and two on. Engines describe
//! their moves with it; the accumulator code and the threat features read it.

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
    /// use nnue_format::{Color, Dirty, Piece, PieceType, Square};
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

    /// Takes `piece` off `sq`.
    ///
    /// # Panics
    /// Past two removals (no chess move has more).
    pub fn remove(mut self, sq: Square, piece: Piece) -> Dirty {
        let slot = self.removed.iter_mut().find(|s| s.is_none()).expect("a move removes at most two pieces");
        *slot = Some((sq, piece));
        self
    }

    /// Puts `piece` on `sq`.
    ///
    /// # Panics
    /// Past two additions (no chess move has more).
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
    #[doc(hidden)]
    #[inline] // on every push, from the stack's generic code (instantiated in the engine's crate)
    pub fn kings_after(&self, mut kings: [Square; 2]) -> [Square; 2] {
        for (sq, piece) in self.added() {
            if piece.kind == PieceType::King {
                kings[piece.color.index()] = sq;
            }
        }
        kings
    }
}
