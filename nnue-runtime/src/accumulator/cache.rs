//! The refresh cache ("Finny table"): a refresh becomes an update by the difference between
//! the position and the placement a cached accumulator of the same king square reflects, or a
//! rebuild from the biases when that difference has more rows than the position itself (an
//! entry left by another game or a distant line; Stockfish always takes the difference).
//! For threat nets the entries hold the piece features' sums alone (Stockfish's piece-square
//! accumulator): a refresh adds the position's board features (threats, pawn pairs) on top, and
//! a king move within its board half swaps one king square's piece sums for another's
//! ([`RefreshCache::rebase`]) while the board features update as for any move.

use crate::features::threats::Board;
use crate::features::FeatureSet;
use crate::network::{Network, WeightsId};
use crate::position::{Color, Piece, PieceType, Position, Square};
use crate::simd::KernelPath;

/// Where the pieces stand: bitboards of each (color, piece type), white pawn to black king.
type Placement = [u64; 12];

/// Squares whose piece differs between two placements: the rows an update from one to the
/// other takes (a moved piece counts twice, once off and once on).
fn changed_squares(old: &Placement, new: &Placement) -> usize {
    old.iter().zip(new).map(|(a, b)| (a ^ b).count_ones() as usize).sum()
}

/// Calls `change(feature, added)` for each feature of `perspective` (king on `king`) that going
/// from placement `old` to `new` adds (`true`) or removes (`false`).
#[inline(always)]
fn placement_changes(
    features: FeatureSet,
    perspective: Color,
    king: Square,
    old: &Placement,
    new: &Placement,
    mut change: impl FnMut(usize, bool),
) {
    for (i, (&old, &new)) in old.iter().zip(new).enumerate() {
        // Most of the twelve are unchanged (a king move's entry is a few moves away).
        if old == new {
            continue;
        }
        let piece = Piece::new(Color::BOTH[i / 6], PieceType::ALL[i % 6]);
        for (mut bits, added) in [(new & !old, true), (old & !new, false)] {
            while bits != 0 {
                let sq = Square::new(bits.trailing_zeros() as u8).expect("a bit of a u64");
                bits &= bits - 1;
                if let Some(f) = features.index(perspective, king, sq, piece) {
                    change(f, added);
                }
            }
        }
    }
}

#[derive(Clone)]
struct Entry<A> {
    /// The refreshed accumulator; for threat nets the piece features' sums alone.
    acc: A,
    placement: Placement,
    valid: bool,
}

/// Per perspective and king square (or the squares that share its features:
/// [`FeatureSet::cache_slot`]), the last accumulator refreshed there. Runs on the
/// [`KernelPath`] it was built with, for the network it was built with. A clone is a cache of its
/// own with the same entries (one per search thread, say).
#[derive(Clone)]
pub struct RefreshCache<A> {
    entries: Vec<Entry<A>>,
    /// Entries per perspective.
    slots: usize,
    path: KernelPath,
    /// The network's weights: its entries hold that network's sums.
    weights: WeightsId,
    /// Scratch for threat nets: the position's board features.
    threats: Vec<usize>,
}

impl<A: Clone> RefreshCache<A> {
    /// An empty cache for `net`, on the path measured fastest for it ([`Network::best_path`]).
    pub fn new<N: Network<Accumulator = A>>(net: &N) -> Self {
        Self::with_path(net, net.best_path())
    }

    /// An empty cache for `net`, computing on `path`.
    pub fn with_path<N: Network<Accumulator = A>>(net: &N, path: KernelPath) -> Self {
        let slots = net.feature_set().cache_slots();
        let entries =
            (0..2 * slots).map(|_| Entry { acc: net.new_accumulator(), placement: [0; 12], valid: false }).collect();
        let weights = net.weights_id();
        RefreshCache { entries, slots, path, weights, threats: Vec::new() }
    }

    /// Panics unless `net` is the network the cache was built with (a pointer comparison).
    #[inline(always)]
    #[track_caller]
    pub(super) fn check<N: Network<Accumulator = A>>(&self, net: &N, what: &str) {
        #[cold]
        #[inline(never)]
        #[track_caller]
        fn fail(what: &str) -> ! {
            panic!(
                "{what}: used with another network than the one it was built with (it holds that network's \
                 sums); build one per network"
            )
        }
        if net.weights_id() != self.weights {
            fail(what)
        }
    }

    /// Forgets every entry (the next refresh of each king square rebuilds it), as Stockfish
    /// clears its cache for a new game; evaluations are the same either way.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| e.valid = false);
    }

    /// The path the cache computes on.
    pub fn path(&self) -> KernelPath {
        self.path
    }

    /// Sets `perspective`'s half of `target` to what a refresh from `pos` gives.
    ///
    /// # Panics
    /// When `net` is not the network the cache was built with (or a copy of it), in release
    /// builds too: the cached sums are that network's.
    pub fn refresh<N: Network<Accumulator = A>>(
        &mut self,
        net: &N,
        pos: &Position,
        perspective: Color,
        target: &mut A,
    ) {
        self.check(net, "RefreshCache");
        self.refresh_from(net, &Board::new(pos), Some(pos), perspective, target)
            .expect("a position's board has its kings");
    }

    /// [`RefreshCache::refresh`] from a board of the position (the accumulator stack keeps
    /// one): no [`Position`] is built unless the entry is rebuilt. `None` when the board is not
    /// a position (a king missing or doubled, more than 32 pieces: pushes that don't describe
    /// moves), `target` unchanged.
    pub(super) fn refresh_board<N: Network<Accumulator = A>>(
        &mut self,
        net: &N,
        board: &Board,
        perspective: Color,
        target: &mut A,
    ) -> Option<()> {
        self.check(net, "RefreshCache");
        self.refresh_from(net, board, None, perspective, target)
    }

    /// The entry of `perspective`'s king square brought to `board`'s piece sums (`pos`, if
    /// given, is that board), plus the board features (threats, pawn pairs: none for most
    /// nets), into `target`. The entry keeps the piece features' sums alone, as Stockfish's
    /// piece-square accumulator.
    fn refresh_from<N: Network<Accumulator = A>>(
        &mut self,
        net: &N,
        board: &Board,
        pos: Option<&Position>,
        perspective: Color,
        target: &mut A,
    ) -> Option<()> {
        let king = board.king(perspective)?;
        let i = self.pieces_entry(net, board, pos, perspective)?;
        let threats = &mut self.threats;
        threats.clear();
        net.feature_set().board_features(board, perspective, king.index(), threats);
        net.update_on(self.path, &self.entries[i].acc, target, perspective, threats, &[]);
        Some(())
    }

    /// Threat nets, first half of a king move within its board half: `perspective`'s king went
    /// from its square on `before` to its square on `after`, and the step's update (`added`,
    /// `removed`: its board features) is about to run. Brings the entry of the square after to
    /// `after`'s piece sums, and returns the [`Rebase`] that then swaps the sums before for
    /// those ([`RefreshCache::rebase`]). The entry of the square before is not brought to
    /// `before` (its sums are only subtracted): its difference to `before` joins the step's
    /// lists, reversed, unless it was last brought further away than a rebuild costs. `None` when a board is not a position (pushes that
    /// don't describe moves); the lists are then unchanged.
    pub(super) fn plan_rebase<N: Network<Accumulator = A>>(
        &mut self,
        net: &N,
        perspective: Color,
        [before, after]: [&Board; 2],
        added: &mut Vec<usize>,
        removed: &mut Vec<usize>,
    ) -> Option<Rebase> {
        let plus = self.pieces_entry(net, after, None, perspective)?;
        let king = before.king(perspective)?;
        let minus = perspective.index() * self.slots + net.feature_set().cache_slot(perspective, king);
        if minus == plus {
            return None;
        }
        let (entry, now) = (&self.entries[minus], before.placement());
        let pieces: usize = now.iter().map(|b| b.count_ones() as usize).sum();
        if entry.valid && changed_squares(&entry.placement, &now) <= pieces {
            // The entry's sums plus its difference to `before` are `before`'s: subtracting
            // both, the difference's added rows are removed and its removed rows added.
            placement_changes(net.feature_set(), perspective, king, &entry.placement, &now, |f, add| {
                if add {
                    removed.push(f)
                } else {
                    added.push(f)
                }
            });
        } else {
            self.pieces_entry(net, before, None, perspective)?;
        }
        Some(Rebase { plus, minus })
    }

    /// Second half of [`RefreshCache::plan_rebase`], after the step's update: `acc += plus −
    /// minus`, the entries' sums.
    pub(super) fn rebase<N: Network<Accumulator = A>>(
        &self,
        net: &N,
        acc: &mut A,
        perspective: Color,
        Rebase { plus, minus }: Rebase,
    ) {
        net.rebase_on(self.path, acc, perspective, &self.entries[plus].acc, &self.entries[minus].acc);
    }

    /// Brings the entry of `perspective`'s king square on `board` to the piece
    /// sums of `board` (`pos`, if given, is that board) and returns its index; `None` when the
    /// board is not a position.
    fn pieces_entry<N: Network<Accumulator = A>>(
        &mut self,
        net: &N,
        board: &Board,
        pos: Option<&Position>,
        perspective: Color,
    ) -> Option<usize> {
        let king = board.king(perspective)?;
        let i = perspective.index() * self.slots + net.feature_set().cache_slot(perspective, king);
        let source = pos.map_or(Source::Board(board), Source::Position);
        sync_entry(net, self.path, &mut self.entries[i], perspective, king, &board.placement(), source)?;
        Some(i)
    }
}

/// A planned swap of piece sums: the entries added and subtracted ([`RefreshCache::plan_rebase`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Rebase {
    plus: usize,
    minus: usize,
}

/// Where a rebuilt entry takes its position from.
enum Source<'a> {
    Position(&'a Position),
    /// Made into a position only when a rebuild needs one.
    Board(&'a Board),
}

/// Brings `entry` (`perspective`'s, its king on `king`) to the piece sums of the placement
/// `now`, `source`'s. A row per changed square against a row per piece: an entry that is not
/// valid, or was last brought far from this placement (another game, another line), is rebuilt;
/// else it is updated in place by the difference. `None` when a rebuild needs a position and
/// the board isn't one, and for more than 32 pieces (pushes that don't describe moves: no
/// position has them, and the difference's lists hold 32).
fn sync_entry<A, N: Network<Accumulator = A>>(
    net: &N,
    path: KernelPath,
    entry: &mut Entry<A>,
    perspective: Color,
    king: Square,
    now: &Placement,
    source: Source<'_>,
) -> Option<()> {
    let pieces = now.iter().map(|b| b.count_ones() as usize).sum();
    if pieces > 32 {
        return None;
    }
    if !entry.valid || changed_squares(&entry.placement, now) > pieces {
        let owned;
        let pos = match source {
            Source::Position(pos) => pos,
            Source::Board(board) => {
                owned = board.to_position()?;
                &owned
            }
        };
        net.refresh_pieces_on(path, pos, perspective, &mut entry.acc);
        (entry.placement, entry.valid) = (*now, true);
        return Some(());
    }
    // At most 32 pieces change: fixed lists, no scratch vectors.
    let (mut lists, mut counts) = ([[0usize; 32]; 2], [0usize; 2]);
    placement_changes(net.feature_set(), perspective, king, &entry.placement, now, |f, added| {
        let side = usize::from(!added);
        lists[side][counts[side]] = f;
        counts[side] += 1;
    });
    if counts != [0, 0] {
        // Only this perspective's half: the entry's other half is never read.
        net.update_in_place_on(path, &mut entry.acc, perspective, &lists[0][..counts[0]], &lists[1][..counts[1]]);
        entry.placement = *now;
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::Evaluator;
    use nnue_format::{synth, Encoding};

    #[test]
    fn a_cache_used_with_another_network_panics() {
        use crate::nets::tests::panic_message;
        let (net_a, net_b) = (synth::sfnn(64, 3, Encoding::Raw), synth::sfnn(64, 4, Encoding::Raw));
        let (a, b) = (Evaluator::new(&net_a), Evaluator::new(&net_b));
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let mut cache = RefreshCache::new(&a);
        let mut acc = a.new_accumulator();
        cache.refresh(&a, &pos, Color::White, &mut acc);
        let got = panic_message(|| cache.refresh(&b, &pos, Color::Black, &mut acc)).unwrap();
        assert!(got.starts_with("RefreshCache: used with another network"), "{got}");
    }

    /// The same king squares throughout, so every refresh goes through the same two entries:
    /// far from the entry (rebuilt), near it (updated), and far again the other way.
    #[test]
    fn a_king_bucketed_net_refreshes_from_its_buckets_entry_and_a_cleared_cache_rebuilds() {
        // Mirrored, 4 buckets: a1-d1 bucket 0, the rest by rank pairs; e1 mirrors d1.
        let map: Vec<String> = (0..32).map(|s| (if s < 4 { 0 } else { 1 + (s / 4 - 1) / 3 }).to_string()).collect();
        let arch = format!("(768x4hm -> 64)x2 -> 1x8, crelu, qa=255, qb=64, scale=400, kings=[{}]", map.join(","));
        let nnue_format::Architecture::Chess768(arch) = arch.parse().unwrap() else { panic!("{arch}") };
        let net = synth::chess768(&arch, 5);
        let eval = Evaluator::new(&net);
        let mut cache = RefreshCache::new(&eval);
        assert_eq!(cache.entries.len(), 2 * 8);
        // White's king on b1, then c1 (bucket 0 both: the entry is updated, not rebuilt), then
        // g1 (mirrored: another entry), then after clearing.
        let fens =
            ["4k3/8/8/8/8/8/3P4/1K6 w - - 0 1", "4k3/8/8/8/8/8/3P4/2K5 w - - 0 1", "4k3/8/8/8/8/8/3P4/6K1 w - - 0 1"];
        for (n, fen) in fens.into_iter().chain(fens).enumerate() {
            if n == 3 {
                cache.clear();
                assert!(cache.entries.iter().all(|e| !e.valid));
            }
            let pos = Position::from_fen(fen).unwrap();
            let (mut cached, mut fresh) = (eval.new_accumulator(), eval.new_accumulator());
            for p in Color::BOTH {
                cache.refresh(&eval, &pos, p, &mut cached);
                eval.refresh_on(cache.path(), &pos, p, &mut fresh);
            }
            assert_eq!(cached, fresh, "{fen}");
            let white = eval.feature_set().cache_slot(Color::White, pos.king(Color::White));
            assert_eq!(white, [0, 0, 1][n % 3], "{fen}");
            assert_eq!(cache.entries[white].placement, Board::new(&pos).placement(), "{fen}");
        }
    }

    #[test]
    fn a_cached_refresh_equals_a_fresh_one_whether_rebuilt_or_updated() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
            "4k3/8/2n5/8/3P4/8/8/1N2K3 b - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        for net in [synth::sfnn(64, 11, Encoding::Raw), synth::threats(64, 12, Encoding::Raw)] {
            let eval = Evaluator::new(&net);
            let mut cache = RefreshCache::new(&eval);
            let mut before: Option<Placement> = None;
            let (mut rebuilt, mut updated) = (0, 0);
            for fen in fens {
                let pos = Position::from_fen(fen).unwrap();
                let now = Board::new(&pos).placement();
                if let Some(old) = before {
                    if changed_squares(&old, &now) > pos.piece_count() {
                        rebuilt += 1;
                    } else {
                        updated += 1;
                    }
                }
                before = Some(now);
                let (mut cached, mut fresh) = (eval.new_accumulator(), eval.new_accumulator());
                for p in Color::BOTH {
                    cache.refresh(&eval, &pos, p, &mut cached);
                    eval.refresh_on(cache.path(), &pos, p, &mut fresh);
                }
                assert_eq!(cached, fresh, "{fen}");
            }
            // The walk takes both branches (threat nets' entries hold the piece sums alone and
            // follow the same rule).
            assert_eq!((rebuilt, updated), (1, 3));
        }
    }

    /// A king move within its board half on a threat net: the entry of the square after is
    /// brought to the board; that of the square before joins the step's lists when near
    /// (left where it was) and is rebuilt when far; either way the result is a fresh refresh.
    #[test]
    fn a_king_moves_piece_sums_swap_whether_the_entry_before_is_near_or_far() {
        let net = synth::threats(64, 13, Encoding::Raw);
        let eval = Evaluator::new(&net);
        let features = eval.feature_set();
        let white = Color::White;
        let before = Position::from_fen("4k3/8/8/3n4/8/8/3P4/5K2 w - - 0 1").unwrap();
        let after = Position::from_fen("4k3/8/8/3n4/8/8/3P4/6K1 b - - 1 1").unwrap();
        // Last brought to: one knight more (near), or the whole army with the king on f1 (far).
        let near = "4k3/8/8/3n4/8/2N5/3P4/5K2 w - - 0 1";
        let far = "rnbq1bnr/ppppkppp/8/8/8/8/PPPPPPPP/RNBQ1KNR w - - 0 1";
        for (last, is_near) in [(near, true), (far, false)] {
            let last = Position::from_fen(last).unwrap();
            let mut cache = RefreshCache::new(&eval);
            let mut scratch = eval.new_accumulator();
            cache.refresh(&eval, &last, white, &mut scratch);
            let minus = features.cache_slot(white, before.king(white));
            assert_ne!(minus, features.cache_slot(white, after.king(white)));
            let boards = [Board::new(&before), Board::new(&after)];
            let (mut added, mut removed) = (Vec::new(), Vec::new());
            features.board_features(&boards[1], white, after.king(white).index(), &mut added);
            features.board_features(&boards[0], white, before.king(white).index(), &mut removed);
            let board_rows = added.len() + removed.len();
            let (mut src, mut dst, mut fresh) =
                (eval.new_accumulator(), eval.new_accumulator(), eval.new_accumulator());
            eval.refresh_on(cache.path(), &before, white, &mut src);
            let rebase = cache.plan_rebase(&eval, white, [&boards[0], &boards[1]], &mut added, &mut removed).unwrap();
            // Near: the knight's row joins the lists and the entry stays; far: rebuilt.
            assert_eq!(added.len() + removed.len() - board_rows, usize::from(is_near));
            let want = if is_near { Board::new(&last).placement() } else { Board::new(&before).placement() };
            assert_eq!(cache.entries[minus].placement, want);
            eval.update_on(cache.path(), &src, &mut dst, white, &added, &removed);
            cache.rebase(&eval, &mut dst, white, rebase);
            eval.refresh_on(cache.path(), &after, white, &mut fresh);
            let w = white.index();
            assert_eq!((&dst.values[w], &dst.psqt[w]), (&fresh.values[w], &fresh.psqt[w]), "near: {is_near}");
        }
    }
}
