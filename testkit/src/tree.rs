//! The search-shaped workload of `bench --tree` (the bench example and `nnue bench`): from each
//! root, every legal move to a depth, depth first in shakmaty's move order: push, evaluate,
//! recurse, pop. Generated once, before timing, as steps and as UCI moves.
//!
//! The walk makes each move on a small board of its own and evaluates that board (an
//! [`EngineBoard`]: the whole position is built only in debug builds), as an engine evaluates the
//! position it has just made: reading stored positions instead (160 bytes a node, 42 MB for the
//! default walk) missed the cache on every node, a stall no engine has, which moved with code
//! layout (on a Zen 5, a Stockfish 19 node on the avx2 path went from 813–843 to 669–692 ns
//! with no kernel of that path changed; a few percent on avx512vnni).

use nnue_runtime::{Color, Dirty, EngineBoard, Piece, Position, Square};
use shakmaty::{CastlingMode, Chess, Position as _};

/// The roots a tree bench walks from: the first of its positions.
pub const ROOTS: usize = 16;
/// The depth below each root.
pub const DEPTH: usize = 3;

/// One step of a walk: a move pushed (its board change), or the pop that takes it back.
#[derive(Debug, Clone)]
pub enum Step {
    /// Make this change, push it, then evaluate the position it leads to.
    Push(Dirty),
    /// Take the last push back.
    Pop,
}

/// The walk below one root.
#[derive(Debug, Clone)]
pub struct Tree {
    /// The root's FEN as given.
    pub fen: String,
    /// The root, evaluated after a reset of the stack.
    pub root: Position,
    /// The pushes and pops below it.
    pub steps: Vec<Step>,
    /// The same walk as UCI moves, `-` for each pop (what another engine's timing loop replays).
    pub moves: Vec<String>,
}

impl Tree {
    /// The evaluated nodes: the root and one per push.
    pub fn nodes(&self) -> usize {
        1 + self.steps.len() / 2
    }
}

/// The walks below the first [`ROOTS`] FENs of `fens` (a FEN a line, or a TSV whose first
/// column is the FEN; blank lines, `#` comments and a header whose first column is `fen` are
/// skipped), `depth` plies deep; or the first FEN that is not a legal position.
pub fn trees(fens: &str, depth: usize) -> Result<Vec<Tree>, String> {
    fens.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && l.split('\t').next() != Some("fen"))
        .take(ROOTS)
        .map(|line| {
            let fen = line.split('\t').next().unwrap_or(line).to_string();
            let root: Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Standard).ok())
                .ok_or_else(|| format!("{fen}: not a legal position"))?;
            let (mut steps, mut moves) = (Vec::new(), Vec::new());
            walk(&root, depth, &mut steps, &mut moves);
            Ok(Tree { fen, root: crate::chess::position(&root), steps, moves })
        })
        .collect()
}

fn walk(pos: &Chess, depth: usize, steps: &mut Vec<Step>, moves: &mut Vec<String>) {
    if depth == 0 {
        return;
    }
    for mv in pos.legal_moves() {
        let dirty = crate::chess::dirty(pos, &mv);
        moves.push(mv.to_uci(CastlingMode::Standard).to_string());
        let next = pos.clone().play(mv).expect("a legal move");
        steps.push(Step::Push(dirty));
        walk(&next, depth - 1, steps, moves);
        steps.push(Step::Pop);
        moves.push("-".into());
    }
}

/// Runs the walks once through `stack` on `net`: per root a reset and an evaluation, then each
/// step; returns the nodes evaluated.
pub fn run<N: nnue_runtime::Network>(net: &N, stack: &mut nnue_runtime::AccumulatorStack<N>, trees: &[Tree]) -> usize {
    let mut nodes = 0;
    let mut boards = Vec::with_capacity(16);
    for tree in trees {
        stack.reset(net, &tree.root);
        std::hint::black_box(stack.evaluate(net, &tree.root));
        walk_positions(tree, &mut boards, |dirty, board| match dirty {
            Some(dirty) => {
                stack.push(*dirty);
                std::hint::black_box(stack.evaluate(net, board));
            }
            None => stack.pop(),
        });
        nodes += tree.nodes();
    }
    nodes
}

/// Replays `tree`'s steps: `f(Some(change), board after it)` for each push, `f(None, _)` for
/// each pop (with the board it returns to). `boards` is scratch, one per depth.
fn walk_positions(tree: &Tree, boards: &mut Vec<Mailbox>, mut f: impl FnMut(Option<&Dirty>, &Mailbox)) {
    boards.clear();
    boards.push(Mailbox::of(&tree.root));
    for step in &tree.steps {
        match step {
            Step::Push(dirty) => {
                let next = boards[boards.len() - 1].played(dirty);
                f(Some(dirty), &next);
                boards.push(next);
            }
            Step::Pop => {
                boards.pop();
                f(None, &boards[boards.len() - 1]);
            }
        }
    }
}

/// A walk's board: what a move changes, as an engine keeps it.
#[derive(Clone)]
struct Mailbox {
    squares: [Option<Piece>; 64],
    occupied: u64,
    side_to_move: Color,
}

impl Mailbox {
    fn of(pos: &Position) -> Mailbox {
        let mut squares = [None; 64];
        for (sq, piece) in pos.pieces() {
            squares[sq.index()] = Some(piece);
        }
        let occupied = squares.iter().enumerate().filter(|(_, p)| p.is_some()).fold(0, |o, (i, _)| o | 1 << i);
        Mailbox { squares, occupied, side_to_move: pos.side_to_move() }
    }

    /// The board after `dirty` (a legal move's change), the other side to move.
    fn played(&self, dirty: &Dirty) -> Mailbox {
        let (mut squares, mut occupied) = (self.squares, self.occupied);
        for (sq, _) in dirty.removed() {
            squares[sq.index()] = None;
            occupied &= !(1 << sq.index());
        }
        for (sq, piece) in dirty.added() {
            squares[sq.index()] = Some(piece);
            occupied |= 1 << sq.index();
        }
        Mailbox { squares, occupied, side_to_move: !self.side_to_move }
    }
}

impl EngineBoard for Mailbox {
    fn side_to_move(&self) -> Color {
        self.side_to_move
    }
    fn piece_count(&self) -> usize {
        self.occupied.count_ones() as usize
    }
    fn position(&self) -> Position {
        let pieces = (0..64u8).filter_map(|i| Some((Square::new(i)?, self.squares[usize::from(i)]?)));
        Position::new(self.side_to_move, pieces).expect("a legal move's board: one king a side, at most 32 pieces")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_pushes_every_legal_move_and_pops_each() {
        let t = trees("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n", 2).unwrap();
        assert_eq!(t.len(), 1);
        // 20 moves, each with 20 replies: 420 pushes, 420 pops.
        assert_eq!(t[0].nodes(), 1 + 20 + 400);
        assert_eq!(t[0].moves.iter().filter(|m| *m == "-").count(), 420);
        assert!(trees("not a fen", 1).is_err());
    }

    /// The positions the walk makes from its changes are shakmaty's after each move (castling,
    /// en passant and promotions included), and each pop returns to the one before.
    #[test]
    fn the_walk_makes_the_positions_of_its_moves() {
        let fens = "r3k2r/1P3ppp/8/2pP4/8/8/5PPP/R3K2R w KQkq c6 0 2\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n";
        for tree in trees(fens, 2).unwrap() {
            let root: Chess =
                tree.fen.parse::<shakmaty::fen::Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            let (mut line, mut moves) = (vec![root], tree.moves.iter());
            let mut boards = Vec::new();
            walk_positions(&tree, &mut boards, |dirty, pos| {
                let mv = moves.next().unwrap();
                if dirty.is_some() {
                    let uci: shakmaty::uci::UciMove = mv.parse().unwrap();
                    let last = line.last().unwrap();
                    let next = last.clone().play(uci.to_move(last).unwrap()).unwrap();
                    line.push(next);
                } else {
                    assert_eq!(mv, "-");
                    line.pop();
                }
                assert_eq!(pos.position(), crate::chess::position(line.last().unwrap()), "after {mv}");
                assert_eq!(pos.piece_count(), pos.position().piece_count(), "after {mv}");
            });
        }
    }
}
