//! Generated vs generic, in one process, on the same inputs: the forward pass from ready
//! accumulators, a full refresh, the fused updates of each move shape, and whole games through
//! the accumulator stack. Groups are `<net>/<measure>`, functions the variant (`generic`,
//! `scalar`, `avx2`, `avxvnni`, `avx512vnni`). `cargo run --release --example bench_table`
//! turns the results into the README's table.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use nnue_runtime::{
    AccumulatorStack, Color, Dirty, Evaluator, KernelPath, Net, Network, Piece, PieceType, Position, Square,
};
use shakmaty::{uci::UciMove, Chess, Position as _};

nnue_runtime::nnue_net!(
    name = default_net,
    path = "nets/default.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400"
);
nnue_runtime::nnue_net!(name = sf17_small, env = "NNUE_REAL_SF17_SMALL");
nnue_runtime::nnue_net!(name = sf17_big, env = "NNUE_REAL_SF17_BIG");
nnue_runtime::nnue_net!(name = sf18_big, env = "NNUE_REAL_SF18_BIG");
nnue_runtime::nnue_net!(name = sf19_big, env = "NNUE_REAL_SF19_BIG");
nnue_runtime::nnue_net!(name = sf19_lite, env = "NNUE_REAL_SF19_LITE");
nnue_runtime::nnue_net!(name = halfkp_256, env = "NNUE_SYNTH_HALFKP256");
nnue_runtime::nnue_net!(name = screlu_1024, env = "NNUE_SYNTH_CHESS768_1024");

/// Positions whose accumulators the forward and refresh benches cycle through.
const HOT: usize = 16;

struct Inputs {
    positions: Vec<Position>,
    /// Each game as (move's board change, position after it), from the start position.
    games: Vec<Vec<(Dirty, Position)>>,
}

fn inputs() -> Inputs {
    let positions = nnue_testkit::read_fens(nnue_testkit::root().join("data/positions.txt"));
    let text = std::fs::read_to_string(nnue_testkit::root().join("data/games.txt")).unwrap();
    let games = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let mut game = Chess::default();
            line.split_whitespace()
                .map(|uci| {
                    let mv = uci.parse::<UciMove>().unwrap().to_move(&game).unwrap();
                    let dirty = nnue_testkit::chess::dirty(&game, &mv);
                    game = game.clone().play(mv).unwrap();
                    (dirty, nnue_testkit::chess::position(&game))
                })
                .collect()
        })
        .collect();
    Inputs { positions, games }
}

/// (added, removed) features of white's view for a quiet move, a capture and castling (for
/// threat nets: their piece rows only; `games` covers the threat changes).
fn move_shapes<N: Network>(net: &N) -> [(&'static str, Vec<usize>, Vec<usize>); 3] {
    let f = net.feature_set();
    let sq = |s| Square::parse(s).unwrap();
    let king = sq("e1");
    let idx = |s, c, k| f.index(Color::White, king, sq(s), Piece::new(c, k)).unwrap();
    let (w, b) = (Color::White, Color::Black);
    [
        ("update_quiet", vec![idx("f3", w, PieceType::Knight)], vec![idx("g1", w, PieceType::Knight)]),
        (
            "update_capture",
            vec![idx("d5", w, PieceType::Pawn)],
            vec![idx("e4", w, PieceType::Pawn), idx("d5", b, PieceType::Pawn)],
        ),
        (
            "update_castle",
            vec![idx("g1", w, PieceType::Rook), idx("f1", w, PieceType::Rook)],
            vec![idx("h1", w, PieceType::Rook), idx("a1", w, PieceType::Rook)],
        ),
    ]
}

/// A group with sampling fitted to the net's speed.
fn group<'a>(c: &'a mut Criterion, net_name: &str, what: &str, slow: bool) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(format!("{net_name}/{what}"));
    g.sample_size(if slow { 10 } else { 30 })
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(if slow { 1500 } else { 1000 }));
    g
}

/// The measures of one variant: a net (fast or generic) on one path.
fn measure<N: Network>(
    c: &mut Criterion,
    net_name: &str,
    variant: &str,
    net: &N,
    path: KernelPath,
    inputs: &Inputs,
    slow: bool,
) {
    let hot = &inputs.positions[..HOT];
    let accs: Vec<N::Accumulator> = hot
        .iter()
        .map(|p| {
            let mut a = net.new_accumulator();
            Color::BOTH.iter().for_each(|&c| net.refresh_on(path, p, c, &mut a));
            a
        })
        .collect();

    let mut i = 0;
    group(c, net_name, "forward", slow).bench_function(variant, |b| {
        b.iter(|| {
            i = (i + 1) % HOT;
            net.forward_on(path, black_box(&accs[i]), hot[i].side_to_move(), hot[i].piece_count())
        })
    });
    let mut acc = net.new_accumulator();
    group(c, net_name, "refresh", slow).bench_function(variant, |b| {
        b.iter(|| {
            i = (i + 1) % HOT;
            for p in Color::BOTH {
                net.refresh_on(path, black_box(&hot[i]), p, &mut acc);
            }
        })
    });
    for (what, added, removed) in move_shapes(net) {
        let src = accs[0].clone();
        let mut dst = accs[1].clone();
        group(c, net_name, what, slow).bench_function(variant, |b| {
            b.iter(|| net.update_on(path, black_box(&src), &mut dst, Color::White, black_box(&added), &removed))
        });
    }
    let plies: usize = inputs.games.iter().map(Vec::len).sum();
    let mut stack = AccumulatorStack::with_path(net, &Position::from_fen(START).unwrap(), path);
    let start = Position::from_fen(START).unwrap();
    let mut g = group(c, net_name, "games", slow);
    g.throughput(Throughput::Elements(plies as u64));
    g.bench_function(variant, |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for game in &inputs.games {
                stack.reset(net, &start);
                for (dirty, pos) in game {
                    stack.push(*dirty);
                    sum += i64::from(stack.evaluate(net, pos).total());
                }
            }
            sum
        })
    });
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn bench_net<N: Network>(c: &mut Criterion, name: &str, fast: &N, file: &str, arch: Option<&str>, inputs: &Inputs) {
    let net: Net = nnue_testkit::read_net(file, arch);
    let slow = net.arch().l1() >= 1024;
    for path in KernelPath::all() {
        measure(c, name, path.isa().name(), fast, path, inputs, slow);
    }
    measure(c, name, "generic", &Evaluator::new(&net), KernelPath::SCALAR, inputs, slow);
}

fn benches(c: &mut Criterion) {
    let inputs = inputs();
    let default = nnue_testkit::root().join("nets/default.nnue");
    bench_net(c, "default", &default_net::NETWORK, default.to_str().unwrap(), Some(default_net::ARCHITECTURE), &inputs);
    if cfg!(nnue_real_sf17_small) {
        bench_net(c, "sf17-small", &sf17_small::NETWORK, env!("NNUE_REAL_SF17_SMALL"), None, &inputs);
    } else {
        eprintln!("SKIPPED sf17-small: the net is in neither ../shared/nets/ nor nets/fetched/");
    }
    if cfg!(nnue_real_sf17_big) {
        bench_net(c, "sf17-big", &sf17_big::NETWORK, env!("NNUE_REAL_SF17_BIG"), None, &inputs);
    } else {
        eprintln!("SKIPPED sf17-big: the net is in neither ../shared/nets/ nor nets/fetched/");
    }
    if cfg!(nnue_real_sf18_big) {
        bench_net(c, "sf18-big", &sf18_big::NETWORK, env!("NNUE_REAL_SF18_BIG"), None, &inputs);
    } else {
        eprintln!("SKIPPED sf18-big: the net is in neither ../shared/nets/ nor nets/fetched/");
    }
    if cfg!(nnue_real_sf19_big) {
        bench_net(c, "sf19-big", &sf19_big::NETWORK, env!("NNUE_REAL_SF19_BIG"), None, &inputs);
    } else {
        eprintln!("SKIPPED sf19-big: the net is in neither ../shared/nets/ nor nets/fetched/");
    }
    if cfg!(nnue_real_sf19_lite) {
        bench_net(c, "sf19-lite", &sf19_lite::NETWORK, env!("NNUE_REAL_SF19_LITE"), None, &inputs);
    } else {
        eprintln!("SKIPPED sf19-lite: the net is in neither ../shared/nets/ nor nets/fetched/");
    }
    bench_net(c, "halfkp-256", &halfkp_256::NETWORK, env!("NNUE_SYNTH_HALFKP256"), None, &inputs);
    let arch = env!("NNUE_SYNTH_CHESS768_1024_ARCH");
    bench_net(c, "screlu-1024x16x8", &screlu_1024::NETWORK, env!("NNUE_SYNTH_CHESS768_1024"), Some(arch), &inputs);
}

criterion_group!(eval, benches);
criterion_main!(eval);
