//! Whole-process throughput, for comparison with other engines' own benches:
//!
//! ```text
//! EVALFILE=FILE cargo run --release --example bench [-- --fens FILE]
//! <variant> refresh+eval=<evals/s> eval=<evals/s> update=<updates/s>
//! ```
//!
//! Over the committed positions (`data/positions.txt`) unless `--fens` names others, for
//! the generic evaluator and the generated net on every path this CPU has. `refresh+eval`:
//! refresh of both perspectives, then the forward pass; `eval`: the forward pass from ready
//! accumulators; `update`: a quiet-move update of both perspectives.
//!
//! Per-call latency of the generated net, for side-by-side runs against Stockfish:
//!
//! ```text
//! EVALFILE=FILE cargo run --release --example bench -- --forward --fens FILE
//! forward <path> median_ns=<ns> cpu_ns=<ns>
//! EVALFILE=FILE cargo run --release --example bench -- --ply --games FILE
//! ply <path> median_ns=<ns> cpu_ns=<ns>
//! ```
//!
//! `--forward`: per position (one FEN a line, or the `fen` column of a TSV with a header),
//! refresh, then 15 repetitions of 20000 forward passes; the median per-call time of the 15,
//! then the median over positions. `--ply`: the games of a TSV whose `moves` column holds UCI
//! moves from the start position (rows that are prefixes of the next row are skipped), each
//! ply pushed and evaluated through an `AccumulatorStack`; 15 repetitions over all games, the
//! median per-ply time; the refresh cache carries over from game to game (and repetition),
//! unless `--clear-cache` empties it as each game starts, as Stockfish's timing loop does. `median_ns` is wall time; `cpu_ns` the same medians of this thread's
//! CPU time, which a busy machine inflates less. Either takes `--path NAME` (repeatable) to measure only those paths.
//! `--large-pages` times a copy of the net with its transformer in memory advised for huge
//! pages (`in_large_pages`), as Stockfish allocates its network; without it, the
//! compiled-in statics (4 KB pages on Linux).
//! `--calls N` sets the forward passes per repetition (for counting instructions under an
//! emulator, where the difference between two counts is what matters). `--games` also takes a
//! plain file of games, one line of UCI moves each (`data/games.txt`).
//!
//! A search-shaped workload:
//!
//! ```text
//! EVALFILE=FILE cargo run --release --example bench -- --tree [--fens FILE] [--depth N] [--tree-moves OUT]
//! tree <path> nodes=<n> median_ns=<ns per node> cpu_ns=<ns> nps=<nodes/s>
//! ```
//!
//! `--tree`: from each of the first 16 positions of `data/positions.txt` (or of `--fens`), every
//! legal move to depth 3 (`--depth`), depth first in shakmaty's move order: push, evaluate,
//! recurse, pop; the root is evaluated after a reset of the stack. The walk is generated once,
//! before timing, as the moves' changes; while timed it makes each move on a small board and
//! builds the position evaluated from it (a copy and the move's squares, as an engine has the
//! position it just made in cache); 5 repetitions, the median time per evaluated node. `--tree-moves OUT` writes
//! the walk, one root a line: its FEN, a tab, then the UCI moves with `-` for each pop (what
//! another engine's timing loop replays to do the same work).

use std::hint::black_box;
use std::time::{Duration, Instant};

use nnue_runtime::{AccumulatorStack, Color, Evaluator, KernelPath, Network, Piece, PieceType, Position, Square};
use nnue_testkit::tree::{self, Tree};

nnue_runtime::nnue_net! {
    name = net,
    env = "EVALFILE",
    default = "nets/default.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

/// Runs `f` over the positions until about a second has passed; returns operations per second.
fn rate(positions: usize, mut f: impl FnMut(usize)) -> f64 {
    let (start, mut ops) = (Instant::now(), 0u64);
    while start.elapsed() < Duration::from_secs(1) {
        for i in 0..positions {
            f(i);
        }
        ops += positions as u64;
    }
    ops as f64 / start.elapsed().as_secs_f64()
}

fn variant<N: Network>(name: &str, net: &N, path: KernelPath, positions: &[Position]) {
    let accs: Vec<N::Accumulator> = positions
        .iter()
        .map(|p| {
            let mut a = net.new_accumulator();
            Color::BOTH.iter().for_each(|&c| net.refresh_on(path, p, c, &mut a));
            a
        })
        .collect();
    let mut acc = net.new_accumulator();
    let refresh_eval = rate(positions.len(), |i| {
        let pos = black_box(&positions[i]);
        Color::BOTH.iter().for_each(|&c| net.refresh_on(path, pos, c, &mut acc));
        black_box(net.forward_on(path, &acc, pos.side_to_move(), pos.piece_count()));
    });
    let eval = rate(positions.len(), |i| {
        let pos = &positions[i];
        black_box(net.forward_on(path, black_box(&accs[i]), pos.side_to_move(), pos.piece_count()));
    });
    // Ng1-f3 for white, Ng8-f6 for black, each seen from its own side.
    let features = net.feature_set();
    let quiet = |c: Color, from: &str, to: &str| {
        let (sq, knight) = (|s| Square::parse(s).unwrap(), Piece::new(c, PieceType::Knight));
        let king = sq(if c == Color::White { "e1" } else { "e8" });
        ([features.index(c, king, sq(to), knight).unwrap()], [features.index(c, king, sq(from), knight).unwrap()])
    };
    let moves = [quiet(Color::White, "g1", "f3"), quiet(Color::Black, "g8", "f6")];
    let update = rate(positions.len(), |i| {
        let src = black_box(&accs[i]);
        for (c, (added, removed)) in Color::BOTH.into_iter().zip(&moves) {
            net.update_on(path, src, &mut acc, c, added, removed);
        }
    });
    println!("{name} refresh+eval={refresh_eval:.0} eval={eval:.0} update={update:.0}");
}

const REPS: usize = 15;
const CALLS: u64 = 20_000;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// This thread's CPU time: unlike the wall clock, it doesn't count time spent descheduled.
#[cfg(not(target_os = "wasi"))]
fn thread_cpu() -> Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for clock_gettime to fill.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Under WASI (Node) `libc` has no thread CPU clock: wall time stands in, so `cpu_ns` is wall time.
#[cfg(target_os = "wasi")]
fn thread_cpu() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// Wall and thread-CPU time per call of `f`, run `calls` times.
fn time_calls(calls: u64, mut f: impl FnMut()) -> (f64, f64) {
    let (wall, cpu) = (Instant::now(), thread_cpu());
    for _ in 0..calls {
        f();
    }
    let (wall, cpu) = (wall.elapsed(), thread_cpu() - cpu);
    (wall.as_nanos() as f64 / calls as f64, cpu.as_nanos() as f64 / calls as f64)
}

/// Medians of the wall and CPU times.
fn medians(v: Vec<(f64, f64)>) -> (f64, f64) {
    (median(v.iter().map(|t| t.0).collect()), median(v.iter().map(|t| t.1).collect()))
}

/// Median over positions of the median (of 15 repetitions) per-call forward time, wall and
/// thread CPU.
fn forward_ns<N: Network>(net: &N, path: KernelPath, positions: &[Position], calls: u64) -> (f64, f64) {
    let per_position = positions
        .iter()
        .map(|pos| {
            let mut acc = net.new_accumulator();
            Color::BOTH.iter().for_each(|&c| net.refresh_on(path, pos, c, &mut acc));
            let (stm, pieces) = (pos.side_to_move(), pos.piece_count());
            medians(
                (0..REPS)
                    .map(|_| time_calls(calls, || _ = black_box(net.forward_on(path, black_box(&acc), stm, pieces))))
                    .collect(),
            )
        })
        .collect();
    medians(per_position)
}

/// The complete games of a `moves` TSV (UCI from the start position), or of a plain file of
/// one game's UCI moves a line (`#` comments).
fn read_games(file: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut lines = text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).peekable();
    let Some(col) = lines.peek().and_then(|header| header.split('\t').position(|h| h == "moves")) else {
        return lines.map(|l| l.split_whitespace().map(str::to_string).collect()).collect();
    };
    lines.next();
    let rows: Vec<Vec<String>> =
        lines.map(|l| l.split('\t').nth(col).unwrap_or("").split_whitespace().map(str::to_string).collect()).collect();
    let extends = |a: &Vec<String>, b: &Vec<String>| b.len() > a.len() && b.starts_with(a);
    (0..rows.len())
        .filter(|&i| rows.get(i + 1).is_none_or(|next| !extends(&rows[i], next)))
        .map(|i| rows[i].clone())
        .collect()
}

/// Median (of 15 repetitions over all games) per-ply time: push the move, evaluate. Wall and
/// thread CPU.
fn ply_ns<N: Network>(
    net: &N,
    path: KernelPath,
    games: &[Vec<(nnue_runtime::Dirty, Position)>],
    clear_cache: bool,
) -> (f64, f64) {
    let start_pos = nnue_testkit::chess::position(&shakmaty::Chess::default());
    let mut stack = AccumulatorStack::with_path(net, &start_pos, path);
    let plies: usize = games.iter().map(Vec::len).sum();
    let reps = (0..REPS)
        .map(|_| {
            let (wall, cpu) = time_calls(1, || {
                for game in games {
                    if clear_cache {
                        stack.reset_cleared(net, &start_pos);
                    } else {
                        stack.reset(net, &start_pos);
                    }
                    for (dirty, pos) in game {
                        stack.push(*dirty);
                        black_box(stack.evaluate(net, pos));
                    }
                }
            });
            (wall / plies as f64, cpu / plies as f64)
        })
        .collect();
    medians(reps)
}

/// Median (of 5 repetitions) time per evaluated node of the tree walks, wall and thread CPU.
fn tree_ns<N: Network>(net: &N, path: KernelPath, trees: &[Tree]) -> (f64, f64) {
    let mut stack = AccumulatorStack::with_path(net, &trees[0].root, path);
    let nodes: usize = trees.iter().map(Tree::nodes).sum();
    let reps = (0..5)
        .map(|_| {
            let (wall, cpu) = time_calls(1, || {
                tree::run(net, &mut stack, trees);
            });
            (wall / nodes as f64, cpu / nodes as f64)
        })
        .collect();
    medians(reps)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    // `--path NAME` (repeatable): only these paths in the --forward and --ply modes.
    let mut only: Vec<KernelPath> = Vec::new();
    while let Some(i) = args.iter().position(|a| *a == "--path") {
        let name = args.get(i + 1).copied().unwrap_or("");
        let isa = nnue_runtime::Isa::from_name(name).unwrap_or_else(|| panic!("unknown path {name:?}"));
        only.push(KernelPath::new(isa).unwrap_or_else(|| panic!("this CPU has no {name} path")));
        args.drain(i..i + 2);
    }
    let paths = if only.is_empty() { KernelPath::all() } else { only };
    let mut calls = CALLS;
    if let Some(i) = args.iter().position(|a| *a == "--calls") {
        calls = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("--calls takes a number"));
        args.drain(i..i + 2);
    }
    // `--clear-cache`: each game of `--ply` starts with an empty refresh cache, as Stockfish's
    // timing harness starts its games (by default the cache carries over, as in a match).
    let clear_cache = args.iter().position(|a| *a == "--clear-cache").map(|i| args.remove(i)).is_some();
    // `--large-pages`: `--forward`, `--ply` and `--tree` time a copy of the net whose
    // transformer is in memory advised for huge pages (`in_large_pages`), as Stockfish
    // allocates its network.
    let large_pages = args.iter().position(|a| *a == "--large-pages").map(|i| args.remove(i)).is_some();
    let copy;
    let network: &net::Network = if large_pages {
        copy = net::NETWORK.in_large_pages();
        &copy
    } else {
        &net::NETWORK
    };
    let mut depth = tree::DEPTH;
    if let Some(i) = args.iter().position(|a| *a == "--depth") {
        depth = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("--depth takes a number"));
        args.drain(i..i + 2);
    }
    let mut tree_moves = None;
    if let Some(i) = args.iter().position(|a| *a == "--tree-moves") {
        tree_moves = Some(args.get(i + 1).unwrap_or_else(|| panic!("--tree-moves takes a file")).to_string());
        args.drain(i..i + 2);
    }
    let usage = || -> ! {
        eprintln!(
            "usage: EVALFILE=FILE cargo run --release --example bench \
             [-- --fens FILE | --forward --fens FILE | --ply --games FILE [--clear-cache] \
             | --tree [--fens FILE] [--depth N] [--tree-moves OUT]] [--path NAME] [--calls N] [--large-pages]"
        );
        std::process::exit(2);
    };
    match args[..] {
        ["--forward", "--fens", file] => {
            let positions = nnue_testkit::read_fens(file);
            eprintln!(
                "{} ({} positions){}; measured fastest: {}",
                net::ARCHITECTURE,
                positions.len(),
                net::NEURON_ORDER.map_or(String::new(), |f| format!("; neurons in the order of {f}")),
                net::NETWORK.best_path()
            );
            for &path in &paths {
                let (wall, cpu) = forward_ns(network, path, &positions, calls);
                println!("forward {} median_ns={wall:.1} cpu_ns={cpu:.1}", path.isa().name());
            }
            return;
        }
        ["--ply", "--games", file] => {
            let games: Vec<Vec<(nnue_runtime::Dirty, Position)>> = read_games(file)
                .iter()
                .map(|moves| {
                    let mut pos = shakmaty::Chess::default();
                    moves
                        .iter()
                        .map(|uci| {
                            let mv =
                                uci.parse::<shakmaty::uci::UciMove>().expect("UCI move").to_move(&pos).expect("legal");
                            let dirty = nnue_testkit::chess::dirty(&pos, &mv);
                            pos = shakmaty::Position::play(pos.clone(), mv).expect("legal move");
                            (dirty, nnue_testkit::chess::position(&pos))
                        })
                        .collect()
                })
                .collect();
            let plies: usize = games.iter().map(Vec::len).sum();
            eprintln!("{} ({} games, {plies} plies)", net::ARCHITECTURE, games.len());
            for &path in &paths {
                let (wall, cpu) = ply_ns(network, path, &games, clear_cache);
                println!("ply {} median_ns={wall:.1} cpu_ns={cpu:.1}", path.isa().name());
            }
            return;
        }
        ["--tree"] | ["--tree", "--fens", _] => {
            let file: std::path::PathBuf =
                args.get(2).map_or_else(|| nnue_testkit::root().join("data/positions.txt"), Into::into);
            let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let trees = tree::trees(&text, depth).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            if let Some(out) = &tree_moves {
                let lines: Vec<String> = trees.iter().map(|t| format!("{}\t{}\n", t.fen, t.moves.join(" "))).collect();
                std::fs::write(out, lines.concat()).unwrap_or_else(|e| panic!("{out}: {e}"));
            }
            let nodes: usize = trees.iter().map(Tree::nodes).sum();
            eprintln!("{} ({} roots, depth {depth}, {nodes} nodes)", net::ARCHITECTURE, trees.len());
            for &path in &paths {
                let (wall, cpu) = tree_ns(network, path, &trees);
                let nps = 1e9 / wall;
                println!("tree {} nodes={nodes} median_ns={wall:.1} cpu_ns={cpu:.1} nps={nps:.0}", path.isa().name());
            }
            return;
        }
        _ => {}
    }
    let fens = match args[..] {
        ["--fens", file] => file.into(),
        [] => nnue_testkit::root().join("data/positions.txt"),
        _ => usage(),
    };
    let positions = nnue_testkit::read_fens(fens);
    // The generic evaluator reads the same file the macro compiled in.
    let generic_net = nnue_testkit::read_net(net::PATH, Some(net::ARCHITECTURE));
    eprintln!("{}: {} ({} positions)", net::PATH, net::ARCHITECTURE, positions.len());
    variant("generic", &Evaluator::new(&generic_net), KernelPath::SCALAR, &positions);
    for path in KernelPath::all() {
        variant(path.isa().name(), &net::NETWORK, path, &positions);
    }
}
