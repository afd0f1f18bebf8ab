//! A small UCI engine on top of `nnue_net!` and the accumulator stack: alpha-beta with
//! quiescence, iterative deepening, MVV-LVA ordering. Nothing fancy: it shows how an engine
//! keeps accumulators along make/unmake and lets the two evaluators be compared end to end.
//!
//! ```text
//! cargo run --release --example engine            # UCI on stdin/stdout
//! cargo run --release --example engine bench [depth] [generated|generic]
//! ```
//!
//! Besides the UCI commands: `eval` prints the current position's evaluation (in the eval
//! example's format), computed incrementally along the moves of the last `position` command;
//! `bench [depth]` searches fixed positions and ends with `nodes N nps M`.

use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use nnue_runtime::{AccumulatorStack, Evaluation, Evaluator, Network};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, Role};

nnue_runtime::nnue_net! {
    name = generated,
    env = "EVALFILE",
    default = "nets/default.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

const MATE: i32 = 32_000;
const INF: i32 = 32_767;
const MAX_PLY: usize = 64;

const BENCH_FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
];

/// Which evaluator the search uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Generated,
    Generic,
}

/// The generic evaluator over the same file the macro compiled in (read once, kept forever).
fn generic() -> &'static Evaluator<'static> {
    static GENERIC: std::sync::OnceLock<Evaluator<'static>> = std::sync::OnceLock::new();
    GENERIC.get_or_init(|| {
        let (file, arch) = match option_env!("EVALFILE").filter(|f| !f.is_empty()) {
            Some(f) => (nnue_testkit::root().join(f), option_env!("EVALFILE_ARCH")),
            None => (nnue_testkit::root().join("nets/default.nnue"), Some(generated::ARCHITECTURE)),
        };
        Evaluator::new(Box::leak(Box::new(nnue_testkit::read_net(file, arch))))
    })
}

/// How a search ends.
#[derive(Clone, Copy, Default)]
struct Limits {
    depth: Option<usize>,
    movetime: Option<Duration>,
    nodes: Option<u64>,
}

struct Search<'a, N: Network> {
    net: &'a N,
    stack: AccumulatorStack<N>,
    nodes: u64,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// When the clock and the node limit are looked at next.
    next_check: u64,
    pv: Vec<Vec<Move>>,
    root_best: Option<Move>,
    /// Hashes of the positions before the current one: the game's, then the search path's.
    history: Vec<u64>,
}

fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Most valuable victim, least valuable attacker first; promotions among captures.
fn order(moves: &mut [Move]) {
    let value = |r: Role| match r {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    };
    moves.sort_by_key(|m| {
        let victim = m.capture().map_or(0, value) * 10 + m.promotion().map_or(0, value) * 8;
        -(victim * 16 - value(m.role()))
    });
}

impl<N: Network> Search<'_, N> {
    fn evaluate(&mut self, pos: &Chess) -> Evaluation {
        self.stack.evaluate(self.net, &nnue_testkit::chess::position(pos))
    }

    fn out_of_time(&mut self) -> bool {
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 1024;
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let many = self.node_limit.is_some_and(|n| self.nodes >= n);
            if late || many {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
        self.stop.load(Ordering::Relaxed)
    }

    fn make(&mut self, pos: &Chess, mv: &Move) -> Chess {
        self.stack.push(nnue_testkit::chess::dirty(pos, mv));
        pos.clone().play(*mv).expect("legal move")
    }

    fn quiescence(&mut self, pos: &Chess, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let stand_pat = self.evaluate(pos).total();
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut captures: Vec<Move> = pos.legal_moves().into_iter().filter(|m| m.is_capture()).collect();
        order(&mut captures);
        for mv in &captures {
            let child = self.make(pos, mv);
            let score = -self.quiescence(&child, -beta, -alpha);
            self.stack.pop();
            if score >= beta {
                return score;
            }
            alpha = alpha.max(score);
        }
        alpha
    }

    /// Negamax with a draw for a position repeated since the last irreversible move.
    fn negamax(&mut self, pos: &Chess, depth: usize, alpha: i32, beta: i32, ply: usize) -> i32 {
        let h = hash(pos);
        if ply > 0 && self.history.iter().rev().take(pos.halfmoves() as usize).any(|&old| old == h) {
            self.pv[ply].clear();
            return 0;
        }
        self.history.push(h);
        let score = self.alpha_beta(pos, depth, alpha, beta, ply);
        self.history.pop();
        score
    }

    fn alpha_beta(&mut self, pos: &Chess, depth: usize, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.out_of_time() {
            return 0;
        }
        let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        if moves.is_empty() {
            return if pos.is_check() { -MATE + ply as i32 } else { 0 };
        }
        if ply > 0 && (pos.is_insufficient_material() || pos.halfmoves() >= 100) {
            return 0;
        }
        if depth == 0 || ply + 1 >= MAX_PLY {
            return self.quiescence(pos, alpha, beta);
        }
        self.nodes += 1;
        order(&mut moves);
        // At the root, the previous iteration's best move first.
        if let Some(i) = self.root_best.filter(|_| ply == 0).and_then(|b| moves.iter().position(|m| *m == b)) {
            moves[..=i].rotate_right(1);
        }
        let mut best = -INF;
        for mv in &moves {
            let child = self.make(pos, mv);
            let score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
            self.stack.pop();
            if self.stop.load(Ordering::Relaxed) {
                return best.max(score);
            }
            if score > best {
                best = score;
                let tail = self.pv[ply + 1].clone();
                self.pv[ply] = std::iter::once(*mv).chain(tail).collect();
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// Iterative deepening from `root`; prints UCI `info` lines and returns the best move.
/// `history`: hashes of the game's positions before `root`, for repetitions.
fn search<N: Network>(
    net: &N,
    root: &Chess,
    history: Vec<u64>,
    limits: Limits,
    stop: &AtomicBool,
    quiet: bool,
) -> (Option<Move>, u64) {
    let start = Instant::now();
    let mut s = Search {
        net,
        stack: AccumulatorStack::new(net, &nnue_testkit::chess::position(root)),
        nodes: 0,
        stop,
        deadline: limits.movetime.map(|t| start + t),
        node_limit: limits.nodes,
        next_check: 0,
        pv: vec![Vec::new(); MAX_PLY + 1],
        root_best: None,
        history,
    };
    let mut best = root.legal_moves().first().copied();
    for depth in 1..=limits.depth.unwrap_or(MAX_PLY - 1) {
        let score = s.negamax(root, depth, -INF, INF, 0);
        if stop.load(Ordering::Relaxed) && depth > 1 {
            break;
        }
        if let Some(&mv) = s.pv[0].first() {
            best = Some(mv);
            s.root_best = Some(mv);
        }
        if !quiet && !s.pv[0].is_empty() {
            let elapsed = start.elapsed().as_secs_f64().max(1e-6);
            let pv: Vec<String> = s.pv[0].iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect();
            let score = if score.abs() > MATE - 1000 {
                let plies = MATE - score.abs();
                format!("mate {}", score.signum() * (plies + 1) / 2)
            } else {
                format!("cp {score}")
            };
            println!(
                "info depth {depth} score {score} nodes {} nps {} time {} pv {}",
                s.nodes,
                (s.nodes as f64 / elapsed) as u64,
                (elapsed * 1000.0) as u64,
                pv.join(" ")
            );
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    (best, s.nodes)
}

fn search_with(
    kind: Kind,
    root: &Chess,
    history: Vec<u64>,
    limits: Limits,
    stop: &AtomicBool,
    quiet: bool,
) -> (Option<Move>, u64) {
    match kind {
        Kind::Generated => search(&generated::NETWORK, root, history, limits, stop, quiet),
        Kind::Generic => search(generic(), root, history, limits, stop, quiet),
    }
}

fn bench(depth: usize, kind: Kind) {
    let (start, mut nodes) = (Instant::now(), 0);
    for fen in BENCH_FENS {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        let stop = AtomicBool::new(false);
        nodes += search_with(kind, &pos, Vec::new(), Limits { depth: Some(depth), ..Limits::default() }, &stop, true).1;
    }
    let elapsed = start.elapsed().as_secs_f64().max(1e-6);
    println!("nodes {nodes} nps {}", (nodes as f64 / elapsed) as u64);
}

/// `position startpos|fen <fen> [moves ...]`: the start position and the moves played from it.
fn parse_position(words: &[&str]) -> Option<(Chess, Vec<Move>)> {
    let (mut pos, rest) = match *words.first()? {
        "startpos" => (Chess::default(), &words[1..]),
        "fen" => {
            let end = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
            let fen: Fen = words[1..end].join(" ").parse().ok()?;
            (fen.into_position(CastlingMode::Standard).ok()?, &words[end..])
        }
        _ => return None,
    };
    let start = pos.clone();
    let mut moves = Vec::new();
    if rest.first() == Some(&"moves") {
        for uci in &rest[1..] {
            let mv = uci.parse::<UciMove>().ok()?.to_move(&pos).ok()?;
            pos = pos.play(mv).ok()?;
            moves.push(mv);
        }
    }
    Some((start, moves))
}

/// The evaluation after `moves` from `start`, through the accumulator stack: one push per
/// move, each ply's accumulator computed from the one below (left lazy, a long line of moves
/// would end in a refresh, which is cheaper than that many updates but tests less).
fn eval_incremental<N: Network>(net: &N, start: &Chess, moves: &[Move]) -> Evaluation {
    let mut stack = AccumulatorStack::new(net, &nnue_testkit::chess::position(start));
    let mut pos = start.clone();
    for mv in moves {
        stack.push(nnue_testkit::chess::dirty(&pos, mv));
        pos = pos.play(*mv).expect("legal move");
        stack.current(net, &nnue_testkit::chess::position(&pos));
    }
    stack.evaluate(net, &nnue_testkit::chess::position(&pos))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind_arg = |s: Option<&String>| match s.map(String::as_str) {
        Some("generic") => Kind::Generic,
        _ => Kind::Generated,
    };
    if args.first().map(String::as_str) == Some("bench") {
        let depth = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(5);
        bench(depth, kind_arg(args.get(2)));
        return;
    }
    let mut kind = Kind::Generated;
    let (mut start, mut moves) = (Chess::default(), Vec::new());
    let stop = Arc::new(AtomicBool::new(false));
    let mut running: Option<JoinHandle<()>> = None;
    let finish = |running: &mut Option<JoinHandle<()>>, stop: &AtomicBool| {
        if let Some(handle) = running.take() {
            stop.store(true, Ordering::Relaxed);
            handle.join().expect("search thread");
        }
    };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                println!("id name nnue-example-engine");
                println!("id author the nnue project");
                println!("option name Evaluator type combo default generated var generated var generic");
                println!("uciok");
            }
            Some("isready") => println!("readyok"),
            Some("ucinewgame") => {
                finish(&mut running, &stop);
                (start, moves) = (Chess::default(), Vec::new());
            }
            Some("setoption") => match words.iter().position(|w| *w == "value").map(|i| words.get(i + 1)) {
                Some(Some(&"generic")) => kind = Kind::Generic,
                Some(Some(&"generated")) => kind = Kind::Generated,
                _ => println!("info string unknown option: {line}"),
            },
            Some("position") => {
                finish(&mut running, &stop);
                match parse_position(&words[1..]) {
                    Some(p) => (start, moves) = p,
                    None => println!("info string bad position command: {line}"),
                }
            }
            Some("eval") => {
                let e = match kind {
                    Kind::Generated => eval_incremental(&generated::NETWORK, &start, &moves),
                    Kind::Generic => eval_incremental(generic(), &start, &moves),
                };
                println!("{e}");
            }
            Some("go") => {
                finish(&mut running, &stop);
                let number = |key: &str| {
                    words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1)?.parse::<u64>().ok())
                };
                let mut limits = Limits {
                    depth: number("depth").map(|d| d as usize),
                    movetime: number("movetime").map(Duration::from_millis),
                    nodes: number("nodes"),
                };
                if limits.depth.is_none()
                    && limits.movetime.is_none()
                    && limits.nodes.is_none()
                    && !words.contains(&"infinite")
                {
                    limits.depth = Some(6);
                }
                let (mut root, mut history) = (start.clone(), Vec::new());
                for mv in &moves {
                    history.push(hash(&root));
                    root = root.play(*mv).expect("legal move");
                }
                stop.store(false, Ordering::Relaxed);
                let stop = Arc::clone(&stop);
                running = Some(std::thread::spawn(move || {
                    let (best, _) = search_with(kind, &root, history, limits, &stop, false);
                    match best {
                        Some(mv) => println!("bestmove {}", mv.to_uci(CastlingMode::Standard)),
                        None => println!("bestmove 0000"),
                    }
                }));
            }
            Some("stop") => finish(&mut running, &stop),
            Some("bench") => bench(words.get(1).and_then(|d| d.parse().ok()).unwrap_or(5), kind),
            Some("quit") => break,
            _ => {}
        }
    }
    finish(&mut running, &stop);
}
