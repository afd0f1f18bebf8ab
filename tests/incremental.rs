//! Incremental accumulators along random games (seeded, thousands of plies): after every make
//! and unmake, the accumulator stack equals a full refresh and a cached refresh, for both
//! perspectives, on every path; and the generated net's evaluation equals the generic one's.

use nnue_runtime::format::synth::Rng;
use nnue_runtime::{AccumulatorStack, Color, Evaluator, KernelPath, Network, RefreshCache};
use nnue_testkit::chess;
use shakmaty::{Chess, Position as _};

nnue_runtime::nnue_net!(name = sfnn64, env = "NNUE_SYNTH_SFNN64");
nnue_runtime::nnue_net!(name = threats64, env = "NNUE_SYNTH_THREATS64");
nnue_runtime::nnue_net!(name = threats128, env = "NNUE_SYNTH_THREATS128");
nnue_runtime::nnue_net!(name = sf19_64, env = "NNUE_SYNTH_SF19_64");
nnue_runtime::nnue_net!(name = sf19_lite_128, env = "NNUE_SYNTH_SF19_LITE_128");
nnue_runtime::nnue_net!(name = sf19_v17_64, env = "NNUE_SYNTH_SF19_V17_64");
nnue_runtime::nnue_net!(name = halfkp64, env = "NNUE_SYNTH_HALFKP64");
nnue_runtime::nnue_net!(name = chess768_96, env = "NNUE_SYNTH_CHESS768_96");
nnue_runtime::nnue_net!(name = chess768_128, env = "NNUE_SYNTH_CHESS768_128");
nnue_runtime::nnue_net!(name = chess768_128_dead, env = "NNUE_SYNTH_CHESS768_128_DEAD");
nnue_runtime::nnue_net!(name = layered_threats_64, env = "NNUE_SYNTH_LAYERED_THREATS_64");
nnue_runtime::nnue_net!(name = layered_threats_128_wrap, env = "NNUE_SYNTH_LAYERED_THREATS_128_WRAP");
nnue_runtime::nnue_net!(name = layered_pairs_threats_64, env = "NNUE_SYNTH_LAYERED_PAIRS_THREATS_64");
nnue_runtime::nnue_net!(name = layered_merged_pairs_threats_64, env = "NNUE_SYNTH_LAYERED_MERGED_PAIRS_THREATS_64");
nnue_runtime::nnue_net!(
    name = layered_custom_64,
    env = "NNUE_SYNTH_LAYERED_CUSTOM_64",
    block = nnue_testkit::custom_block::PAWN_FILES_BISHOP_PAIRS,
);
nnue_runtime::nnue_net!(
    name = layered_pairs_threats_custom_64,
    env = "NNUE_SYNTH_LAYERED_PAIRS_THREATS_CUSTOM_64",
    block = nnue_testkit::custom_block::PAWN_FILES_BISHOP_PAIRS,
);

/// Plays `games` random games of up to `plies` plies; at each ply it also makes and unmakes a
/// couple of sibling moves, as a search does.
fn random_games<N: Network>(
    net: &N,
    generic: &Evaluator,
    path: KernelPath,
    seed: u64,
    games: usize,
    plies: usize,
) -> usize
where
    N::Accumulator: PartialEq + std::fmt::Debug,
{
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    // One stack and one cache for all games, as in an engine: a new game meets cache entries
    // left by the last one, far from it.
    let start = chess::position(&Chess::default());
    let mut stack = AccumulatorStack::with_path(net, &start, path);
    let mut generic_stack = AccumulatorStack::new(generic, &start);
    let mut cache = RefreshCache::with_path(net, path);
    for _ in 0..games {
        let mut game = Chess::default();
        stack.reset(net, &start);
        generic_stack.reset(generic, &start);
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Siblings: make, check, unmake.
            for _ in 0..2 {
                let mv = &moves[rng.range(0, moves.len() as i64 - 1) as usize];
                stack.push(chess::dirty(&game, mv));
                let child = game.clone().play(*mv).unwrap();
                check(net, generic, path, &mut stack, &mut cache, &chess::position(&child));
                stack.pop();
                checked += 1;
            }
            let here = chess::position(&game);
            check(net, generic, path, &mut stack, &mut cache, &here);
            let mv = moves[rng.range(0, moves.len() as i64 - 1) as usize];
            let dirty = chess::dirty(&game, &mv);
            stack.push(dirty);
            generic_stack.push(dirty);
            game = game.play(mv).unwrap();
            let pos = chess::position(&game);
            let want = Network::evaluate(generic, &pos);
            assert_eq!(generic_stack.evaluate(generic, &pos), want, "generic stack");
            assert_eq!(stack.evaluate(net, &pos), want, "generated stack on {path}");
            checked += 1;
        }
    }
    checked
}

fn check<N: Network>(
    net: &N,
    generic: &Evaluator,
    path: KernelPath,
    stack: &mut AccumulatorStack<N>,
    cache: &mut RefreshCache<N::Accumulator>,
    pos: &nnue_runtime::Position,
) where
    N::Accumulator: PartialEq + std::fmt::Debug,
{
    let mut fresh = net.new_accumulator();
    let mut cached = net.new_accumulator();
    for p in Color::BOTH {
        net.refresh_on(path, pos, p, &mut fresh);
        cache.refresh(net, pos, p, &mut cached);
    }
    assert_eq!(&cached, &fresh, "cached refresh on {path}");
    assert_eq!(stack.current(net, pos), &fresh, "incremental on {path}");
    let eval = net.forward_on(path, &fresh, pos.side_to_move(), pos.piece_count());
    assert_eq!(eval, Network::evaluate(generic, pos), "generated vs generic on {path}");
}

macro_rules! incremental_test {
    ($test:ident, $module:ident, $var:literal, $seed:literal) => {
        #[test]
        fn $test() {
            let net = nnue_testkit::read_net(env!($var), option_env!(concat!($var, "_ARCH")));
            let generic = Evaluator::new(&net);
            for path in KernelPath::all() {
                let n = random_games(&$module::NETWORK, &generic, path, $seed, 8, 160);
                assert!(n > 1000, "{n} plies checked");
            }
        }
    };
}

incremental_test!(halfkav2_hm, sfnn64, "NNUE_SYNTH_SFNN64", 1);
incremental_test!(halfkav2_hm_threats_64, threats64, "NNUE_SYNTH_THREATS64", 5);
incremental_test!(halfkav2_hm_threats_128, threats128, "NNUE_SYNTH_THREATS128", 6);
incremental_test!(sf19_threats_pawn_pairs_64, sf19_64, "NNUE_SYNTH_SF19_64", 7);
incremental_test!(sf19_lite_128, sf19_lite_128, "NNUE_SYNTH_SF19_LITE_128", 8);
incremental_test!(sfnn_v17_64, sf19_v17_64, "NNUE_SYNTH_SF19_V17_64", 12);
incremental_test!(halfkp, halfkp64, "NNUE_SYNTH_HALFKP64", 2);
incremental_test!(chess768_king_buckets_mirrored, chess768_96, "NNUE_SYNTH_CHESS768_96", 3);
incremental_test!(chess768, chess768_128, "NNUE_SYNTH_CHESS768_128", 4);
incremental_test!(chess768_dead_columns_left_out, chess768_128_dead, "NNUE_SYNTH_CHESS768_128_DEAD", 5);
incremental_test!(chess768_king_buckets_with_threats_64, layered_threats_64, "NNUE_SYNTH_LAYERED_THREATS_64", 9);
incremental_test!(
    chess768_king_buckets_with_pawn_pairs_and_threats_64,
    layered_pairs_threats_64,
    "NNUE_SYNTH_LAYERED_PAIRS_THREATS_64",
    11
);
incremental_test!(
    chess704_merged_kings_with_pawn_pairs_and_threats_64,
    layered_merged_pairs_threats_64,
    "NNUE_SYNTH_LAYERED_MERGED_PAIRS_THREATS_64",
    13
);
incremental_test!(
    chess768_king_buckets_with_threats_128_wrap,
    layered_threats_128_wrap,
    "NNUE_SYNTH_LAYERED_THREATS_128_WRAP",
    10
);

/// An engine-defined input block (testkit's pawn files and bishop pairs, its changes the
/// trait's default difference of two lists): compiled in, loaded at run time with the block
/// bound, and through the generic evaluator's own stack, on every path.
#[test]
fn chess768_king_buckets_with_an_engine_defined_block_64() {
    use nnue_testkit::custom_block::PAWN_FILES_BISHOP_PAIRS;
    let var = env!("NNUE_SYNTH_LAYERED_CUSTOM_64");
    let mut net = nnue_testkit::read_net(var, Some(env!("NNUE_SYNTH_LAYERED_CUSTOM_64_ARCH")));
    let unbound = nnue_runtime::loaded::FastWeights::new(&net).err().map(|e| e.to_string());
    assert!(unbound.is_some_and(|e| e.contains("no implementation")), "an unbound block is refused");
    net.bind_block(&PAWN_FILES_BISHOP_PAIRS).unwrap();
    let generic = Evaluator::new(&net);
    assert_eq!(Network::feature_set(&layered_custom_64::NETWORK), generic.features());
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.layered_threats::<64, 32, 16, 18, 2304, 16, 16, 32, 4>().unwrap();
    for path in KernelPath::all() {
        let n = random_games(&layered_custom_64::NETWORK, &generic, path, 14, 8, 160);
        assert!(n > 1000, "{n} plies checked");
        assert!(random_games(&loaded, &generic, path, 15, 4, 160) > 500);
    }
    assert!(random_games(&generic, &generic, KernelPath::SCALAR, 16, 4, 160) > 500);
}

/// The engine's block after pawn pairs and Stockfish 19's threats: the stack logs threat
/// changes and lists the block's, compiled in, loaded and generic, on every path.
#[test]
fn chess768_king_buckets_with_pawn_pairs_threats_and_an_engine_defined_block_64() {
    use nnue_testkit::custom_block::PAWN_FILES_BISHOP_PAIRS;
    let var = env!("NNUE_SYNTH_LAYERED_PAIRS_THREATS_CUSTOM_64");
    let mut net = nnue_testkit::read_net(var, Some(env!("NNUE_SYNTH_LAYERED_PAIRS_THREATS_CUSTOM_64_ARCH")));
    net.bind_block(&PAWN_FILES_BISHOP_PAIRS).unwrap();
    let generic = Evaluator::new(&net);
    assert_eq!(Network::feature_set(&layered_pairs_threats_custom_64::NETWORK), generic.features());
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.layered_threats::<64, 32, 16, { 4560 + 59808 + 18 }, 2304, 16, 32, 32, 8>().unwrap();
    for path in KernelPath::all() {
        let n = random_games(&layered_pairs_threats_custom_64::NETWORK, &generic, path, 17, 8, 160);
        assert!(n > 1000, "{n} plies checked");
        assert!(random_games(&loaded, &generic, path, 18, 4, 160) > 500);
    }
    assert!(random_games(&generic, &generic, KernelPath::SCALAR, 19, 4, 160) > 500);
}

/// Threat nets through the generic evaluator: the stack keeps a board per ply and updates by
/// piece and threat deltas; after every make and unmake it equals a refresh.
#[test]
fn halfkav2_hm_threats_generic() {
    for (var, arch, seed) in [
        (env!("NNUE_SYNTH_THREATS64"), None, 5),
        (env!("NNUE_SYNTH_THREATS128"), None, 6),
        (env!("NNUE_SYNTH_SF19_64"), None, 7),
        (env!("NNUE_SYNTH_LAYERED_THREATS_64"), Some(env!("NNUE_SYNTH_LAYERED_THREATS_64_ARCH")), 9),
    ] {
        let net = nnue_testkit::read_net(var, arch);
        let generic = Evaluator::new(&net);
        let n = random_games(&generic, &generic, KernelPath::SCALAR, seed, 8, 160);
        assert!(n > 1000, "{n} plies checked");
    }
}
