//! Keeping accumulators current as moves are made and unmade.
//!
//! - [`deltas`]: what a move changes on the board ([`Dirty`]) as feature indices for one perspective, or "refresh" when the
//!   perspective's king changed them all.
//! - [`AccumulatorStack`]: make/unmake push and pop cheap records; accumulators are computed
//!   lazily when an evaluation needs them, from the last computed one or by a refresh.
//! - [`EngineBoard`]: what an evaluation reads of the engine's board (the whole position only
//!   in debug builds, to check the pushes).
//! - [`RefreshCache`]: per perspective and king square, an accumulator and the placement it
//!   reflects, so a refresh becomes an update by the difference ("Finny table").

mod board;
mod cache;
mod stack;

pub use board::EngineBoard;
pub use cache::RefreshCache;
pub use stack::AccumulatorStack;

use crate::dirty::Dirty;
use crate::features::FeatureSet;
use crate::position::{Color, Square};

/// Feature indices a move adds and removes for one perspective (a chess move changes at most
/// two of each).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Deltas {
    added: [usize; 2],
    removed: [usize; 2],
    n_added: u8,
    n_removed: u8,
    /// A threat net's king move within its board half: no piece rows, the piece sums swapped
    /// through the refresh cache instead (see [`AccumulatorStack`]).
    king_move: bool,
}

impl Deltas {
    /// The step of a threat net's king move within its board half.
    pub(crate) const KING_MOVE: Deltas =
        Deltas { added: [0; 2], removed: [0; 2], n_added: 0, n_removed: 0, king_move: true };

    /// Features to add (at most two).
    // Inline: called from the stack's generic code, instantiated in the engine's crate.
    #[inline]
    pub fn added(&self) -> &[usize] {
        &self.added[..self.n_added as usize]
    }
    /// Features to remove (at most two).
    #[inline]
    pub fn removed(&self) -> &[usize] {
        &self.removed[..self.n_removed as usize]
    }
}

/// The features `dirty` changes for `perspective`, whose king goes from `king_before` to
/// `king_after`; `None` when the move changes them all (a refresh is needed).
///
/// For threat nets these are the piece features only: a move's threat changes depend on the
/// board before it ([`crate::features::threats`]); [`AccumulatorStack`] adds them.
#[inline(always)]
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
    // Counted in locals and stored once: bumping the struct's byte counts in memory and reading
    // them back wider stalled on store forwarding (3% of a threat net's ply).
    let (mut added, mut removed, mut n_added, mut n_removed) = ([0; 2], [0; 2], 0, 0);
    for (sq, piece) in dirty.removed() {
        if let Some(f) = features.index(perspective, king_after, sq, piece) {
            removed[n_removed] = f;
            n_removed += 1;
        }
    }
    for (sq, piece) in dirty.added() {
        if let Some(f) = features.index(perspective, king_after, sq, piece) {
            added[n_added] = f;
            n_added += 1;
        }
    }
    Some(Deltas { added, removed, n_added: n_added as u8, n_removed: n_removed as u8, king_move: false })
}
