//! The example UCI engine: its `eval` along every game of `../shared/oracle/games.tsv`
//! (incremental updates from the start position) reproduces Stockfish's values with both
//! evaluators; its scores are the nets' outputs in centipawns; it plays legal games against
//! itself; `bench` reports nodes and speed. (`tests/uci_client.rs`: the UCI protocol, clocks
//! and hostile input.)

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use nnue_testkit::{net_or_skip, oracle_or_skip, root};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position as _};

/// Runs the engine (built with `evalfile` compiled in) on `input`, returning its stdout lines.
fn engine(evalfile: Option<&std::path::Path>, args: &[&str], input: &str) -> Vec<String> {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.current_dir(root()).args(["run", "--quiet", "--release", "--example", "engine", "--"]).args(args);
    match evalfile {
        Some(f) => cmd.env("EVALFILE", f),
        None => cmd.env_remove("EVALFILE"),
    };
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("cargo runs");
    // Feed stdin from another thread: both pipes fill up on long inputs.
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "engine failed");
    String::from_utf8(out.stdout).unwrap().lines().map(String::from).collect()
}

/// The engine's `eval` along every row of `rows`, with both evaluators, equals `expected`.
fn engine_eval_along(
    net: &std::path::Path,
    rows: &[nnue_testkit::OracleRow],
    expected: impl Fn(&nnue_testkit::OracleRow) -> (usize, i32, i32),
) {
    let mut input = String::new();
    let mut want = Vec::new();
    for evaluator in ["generic", "generated"] {
        input += &format!("setoption name Evaluator value {evaluator}\n");
        for r in rows {
            input += &format!("position startpos moves {}\neval\n", r.moves.join(" "));
            let (bucket, psqt, positional) = expected(r);
            want.push(format!("bucket={bucket} psqt={psqt} positional={positional} total={}", psqt + positional));
        }
    }
    input += "quit\n";
    let got = engine(Some(net), &[], &input);
    assert_eq!(got.len(), want.len(), "{}: one line per eval", net.display());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        let evaluator = if i < rows.len() { "generic" } else { "generated" };
        assert_eq!(g, w, "{} ({evaluator}) after {}", net.display(), rows[i % rows.len()].moves.join(" "));
    }
    // Stockfish's internal units: a pawn is PawnValueEg = 208.
    score_in_centipawns(Some(net), 208);
}

#[test]
fn engine_eval_reproduces_stockfish_along_games_and_plays() {
    if let Some(rows) = oracle_or_skip("games.tsv", "engine eval along games.tsv") {
        for (file, which) in [
            (nnue_testkit::SF17_SMALL, "small"),
            (nnue_testkit::SF13_HALFKP, "halfkp"),
            (nnue_testkit::SF17_BIG, "big"),
        ] {
            let Some(net) = net_or_skip(file, "engine eval along games.tsv") else { continue };
            engine_eval_along(&net, &rows, |r| match which {
                "big" => (r.bucket, r.big.0, r.big.1),
                "small" => (r.bucket, r.small.0, r.small.1),
                _ => (0, 0, r.halfkp),
            });
        }
    }
    // Stockfish 18's threat net, incrementally along the games (its positions not in check).
    if let Some(rows) = oracle_or_skip("games18.tsv", "engine eval along games18.tsv") {
        if let Some(net) = net_or_skip(nnue_testkit::SF18_BIG, "engine eval along games18.tsv") {
            engine_eval_along(&net, &rows, |r| (r.bucket, r.sf18_big.0, r.sf18_big.1));
        }
    }
    // Stockfish 19's big net (threats, pawn pairs) and lite net, likewise.
    if let Some(rows) = oracle_or_skip("games19.tsv", "engine eval along games19.tsv") {
        if let Some(net) = net_or_skip(nnue_testkit::SF19_BIG, "engine eval along games19.tsv") {
            engine_eval_along(&net, &rows, |r| (r.bucket, r.sf19_big.0, r.sf19_big.1));
        }
        if let Some(net) = net_or_skip(nnue_testkit::SF19_LITE, "engine eval along games19.tsv") {
            engine_eval_along(&net, &rows, |r| (r.bucket, r.sf19_lite.0, r.sf19_lite.1));
        }
    }
    // Back to the committed default net, whose output is in centipawns.
    score_in_centipawns(None, 100);
    self_play();
    let bench = engine(None, &["bench", "2"], "");
    let last = bench.last().expect("bench prints");
    assert!(last.starts_with("nodes ") && last.contains(" nps "), "{last}");
}

/// The engine's `score cp` is the net's output converted with `pawn` units to the pawn: in
/// a position with a single legal move after which the opponent has no capture, the depth-1
/// score is minus the evaluation after that move, exactly.
fn score_in_centipawns(evalfile: Option<&std::path::Path>, pawn: i32) {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.current_dir(root()).args(["run", "--quiet", "--release", "--example", "engine"]);
    match evalfile {
        Some(f) => cmd.env("EVALFILE", f),
        None => cmd.env_remove("EVALFILE"),
    };
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // Black's king has a7 only; then White has nothing to capture.
    let fen = "k7/8/8/8/8/8/8/1R5K b - - 0 1";
    writeln!(stdin, "position fen {fen} moves a8a7\neval\nposition fen {fen}\ngo depth 1").unwrap();
    let (mut total, mut score) = (None, None);
    loop {
        let mut line = String::new();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "engine exited");
        if let Some(t) = line.trim().split(" total=").nth(1) {
            total = Some(t.parse::<i32>().unwrap());
        }
        if let Some(s) = line.trim().strip_prefix("info depth 1 ").and_then(|l| l.split(" score ").nth(1)) {
            score = Some(s.split(' ').take(2).collect::<Vec<_>>().join(" "));
        }
        if line.starts_with("bestmove") {
            assert_eq!(line.trim(), "bestmove a8a7");
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
    let total = total.expect("eval line");
    assert_eq!(score.expect("info depth 1 line"), format!("cp {}", -total * 100 / pawn), "{evalfile:?}");
}

/// The engine plays itself for 40 plies at depth 2; every move must be legal.
fn self_play() {
    let mut child = Command::new(env!("CARGO"))
        .current_dir(root())
        .args(["run", "--quiet", "--release", "--example", "engine"])
        .env_remove("EVALFILE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let (mut game, mut moves) = (Chess::default(), Vec::<String>::new());
    writeln!(stdin, "uci\nucinewgame").unwrap();
    for _ in 0..40 {
        if game.is_game_over() {
            break;
        }
        writeln!(stdin, "position startpos moves {}\ngo depth 2", moves.join(" ")).unwrap();
        let best = loop {
            let mut line = String::new();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "engine exited");
            // `bestmove MOVE [ponder MOVE]`
            if let Some(m) = line.trim().strip_prefix("bestmove ") {
                break m.split_whitespace().next().unwrap_or_default().to_string();
            }
        };
        let mv = best.parse::<UciMove>().unwrap().to_move(&game).unwrap_or_else(|e| panic!("illegal {best}: {e}"));
        game = game.play(mv).unwrap();
        moves.push(best);
    }
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
    assert!(moves.len() >= 10, "{moves:?}");
}
