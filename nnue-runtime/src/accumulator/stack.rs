//! The accumulator stack: one entry per ply, computed lazily.

use super::{deltas, Deltas, EngineBoard, RefreshCache};
use crate::dirty::Dirty;
use crate::features::threats::{self, Board, ThreatSet};
use crate::features::FeatureSet;
use crate::network::{Evaluation, Network};
use crate::position::{Color, Position, Square};
use crate::simd::KernelPath;

#[derive(Clone)]
struct Entry<A> {
    acc: A,
    /// Whether `acc` is current, per perspective.
    computed: [bool; 2],
    /// The move that led here from the entry below.
    dirty: Dirty,
    /// Kings after that move.
    kings: [Square; 2],
    /// The board after that move, what refreshes read (no engine position built: that was 8%
    /// of a tree node of Caissa's net). Played by `push` for nets with board blocks (their
    /// deltas depend on the board before each move: sliders uncovered and blocked) and in debug
    /// builds (to check that the position evaluated is the one the pushes lead to); for other
    /// nets only once a refresh asks for it, from the nearest entry below whose board is
    /// current (`boarded`), lazily as the accumulators are (a copy on every push cost 8% of a
    /// tree node of akimbo's net, which never refreshes).
    board: Board,
    boarded: bool,
    /// Threat nets: the threats that move made and broke (both perspectives read the same
    /// log), recorded by `push` while it plays the move on the board.
    log: Vec<threats::ThreatChange>,
}

/// Accumulators along the moves of a search, with the refresh cache behind them.
///
/// `push` a move's [`Dirty`] on make and `pop` on unmake; `pop` is O(1), and so is `push`
/// except for threat nets, where it plays the move on a board and records the move's threat
/// changes (as Stockfish's `do_move` does). An evaluation computes what it needs: from the
/// nearest computed entry below by fused updates, or by a cached refresh when the perspective's king changed every feature (or updates would cost
/// more than a refresh). Every computation runs on the [`KernelPath`] the stack was built with.
///
/// Threat nets (Stockfish 18 and 19) hold one accumulator of both feature sets; the stack
/// keeps each ply's board, and a perspective is updated by the moved pieces' and the changed
/// board features' rows (no cost comparison, as in Stockfish). When its own king moved, the
/// piece sums are swapped for the new king square's from the refresh cache, which keeps them
/// apart (as Stockfish refreshes its piece-square accumulator and updates its threat one);
/// only a king move to the other board half, which reorients every feature, is a refresh.
///
/// A clone is a stack of its own, at the same ply with the same entries and refresh cache
/// (a search thread's copy of another's).
///
/// ```
/// use nnue_runtime::{AccumulatorStack, Color, Dirty, Network, Piece, PieceType, Position, Square};
///
/// nnue_runtime::nnue_net! {
///     path = "nets/default.nnue",
///     arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let sq = |s| Square::parse(s).unwrap();
/// let piece = |color, kind| Piece::new(color, kind);
/// let root = Position::from_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2")?;
/// let mut stack = AccumulatorStack::new(&net::NETWORK, &root);
///
/// // 2. exd5: push the move's change before making it on your board.
/// let pawn = piece(Color::White, PieceType::Pawn);
/// stack.push(Dirty::capture(pawn, sq("e4"), sq("d5"), piece(Color::Black, PieceType::Pawn)));
/// let after = Position::from_fen("rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2")?;
/// assert_eq!(stack.depth(), 1);
/// // Computed by a fused update from the root, equal to a refresh.
/// assert_eq!(stack.evaluate(&net::NETWORK, &after), net::NETWORK.evaluate(&after));
///
/// // Unmake: the root's accumulator is still current.
/// stack.pop();
/// assert_eq!(stack.evaluate(&net::NETWORK, &root), net::NETWORK.evaluate(&root));
/// # Ok(())
/// # }
/// ```
pub struct AccumulatorStack<N: Network> {
    entries: Vec<Entry<N::Accumulator>>,
    top: usize,
    cache: RefreshCache<N::Accumulator>,
    /// The net's threat features, if any: each move's threat changes are logged.
    threats: Option<ThreatSet>,
    /// Whether the net has board blocks (threats, pawn pairs, the engine's own): boards are
    /// kept per ply, and updates list the blocks' changes.
    board_blocks: bool,
    /// The net's feature set, for the board blocks' changes: read in place (a compiled-in
    /// net's constant, 176 bytes, was copied to the stack on every update of a perspective).
    features: FeatureSet,
    /// Scratch feature lists for threat-net updates.
    added: Vec<usize>,
    removed: Vec<usize>,
    /// Scratch: the deltas of the moves an update walks over, top first.
    steps: Vec<Deltas>,
}

// By hand: a derive would ask `N: Clone`, where only the accumulators are cloned.
impl<N: Network> Clone for AccumulatorStack<N> {
    fn clone(&self) -> Self {
        AccumulatorStack {
            entries: self.entries.clone(),
            top: self.top,
            cache: self.cache.clone(),
            threats: self.threats,
            board_blocks: self.board_blocks,
            features: self.features,
            added: self.added.clone(),
            removed: self.removed.clone(),
            steps: self.steps.clone(),
        }
    }
}

impl<N: Network> AccumulatorStack<N> {
    /// A stack whose root is `pos`, on the path measured fastest for `net` ([`Network::best_path`]).
    pub fn new(net: &N, pos: &Position) -> Self {
        Self::with_path(net, pos, net.best_path())
    }

    /// A stack whose root is `pos`, computing on `path`.
    pub fn with_path(net: &N, pos: &Position, path: KernelPath) -> Self {
        let root = Entry {
            acc: net.new_accumulator(),
            computed: [false; 2],
            dirty: Dirty::default(),
            kings: [pos.king(Color::White), pos.king(Color::Black)],
            board: Board::default(),
            boarded: false,
            log: Vec::new(),
        };
        let mut stack = AccumulatorStack {
            entries: vec![root],
            top: 0,
            cache: RefreshCache::with_path(net, path),
            threats: net.feature_set().threat_set(),
            board_blocks: net.feature_set().has_board_blocks(),
            features: net.feature_set(),
            added: Vec::new(),
            removed: Vec::new(),
            steps: Vec::new(),
        };
        stack.reset(net, pos);
        stack
    }

    /// Starts over from `pos` as [`AccumulatorStack::reset`] does, with the refresh cache
    /// cleared ([`RefreshCache::clear`]): a new game as Stockfish starts one, which times
    /// its refreshes the same way.
    pub fn reset_cleared(&mut self, net: &N, pos: &Position) {
        self.cache.clear();
        self.reset(net, pos);
    }

    /// Starts over from `pos` (a new game or a `position` command), keeping the cache.
    ///
    /// # Panics
    /// As [`AccumulatorStack::current`], when `net` is not the stack's network.
    pub fn reset(&mut self, net: &N, pos: &Position) {
        self.cache.check(net, "AccumulatorStack");
        self.top = 0;
        let root = &mut self.entries[0];
        root.kings = [pos.king(Color::White), pos.king(Color::Black)];
        (root.board, root.boarded) = (Board::new(pos), true);
        for perspective in Color::BOTH {
            self.cache.refresh(net, pos, perspective, &mut root.acc);
        }
        root.computed = [true; 2];
    }

    /// Make: records the move; nothing is computed yet. Never panics: a `Dirty` that describes
    /// no move (a piece put on an occupied square, one taken from an empty square) is played as
    /// a board would play it (the occupant is taken off; nothing is taken), and only the
    /// evaluations above it are wrong (debug builds catch them, see
    /// [`AccumulatorStack::current`]).
    pub fn push(&mut self, dirty: Dirty) {
        let kings = dirty.kings_after(self.entries[self.top].kings);
        let boarded = self.keeps_boards();
        self.top += 1;
        if self.top == self.entries.len() {
            let acc = self.entries[0].acc.clone();
            let board = Board::default();
            let log = Vec::new();
            self.entries.push(Entry { acc, computed: [false; 2], dirty, kings, board, boarded, log });
        } else {
            let e = &mut self.entries[self.top];
            (e.computed, e.dirty, e.kings, e.boarded) = ([false; 2], dirty, kings, boarded);
        }
        if boarded {
            let (below, above) = self.entries.split_at_mut(self.top);
            let e = &mut above[0];
            e.board.clone_from(&below[self.top - 1].board);
            if let Some(set) = self.threats {
                // One walk plays the move and records its threat changes (as Stockfish's
                // `do_move` does), for whichever perspective updates from this ply.
                e.log.clear();
                threats::log_move(set, &mut e.board, &dirty, &mut e.log);
                threats::cancel_log(&mut e.log);
            } else {
                e.board.apply(&dirty);
            }
        }
    }

    /// Unmake.
    ///
    /// # Panics
    /// At the root (more pops than pushes since the last reset), in release builds too: the
    /// engine's make/unmake pairing is broken, and every later evaluation would be of another
    /// position.
    pub fn pop(&mut self) {
        assert!(self.top > 0, "pop below the root of the accumulator stack");
        self.top -= 1;
    }

    /// Plies above the root.
    pub fn depth(&self) -> usize {
        self.top
    }

    /// The current accumulator, computed for both perspectives. `board` must be the position
    /// the pushed moves lead to: of it, the stack reads the side to move and the piece count,
    /// and the whole position only in debug builds ([`EngineBoard`]).
    ///
    /// # Panics
    /// When `net` is not the network the stack was built with (or a copy of it), in release
    /// builds too (a pointer comparison): its accumulators hold that network's sums. In debug
    /// builds, when `board` is not the position the pushed moves lead to (a forgotten push or
    /// pop, or a `Dirty` that doesn't describe the move), or when its piece count or side to
    /// move is not its position's: the evaluation would be silently wrong.
    pub fn current<B: EngineBoard + ?Sized>(&mut self, net: &N, board: &B) -> &N::Accumulator {
        self.cache.check(net, "AccumulatorStack");
        let mut pos = Built { board, pos: None };
        debug_assert!(
            self.entries[self.top].board == Board::new(pos.get()),
            "AccumulatorStack: the position evaluated is not the one the {} pushed moves lead to \
             (a push or pop missing, or a Dirty that doesn't match its move)",
            self.top
        );
        // An engine's board answers these itself: they must be its position's.
        debug_assert!(
            (board.piece_count(), board.side_to_move()) == (pos.get().piece_count(), pos.get().side_to_move()),
            "AccumulatorStack: the board's piece count or side to move is not its position's (EngineBoard)"
        );
        for perspective in Color::BOTH {
            self.materialize(net, &mut pos, perspective);
        }
        &self.entries[self.top].acc
    }

    /// Evaluates the current position (`board`, as for [`AccumulatorStack::current`]): a
    /// [`Position`], or the engine's own board ([`EngineBoard`]).
    ///
    /// # Panics
    /// As [`AccumulatorStack::current`].
    pub fn evaluate<B: EngineBoard + ?Sized>(&mut self, net: &N, board: &B) -> Evaluation {
        let path = self.path();
        let acc = self.current(net, board);
        net.forward_on(path, acc, board.side_to_move(), board.piece_count())
    }

    /// Whether each ply's board is kept: for nets with board blocks, and in debug builds for
    /// the check in [`AccumulatorStack::current`].
    fn keeps_boards(&self) -> bool {
        self.board_blocks || cfg!(debug_assertions)
    }

    /// The path every computation of this stack runs on.
    pub fn path(&self) -> KernelPath {
        self.cache.path()
    }

    fn materialize<B: EngineBoard + ?Sized>(&mut self, net: &N, pos: &mut Built<'_, B>, perspective: Color) {
        let p = perspective.index();
        if self.entries[self.top].computed[p] {
            return;
        }
        let features = net.feature_set();
        // Above the root: the root is always computed.
        let t = self.top;
        // Most of a search's updates: one move from a computed entry (no walk, no cost to
        // weigh: a move's few rows against a refresh's).
        if !self.board_blocks && self.entries[t - 1].computed[p] {
            let path = self.path();
            let (below, above) = self.entries.split_at_mut(t);
            let (src, dst) = (&below[t - 1], &mut above[0]);
            if let Some(d) = deltas(features, perspective, src.kings[p], dst.kings[p], &dst.dirty) {
                net.update_on(path, &src.acc, &mut dst.acc, perspective, d.added(), d.removed());
                dst.computed[p] = true;
                return;
            }
        }
        // Walk down to the nearest computed entry, unless a move on the way needs a refresh;
        // each step's deltas are kept for the way back up (top first). A threat net's king
        // move within its board half is a step too (`Deltas::KING_MOVE`).
        self.steps.clear();
        let (mut i, mut rows) = (self.top, 0);
        let start = loop {
            let (below, e) = (&self.entries[i - 1], &self.entries[i]);
            match deltas(features, perspective, below.kings[p], e.kings[p], &e.dirty) {
                Some(d) => {
                    rows += d.added().len() + d.removed().len();
                    self.steps.push(d);
                }
                None if self.board_blocks && !features.board_needs_refresh(below.kings[p], e.kings[p]) => {
                    self.steps.push(Deltas::KING_MOVE);
                }
                None => break None,
            }
            i -= 1;
            if self.entries[i].computed[p] {
                break Some(i);
            }
        };
        let path = self.path();
        match start {
            // Nets with board blocks always update (their piece rows alone don't tell the cost).
            Some(s) if self.board_blocks => self.update_threats(net, pos, perspective, s),
            // A refresh from the cache costs about one row per changed piece, and a plain
            // one a row per piece: past that, updating is the dearer way.
            Some(s) if rows <= pos.board.piece_count() => {
                for (j, d) in (s + 1..=self.top).zip(self.steps.iter().rev()) {
                    let (below, above) = self.entries.split_at_mut(j);
                    let (src, dst) = (&below[j - 1], &mut above[0]);
                    net.update_on(path, &src.acc, &mut dst.acc, perspective, d.added(), d.removed());
                    dst.computed[p] = true;
                }
            }
            _ => {
                // A refresh reads the board the stack keeps, not the engine's position, unless
                // the pushes made a board that isn't one.
                self.bring_board();
                let Entry { acc, board, computed, .. } = &mut self.entries[self.top];
                if self.cache.refresh_board(net, board, perspective, acc).is_none() {
                    self.cache.refresh(net, pos.get(), perspective, acc);
                }
                computed[p] = true;
            }
        }
    }

    /// Brings the top entry's board to the one the pushes lead to, played up from the nearest
    /// entry whose board is current (the root's always is); each entry on the way keeps its
    /// own, for the siblings above it.
    fn bring_board(&mut self) {
        let mut i = self.top;
        while !self.entries[i].boarded {
            i -= 1;
        }
        for j in i + 1..=self.top {
            let (below, above) = self.entries.split_at_mut(j);
            let e = &mut above[0];
            e.board.clone_from(&below[j - 1].board);
            e.board.apply(&e.dirty);
            e.boarded = true;
        }
    }

    /// A threat net's way up from the computed entry `s`: each step's piece rows and the board
    /// features it changed; on its king's moves within the board half, no piece rows but the
    /// piece sums swapped through the cache ([`RefreshCache::rebase`]).
    #[inline(never)]
    fn update_threats<B: EngineBoard + ?Sized>(
        &mut self,
        net: &N,
        pos: &mut Built<'_, B>,
        perspective: Color,
        s: usize,
    ) {
        let (p, path, features) = (perspective.index(), self.path(), &self.features);
        for (j, d) in (s + 1..=self.top).zip(self.steps.iter().rev()) {
            let (below, above) = self.entries.split_at_mut(j);
            let (src, dst) = (&below[j - 1], &mut above[0]);
            let (added, removed) = (&mut self.added, &mut self.removed);
            added.clear();
            removed.clear();
            // Element by element: at most two each, where `extend_from_slice` called `memcpy`.
            added.extend(d.added().iter().copied());
            removed.extend(d.removed().iter().copied());
            let king = dst.kings[p].index();
            features.board_changes(&dst.log, [&src.board, &dst.board], perspective, king, added, removed);
            let mut rebase = None;
            if d.king_move {
                rebase = self.cache.plan_rebase(net, perspective, [&src.board, &dst.board], added, removed);
                if rebase.is_none() {
                    // The pushes don't describe moves: refresh from the position instead.
                    self.cache.refresh(net, pos.get(), perspective, &mut self.entries[self.top].acc);
                    self.entries[self.top].computed[p] = true;
                    return;
                }
            }
            net.update_on(path, &src.acc, &mut dst.acc, perspective, added, removed);
            if let Some(rebase) = rebase {
                self.cache.rebase(net, &mut dst.acc, perspective, rebase);
            }
            dst.computed[p] = true;
        }
    }
}

/// The engine's board and, once a refresh (or a debug build's check) has asked for it, its
/// position: built at most once per evaluation.
struct Built<'a, B: ?Sized> {
    board: &'a B,
    pos: Option<Position>,
}

impl<B: EngineBoard + ?Sized> Built<'_, B> {
    fn get(&mut self) -> &Position {
        self.pos.get_or_insert_with(|| self.board.position())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Piece, PieceType};
    use crate::reference::Evaluator;
    use nnue_format::{synth, Encoding};

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "not the one the 1 pushed moves lead to")]
    fn a_position_that_does_not_match_the_pushes_is_caught_in_debug_builds() {
        let net = synth::sfnn(64, 1, Encoding::Raw);
        let eval = Evaluator::new(&net);
        let start = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let mut stack = AccumulatorStack::new(&eval, &start);
        stack.push(Dirty::quiet(Piece::new(Color::White, PieceType::Pawn), sq("e2"), sq("e4")));
        // The pawn went to e3 on the engine's board: not what was pushed.
        let wrong = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        stack.evaluate(&eval, &wrong);
    }

    /// An engine's board given to the stack: its position is built only in debug builds, once
    /// an evaluation for their check (updates read the pushes; refreshes the board the stack
    /// keeps), and the values are the position's.
    #[test]
    fn an_engine_board_is_read_whole_only_in_debug_builds() {
        use std::cell::Cell;
        struct Counting(Position, Cell<usize>);
        impl EngineBoard for Counting {
            fn side_to_move(&self) -> Color {
                self.0.side_to_move()
            }
            fn piece_count(&self) -> usize {
                self.0.piece_count()
            }
            fn position(&self) -> Position {
                self.1.set(self.1.get() + 1);
                self.0.clone()
            }
        }
        let net = synth::sfnn(64, 1, Encoding::Raw);
        let eval = Evaluator::new(&net);
        let fen = |f: &str| Position::from_fen(f).unwrap();
        let start = fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        let mut stack = AccumulatorStack::new(&eval, &start);
        let debug = usize::from(cfg!(debug_assertions));
        // A pawn move updates both perspectives; a king move refreshes its own (HalfKAv2_hm),
        // and a second evaluation of the same ply computes nothing.
        let pawn = Dirty::quiet(Piece::new(Color::White, PieceType::Pawn), sq("e2"), sq("e4"));
        let king = Dirty::quiet(Piece::new(Color::Black, PieceType::King), sq("e8"), sq("d7"));
        let plies = [(pawn, fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1")), (king, fen("8/3k4/8/8/4P3/8/8/4K3 w - - 0 1"))];
        for (dirty, after) in plies {
            stack.push(dirty);
            for _ in 0..2 {
                // As a trait object too (a non-generic wrapper's argument).
                let board = Counting(after.clone(), Cell::new(0));
                let dyn_board: &dyn EngineBoard = &board;
                assert_eq!(stack.evaluate(&eval, dyn_board), Network::evaluate(&eval, &after));
                assert_eq!(board.1.get(), debug);
            }
        }
        // A threat net refreshes from the board the stack keeps: a king move to the other
        // board half (every feature reoriented) builds no position either.
        let net = synth::sf19(64, nnue_format::Sf19Inputs::Full, 3, Encoding::Raw);
        let eval = Evaluator::new(&net);
        let mut stack = AccumulatorStack::new(&eval, &start);
        let king = Dirty::quiet(Piece::new(Color::White, PieceType::King), sq("e1"), sq("d1"));
        let after = fen("4k3/8/8/8/8/8/4P3/3K4 b - - 0 1");
        stack.push(king);
        let board = Counting(after.clone(), Cell::new(0));
        assert_eq!(stack.evaluate(&eval, &board), Network::evaluate(&eval, &after));
        assert_eq!(board.1.get(), debug);
    }

    /// An engine board whose piece count is not its position's is caught in debug builds
    /// (the count picks the layer stack: the value would be another's).
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "piece count or side to move is not its position's")]
    fn an_engine_board_that_miscounts_is_caught_in_debug_builds() {
        struct Miscounting(Position);
        impl EngineBoard for Miscounting {
            fn side_to_move(&self) -> Color {
                self.0.side_to_move()
            }
            fn piece_count(&self) -> usize {
                self.0.piece_count() + 1
            }
            fn position(&self) -> Position {
                self.0.clone()
            }
        }
        let net = synth::sfnn(64, 1, Encoding::Raw);
        let eval = Evaluator::new(&net);
        let start = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let mut stack = AccumulatorStack::new(&eval, &start);
        stack.evaluate(&eval, &Miscounting(start));
    }

    /// A stack built with one network and evaluated with another of the same type once
    /// returned that mix's values silently (-1541 where a refresh gave -4066).
    #[test]
    fn a_stack_evaluated_with_another_network_panics_and_a_copy_is_the_same_network() {
        use crate::loaded::FastWeights;
        use crate::nets::tests::panic_message;
        let start = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let (net_a, net_b) = (synth::sfnn(64, 1, Encoding::Raw), synth::sfnn(64, 2, Encoding::Raw));
        let (wa, wb) = (FastWeights::new(&net_a).unwrap(), FastWeights::new(&net_b).unwrap());
        let (a, b) = (wa.sfnn::<64, 32, 16>().unwrap(), wb.sfnn::<64, 32, 16>().unwrap());
        let want = "AccumulatorStack: used with another network than the one it was built with (it holds that \
                    network's sums); build one per network";
        for path in KernelPath::all() {
            let mut stack = AccumulatorStack::with_path(&a, &start, path);
            let copy = a.clone(); // the same weights
            assert_eq!(stack.evaluate(&copy, &start), Network::evaluate(&a, &start));
            assert_eq!(panic_message(|| _ = stack.evaluate(&b, &start)).as_deref(), Some(want), "{path}");
            assert_eq!(panic_message(|| stack.reset(&b, &start)).as_deref(), Some(want), "{path}");
        }
        // The reference evaluators of two nets.
        let (ea, eb) = (Evaluator::new(&net_a), Evaluator::new(&net_b));
        let mut stack = AccumulatorStack::new(&ea, &start);
        assert_eq!(panic_message(|| _ = stack.current(&eb, &start)).as_deref(), Some(want));
        assert_eq!(stack.evaluate(&ea.clone(), &start), Network::evaluate(&ea, &start));
    }

    /// A threat net's king move within its board half swaps piece sums through the cache, from
    /// the boards the pushes lead to. When those aren't positions (a push that adds a second
    /// king), that perspective is refreshed from the position the stack is given instead of
    /// being built from a board the cache can't read; so is a net's without board blocks,
    /// whose refreshes read the board the pushes lead to too. (The other perspective follows
    /// the pushes and is as wrong as they are: only debug builds check them, see above.)
    #[test]
    #[cfg(not(debug_assertions))]
    fn a_king_move_whose_boards_are_not_positions_refreshes() {
        use crate::loaded::FastWeights;
        let net = synth::threats(64, 5, Encoding::Raw);
        let weights = FastWeights::new(&net).unwrap();
        let fast = weights.sfnn_threats::<64, 32, 16>().unwrap();
        let start = Position::from_fen("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1").unwrap();
        let after = Position::from_fen("4k3/8/8/8/8/8/3PK3/8 b - - 0 1").unwrap();
        let king = Piece::new(Color::White, PieceType::King);
        for path in KernelPath::all() {
            let mut fresh = fast.new_accumulator();
            fast.refresh_on(path, &after, Color::White, &mut fresh);
            // The right move: the whole evaluation is a refresh's.
            let mut stack = AccumulatorStack::with_path(&fast, &start, path);
            stack.push(Dirty::quiet(king, sq("e1"), sq("e2")));
            assert_eq!(stack.evaluate(&fast, &after), fast.evaluate_on(path, &after), "{path}");
            // One that keeps the old king: White's half (its king "moved") is still a refresh's.
            let mut stack = AccumulatorStack::with_path(&fast, &start, path);
            stack.push(Dirty::default().add(sq("e2"), king));
            let acc = stack.current(&fast, &after);
            assert_eq!((acc.values[0], acc.psqt[0]), (fresh.values[0], fresh.psqt[0]), "{path}");
        }
        // A net without board blocks refreshes from the board the stack keeps, and from the
        // position given when that board has two white kings.
        let net = synth::sfnn(64, 6, Encoding::Raw);
        let weights = FastWeights::new(&net).unwrap();
        let fast = weights.sfnn::<64, 32, 16>().unwrap();
        for path in KernelPath::all() {
            let mut fresh = fast.new_accumulator();
            fast.refresh_on(path, &after, Color::White, &mut fresh);
            let mut stack = AccumulatorStack::with_path(&fast, &start, path);
            stack.push(Dirty::default().add(sq("e2"), king));
            let acc = stack.current(&fast, &after);
            assert_eq!((acc.values[0], acc.psqt[0]), (fresh.values[0], fresh.psqt[0]), "{path}");
        }
    }

    /// `Dirty` values that describe no move (a piece put on an occupied square without taking
    /// the occupant off, a piece taken from an empty square or of another kind, two pieces on
    /// one square, a second king, no king), pushed on every feature set: `push` plays them as
    /// the board would (an added piece replaces the occupant; a removal takes what is there),
    /// never panics, and popping back leaves the stack as it was (a 33rd piece and a king move:
    /// a refresh of a board that is no position). A threat net once panicked
    /// in release builds on the first ("an occupied square").
    #[test]
    fn malformed_dirty_values_never_panic_on_push() {
        use nnue_format::{Architecture, Sf19Inputs};
        let layered = |text: &str| match text.parse() {
            Ok(Architecture::Layered(a)) => synth::layered(&a, 5),
            _ => unreachable!("a multi-layer description"),
        };
        let chess768 = |text: &str| match text.parse() {
            Ok(Architecture::Chess768(a)) => synth::chess768(&a, 5),
            _ => unreachable!("a (768 -> N)x2 description"),
        };
        let nets = [
            synth::sfnn(64, 1, Encoding::Raw),
            synth::threats(64, 2, Encoding::Raw),
            synth::sf19(64, Sf19Inputs::Full, 3, Encoding::Raw),
            synth::sf19(64, Sf19Inputs::Lite, 3, Encoding::Raw),
            synth::halfkp(64, 4),
            chess768("(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400"),
            layered(
                "(704 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, file=cbnf",
            ),
            layered(&nnue_format::known::RECKLESS.replace("-> 768)x2", "-> 64)x2")),
            layered(&nnue_format::known::PLENTYCHESS.replace("-> 1024)x2", "-> 64)x2")),
        ];
        let piece = |c, k| Piece::new(c, k);
        let (wp, wn, wk) = (
            piece(Color::White, PieceType::Pawn),
            piece(Color::White, PieceType::Knight),
            piece(Color::White, PieceType::King),
        );
        let (bq, bk) = (piece(Color::Black, PieceType::Queen), piece(Color::Black, PieceType::King));
        let malformed = [
            Dirty::default().add(sq("e2"), wn),                         // on an occupied square
            Dirty::default().add(sq("e8"), wn),                         // on the enemy king
            Dirty::default().add(sq("d1"), wn).add(sq("d1"), bq),       // twice on one square
            Dirty::default().add(sq("e2"), wp),                         // the same piece again
            Dirty::default().remove(sq("e4"), wp),                      // from an empty square
            Dirty::default().remove(sq("e2"), bq),                      // another piece
            Dirty::default().remove(sq("e2"), wp).remove(sq("e2"), wp), // twice
            Dirty::default().remove(sq("e1"), wk),                      // no king
            Dirty::default().add(sq("e4"), wk),                         // a second king
            Dirty::default().remove(sq("e8"), bk).add(sq("a1"), bk),    // a king onto a rook
            Dirty::quiet(wn, sq("b1"), sq("d2")),                       // onto its own pawn
            Dirty::capture(wn, sq("g1"), sq("f3"), bq),                 // capturing nothing
            Dirty::default().add(sq("e4"), wn),                         // a 33rd piece
            Dirty::quiet(bk, sq("e8"), sq("e5")),                       // a king move (a refresh)
        ];
        let start = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        for net in &nets {
            let eval = Evaluator::new(net);
            let mut stack = AccumulatorStack::new(&eval, &start);
            let want = Network::evaluate(&eval, &start);
            for (i, &first) in malformed.iter().enumerate() {
                // Each one at the root and over each other one.
                for &second in &malformed {
                    stack.push(first);
                    stack.push(second);
                    stack.push(Dirty::quiet(wn, sq("g1"), sq("f3")));
                    // Evaluated (release builds: debug builds check the position, see above).
                    if !cfg!(debug_assertions) {
                        stack.evaluate(&eval, &start);
                    }
                    stack.pop();
                    stack.pop();
                    stack.pop();
                }
                assert_eq!(stack.depth(), 0);
                assert_eq!(stack.evaluate(&eval, &start), want, "{}: after #{i}", net.arch());
            }
        }
    }

    /// Pushes that put more than 32 pieces on the board (no move does), then a king move that
    /// refreshes: the refresh can't read the board the stack keeps (the cache's
    /// difference lists hold 32, and no position has more), so it reads the position given,
    /// and nothing panics. Release builds (debug builds check the position against the pushes).
    #[test]
    #[cfg(not(debug_assertions))]
    fn more_than_32_pushed_pieces_refresh_from_the_position_given() {
        let start = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let after = Position::from_fen("4k3/8/8/8/8/8/8/3K4 b - - 1 1").unwrap();
        let knight = Piece::new(Color::White, PieceType::Knight);
        let king = Piece::new(Color::White, PieceType::King);
        for net in [synth::sfnn(64, 7, Encoding::Raw), synth::threats(64, 8, Encoding::Raw)] {
            let eval = Evaluator::new(&net);
            // Two refreshes of the king's new square: the first, read from the position given,
            // leaves its entry valid and near the pushes' board, where the second's difference
            // (40 knights) overflowed the cache's lists.
            let mut stack = AccumulatorStack::new(&eval, &start);
            for i in 16..56 {
                stack.push(Dirty::default().add(Square::new(i).unwrap(), knight));
            }
            for _ in 0..2 {
                stack.push(Dirty::quiet(king, sq("e1"), sq("d1")));
                let acc = stack.current(&eval, &after).clone();
                let mut fresh = eval.new_accumulator();
                eval.refresh_on(KernelPath::SCALAR, &after, Color::White, &mut fresh);
                assert_eq!((&acc.values[0], &acc.psqt[0]), (&fresh.values[0], &fresh.psqt[0]), "{}", net.arch());
                stack.pop();
            }
        }
    }

    /// `pop` at the root panics, as its docs say (it once did so with no `# Panics` section).
    #[test]
    #[should_panic(expected = "pop below the root of the accumulator stack")]
    fn a_pop_at_the_root_panics() {
        let net = synth::sfnn(64, 1, Encoding::Raw);
        let eval = Evaluator::new(&net);
        let start = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let mut stack = AccumulatorStack::new(&eval, &start);
        stack.push(Dirty::quiet(Piece::new(Color::White, PieceType::Pawn), sq("e2"), sq("e4")));
        stack.pop();
        stack.pop();
    }

    #[test]
    fn the_matching_position_evaluates_as_a_refresh() {
        let net = synth::sfnn(64, 1, Encoding::Raw);
        let eval = Evaluator::new(&net);
        let start = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let mut stack = AccumulatorStack::new(&eval, &start);
        stack.push(Dirty::quiet(Piece::new(Color::White, PieceType::Pawn), sq("e2"), sq("e4")));
        let after = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(stack.evaluate(&eval, &after), Network::evaluate(&eval, &after));
    }

    /// A clone goes on from the same ply with entries, boards, threat logs and a refresh cache
    /// of its own: each stack's moves evaluate as refreshes do, whatever the other one plays.
    #[test]
    fn a_clone_is_a_stack_of_its_own() {
        let net = synth::sf19(64, nnue_format::Sf19Inputs::Full, 3, Encoding::Raw);
        let eval = Evaluator::new(&net);
        let fen = |f| Position::from_fen(f).unwrap();
        let (white, black) = (|k| Piece::new(Color::White, k), |k| Piece::new(Color::Black, k));
        let mut a = AccumulatorStack::new(&eval, &fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
        a.push(Dirty::quiet(white(PieceType::Pawn), sq("e2"), sq("e4")));
        let e4 = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(a.evaluate(&eval, &e4), Network::evaluate(&eval, &e4));
        let mut b = a.clone();
        a.push(Dirty::quiet(black(PieceType::Pawn), sq("e7"), sq("e5")));
        b.push(Dirty::quiet(black(PieceType::Knight), sq("g8"), sq("f6")));
        let e5 = fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        let nf6 = fen("rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
        assert_eq!(a.evaluate(&eval, &e5), Network::evaluate(&eval, &e5));
        assert_eq!(b.evaluate(&eval, &nf6), Network::evaluate(&eval, &nf6));
        // A king move: the clone's refresh cache, not the other's.
        b.push(Dirty::quiet(white(PieceType::King), sq("e1"), sq("e2")));
        let ke2 = fen("rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPPKPPP/RNBQ1BNR b kq - 2 2");
        assert_eq!(b.evaluate(&eval, &ke2), Network::evaluate(&eval, &ke2));
        for stack in [&mut a, &mut b] {
            stack.pop();
        }
        b.pop();
        assert_eq!((a.depth(), b.depth()), (1, 1));
        assert_eq!(a.evaluate(&eval, &e4), b.evaluate(&eval, &e4));
    }
}
