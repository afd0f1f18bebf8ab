//! `nnue bench`: how fast the net evaluates here, per path: the reference evaluator
//! (`generic`), and the run-time loaded fast network on each kernel path this CPU has when the
//! net's shape is one the tool is built for (see [`fast`](crate::fast)).
//!
//! - default: rates over the positions: `refresh+eval` (both perspectives refreshed, then the
//!   forward pass), `eval` (the forward pass from ready accumulators), `update` (a quiet
//!   knight move applied to both perspectives), each for `--seconds`;
//! - `--forward`: per position, the median over `--reps` repetitions of the per-call
//!   forward-pass time, then the median over positions;
//! - `--ply`: each game's plies pushed through an accumulator stack and evaluated; the median
//!   over `--reps` repetitions of the per-ply time;
//! - `--tree`: from the first 16 positions, every legal move to `--depth` (3), depth first:
//!   push, evaluate, recurse, pop (the bench example's `--tree`, [`nnue_testkit::tree`]); the
//!   median over `--reps` repetitions of the time per evaluated node, and nodes per second.
//!
//! `--large-pages`: the fast network timed is a copy whose transformer is in memory advised for
//! huge pages (`in_large_pages`, as Stockfish allocates its net), made once; the first line
//! says so, and how much of it the OS put in huge pages (see [`pages`](crate::pages)).

use std::hint::black_box;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use nnue_runtime::{
    AccumulatorStack, Color, Dirty, Evaluator, KernelPath, Network, Piece, PieceType, Position, Square,
};

use crate::fast::Visit;
use crate::{load, Failure, Outcome};

/// What to measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Rates over the positions.
    Rates,
    /// Per-call forward-pass latency.
    Forward,
    /// Per-ply latency along games.
    Ply,
    /// Per-node latency of a search-shaped walk ([`nnue_testkit::tree`]) `depth` plies deep.
    Tree {
        /// Plies below each root.
        depth: usize,
    },
}

/// The command's options.
pub struct Options {
    /// The net file.
    pub file: String,
    /// Its description.
    pub arch: Option<String>,
    /// What to measure.
    pub mode: Mode,
    /// Positions (default: built in).
    pub fens: Option<String>,
    /// Games (default: built in).
    pub games: Option<String>,
    /// Repetitions (`--forward`, `--ply`).
    pub reps: usize,
    /// Seconds per rate (default mode).
    pub seconds: f64,
    /// Show a progress bar.
    pub progress: bool,
    /// Time the fast network's copy in large pages.
    pub large_pages: bool,
}

/// A progress bar on stderr (hidden when not wanted or not a terminal); each measurement adds
/// its steps to its length.
fn bar(len: u64, show: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let style = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return 0.0;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Runs `f` over `n` items until `seconds` have passed; operations per second.
fn rate(n: usize, seconds: f64, mut f: impl FnMut(usize)) -> f64 {
    let (start, mut ops) = (Instant::now(), 0u64);
    let limit = Duration::from_secs_f64(seconds.max(0.01));
    while start.elapsed() < limit {
        for i in 0..n {
            f(i);
        }
        ops += n as u64;
    }
    ops as f64 / start.elapsed().as_secs_f64()
}

struct Rates<'a> {
    positions: &'a [Position],
    seconds: f64,
    bar: &'a ProgressBar,
}

impl Visit for Rates<'_> {
    fn visit<N: Network>(&mut self, name: &str, net: &N, paths: &[KernelPath]) -> Outcome {
        let positions = self.positions;
        let features = net.feature_set();
        // Ng1-f3 for White, Ng8-f6 for Black, each seen from its own side.
        let quiet = |c: Color, from: &str, to: &str| -> Option<([usize; 1], [usize; 1])> {
            let sq = |s| Square::parse(s);
            let (knight, king) = (Piece::new(c, PieceType::Knight), sq(if c == Color::White { "e1" } else { "e8" })?);
            Some(([features.index(c, king, sq(to)?, knight)?], [features.index(c, king, sq(from)?, knight)?]))
        };
        let moves = [quiet(Color::White, "g1", "f3"), quiet(Color::Black, "g8", "f6")];
        self.bar.inc_length(3 * paths.len() as u64);
        for &path in paths {
            let label = if paths.len() > 1 { format!("{name} {}", path.isa().name()) } else { name.to_string() };
            self.bar.set_message(label.clone());
            let accs: Vec<N::Accumulator> = positions
                .iter()
                .map(|p| {
                    let mut a = net.new_accumulator();
                    Color::BOTH.iter().for_each(|&c| net.refresh_on(path, p, c, &mut a));
                    a
                })
                .collect();
            let mut acc = net.new_accumulator();
            let refresh_eval = rate(positions.len(), self.seconds, |i| {
                let pos = black_box(&positions[i]);
                Color::BOTH.iter().for_each(|&c| net.refresh_on(path, pos, c, &mut acc));
                black_box(net.forward_on(path, &acc, pos.side_to_move(), pos.piece_count()));
            });
            self.bar.inc(1);
            let eval = rate(positions.len(), self.seconds, |i| {
                let pos = &positions[i];
                black_box(net.forward_on(path, black_box(&accs[i]), pos.side_to_move(), pos.piece_count()));
            });
            self.bar.inc(1);
            let update = match moves {
                [Some(white), Some(black)] => {
                    let r = rate(positions.len(), self.seconds, |i| {
                        let src = black_box(&accs[i]);
                        for (c, (added, removed)) in Color::BOTH.into_iter().zip([&white, &black]) {
                            net.update_on(path, src, &mut acc, c, added, removed);
                        }
                    });
                    format!("{r:.0}")
                }
                _ => "n/a".into(),
            };
            self.bar.inc(1);
            self.bar.suspend(|| say!("{label} refresh+eval={refresh_eval:.0} eval={eval:.0} update={update}"));
        }
        Ok(())
    }
}

struct Forward<'a> {
    positions: &'a [Position],
    reps: usize,
    bar: &'a ProgressBar,
}

impl Visit for Forward<'_> {
    fn visit<N: Network>(&mut self, name: &str, net: &N, paths: &[KernelPath]) -> Outcome {
        self.bar.inc_length((self.positions.len() * paths.len()) as u64);
        for &path in paths {
            let label = if paths.len() > 1 { format!("{name} {}", path.isa().name()) } else { name.to_string() };
            self.bar.set_message(label.clone());
            let mut per_position = Vec::with_capacity(self.positions.len());
            for pos in self.positions {
                let mut acc = net.new_accumulator();
                Color::BOTH.iter().for_each(|&c| net.refresh_on(path, pos, c, &mut acc));
                let (stm, pieces) = (pos.side_to_move(), pos.piece_count());
                // Calls per repetition: about a millisecond's worth.
                let once = Instant::now();
                black_box(net.forward_on(path, black_box(&acc), stm, pieces));
                let calls = (1_000_000 / once.elapsed().as_nanos().max(1)).clamp(1, 20_000) as u32;
                let reps: Vec<f64> = (0..self.reps)
                    .map(|_| {
                        let start = Instant::now();
                        for _ in 0..calls {
                            black_box(net.forward_on(path, black_box(&acc), stm, pieces));
                        }
                        start.elapsed().as_nanos() as f64 / f64::from(calls)
                    })
                    .collect();
                per_position.push(median(reps));
                self.bar.inc(1);
            }
            self.bar.suspend(|| {
                say!("forward {label} median_ns={:.1} ({} positions)", median(per_position), self.positions.len())
            });
        }
        Ok(())
    }
}

struct Ply<'a> {
    games: &'a [Vec<(Dirty, Position)>],
    start: &'a Position,
    reps: usize,
    bar: &'a ProgressBar,
}

impl Visit for Ply<'_> {
    fn visit<N: Network>(&mut self, name: &str, net: &N, paths: &[KernelPath]) -> Outcome {
        let plies: usize = self.games.iter().map(Vec::len).sum();
        self.bar.inc_length((self.reps * paths.len()) as u64);
        for &path in paths {
            let label = if paths.len() > 1 { format!("{name} {}", path.isa().name()) } else { name.to_string() };
            self.bar.set_message(label.clone());
            let mut stack = AccumulatorStack::with_path(net, self.start, path);
            let reps: Vec<f64> = (0..self.reps)
                .map(|_| {
                    let start = Instant::now();
                    for game in self.games {
                        stack.reset(net, self.start);
                        for (dirty, pos) in game {
                            stack.push(*dirty);
                            black_box(stack.evaluate(net, pos));
                        }
                    }
                    self.bar.inc(1);
                    start.elapsed().as_nanos() as f64 / plies.max(1) as f64
                })
                .collect();
            self.bar.suspend(|| {
                say!("ply {label} median_ns={:.1} ({} games, {plies} plies)", median(reps), self.games.len())
            });
        }
        Ok(())
    }
}

struct TreeWalk<'a> {
    trees: &'a [nnue_testkit::tree::Tree],
    reps: usize,
    bar: &'a ProgressBar,
}

impl Visit for TreeWalk<'_> {
    fn visit<N: Network>(&mut self, name: &str, net: &N, paths: &[KernelPath]) -> Outcome {
        let nodes: usize = self.trees.iter().map(nnue_testkit::tree::Tree::nodes).sum();
        self.bar.inc_length((self.reps * paths.len()) as u64);
        for &path in paths {
            let label = if paths.len() > 1 { format!("{name} {}", path.isa().name()) } else { name.to_string() };
            self.bar.set_message(label.clone());
            let mut stack = AccumulatorStack::with_path(net, &self.trees[0].root, path);
            let reps: Vec<f64> = (0..self.reps)
                .map(|_| {
                    let start = Instant::now();
                    nnue_testkit::tree::run(net, &mut stack, self.trees);
                    self.bar.inc(1);
                    start.elapsed().as_nanos() as f64 / nodes.max(1) as f64
                })
                .collect();
            let ns = median(reps);
            self.bar.suspend(|| {
                say!("tree {label} median_ns={ns:.1} nps={:.0} ({} roots, {nodes} nodes)", 1e9 / ns, self.trees.len())
            });
        }
        Ok(())
    }
}

/// The games replayed: each ply's board change and the position it reaches.
pub fn replay(games: &[Vec<String>]) -> Result<Vec<Vec<(Dirty, Position)>>, Failure> {
    use nnue_runtime::shakmaty::{dirty, position};
    use shakmaty::uci::UciMove;
    use shakmaty::{Chess, Position as _};
    games
        .iter()
        .enumerate()
        .map(|(g, moves)| {
            let mut board = Chess::default();
            moves
                .iter()
                .enumerate()
                .map(|(ply, uci)| {
                    let at = || format!("game {}, ply {} ({uci})", g + 1, ply + 1);
                    let parsed: UciMove = uci.parse().map_err(|e| Failure(format!("{}: not a UCI move: {e}", at())))?;
                    let mv = parsed.to_move(&board).map_err(|e| Failure(format!("{}: illegal: {e}", at())))?;
                    let d = dirty(&board, &mv);
                    board = board.clone().play(mv).map_err(|e| Failure(format!("{}: illegal: {e}", at())))?;
                    Ok((d, position(&board)))
                })
                .collect()
        })
        .collect()
}

/// A measurement of the reference, then of the network visited: one visit, so that the fast
/// network is found (and, with `--large-pages`, copied and said so) before the first row.
struct ReferenceFirst<'a, M> {
    reference: Evaluator<'a>,
    m: &'a mut M,
}

impl<M: Visit> Visit for ReferenceFirst<'_, M> {
    fn visit<N: Network>(&mut self, name: &str, net: &N, paths: &[KernelPath]) -> Outcome {
        self.m.visit("generic", &self.reference, &[KernelPath::SCALAR])?;
        self.m.visit(name, net, paths)
    }

    fn in_large_pages(&mut self, transformer: std::ops::Range<usize>) {
        say!("{}", crate::pages::header(transformer));
    }
}

/// Measures with `m` the reference, then the fast network (with `large_pages`, its copy in
/// large pages) if the shape is one of [`fast`](crate::fast)'s.
fn each_network(net: &nnue_runtime::Net, large_pages: bool, m: &mut impl Visit) -> Outcome {
    let mut both = ReferenceFirst { reference: Evaluator::new(net), m };
    if !crate::fast::visit(net, large_pages, &mut both)? {
        if large_pages {
            say!("large pages: asked for, but there is no fast network to copy");
        }
        eprintln!("no fast network for this shape in this build: the reference only");
        both.m.visit("generic", &both.reference, &[KernelPath::SCALAR])?;
    }
    Ok(())
}

/// Runs the bench.
pub fn run(o: &Options) -> Outcome {
    let net = load::evaluable_net(&o.file, o.arch.as_deref())?;
    eprintln!("{}: {}", o.file, net.arch());
    match o.mode {
        Mode::Rates => {
            let positions = load::positions(o.fens.as_deref())?;
            let bar = bar(0, o.progress);
            let result =
                each_network(&net, o.large_pages, &mut Rates { positions: &positions, seconds: o.seconds, bar: &bar });
            bar.finish_and_clear();
            result
        }
        Mode::Forward => {
            let mut positions = load::positions(o.fens.as_deref())?;
            if o.fens.is_none() {
                // Every 16th of the built-in positions: the per-position medians need many calls.
                positions = positions.into_iter().step_by(16).collect();
            }
            let bar = bar(0, o.progress);
            let result =
                each_network(&net, o.large_pages, &mut Forward { positions: &positions, reps: o.reps, bar: &bar });
            bar.finish_and_clear();
            result
        }
        Mode::Ply => {
            let games = match &o.games {
                Some(f) => {
                    let text = std::fs::read_to_string(f).map_err(|e| Failure(format!("{f}: {e}")))?;
                    load::games(&text, f)?
                }
                None => load::games(load::GAMES, "data/games.txt")?,
            };
            let games = replay(&games)?;
            let start = nnue_runtime::shakmaty::position(&shakmaty::Chess::default());
            let bar = bar(0, o.progress);
            let result =
                each_network(&net, o.large_pages, &mut Ply { games: &games, start: &start, reps: o.reps, bar: &bar });
            bar.finish_and_clear();
            result
        }
        Mode::Tree { depth } => {
            let text = match &o.fens {
                Some(f) => std::fs::read_to_string(f).map_err(|e| Failure(format!("{f}: {e}")))?,
                None => load::POSITIONS.to_string(),
            };
            let name = o.fens.as_deref().unwrap_or("data/positions.txt");
            let trees = nnue_testkit::tree::trees(&text, depth).map_err(|e| Failure(format!("{name}: {e}")))?;
            if trees.is_empty() {
                return Err(Failure(format!("{name}: no positions")));
            }
            let bar = bar(0, o.progress);
            let result = each_network(&net, o.large_pages, &mut TreeWalk { trees: &trees, reps: o.reps, bar: &bar });
            bar.finish_and_clear();
            result
        }
    }
}
