//! A board-agnostic position: what sits on each square and who moves. Engines build it from
//! their own board ([`Position::new`]); tests and examples read FEN ([`Position::from_fen`]).

use std::fmt;

/// A side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    /// White, index 0.
    White = 0,
    /// Black, index 1.
    Black = 1,
}

impl Color {
    /// White, then black.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];
    /// 0 for white, 1 for black: the index of per-perspective arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A kind of piece; the discriminants are Stockfish's order minus one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PieceType {
    /// Pawn, index 0.
    Pawn = 0,
    /// Knight, index 1.
    Knight = 1,
    /// Bishop, index 2.
    Bishop = 2,
    /// Rook, index 3.
    Rook = 3,
    /// Queen, index 4.
    Queen = 4,
    /// King, index 5.
    King = 5,
}

impl PieceType {
    /// Pawn to king.
    pub const ALL: [PieceType; 6] =
        [PieceType::Pawn, PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen, PieceType::King];
    /// 0 (pawn) to 5 (king).
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A piece of one colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub kind: PieceType,
}

impl Piece {
    /// A `kind` of `color`.
    pub const fn new(color: Color, kind: PieceType) -> Self {
        Self { color, kind }
    }
}

/// A square, a1 = 0, b1 = 1, ..., h8 = 63.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// `None` unless `index < 64`.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }
    /// The square on `file` (0 = a) and `rank` (0 = first rank); both are taken modulo 8.
    pub const fn from_file_rank(file: u8, rank: u8) -> Square {
        Square((rank & 7) * 8 + (file & 7))
    }
    /// 0 (a1) to 63 (h8).
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// 0 (a) to 7 (h).
    pub const fn file(self) -> u8 {
        self.0 & 7
    }
    /// 0 (first rank) to 7 (eighth).
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }
    /// Parses `e4`-style names.
    pub fn parse(name: &str) -> Option<Square> {
        match name.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::from_file_rank(f - b'a', r - b'1')),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Why a position can't be evaluated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A FEN that doesn't parse.
    // Quoted cut and escaped: a 1 MB FEN once came back whole.
    #[error("bad FEN \"{}\": {reason}", crate::shown(fen))]
    BadFen {
        /// The FEN as given.
        fen: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A side without exactly one king: the side and its king count.
    #[error("{0:?} has {1} kings; exactly one is needed")]
    Kings(Color, usize),
    /// More than 32 pieces: the count.
    #[error("{0} pieces on the board; at most 32 are allowed")]
    TooManyPieces(usize),
}

/// Pieces on squares and the side to move: everything an NNUE evaluation looks at.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    board: [Option<Piece>; 64],
    /// The occupied squares of `board`, so that walking the pieces skips the empty ones.
    occupied: u64,
    side_to_move: Color,
    kings: [Square; 2],
    count: u8,
}

impl Position {
    /// The position of `pieces` with `side_to_move` (a later piece on a square replaces an
    /// earlier one); checks one king per side and at most 32 pieces.
    ///
    /// An engine needs one for the root of an accumulator stack and, when it refreshes a
    /// perspective, for the position evaluated: keep no `Position` in sync with your board,
    /// implement `nnue_runtime::EngineBoard` on your board (its `position` builds one from your
    /// pieces: a mailbox, piece lists, bitboards) and evaluate the board itself. It is one pass
    /// over the pieces and one over the occupied squares: 86–145 ns for 32 pieces from a
    /// 64-square mailbox or a piece list, 32–53 ns for 3 pieces (measured 2026-11-24 on an
    /// Intel Sapphire Rapids-class Xeon VM, 2 cores shared with other builds, release build),
    /// which on every evaluation would be a sixth of a Stockfish 19 node.
    ///
    /// ```
    /// use nnue_format::{Color, Piece, PieceType, Position, PositionError, Square};
    ///
    /// let sq = |s| Square::parse(s).unwrap();
    /// let pieces = [
    ///     (sq("e1"), Piece::new(Color::White, PieceType::King)),
    ///     (sq("d1"), Piece::new(Color::White, PieceType::Queen)),
    ///     (sq("e8"), Piece::new(Color::Black, PieceType::King)),
    /// ];
    /// let pos = Position::new(Color::Black, pieces)?;
    /// assert_eq!(pos, Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")?);
    /// assert_eq!(pos.piece_count(), 3);
    ///
    /// // Both kings are needed.
    /// let no_black_king = Position::new(Color::White, pieces.into_iter().take(2));
    /// assert_eq!(no_black_king, Err(PositionError::Kings(Color::Black, 0)));
    /// # Ok::<(), PositionError>(())
    /// ```
    pub fn new(
        side_to_move: Color,
        pieces: impl IntoIterator<Item = (Square, Piece)>,
    ) -> Result<Position, PositionError> {
        // One pass over the pieces, then one over the occupied squares: this runs on every
        // evaluation of an engine that rebuilds the position from its own board.
        let mut board = [None; 64];
        let mut occupied = 0u64;
        for (sq, piece) in pieces {
            board[sq.index()] = Some(piece);
            occupied |= 1 << sq.index();
        }
        let count = occupied.count_ones() as usize;
        if count > 32 {
            return Err(PositionError::TooManyPieces(count));
        }
        let (mut kings, mut found) = ([Square(0); 2], [0usize; 2]);
        let mut bits = occupied;
        while bits != 0 {
            let s = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            if let Some(piece) = board[s as usize].filter(|p| p.kind == PieceType::King) {
                kings[piece.color.index()] = Square(s);
                found[piece.color.index()] += 1;
            }
        }
        if let Some(color) = Color::BOTH.into_iter().find(|c| found[c.index()] != 1) {
            return Err(PositionError::Kings(color, found[color.index()]));
        }
        Ok(Position { board, occupied, side_to_move, kings, count: count as u8 })
    }

    /// The position of a board given square by square, its occupancy and its kings' squares,
    /// which the caller keeps consistent (the threat nets' boards): no pass over the pieces.
    /// `None` past 32 pieces.
    #[doc(hidden)]
    pub fn from_board(
        side_to_move: Color,
        board: [Option<Piece>; 64],
        occupied: u64,
        kings: [Square; 2],
    ) -> Option<Position> {
        let count = occupied.count_ones();
        (count <= 32).then_some(Position { board, occupied, side_to_move, kings, count: count as u8 })
    }

    /// Reads the board and side-to-move fields of a FEN (the rest is ignored).
    ///
    /// ```
    /// use nnue_format::{Color, Piece, PieceType, Position, PositionError, Square};
    ///
    /// let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")?;
    /// assert_eq!(pos.side_to_move(), Color::Black);
    /// assert_eq!(pos.king(Color::White), Square::parse("e1").unwrap());
    /// let white_pawn = Piece::new(Color::White, PieceType::Pawn);
    /// assert_eq!(pos.piece_at(Square::parse("e4").unwrap()), Some(white_pawn));
    ///
    /// // Castling rights, en passant and move counters may be left out.
    /// assert_eq!(Position::from_fen("4k3/8/8/8/8/8/8/4K3 w")?.piece_count(), 2);
    /// assert!(matches!(Position::from_fen("4k3/8/8 w"), Err(PositionError::BadFen { .. })));
    /// # Ok::<(), PositionError>(())
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, PositionError> {
        let bad = |reason: &str| PositionError::BadFen { fen: fen.to_string(), reason: reason.to_string() };
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or_else(|| bad("empty"))?;
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            return Err(bad("the board needs 8 ranks"));
        }
        let mut pieces = Vec::new();
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += d as u8;
                } else {
                    let kind = match c.to_ascii_lowercase() {
                        'p' => PieceType::Pawn,
                        'n' => PieceType::Knight,
                        'b' => PieceType::Bishop,
                        'r' => PieceType::Rook,
                        'q' => PieceType::Queen,
                        'k' => PieceType::King,
                        _ => return Err(bad(&format!("unknown piece `{c}`"))),
                    };
                    let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                    if file >= 8 {
                        return Err(bad(&format!("rank {} has more than 8 squares", rank + 1)));
                    }
                    pieces.push((Square::from_file_rank(file, rank), Piece::new(color, kind)));
                    file += 1;
                }
                if file > 8 {
                    return Err(bad(&format!("rank {} has more than 8 squares", rank + 1)));
                }
            }
            if file != 8 {
                return Err(bad(&format!("rank {} has {file} squares", rank + 1)));
            }
        }
        let stm = match fields.next() {
            Some("w") => Color::White,
            Some("b") => Color::Black,
            _ => return Err(bad("the side to move must be `w` or `b`")),
        };
        Position::new(stm, pieces)
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }
    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }
    /// The square of `color`'s king.
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }
    /// Number of pieces on the board, kings included.
    pub fn piece_count(&self) -> usize {
        self.count as usize
    }
    /// Every piece with its square, a1 to h8.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut bits = self.occupied;
        std::iter::from_fn(move || {
            let s = bits.trailing_zeros() as u8;
            bits &= bits.wrapping_sub(1);
            // `occupied` marks exactly the squares of `board` that hold a piece.
            self.board.get(usize::from(s)).copied().flatten().map(|p| (Square(s), p))
        })
    }
}

/// Random placements for tests, fuzzing and benches: two kings and up to 30 other pieces
/// anywhere, seeded. Features need no legality, and odd placements reach more indices. (With
/// the `synth` feature.)
#[cfg(any(test, feature = "synth"))]
pub fn random_positions(seed: u64, n: usize) -> Vec<Position> {
    let mut rng = crate::rng::Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut squares: Vec<u8> = (0..64).collect();
        for i in (1..64).rev() {
            squares.swap(i, rng.range(0, i as i64) as usize);
        }
        let others = rng.range(0, 30) as usize;
        let mut pieces = vec![
            (Square(squares[0]), Piece::new(Color::White, PieceType::King)),
            (Square(squares[1]), Piece::new(Color::Black, PieceType::King)),
        ];
        for &s in &squares[2..2 + others] {
            let kind = PieceType::ALL[rng.range(0, 4) as usize];
            let color = if rng.range(0, 1) == 0 { Color::White } else { Color::Black };
            pieces.push((Square(s), Piece::new(color, kind)));
        }
        let stm = if rng.range(0, 1) == 0 { Color::White } else { Color::Black };
        out.extend(Position::new(stm, pieces).ok());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fen() {
        let p = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
        assert_eq!(p.side_to_move(), Color::Black);
        assert_eq!(p.piece_count(), 32);
        assert_eq!(p.king(Color::White), Square::parse("e1").unwrap());
        assert_eq!(p.piece_at(Square::parse("e4").unwrap()), Some(Piece::new(Color::White, PieceType::Pawn)));
    }

    #[test]
    fn bad_fens_are_errors() {
        for fen in ["", "8/8/8/8/8/8/8 w", "k7/8/8/8/8/8/8/K7 x", "k8/8/8/8/8/8/8/K7 w", "kx6/8/8/8/8/8/8/K7 w"] {
            assert!(matches!(Position::from_fen(fen), Err(PositionError::BadFen { .. })), "{fen}");
        }
        assert_eq!(Position::from_fen("8/8/8/8/8/8/8/K7 w"), Err(PositionError::Kings(Color::Black, 0)));
        // A 1 MB FEN is quoted cut, with its size.
        let huge = format!("{} w", "8/".repeat(500_000));
        let e = Position::from_fen(&huge).unwrap_err().to_string();
        assert!(e.len() < 1000 && e.contains("… (1000002 bytes)"), "{} bytes", e.len());
        let crowded = "kqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/8/8/K7 w";
        assert_eq!(Position::from_fen(crowded), Err(PositionError::TooManyPieces(41)));
    }
}
