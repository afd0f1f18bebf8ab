//! Input blocks the engine defines: board features the library doesn't have, computed by the
//! engine's own code through [`InputBlock`], with int8 rows ahead of the piece-square rows as
//! the library's own board blocks (threats, pawn pairs) have.
//!
//! A description names such a block by its size alone (`threats=custom:N` in a multi-layer
//! description, or after a library set: `threats=pawnpairs+sf19+custom:N`, its rows after the
//! library's); the engine binds its implementation: `nnue_net!(…, block = PATH)` for a
//! compiled-in net, [`Net::bind_block`](crate::Net::bind_block) for one read at run time.
//!
//! ```
//! use nnue_format::features::threats::Board;
//! use nnue_format::features::InputBlock;
//! use nnue_format::position::{Color, PieceType, Square};
//!
//! /// One feature per file holding a pawn of the perspective's side: 8 features.
//! #[derive(Debug)]
//! struct PawnFiles;
//!
//! impl InputBlock for PawnFiles {
//!     fn inputs(&self) -> usize {
//!         8
//!     }
//!
//!     fn active(&self, board: &Board, perspective: Color, _king: Square, out: &mut Vec<usize>) {
//!         let pawns = board.bb(perspective, PieceType::Pawn);
//!         out.extend((0..8).filter(|file| pawns & (0x0101_0101_0101_0101 << file) != 0));
//!     }
//! }
//!
//! static PAWN_FILES: PawnFiles = PawnFiles;
//! ```

use std::fmt;

use super::threats::Board;
use crate::position::{Color, Square};

/// An input block of the engine's: which of its `inputs()` features are active on a board, for
/// one perspective, and which a move changes.
///
/// The accumulator stack keeps each ply's board for a net with board blocks and asks the block
/// for the features a move changes ([`InputBlock::changes`]); on a king move it asks only when
/// the king stays in its board half (files a–d or e–h), and lists the block's features anew
/// otherwise. So the features may depend on the perspective's king only through its board
/// half (as a mirrored net's are): a block whose features follow the king's exact square would
/// be updated wrongly on a king move inside the half.
///
/// The indices a block gives must be below [`InputBlock::inputs`]: one that is not panics
/// (it would read another block's rows), in release builds too.
// `RefUnwindSafe`: a description holds the block, and descriptions cross `catch_unwind`.
pub trait InputBlock: Sync + std::panic::RefUnwindSafe + fmt::Debug {
    /// The number of features (int8 rows in the file).
    fn inputs(&self) -> usize;

    /// Appends the active features of `perspective`, whose king is on `king`, on `board`
    /// (indices from 0, in any order).
    fn active(&self, board: &Board, perspective: Color, king: Square, out: &mut Vec<usize>);

    /// Appends the features a move from `before` to `after` adds and removes for
    /// `perspective` (its king on `king` on both boards, or in the same board half). The
    /// default lists both boards' active features and takes their difference; a block that
    /// knows what a move changes can say it faster.
    fn changes(
        &self,
        before: &Board,
        after: &Board,
        perspective: Color,
        king: Square,
        added: &mut Vec<usize>,
        removed: &mut Vec<usize>,
    ) {
        let (mut old, mut new) = (Vec::new(), Vec::new());
        self.active(before, perspective, king, &mut old);
        self.active(after, perspective, king, &mut new);
        old.sort_unstable();
        new.sort_unstable();
        let (mut i, mut j) = (0, 0);
        while i < old.len() || j < new.len() {
            match (old.get(i), new.get(j)) {
                (Some(a), Some(b)) if a == b => (i, j) = (i + 1, j + 1),
                (Some(&a), Some(&b)) if a < b => (removed.push(a), i += 1).1,
                (Some(&a), None) => (removed.push(a), i += 1).1,
                (_, Some(&b)) => (added.push(b), j += 1).1,
                (None, None) => unreachable!("the loop's condition"),
            }
        }
    }
}

/// An engine-defined block in a net's inputs: its size (from the description) and, once bound,
/// the engine's implementation. Two blocks are equal when their sizes are and they are bound
/// to the same implementation (or both unbound).
#[derive(Clone, Copy)]
pub struct CustomBlock {
    inputs: usize,
    block: Option<&'static dyn InputBlock>,
}

impl CustomBlock {
    /// `block`'s features, as many as it says.
    pub fn new(block: &'static dyn InputBlock) -> CustomBlock {
        CustomBlock { inputs: block.inputs(), block: Some(block) }
    }

    /// `block`, as a description of `inputs` features names it (a constant expression: what
    /// `nnue_net!(…, block = PATH)` emits). Every index `block` gives is checked to be below
    /// `inputs`.
    pub const fn described(inputs: usize, block: &'static dyn InputBlock) -> CustomBlock {
        CustomBlock { inputs, block: Some(block) }
    }

    /// A block of `inputs` features whose implementation the engine hasn't given yet: what a
    /// description names.
    pub const fn unbound(inputs: usize) -> CustomBlock {
        CustomBlock { inputs, block: None }
    }

    /// Its size.
    pub const fn inputs(&self) -> usize {
        self.inputs
    }

    /// The engine's implementation, once bound.
    pub fn block(&self) -> Option<&'static dyn InputBlock> {
        self.block
    }

    /// The implementation, which every evaluation needs.
    ///
    /// # Panics
    /// When unbound: the net's loaders refuse such a net, so only a feature set made by hand
    /// from an unbound description gets here.
    fn bound(&self) -> &'static dyn InputBlock {
        self.block.unwrap_or_else(|| {
            panic!(
                "an engine-defined input block of {} features was never given its implementation \
                 (nnue_net!(…, block = PATH), or Net::bind_block)",
                self.inputs
            )
        })
    }

    /// Appends the active features plus `offset`.
    pub(super) fn active(&self, board: &Board, perspective: Color, king: Square, offset: usize, out: &mut Vec<usize>) {
        let start = out.len();
        self.bound().active(board, perspective, king, out);
        self.shift(offset, &mut out[start..]);
    }

    /// Appends the changed features plus `offset`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn changes(
        &self,
        [before, after]: [&Board; 2],
        perspective: Color,
        king: Square,
        offset: usize,
        added: &mut Vec<usize>,
        removed: &mut Vec<usize>,
    ) {
        let (a, r) = (added.len(), removed.len());
        self.bound().changes(before, after, perspective, king, added, removed);
        self.shift(offset, &mut added[a..]);
        self.shift(offset, &mut removed[r..]);
    }

    /// Moves the block's own indices to the net's, checking each: an index past the block
    /// would add another block's row, a wrong value no test of ours could see.
    fn shift(&self, offset: usize, features: &mut [usize]) {
        for f in features {
            assert!(*f < self.inputs, "an engine-defined input block of {} features gave feature {f}", self.inputs);
            *f += offset;
        }
    }
}

impl PartialEq for CustomBlock {
    fn eq(&self, other: &Self) -> bool {
        let same = match (self.block, other.block) {
            (Some(a), Some(b)) => std::ptr::addr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        self.inputs == other.inputs && same
    }
}

impl Eq for CustomBlock {}

impl std::hash::Hash for CustomBlock {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.inputs.hash(state);
    }
}

impl fmt::Debug for CustomBlock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.block {
            Some(block) => write!(f, "CustomBlock({}: {block:?})", self.inputs),
            None => write!(f, "CustomBlock({}, unbound)", self.inputs),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[derive(Debug)]
    struct Listed(Vec<usize>, Vec<usize>);

    impl InputBlock for Listed {
        fn inputs(&self) -> usize {
            10
        }
        fn active(&self, board: &Board, _: Color, _: Square, out: &mut Vec<usize>) {
            let white_to_move_board = board.bb(Color::White, crate::position::PieceType::Pawn) != 0;
            out.extend(if white_to_move_board { &self.0 } else { &self.1 });
        }
    }

    #[test]
    fn the_default_changes_are_the_difference_of_the_active_lists() {
        let before = Board::new(&Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap());
        let after = Board::new(&Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap());
        let block = Listed(vec![7, 1, 4, 9], vec![2, 4, 8, 9, 0]);
        let (mut added, mut removed) = (Vec::new(), Vec::new());
        let king = Square::new(4).unwrap();
        block.changes(&before, &after, Color::White, king, &mut added, &mut removed);
        assert_eq!((added, removed), (vec![0, 2, 8], vec![1, 7]));
    }

    /// Holding a block keeps descriptions, nets and feature sets shareable across threads and
    /// `catch_unwind` (it once made them not `RefUnwindSafe`).
    #[test]
    fn what_holds_a_block_stays_send_sync_and_unwind_safe() {
        fn auto<T: Send + Sync + std::panic::UnwindSafe + std::panic::RefUnwindSafe>() {}
        auto::<CustomBlock>();
        auto::<crate::Architecture>();
        auto::<crate::Net>();
        auto::<super::super::FeatureSet>();
    }

    #[test]
    #[should_panic(expected = "an engine-defined input block of 10 features gave feature 10")]
    fn an_index_past_the_block_panics() {
        let block = CustomBlock::unbound(10);
        block.shift(3, &mut [2, 10]);
    }
}
