//! An engine-defined input block for the tests ([`nnue_runtime::features::InputBlock`]): what
//! an engine of its own would plug in. Pawn files and bishop pairs, 18 features, oriented as
//! the library's board blocks are (the perspective's side first, files mirrored with its king
//! on files e–h).

use nnue_runtime::features::threats::Board;
use nnue_runtime::features::InputBlock;
use nnue_runtime::{Color, PieceType, Square};

/// Per side (the perspective's first), one feature per file holding a pawn of that side
/// (16), then one per side holding two bishops or more (2).
#[derive(Debug)]
pub struct PawnFilesBishopPairs;

/// The block, as `nnue_net!(…, block = nnue_testkit::custom_block::PAWN_FILES_BISHOP_PAIRS)`
/// and `Net::bind_block` take it.
pub static PAWN_FILES_BISHOP_PAIRS: PawnFilesBishopPairs = PawnFilesBishopPairs;

/// The size a description gives it: `threats=custom:18`.
pub const INPUTS: usize = 18;

impl InputBlock for PawnFilesBishopPairs {
    fn inputs(&self) -> usize {
        INPUTS
    }

    fn active(&self, board: &Board, perspective: Color, king: Square, out: &mut Vec<usize>) {
        let mirror = if king.file() >= 4 { 7 } else { 0 };
        for (side, color) in [perspective, !perspective].into_iter().enumerate() {
            let pawns = board.bb(color, PieceType::Pawn);
            for file in 0..8 {
                if pawns & (0x0101_0101_0101_0101 << file) != 0 {
                    out.push(8 * side + (file ^ mirror));
                }
            }
            if board.bb(color, PieceType::Bishop).count_ones() >= 2 {
                out.push(16 + side);
            }
        }
    }
}
