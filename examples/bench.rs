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

use std::hint::black_box;
use std::time::{Duration, Instant};

use nnue_runtime::{Color, Evaluator, KernelPath, Network, Piece, PieceType, Position, Square};

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

fn main() {
    let mut args = std::env::args().skip(1);
    let fens = match (args.next().as_deref(), args.next()) {
        (Some("--fens"), Some(file)) => file.into(),
        (None, _) => nnue_testkit::root().join("data/positions.txt"),
        _ => {
            eprintln!("usage: EVALFILE=FILE cargo run --release --example bench [-- --fens FILE]");
            std::process::exit(2);
        }
    };
    let positions = nnue_testkit::read_fens(fens);
    // The generic evaluator reads the same file the macro compiled in.
    let file = option_env!("EVALFILE").filter(|f| !f.is_empty());
    let (file, arch) = match file {
        Some(f) => (nnue_testkit::root().join(f), option_env!("EVALFILE_ARCH")),
        None => (nnue_testkit::root().join("nets/default.nnue"), Some(net::ARCHITECTURE)),
    };
    let generic_net = nnue_testkit::read_net(&file, arch);
    eprintln!("{}: {} ({} positions)", file.display(), net::ARCHITECTURE, positions.len());
    variant("generic", &Evaluator::new(&generic_net), KernelPath::SCALAR, &positions);
    for path in KernelPath::all() {
        variant(path.isa().name(), &net::NETWORK, path, &positions);
    }
}
