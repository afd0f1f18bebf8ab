//! The search-shaped workload of `bench --tree` (the bench example and `nnue bench`): from each
//! root, every legal move to a depth, depth first in shakmaty's move order: push, evaluate,
//! recurse, pop. Generated once, before timing, as steps and as UCI moves.

use nnue_runtime::{Dirty, Position};
use shakmaty::{CastlingMode, Chess, Position as _};

/// The roots a tree bench walks from: the first of its positions.
pub const ROOTS: usize = 16;
/// The depth below each root.
pub const DEPTH: usize = 3;

/// One step of a walk: a move pushed (its board change and the position it reaches), or the
/// pop that takes it back.
#[derive(Debug, Clone)]
pub enum Step {
    /// Push this change, then evaluate this position.
    Push(Dirty, Position),
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
        steps.push(Step::Push(dirty, crate::chess::position(&next)));
        walk(&next, depth - 1, steps, moves);
        steps.push(Step::Pop);
        moves.push("-".into());
    }
}

/// Runs the walks once through `stack` on `net`: per root a reset and an evaluation, then each
/// step; returns the nodes evaluated.
pub fn run<N: nnue_runtime::Network>(net: &N, stack: &mut nnue_runtime::AccumulatorStack<N>, trees: &[Tree]) -> usize {
    let mut nodes = 0;
    for tree in trees {
        stack.reset(net, &tree.root);
        std::hint::black_box(stack.evaluate(net, &tree.root));
        for step in &tree.steps {
            match step {
                Step::Push(dirty, pos) => {
                    stack.push(*dirty);
                    std::hint::black_box(stack.evaluate(net, pos));
                }
                Step::Pop => stack.pop(),
            }
        }
        nodes += tree.nodes();
    }
    nodes
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
}
