//! Input feature sets: which rows of the first layer a piece on a square activates, seen from
//! one perspective. Indices agree with Stockfish's own (and bullet's for chess-768).

pub(crate) mod attacks;
pub mod chess704;
pub mod chess768;
pub mod halfka_v2_hm;
pub mod halfkp;
pub mod pawn_pairs;
pub mod psq768_hm;
pub mod threats;

use crate::Architecture;

use crate::position::{Color, Piece, PieceType, Position, Square};
pub use crate::KingBuckets;

/// The feature set of a net. `Copy` and const-constructible, so generated code holds it as a
/// constant and every `match` on it folds away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeatureSet {
    /// Stockfish 15.1-17.1's HalfKAv2_hm (SFNNv5-v9).
    HalfKav2Hm,
    /// Stockfish 12-13's HalfKP.
    HalfKp,
    /// Headerless chess-768, with its king buckets.
    Chess768(KingBuckets),
    /// Chess-704: chess-768 with both kings on one plane ([`chess704`]), with its king buckets.
    Chess704(KingBuckets),
    /// Stockfish 18's threat nets: FullThreats features `0..threats::INPUTS`, then
    /// HalfKAv2_hm feature `i` at `threats::INPUTS + i` (the order of the file's PSQT table).
    /// [`FeatureSet::index`] gives the piece features; threat features depend on the whole
    /// board ([`threats`]).
    HalfKav2HmThreats,
    /// Stockfish 19's big net: its threat features `0..threats::INPUTS_19`, pawn pairs
    /// `PAIRS_19..PAIRS_19 + pawn_pairs::INPUTS`, then HalfKAv2_hm feature `i` at
    /// `PIECES_19 + i` (the order of the file). Threats and pairs depend on the whole board.
    Sf19,
    /// Stockfish 19's lite net: 768 mirrored piece-square features ([`psq768_hm`]).
    Sf19Lite,
    /// A multi-layer net's threats (`threats=`) then king-bucketed, mirrored chess-768: threat
    /// features `0..set.inputs()`, chess-768 feature `i` at `set.inputs() + i`. The threats
    /// take the piece-square features' orientation (mirrored with the king on files e–h),
    /// so a king move within its bucket changes only the king's own feature.
    Chess768Threats(KingBuckets, threats::ThreatSet),
    /// PlentyChess's (`threats=pawnpairs+sf19`): Stockfish 19's pawn pairs `0..4560`, its
    /// threats at `PAIRS_FIRST_THREATS..`, then king-bucketed, mirrored chess-768 feature `i` at
    /// `PAIRS_FIRST_PIECES + i`; oriented as [`FeatureSet::Chess768Threats`]'s.
    Chess768PairsThreats(KingBuckets),
}

/// Where the threats start in [`FeatureSet::Chess768PairsThreats`].
pub const PAIRS_FIRST_THREATS: usize = pawn_pairs::INPUTS;
/// Where the piece-square features start in [`FeatureSet::Chess768PairsThreats`].
pub const PAIRS_FIRST_PIECES: usize = PAIRS_FIRST_THREATS + threats::INPUTS_19;

/// Where Stockfish 19's pawn-pair features start in [`FeatureSet::Sf19`].
pub const PAIRS_19: usize = threats::INPUTS_19;
/// Where Stockfish 19's HalfKAv2_hm features start in [`FeatureSet::Sf19`].
pub const PIECES_19: usize = PAIRS_19 + pawn_pairs::INPUTS;

impl FeatureSet {
    /// The feature set a net of `arch` reads.
    pub fn for_arch(arch: &Architecture) -> FeatureSet {
        match arch {
            Architecture::Sfnn(_) => FeatureSet::HalfKav2Hm,
            Architecture::HalfKp(_) => FeatureSet::HalfKp,
            Architecture::Chess768(s) => FeatureSet::Chess768(s.kings),
            Architecture::Layered(a) => match a.threats {
                Some(crate::ThreatInputs::Reckless) => {
                    FeatureSet::Chess768Threats(a.kings, threats::ThreatSet::Reckless)
                }
                Some(crate::ThreatInputs::PawnPairsSf19) => FeatureSet::Chess768PairsThreats(a.kings),
                None if a.merged_kings => FeatureSet::Chess704(a.kings),
                None => FeatureSet::Chess768(a.kings),
            },
            Architecture::Threats(_) => FeatureSet::HalfKav2HmThreats,
            Architecture::Sf19(a) => match a.inputs {
                crate::Sf19Inputs::Full => FeatureSet::Sf19,
                crate::Sf19Inputs::Lite => FeatureSet::Sf19Lite,
            },
        }
    }

    /// Number of features (rows of the first layer).
    pub const fn inputs(&self) -> usize {
        match self {
            FeatureSet::HalfKav2Hm => halfka_v2_hm::INPUTS,
            FeatureSet::HalfKp => halfkp::INPUTS,
            FeatureSet::Chess768(kings) => 768 * kings.count as usize,
            FeatureSet::Chess704(kings) => 704 * kings.count as usize,
            FeatureSet::HalfKav2HmThreats => threats::INPUTS + halfka_v2_hm::INPUTS,
            FeatureSet::Sf19 => PIECES_19 + halfka_v2_hm::INPUTS,
            FeatureSet::Sf19Lite => psq768_hm::INPUTS,
            FeatureSet::Chess768Threats(kings, set) => set.inputs() + 768 * kings.count as usize,
            FeatureSet::Chess768PairsThreats(kings) => PAIRS_FIRST_PIECES + 768 * kings.count as usize,
        }
    }

    /// The feature of `piece` on `sq` seen by `perspective`, whose king is on `king`
    /// (`None`: the piece is not a feature, as kings in HalfKP).
    #[inline(always)]
    pub fn index(&self, perspective: Color, king: Square, sq: Square, piece: Piece) -> Option<usize> {
        match self {
            FeatureSet::HalfKav2Hm => Some(halfka_v2_hm::index(perspective, king, sq, piece)),
            FeatureSet::HalfKp => halfkp::index(perspective, king, sq, piece),
            FeatureSet::Chess768(kings) => Some(chess768::index(kings, perspective, king, sq, piece)),
            FeatureSet::Chess704(kings) => Some(chess704::index(kings, perspective, king, sq, piece)),
            FeatureSet::HalfKav2HmThreats => Some(threats::INPUTS + halfka_v2_hm::index(perspective, king, sq, piece)),
            FeatureSet::Sf19 => Some(PIECES_19 + halfka_v2_hm::index(perspective, king, sq, piece)),
            FeatureSet::Sf19Lite => Some(psq768_hm::index(perspective, king, sq, piece)),
            FeatureSet::Chess768Threats(kings, set) => {
                Some(set.inputs() + chess768::index(kings, perspective, king, sq, piece))
            }
            FeatureSet::Chess768PairsThreats(kings) => {
                Some(PAIRS_FIRST_PIECES + chess768::index(kings, perspective, king, sq, piece))
            }
        }
    }

    /// Whether `perspective`'s king moving from `from` to `to` changes every feature, so the
    /// accumulator must be refreshed rather than updated.
    #[inline]
    pub fn needs_refresh(&self, perspective: Color, from: Square, to: Square) -> bool {
        match self {
            // Threat nets: one accumulator holds both parts, and the piece part changes whenever
            // the king moves (the threat part only when it changes board half).
            FeatureSet::HalfKav2Hm | FeatureSet::HalfKp | FeatureSet::HalfKav2HmThreats | FeatureSet::Sf19 => {
                from != to
            }
            FeatureSet::Sf19Lite => psq768_hm::changes_orientation(from, to),
            FeatureSet::Chess768(kings)
            | FeatureSet::Chess704(kings)
            | FeatureSet::Chess768Threats(kings, _)
            | FeatureSet::Chess768PairsThreats(kings) => {
                chess768::orientation(kings, perspective, from) != chess768::orientation(kings, perspective, to)
            }
        }
    }

    /// The refresh cache's entry (below [`FeatureSet::cache_slots`]) for `perspective`'s king
    /// on `king`. King squares on which every feature is the same share one: a king-bucketed
    /// net's (bucket, mirror), the lite net's mirror. A refresh then finds an entry this game already brought near the
    /// position (a king entering a bucket by another square than last time) instead of
    /// rebuilding one from the biases.
    #[inline]
    pub fn cache_slot(&self, perspective: Color, king: Square) -> usize {
        match self {
            FeatureSet::Chess768(kings)
            | FeatureSet::Chess704(kings)
            | FeatureSet::Chess768Threats(kings, _)
            | FeatureSet::Chess768PairsThreats(kings) => {
                let (bucket, mirror) = chess768::orientation(kings, perspective, king);
                if kings.mirrored {
                    2 * usize::from(bucket) + usize::from(mirror != 0)
                } else {
                    usize::from(bucket)
                }
            }
            FeatureSet::Sf19Lite => usize::from(halfka_v2_hm::mirror(king) != 0),
            FeatureSet::HalfKav2Hm | FeatureSet::HalfKp | FeatureSet::HalfKav2HmThreats | FeatureSet::Sf19 => {
                king.index()
            }
        }
    }

    /// The number of refresh cache entries per perspective ([`FeatureSet::cache_slot`]).
    pub fn cache_slots(&self) -> usize {
        match self {
            FeatureSet::Chess768(kings)
            | FeatureSet::Chess704(kings)
            | FeatureSet::Chess768Threats(kings, _)
            | FeatureSet::Chess768PairsThreats(kings) => usize::from(kings.count) * if kings.mirrored { 2 } else { 1 },
            FeatureSet::Sf19Lite => 2,
            FeatureSet::HalfKav2Hm | FeatureSet::HalfKp | FeatureSet::HalfKav2HmThreats | FeatureSet::Sf19 => 64,
        }
    }

    /// For threat nets: whether the king moving from `from` to `to` changes the board
    /// features' orientation (the board half), so that they must be listed anew.
    pub fn board_needs_refresh(&self, from: Square, to: Square) -> bool {
        psq768_hm::changes_orientation(from, to)
    }

    /// Whether features depend on more than each piece's own square (threat nets): the
    /// accumulator stack then keeps the board of every ply.
    pub const fn has_threats(&self) -> bool {
        self.threat_set().is_some()
    }

    /// The threat features of a threat net.
    #[doc(hidden)]
    pub const fn threat_set(&self) -> Option<threats::ThreatSet> {
        match self {
            FeatureSet::HalfKav2HmThreats => Some(threats::ThreatSet::Sf18),
            FeatureSet::Sf19 => Some(threats::ThreatSet::Sf19),
            FeatureSet::Chess768Threats(_, set) => Some(*set),
            FeatureSet::Chess768PairsThreats(_) => Some(threats::ThreatSet::Sf19),
            _ => None,
        }
    }

    /// Appends every active feature of `pos` for `perspective`.
    pub fn active(&self, pos: &Position, perspective: Color, out: &mut Vec<usize>) {
        let king = pos.king(perspective);
        out.extend(pos.pieces().filter_map(|(sq, piece)| self.index(perspective, king, sq, piece)));
        if self.has_threats() {
            self.board_features(&threats::Board::new(pos), perspective, king.index(), out);
        }
    }

    /// Appends the features that depend on the whole board (threats, pawn pairs) of
    /// `perspective`, whose king is on square `king`; none for the other sets.
    pub fn board_features(&self, board: &threats::Board, perspective: Color, king: usize, out: &mut Vec<usize>) {
        match self {
            FeatureSet::HalfKav2HmThreats => threats::active(threats::ThreatSet::Sf18, board, perspective, king, out),
            FeatureSet::Sf19 => {
                threats::active(threats::ThreatSet::Sf19, board, perspective, king, out);
                pawn_pairs::active(board, perspective, king, PAIRS_19, out);
            }
            FeatureSet::Chess768Threats(_, set) => threats::active(*set, board, perspective, king, out),
            FeatureSet::Chess768PairsThreats(_) => {
                pawn_pairs::active(board, perspective, king, 0, out);
                let from = out.len();
                threats::active(threats::ThreatSet::Sf19, board, perspective, king, out);
                out[from..].iter_mut().for_each(|f| *f += PAIRS_FIRST_THREATS);
            }
            _ => {}
        }
    }

    /// Appends the board features a move changes for `perspective` (king on `king`, in the
    /// same board half before and after): from the move's threat log (after
    /// [`threats::cancel_log`]) and the boards before and after it.
    #[doc(hidden)]
    pub fn board_changes(
        &self,
        log: &[threats::ThreatChange],
        [before, after]: [&threats::Board; 2],
        perspective: Color,
        king: usize,
        added: &mut Vec<usize>,
        removed: &mut Vec<usize>,
    ) {
        match self {
            FeatureSet::HalfKav2HmThreats => {
                threats::changes(threats::ThreatSet::Sf18, log, perspective, king, added, removed)
            }
            FeatureSet::Sf19 => {
                threats::changes(threats::ThreatSet::Sf19, log, perspective, king, added, removed);
                pawn_pairs::changes(before, after, perspective, king, PAIRS_19, added, removed);
            }
            FeatureSet::Chess768Threats(_, set) => threats::changes(*set, log, perspective, king, added, removed),
            FeatureSet::Chess768PairsThreats(_) => {
                let (a, r) = (added.len(), removed.len());
                threats::changes(threats::ThreatSet::Sf19, log, perspective, king, added, removed);
                added[a..].iter_mut().chain(&mut removed[r..]).for_each(|f| *f += PAIRS_FIRST_THREATS);
                pawn_pairs::changes(before, after, perspective, king, 0, added, removed);
            }
            _ => {}
        }
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
            FeatureSet::HalfKav2Hm,
            FeatureSet::HalfKp,
            FeatureSet::HalfKav2HmThreats,
            FeatureSet::Sf19,
            FeatureSet::Sf19Lite,
        ];
        for kings in [KingBuckets::SINGLE, mirrored, wide, plain] {
            all.extend([FeatureSet::Chess768(kings), FeatureSet::Chess704(kings)]);
        }
        all.push(FeatureSet::Chess768Threats(mirrored, threats::ThreatSet::Reckless));
        all.push(FeatureSet::Chess768PairsThreats(mirrored));
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
}
