//! Input feature sets: which rows of the first layer a piece on a square activates, seen from
//! one perspective. Indices agree with Stockfish's own (and bullet's for chess-768).

pub(crate) mod attacks;
pub mod chess704;
pub mod chess768;
pub mod custom;
pub mod halfka_v2_hm;
pub mod halfkp;
pub mod pawn_pairs;
pub mod psq768_hm;
pub mod threats;

use crate::Architecture;

use crate::position::{Color, Piece, PieceType, Position, Square};
pub use crate::KingBuckets;
pub use custom::{CustomBlock, InputBlock};

/// The piece-square part of a net's inputs: which row a piece on a square activates, seen
/// from one perspective (its king's square choosing the bucket and the mirroring).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PieceSet {
    /// Stockfish 15.1–19's HalfKAv2_hm ([`halfka_v2_hm`]).
    HalfKav2Hm,
    /// Stockfish 12–13's HalfKP ([`halfkp`]; kings are not features).
    HalfKp,
    /// Stockfish 19's lite net: 768 mirrored piece-square features ([`psq768_hm`]).
    Psq768Hm,
    /// Chess-768 with its king buckets ([`chess768`]), as bullet trains them.
    Chess768(KingBuckets),
    /// Chess-704: chess-768 with both kings on one plane ([`chess704`]), with its king buckets.
    Chess704(KingBuckets),
}

impl PieceSet {
    /// Number of features.
    pub const fn inputs(&self) -> usize {
        match self {
            PieceSet::HalfKav2Hm => halfka_v2_hm::INPUTS,
            PieceSet::HalfKp => halfkp::INPUTS,
            PieceSet::Psq768Hm => psq768_hm::INPUTS,
            PieceSet::Chess768(kings) => 768 * kings.count as usize,
            PieceSet::Chess704(kings) => 704 * kings.count as usize,
        }
    }

    /// The feature of `piece` on `sq` seen by `perspective`, whose king is on `king` (`None`:
    /// the piece is not a feature, as kings in HalfKP).
    #[inline(always)]
    pub fn index(&self, perspective: Color, king: Square, sq: Square, piece: Piece) -> Option<usize> {
        match self {
            PieceSet::HalfKav2Hm => Some(halfka_v2_hm::index(perspective, king, sq, piece)),
            PieceSet::HalfKp => halfkp::index(perspective, king, sq, piece),
            PieceSet::Psq768Hm => Some(psq768_hm::index(perspective, king, sq, piece)),
            PieceSet::Chess768(kings) => Some(chess768::index(kings, perspective, king, sq, piece)),
            PieceSet::Chess704(kings) => Some(chess704::index(kings, perspective, king, sq, piece)),
        }
    }

    /// The king buckets of a king-bucketed set.
    pub const fn kings(&self) -> Option<&KingBuckets> {
        match self {
            PieceSet::Chess768(kings) | PieceSet::Chess704(kings) => Some(kings),
            _ => None,
        }
    }
}

/// A part of a net's inputs that depends on the whole board, not on each piece alone. Its
/// rows come before the piece-square features', in the order of [`FeatureSet::blocks`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardBlock {
    /// Threat features: a piece attacking another ([`threats`]).
    Threats(threats::ThreatSet),
    /// Stockfish 19's pawn pairs ([`pawn_pairs`]).
    PawnPairs,
    /// The engine's own ([`custom`]).
    Custom(CustomBlock),
}

impl BoardBlock {
    /// Number of features.
    pub const fn inputs(self) -> usize {
        match self {
            BoardBlock::Threats(set) => set.inputs(),
            BoardBlock::PawnPairs => pawn_pairs::INPUTS,
            BoardBlock::Custom(block) => block.inputs(),
        }
    }
}

/// The most board blocks a feature set has.
pub const MAX_BLOCKS: usize = 3;

/// The inputs of a net, as parts: the board blocks (threats, pawn pairs) in the rows' order,
/// then the piece-square set. `Copy` and const-constructible, so generated code holds it as a
/// constant and every `match` on it folds away; `nnue_net!` emits the value
/// [`FeatureSet::for_arch`] gives, which the run-time paths use too.
///
/// A set has at most one [`BoardBlock::Threats`] (the accumulator stack follows the board
/// through one threat log); the piece-square set's king decides every part's orientation
/// (mirrored with the king on files e–h).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeatureSet {
    /// The board blocks, first in the rows, in order: the first `count`, then fillers.
    blocks: [BoardBlock; MAX_BLOCKS],
    count: u8,
    /// The piece-square features, after the blocks.
    pieces: PieceSet,
    /// Where they start: the blocks' sizes added once here, not on each
    /// [`FeatureSet::index`] of a set that is not a compile-time constant (a loaded net's).
    pieces_offset: usize,
}

/// Stockfish 19's board blocks: threats, then pawn pairs.
const SF19_BLOCKS: &[BoardBlock] = &[BoardBlock::Threats(threats::ThreatSet::Sf19), BoardBlock::PawnPairs];

/// Where the threats start in PlentyChess's inputs (pawn pairs, threats, pieces).
pub const PAIRS_FIRST_THREATS: usize = pawn_pairs::INPUTS;
/// Where the piece-square features start in PlentyChess's inputs.
pub const PAIRS_FIRST_PIECES: usize = PAIRS_FIRST_THREATS + threats::INPUTS_19;

/// Where Stockfish 19's pawn-pair features start in [`FeatureSet::SF19`].
pub const PAIRS_19: usize = threats::INPUTS_19;
/// Where Stockfish 19's HalfKAv2_hm features start in [`FeatureSet::SF19`].
pub const PIECES_19: usize = PAIRS_19 + pawn_pairs::INPUTS;

impl FeatureSet {
    /// Stockfish 15.1–17.1's HalfKAv2_hm (SFNNv5–v9).
    pub const HALFKAV2_HM: FeatureSet = FeatureSet::pieces(PieceSet::HalfKav2Hm);
    /// Stockfish 12–13's HalfKP.
    pub const HALFKP: FeatureSet = FeatureSet::pieces(PieceSet::HalfKp);
    /// Stockfish 18's threat nets: FullThreats `0..threats::INPUTS`, then HalfKAv2_hm.
    pub const SF18_THREATS: FeatureSet =
        FeatureSet::new(&[BoardBlock::Threats(threats::ThreatSet::Sf18)], PieceSet::HalfKav2Hm);
    /// Stockfish 19's big net: its threats, pawn pairs at [`PAIRS_19`], HalfKAv2_hm at
    /// [`PIECES_19`] (the order of the file).
    pub const SF19: FeatureSet = FeatureSet::new(SF19_BLOCKS, PieceSet::HalfKav2Hm);
    /// Stockfish 19's lite net: PSQ768hm alone.
    pub const SF19_LITE: FeatureSet = FeatureSet::pieces(PieceSet::Psq768Hm);

    /// Piece-square features alone.
    pub const fn pieces(pieces: PieceSet) -> FeatureSet {
        FeatureSet { blocks: [BoardBlock::PawnPairs; MAX_BLOCKS], count: 0, pieces, pieces_offset: 0 }
    }

    /// The board blocks `blocks`, in row order, then `pieces`.
    ///
    /// # Panics
    /// When `blocks` holds two [`BoardBlock::Threats`] (the accumulator stack follows the
    /// board through one threat log), or more than [`MAX_BLOCKS`] blocks. In a constant that
    /// is a compile error.
    pub const fn new(blocks: &[BoardBlock], pieces: PieceSet) -> FeatureSet {
        assert!(blocks.len() <= MAX_BLOCKS, "a feature set has at most MAX_BLOCKS board blocks");
        let mut set = FeatureSet::pieces(pieces);
        let (mut threats, mut i) = (0, 0);
        while i < blocks.len() {
            if let BoardBlock::Threats(_) = blocks[i] {
                threats += 1;
            }
            set.blocks[i] = blocks[i];
            set.pieces_offset += blocks[i].inputs();
            i += 1;
        }
        assert!(threats <= 1, "a feature set's board blocks hold at most one threats block");
        set.count = blocks.len() as u8;
        set
    }

    /// The board blocks, in row order.
    #[inline]
    pub const fn blocks(&self) -> &[BoardBlock] {
        self.blocks.split_at(self.count as usize).0
    }

    /// The piece-square set, after the blocks.
    pub const fn piece_set(&self) -> &PieceSet {
        &self.pieces
    }

    /// The feature set a net of `arch` reads. An engine-defined block is as `arch` has it:
    /// unbound in a description read from text, which the evaluators refuse (see
    /// [`custom`]).
    pub fn for_arch(arch: &Architecture) -> FeatureSet {
        match arch {
            Architecture::Sfnn(_) => FeatureSet::HALFKAV2_HM,
            Architecture::HalfKp(_) => FeatureSet::HALFKP,
            Architecture::Chess768(s) => FeatureSet::pieces(PieceSet::Chess768(s.kings)),
            Architecture::Layered(a) => {
                let pieces = if a.merged_kings { PieceSet::Chess704(a.kings) } else { PieceSet::Chess768(a.kings) };
                let Some(inputs) = a.threats else { return FeatureSet::pieces(pieces) };
                let (mut blocks, mut n) = ([BoardBlock::PawnPairs; MAX_BLOCKS], 0);
                let mut put = |block| {
                    blocks[n] = block;
                    n += 1;
                };
                match inputs.library() {
                    Some(crate::ThreatInputs::Reckless) => put(BoardBlock::Threats(threats::ThreatSet::Reckless)),
                    Some(_) => {
                        put(BoardBlock::PawnPairs);
                        put(BoardBlock::Threats(threats::ThreatSet::Sf19));
                    }
                    None => {}
                }
                // The engine's own rows come after the library's.
                if let Some(block) = inputs.custom() {
                    put(BoardBlock::Custom(block));
                }
                FeatureSet::new(&blocks[..n], pieces)
            }
            Architecture::Threats(_) => FeatureSet::SF18_THREATS,
            Architecture::Sf19(a) => match a.inputs {
                crate::Sf19Inputs::Full => FeatureSet::SF19,
                crate::Sf19Inputs::Lite => FeatureSet::SF19_LITE,
            },
        }
    }

    /// Where the piece-square features start: after every board block.
    pub const fn pieces_offset(&self) -> usize {
        self.pieces_offset
    }

    /// Number of features (rows of the first layer).
    pub const fn inputs(&self) -> usize {
        self.pieces_offset() + self.pieces.inputs()
    }

    /// The feature of `piece` on `sq` seen by `perspective`, whose king is on `king`
    /// (`None`: the piece is not a feature, as kings in HalfKP).
    #[inline(always)]
    pub fn index(&self, perspective: Color, king: Square, sq: Square, piece: Piece) -> Option<usize> {
        self.pieces.index(perspective, king, sq, piece).map(|i| self.pieces_offset + i)
    }

    /// Whether `perspective`'s king moving from `from` to `to` changes every feature, so the
    /// accumulator must be refreshed rather than updated.
    #[inline]
    pub fn needs_refresh(&self, perspective: Color, from: Square, to: Square) -> bool {
        match &self.pieces {
            // Threat nets: one accumulator holds both parts, and the piece part changes whenever
            // the king moves (the threat part only when it changes board half).
            PieceSet::HalfKav2Hm | PieceSet::HalfKp => from != to,
            PieceSet::Psq768Hm => psq768_hm::changes_orientation(from, to),
            PieceSet::Chess768(kings) | PieceSet::Chess704(kings) => {
                chess768::orientation(kings, perspective, from) != chess768::orientation(kings, perspective, to)
            }
        }
    }

    /// The refresh cache's entry (below [`FeatureSet::cache_slots`]) for `perspective`'s king
    /// on `king`. King squares on which every feature is the same share one: a king-bucketed
    /// net's (bucket, mirror), the lite net's mirror. A refresh then finds an entry this game
    /// already brought near the position (a king entering a bucket by another square than
    /// last time) instead of rebuilding one from the biases.
    #[inline]
    pub fn cache_slot(&self, perspective: Color, king: Square) -> usize {
        match &self.pieces {
            PieceSet::Chess768(kings) | PieceSet::Chess704(kings) => {
                let (bucket, mirror) = chess768::orientation(kings, perspective, king);
                if kings.mirrored {
                    2 * usize::from(bucket) + usize::from(mirror != 0)
                } else {
                    usize::from(bucket)
                }
            }
            PieceSet::Psq768Hm => usize::from(halfka_v2_hm::mirror(king) != 0),
            PieceSet::HalfKav2Hm | PieceSet::HalfKp => king.index(),
        }
    }

    /// The number of refresh cache entries per perspective ([`FeatureSet::cache_slot`]).
    pub fn cache_slots(&self) -> usize {
        match &self.pieces {
            PieceSet::Chess768(kings) | PieceSet::Chess704(kings) => {
                usize::from(kings.count) * if kings.mirrored { 2 } else { 1 }
            }
            PieceSet::Psq768Hm => 2,
            PieceSet::HalfKav2Hm | PieceSet::HalfKp => 64,
        }
    }

    /// For threat nets: whether the king moving from `from` to `to` changes the board
    /// features' orientation (the board half), so that they must be listed anew.
    pub fn board_needs_refresh(&self, from: Square, to: Square) -> bool {
        psq768_hm::changes_orientation(from, to)
    }

    /// Whether features depend on more than each piece's own square (board blocks: threats,
    /// pawn pairs, the engine's own): the accumulator stack then keeps the board of every ply.
    pub const fn has_board_blocks(&self) -> bool {
        self.count > 0
    }

    /// Whether the set has threat features: the accumulator stack then logs each move's
    /// threat changes.
    pub const fn has_threats(&self) -> bool {
        self.threat_set().is_some()
    }

    /// The threat features of a threat net.
    #[doc(hidden)]
    pub const fn threat_set(&self) -> Option<threats::ThreatSet> {
        let mut i = 0;
        while i < self.count as usize {
            if let BoardBlock::Threats(set) = self.blocks[i] {
                return Some(set);
            }
            i += 1;
        }
        None
    }

    /// Appends every active feature of `pos` for `perspective`.
    pub fn active(&self, pos: &Position, perspective: Color, out: &mut Vec<usize>) {
        let king = pos.king(perspective);
        out.extend(pos.pieces().filter_map(|(sq, piece)| self.index(perspective, king, sq, piece)));
        if self.has_board_blocks() {
            self.board_features(&threats::Board::new(pos), perspective, king.index(), out);
        }
    }

    /// Appends the features that depend on the whole board (threats, pawn pairs, the engine's
    /// own) of `perspective`, whose king is on square `king`; none for the other sets.
    pub fn board_features(&self, board: &threats::Board, perspective: Color, king: usize, out: &mut Vec<usize>) {
        let mut offset = 0;
        // By reference: a block is 24 bytes since engines' own blocks are among them.
        for block in self.blocks() {
            match block {
                BoardBlock::Threats(set) => threats::active(*set, board, perspective, king, offset, out),
                BoardBlock::PawnPairs => pawn_pairs::active(board, perspective, king, offset, out),
                BoardBlock::Custom(custom) => custom.active(board, perspective, square(king), offset, out),
            }
            offset += block.inputs();
        }
    }

    /// Appends the board features a move changes for `perspective` (king on `king`, in the
    /// same board half before and after): from the move's threat log (after
    /// [`threats::cancel_log`]) and the boards before and after it.
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    #[inline] // into the stack's update, where a compiled-in net's set is a constant: the loop folds
    pub fn board_changes(
        &self,
        log: &[threats::ThreatChange],
        [before, after]: [&threats::Board; 2],
        perspective: Color,
        king: usize,
        added: &mut Vec<usize>,
        removed: &mut Vec<usize>,
    ) {
        let mut offset = 0;
        for block in self.blocks() {
            match block {
                BoardBlock::Threats(set) => threats::changes(*set, log, perspective, king, offset, added, removed),
                BoardBlock::PawnPairs => pawn_pairs::changes(before, after, perspective, king, offset, added, removed),
                BoardBlock::Custom(custom) => {
                    custom.changes([before, after], perspective, square(king), offset, added, removed)
                }
            }
            offset += block.inputs();
        }
    }
}

/// The square of index `i` (below 64: a king's).
#[inline(always)]
fn square(i: usize) -> Square {
    Square::from_file_rank((i % 8) as u8, (i / 8) as u8)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::PieceType;

    /// Every kind of feature set, king-bucketed ones mirrored and not, 64 buckets included.
    fn every_kind() -> Vec<FeatureSet> {
        let mirrored = KingBuckets::from_map(true, &(0..32).map(|s| (s / 2) as u8).collect::<Vec<_>>()).unwrap();
        let wide = KingBuckets::from_map(false, &(0..64).map(|s| s as u8).collect::<Vec<_>>()).unwrap();
        let plain = KingBuckets::from_map(false, &(0..64).map(|s| (s / 16) as u8).collect::<Vec<_>>()).unwrap();
        let mut all = vec![
            FeatureSet::HALFKAV2_HM,
            FeatureSet::HALFKP,
            FeatureSet::SF18_THREATS,
            FeatureSet::SF19,
            FeatureSet::SF19_LITE,
        ];
        for kings in [KingBuckets::SINGLE, mirrored, wide, plain] {
            all.extend([FeatureSet::pieces(PieceSet::Chess768(kings)), FeatureSet::pieces(PieceSet::Chess704(kings))]);
        }
        all.push(FeatureSet::new(&[BoardBlock::Threats(threats::ThreatSet::Reckless)], PieceSet::Chess768(mirrored)));
        all.push(FeatureSet::new(
            &[BoardBlock::PawnPairs, BoardBlock::Threats(threats::ThreatSet::Sf19)],
            PieceSet::Chess768(mirrored),
        ));
        all
    }

    #[test]
    fn king_squares_sharing_a_cache_slot_have_every_feature_the_same() {
        let squares: Vec<Square> = (0..64).map(|i| Square::new(i).unwrap()).collect();
        let pieces: Vec<Piece> =
            Color::BOTH.iter().flat_map(|&c| PieceType::ALL.iter().map(move |&t| Piece::new(c, t))).collect();
        for set in every_kind() {
            for perspective in Color::BOTH {
                let features = |king| -> Vec<_> {
                    squares
                        .iter()
                        .flat_map(|&sq| pieces.iter().map(move |&p| (sq, p)))
                        .map(|(sq, p)| set.index(perspective, king, sq, p))
                        .collect()
                };
                let mut seen: Vec<Option<Vec<Option<usize>>>> = vec![None; set.cache_slots()];
                for &king in &squares {
                    let slot = set.cache_slot(perspective, king);
                    assert!(slot < set.cache_slots(), "{set:?} {king:?}");
                    let f = features(king);
                    match &seen[slot] {
                        Some(other) => assert_eq!(other, &f, "{set:?} {perspective:?} slot {slot} {king:?}"),
                        None => seen[slot] = Some(f),
                    }
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "at most one threats block")]
    fn two_threats_blocks_are_refused() {
        let sf19 = BoardBlock::Threats(threats::ThreatSet::Sf19);
        let _ = FeatureSet::new(&[sf19, BoardBlock::PawnPairs, sf19], PieceSet::HalfKav2Hm);
    }
}
