//! Input feature sets: which rows of the first layer a piece on a square activates, seen from
//! one perspective. Indices agree with Stockfish's own (and bullet's for chess-768).

pub mod chess768;
pub mod halfka_v2_hm;
pub mod halfkp;

use nnue_format::Architecture;

use crate::position::{Color, Piece, PieceType, Position, Square};
pub use chess768::KingLayout;

/// The feature set of a net. `Copy` and const-constructible, so generated code holds it as a
/// constant and every `match` on it folds away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeatureSet {
    HalfKav2Hm,
    HalfKp,
    Chess768(KingLayout),
}

impl FeatureSet {
    pub fn for_arch(arch: &Architecture) -> FeatureSet {
        match arch {
            Architecture::Sfnn(_) => FeatureSet::HalfKav2Hm,
            Architecture::HalfKp(_) => FeatureSet::HalfKp,
            Architecture::Chess768(s) => FeatureSet::Chess768(KingLayout::from_buckets(&s.kings)),
        }
    }

    /// Number of features (rows of the first layer).
    pub const fn inputs(&self) -> usize {
        match self {
            FeatureSet::HalfKav2Hm => halfka_v2_hm::INPUTS,
            FeatureSet::HalfKp => halfkp::INPUTS,
            FeatureSet::Chess768(layout) => 768 * layout.count as usize,
        }
    }

    /// The feature of `piece` on `sq` seen by `perspective`, whose king is on `king`
    /// (`None`: the piece is not a feature, as kings in HalfKP).
    #[inline(always)]
    pub fn index(&self, perspective: Color, king: Square, sq: Square, piece: Piece) -> Option<usize> {
        match self {
            FeatureSet::HalfKav2Hm => Some(halfka_v2_hm::index(perspective, king, sq, piece)),
            FeatureSet::HalfKp => halfkp::index(perspective, king, sq, piece),
            FeatureSet::Chess768(layout) => Some(layout.index(perspective, king, sq, piece)),
        }
    }

    /// Whether `perspective`'s king moving from `from` to `to` changes every feature, so the
    /// accumulator must be refreshed rather than updated.
    #[inline]
    pub fn needs_refresh(&self, perspective: Color, from: Square, to: Square) -> bool {
        match self {
            FeatureSet::HalfKav2Hm | FeatureSet::HalfKp => from != to,
            FeatureSet::Chess768(layout) => {
                layout.orientation(perspective, from) != layout.orientation(perspective, to)
            }
        }
    }

    /// Appends every active feature of `pos` for `perspective`.
    pub fn active(&self, pos: &Position, perspective: Color, out: &mut Vec<usize>) {
        let king = pos.king(perspective);
        out.extend(pos.pieces().filter_map(|(sq, piece)| self.index(perspective, king, sq, piece)));
    }
}

/// 0 for the perspective's own pieces, 1 for the opponent's.
#[inline(always)]
fn relative(perspective: Color, piece: Piece) -> usize {
    (piece.color != perspective) as usize
}

/// Vertical flip that makes `perspective` play up the board.
#[inline(always)]
fn flip(perspective: Color) -> usize {
    match perspective {
        Color::White => 0,
        Color::Black => 56,
    }
}

#[inline(always)]
fn is_king(piece: Piece) -> bool {
    piece.kind == PieceType::King
}
