//! The shakmaty bridge, as the examples and tests use it: the runtime's own (feature
//! `shakmaty`).

pub use nnue_runtime::shakmaty::{color, dirty, piece, position, square};

use shakmaty::{Chess, Position as _};

/// Plays the games of `rows` (each row: UCI moves from the start position, and the FEN they
/// reach; a row that extends the previous one continues its game, others start a new one)
/// through an accumulator stack on `path`, and returns each row's incremental evaluation.
/// Panics if a row's moves don't reach its FEN.
pub fn evaluate_along_games<N: nnue_runtime::Network>(
    net: &N,
    path: nnue_runtime::KernelPath,
    rows: &[(&[String], &str)],
) -> Vec<nnue_runtime::Evaluation> {
    use shakmaty::uci::UciMove;
    let start = position(&Chess::default());
    let mut stack = nnue_runtime::AccumulatorStack::with_path(net, &start, path);
    let (mut game, mut line) = (Chess::default(), Vec::<String>::new());
    let mut out = Vec::with_capacity(rows.len());
    for &(moves, fen) in rows {
        if !moves.starts_with(&line) {
            (game, line) = (Chess::default(), Vec::new());
            stack.reset(net, &start);
        }
        for uci in &moves[line.len()..] {
            let mv = uci.parse::<UciMove>().unwrap().to_move(&game).unwrap();
            stack.push(dirty(&game, &mv));
            game = game.play(mv).unwrap();
            line.push(uci.clone());
        }
        let pos = position(&game);
        assert_eq!(pos, nnue_runtime::Position::from_fen(fen).unwrap(), "{fen}");
        out.push(stack.evaluate(net, &pos));
    }
    out
}
