//! `nnue_net!` output equals the reference evaluator, layer by layer, on every path this CPU
//! has, for synthetic nets of every family and several sizes (written by build.rs with our
//! own writer) and for the real Stockfish nets when present.

use nnue_runtime::Position;
use nnue_testkit::{assert_matches_reference, random_positions};

nnue_runtime::nnue_net!(name = sfnn64, env = "NNUE_SYNTH_SFNN64");
nnue_runtime::nnue_net!(name = sfnn128, env = "NNUE_SYNTH_SFNN128");
nnue_runtime::nnue_net!(name = sfnn256, env = "NNUE_SYNTH_SFNN256");
nnue_runtime::nnue_net!(name = halfkp64, env = "NNUE_SYNTH_HALFKP64");
nnue_runtime::nnue_net!(name = halfkp256, env = "NNUE_SYNTH_HALFKP256");
nnue_runtime::nnue_net!(name = threats64, env = "NNUE_SYNTH_THREATS64");
nnue_runtime::nnue_net!(name = threats128, env = "NNUE_SYNTH_THREATS128");
nnue_runtime::nnue_net!(name = sf19_64, env = "NNUE_SYNTH_SF19_64");
nnue_runtime::nnue_net!(name = sf19_lite_128, env = "NNUE_SYNTH_SF19_LITE_128");
nnue_runtime::nnue_net!(name = sf19_lite_64_wrap, env = "NNUE_SYNTH_SF19_LITE_64_WRAP");
nnue_runtime::nnue_net!(name = sf19_v17_64, env = "NNUE_SYNTH_SF19_V17_64");
nnue_runtime::nnue_net!(name = sf19_v17_lite_128, env = "NNUE_SYNTH_SF19_V17_LITE_128");
nnue_runtime::nnue_net!(name = chess768_64, env = "NNUE_SYNTH_CHESS768_64");
nnue_runtime::nnue_net!(name = chess768_128, env = "NNUE_SYNTH_CHESS768_128");
nnue_runtime::nnue_net!(name = chess768_128_dead, env = "NNUE_SYNTH_CHESS768_128_DEAD");
// The same net as `halfkp64`, its layers stated (the macro checks the net computes them).
nnue_runtime::nnue_net! {
    name = halfkp64_described,
    env = "NNUE_SYNTH_HALFKP64",
    layers = "
        bucket 0
        r0 = clamp(acc, 0, 127), side to move first (bytes)
        r1 = fc0 * r0 + b (int8)
        r2 = clamp(r1 >> 6, 0, 127)
        r3 = fc1 * r2 + b (int8)
        r4 = clamp(r3 >> 6, 0, 127)
        r5 = fc2 * r4 + b (int8)
        r6 = r5 / 16
        positional = r6
    ",
}
nnue_runtime::nnue_net!(name = chess768_96, env = "NNUE_SYNTH_CHESS768_96");
nnue_runtime::nnue_net!(name = chess768_1024, env = "NNUE_SYNTH_CHESS768_1024");
nnue_runtime::nnue_net!(name = sfnn64_wrap, env = "NNUE_SYNTH_SFNN64_WRAP");
nnue_runtime::nnue_net!(name = sfnn192_wrap, env = "NNUE_SYNTH_SFNN192_WRAP");
nnue_runtime::nnue_net!(name = halfkp64_wrap, env = "NNUE_SYNTH_HALFKP64_WRAP");
nnue_runtime::nnue_net!(name = chess768_64_wrap, env = "NNUE_SYNTH_CHESS768_64_WRAP");
nnue_runtime::nnue_net!(name = chess768_128_wrap, env = "NNUE_SYNTH_CHESS768_128_WRAP");
nnue_runtime::nnue_net!(name = layered_f32_64, env = "NNUE_SYNTH_LAYERED_F32_64");
nnue_runtime::nnue_net!(name = layered_i32_128_wrap, env = "NNUE_SYNTH_LAYERED_I32_128_WRAP");
nnue_runtime::nnue_net!(name = layered_threats_64, env = "NNUE_SYNTH_LAYERED_THREATS_64");
nnue_runtime::nnue_net!(name = layered_viridithas_avx2, env = "NNUE_SYNTH_LAYERED_VIRIDITHAS_AVX2_1024");
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
nnue_runtime::nnue_net!(name = layered_threats_128_wrap, env = "NNUE_SYNTH_LAYERED_THREATS_128_WRAP");
nnue_runtime::nnue_net!(name = layered_pairs_threats_64, env = "NNUE_SYNTH_LAYERED_PAIRS_THREATS_64");
nnue_runtime::nnue_net!(name = layered_pairs_threats_128_wrap, env = "NNUE_SYNTH_LAYERED_PAIRS_THREATS_128_WRAP");
// The same net zstd-compressed, as Stormphrax ships its nets.
nnue_runtime::nnue_net!(name = layered_i32_128_zstd, env = "NNUE_SYNTH_LAYERED_I32_128_ZSTD");
// The same nets with their neurons in another order, from `<VAR>_NEURON_ORDER` beside each
// net's variable (`neuron_order = "…"` for a file named in the macro: `nnue-macros/tests/ui-pass/`).
nnue_runtime::nnue_net!(name = sfnn128_reordered, env = "NNUE_SYNTH_SFNN128_ORDERED");
nnue_runtime::nnue_net!(name = sf19_64_reordered, env = "NNUE_SYNTH_SF19_64_ORDERED");
nnue_runtime::nnue_net!(name = layered_f32_64_reordered, env = "NNUE_SYNTH_LAYERED_F32_64_ORDERED");

// Layer sequences of one's own over the arrays of a file layout (`compute`): Stockfish 19's
// stacks with other activation shifts, fc_0's last output subtracted instead of the skip and
// another output scale; a multi-layer f32 net with another rescaling, a clipped dense layer and
// another output scale.
nnue_runtime::nnue_net! {
    name = sf19_64_own,
    env = "NNUE_SYNTH_SF19_64",
    compute = "
        bucket (pieces - 1) / 4
        r0 = clamp(a, 0, 255) * clamp(a', 0, 255) >> 9, per half, side to move first
        r1 = fc0 * r0 + b (int8)
        r2 = min(127, r1^2 >> 20)
        r3 = clamp(r1 >> 8, 0, 127)
        r4 = r2 ++ r3
        r5 = fc1 * r4 + b (int8)
        r6 = min(127, r5^2 >> 18)
        r7 = clamp(r5 >> 5, 0, 127)
        r8 = r4 ++ r6 ++ r7
        r9 = fc2 * r8 + b (int8)
        r10 = r1[31..32]
        r11 = r9 - r10
        r12 = r11 * 600
        r13 = r12 / 1024
        positional = r13; psqt = (us - them) / 2 / 32
    ",
}
nnue_runtime::nnue_net! {
    name = layered_f32_64_own,
    env = "NNUE_SYNTH_LAYERED_F32_64",
    compute = "
        bucket min((63 - pieces)(32 - pieces) / 225, 7)
        r0 = clamp(a, 0, 255) * clamp(a', 0, 255) >> 10, per half, side to move first
        r1 = l1 * r0 (int8)
        r2 = fma(f32(r1), 1000/4161600, l1.b)
        r3 = clamp(r2, 0.0, 1.0) ++ min(r2^2, 1.0)
        r4 = l2 * r3 + b (f32, fma in order)
        r5 = clamp(r4, 0.0, 1.0)
        r6 = l3 * r5 + b (f32, 16 lanes)
        r7 = int(r6 * 400)
        positional = r7
    ",
}

/// Random placements plus the oracle's real positions (when present).
fn positions(seed: u64) -> Vec<Position> {
    let mut p = random_positions(seed, 200);
    if let Some(rows) = nnue_testkit::oracle("stockfish-eval.tsv") {
        p.extend(rows.iter().take(200).map(|r| Position::from_fen(&r.fen).unwrap()));
    }
    p
}

macro_rules! synthetic_test {
    ($test:ident, $module:ident, $var:literal) => {
        #[test]
        fn $test() {
            let net = nnue_testkit::read_net(env!($var), option_env!(concat!($var, "_ARCH")));
            assert_eq!(net.arch().to_string(), $module::ARCHITECTURE);
            // The macro names the feature set as a constant of the module's `Features`: the
            // one the runtime derives from the architecture.
            let features = nnue_runtime::features::FeatureSet::for_arch(&net.arch());
            assert_eq!(nnue_runtime::Network::feature_set(&$module::NETWORK), features);
            assert!(assert_matches_reference(&net, &$module::NETWORK, &positions(7)) > 0);
        }
    };
}

synthetic_test!(sfnn_l1_64, sfnn64, "NNUE_SYNTH_SFNN64");
synthetic_test!(sfnn_l1_128, sfnn128, "NNUE_SYNTH_SFNN128");
synthetic_test!(sfnn_l1_256, sfnn256, "NNUE_SYNTH_SFNN256");
synthetic_test!(threats_l1_64, threats64, "NNUE_SYNTH_THREATS64");
synthetic_test!(threats_l1_128, threats128, "NNUE_SYNTH_THREATS128");
synthetic_test!(sf19_l1_64, sf19_64, "NNUE_SYNTH_SF19_64");
synthetic_test!(sf19_lite_l1_128, sf19_lite_128, "NNUE_SYNTH_SF19_LITE_128");
synthetic_test!(sfnn_v17_l1_64, sf19_v17_64, "NNUE_SYNTH_SF19_V17_64");
synthetic_test!(sfnn_v17_lite_l1_128, sf19_v17_lite_128, "NNUE_SYNTH_SF19_V17_LITE_128");
synthetic_test!(halfkp_l1_64, halfkp64, "NNUE_SYNTH_HALFKP64");
synthetic_test!(halfkp_l1_256, halfkp256, "NNUE_SYNTH_HALFKP256");
synthetic_test!(chess768_crelu_64, chess768_64, "NNUE_SYNTH_CHESS768_64");
synthetic_test!(layered_f32_64, layered_f32_64, "NNUE_SYNTH_LAYERED_F32_64");
synthetic_test!(layered_i32_128_wrap, layered_i32_128_wrap, "NNUE_SYNTH_LAYERED_I32_128_WRAP");
synthetic_test!(layered_threats_64, layered_threats_64, "NNUE_SYNTH_LAYERED_THREATS_64");

/// Viridithas's AVX2 sums (`l1sums=viridithas-avx2`): the generated and the loaded net, their
/// neurons in Viridithas's order, equal the reference on every path, which differs from the
/// exact sums and from plain int16 pairs on this net.
#[test]
fn layered_viridithas_avx2_sums() {
    let var = env!("NNUE_SYNTH_LAYERED_VIRIDITHAS_AVX2_1024");
    let net = nnue_testkit::read_net(var, option_env!("NNUE_SYNTH_LAYERED_VIRIDITHAS_AVX2_1024_ARCH"));
    assert_eq!(net.arch().to_string(), layered_viridithas_avx2::ARCHITECTURE);
    let positions = positions(7);
    assert!(assert_matches_reference(&net, &layered_viridithas_avx2::NETWORK, &positions) > 0);
    let weights = nnue_runtime::loaded::FastWeights::new(&net).unwrap();
    let loaded = weights.layered::<1024, 512, 256, 768, 16, 16, 32, 2>().unwrap();
    assert!(assert_matches_reference(&net, &loaded, &positions) > 0);
    let reference = nnue_runtime::Evaluator::new(&net);
    for other in ["exact", "i16pairs"] {
        let text = net.arch().to_string().replace("l1sums=viridithas-avx2", &format!("l1sums={other}"));
        let other_net = nnue_testkit::read_net(var, Some(&text));
        let other_eval = nnue_runtime::Evaluator::new(&other_net);
        let differ = positions.iter().filter(|p| reference.evaluate(p) != other_eval.evaluate(p)).count();
        assert!(differ > 0, "l1sums={other} gives the same values on every position");
    }
}

/// An engine-defined input block (`threats=custom:18`, `block = PATH`): the generated net reads
/// the block the engine gave, as the reference does once the block is bound.
#[test]
fn layered_custom_block_64() {
    let var = "NNUE_SYNTH_LAYERED_CUSTOM_64";
    let mut net =
        nnue_testkit::read_net(env!("NNUE_SYNTH_LAYERED_CUSTOM_64"), option_env!("NNUE_SYNTH_LAYERED_CUSTOM_64_ARCH"));
    assert_eq!(net.arch().to_string(), layered_custom_64::ARCHITECTURE, "{var}");
    net.bind_block(&nnue_testkit::custom_block::PAWN_FILES_BISHOP_PAIRS).unwrap();
    let features = nnue_runtime::features::FeatureSet::for_arch(&net.arch());
    assert_eq!(nnue_runtime::Network::feature_set(&layered_custom_64::NETWORK), features);
    assert!(assert_matches_reference(&net, &layered_custom_64::NETWORK, &positions(7)) > 0);
    // The block's rows count: the net with a block that lists nothing evaluates otherwise.
    #[derive(Debug)]
    struct Silent;
    use nnue_runtime::features::threats::Board;
    impl nnue_runtime::features::InputBlock for Silent {
        fn inputs(&self) -> usize {
            18
        }
        fn active(&self, _: &Board, _: nnue_runtime::Color, _: nnue_runtime::Square, _: &mut Vec<usize>) {}
    }
    static SILENT: Silent = Silent;
    let mut silent = net.clone();
    silent.bind_block(&SILENT).unwrap();
    let (a, b) = (nnue_runtime::Evaluator::new(&net), nnue_runtime::Evaluator::new(&silent));
    let differ = positions(7).iter().filter(|p| a.evaluate(p) != b.evaluate(p)).count();
    assert!(differ > 100, "{differ} positions differ");
}
/// The engine's block after the library's (`threats=pawnpairs+sf19+custom:18`): its rows
/// follow the pawn pairs' and the threats', on every path.
#[test]
fn layered_pairs_threats_and_a_custom_block_64() {
    let var = "NNUE_SYNTH_LAYERED_PAIRS_THREATS_CUSTOM_64";
    let mut net = nnue_testkit::read_net(
        env!("NNUE_SYNTH_LAYERED_PAIRS_THREATS_CUSTOM_64"),
        option_env!("NNUE_SYNTH_LAYERED_PAIRS_THREATS_CUSTOM_64_ARCH"),
    );
    assert_eq!(net.arch().to_string(), layered_pairs_threats_custom_64::ARCHITECTURE, "{var}");
    assert!(net.has_unbound_block());
    net.bind_block(&nnue_testkit::custom_block::PAWN_FILES_BISHOP_PAIRS).unwrap();
    let features = nnue_runtime::features::FeatureSet::for_arch(&net.arch());
    assert_eq!(nnue_runtime::Network::feature_set(&layered_pairs_threats_custom_64::NETWORK), features);
    let blocks: Vec<String> = features.blocks().iter().map(|b| format!("{b:?}")).collect();
    assert_eq!(blocks.len(), 3, "{blocks:?}");
    assert!(blocks[0] == "PawnPairs" && blocks[1] == "Threats(Sf19)" && blocks[2].starts_with("Custom"), "{blocks:?}");
    assert_eq!(features.pieces_offset(), 4560 + 59808 + 18);
    assert!(assert_matches_reference(&net, &layered_pairs_threats_custom_64::NETWORK, &positions(8)) > 0);
}
synthetic_test!(layered_threats_128_wrap, layered_threats_128_wrap, "NNUE_SYNTH_LAYERED_THREATS_128_WRAP");
synthetic_test!(layered_pairs_threats_64, layered_pairs_threats_64, "NNUE_SYNTH_LAYERED_PAIRS_THREATS_64");
synthetic_test!(
    layered_pairs_threats_128_wrap,
    layered_pairs_threats_128_wrap,
    "NNUE_SYNTH_LAYERED_PAIRS_THREATS_128_WRAP"
);
synthetic_test!(layered_i32_128_zstd, layered_i32_128_zstd, "NNUE_SYNTH_LAYERED_I32_128_ZSTD");
synthetic_test!(chess768_screlu_128x8, chess768_128, "NNUE_SYNTH_CHESS768_128");
synthetic_test!(chess768_dead_columns_left_out, chess768_128_dead, "NNUE_SYNTH_CHESS768_128_DEAD");

/// A net compiled with its neurons in another order equals, layer by layer, the reference of
/// the net reordered so, and evaluates every position as the net in its own order, on every
/// path.
macro_rules! reordered_test {
    ($test:ident, $module:ident, $plain:ident, $var:literal) => {
        #[test]
        fn $test() {
            use nnue_runtime::format::neuron_order::read_order_file;
            use nnue_runtime::{KernelPath, Network};
            assert_eq!($plain::NEURON_ORDER, None);
            let file = $module::NEURON_ORDER.expect("the order compiled in");
            let order = read_order_file(file).unwrap();
            let mut net = nnue_testkit::read_net(env!($var), option_env!(concat!($var, "_ARCH")));
            net.reorder_neurons(&order).unwrap();
            assert!(assert_matches_reference(&net, &$module::NETWORK, &positions(7)) > 0);
            for pos in positions(8) {
                for path in KernelPath::all() {
                    assert_eq!($module::NETWORK.evaluate_on(path, &pos), $plain::NETWORK.evaluate_on(path, &pos));
                }
            }
        }
    };
}

reordered_test!(sfnn_l1_128_reordered, sfnn128_reordered, sfnn128, "NNUE_SYNTH_SFNN128");
reordered_test!(sf19_l1_64_reordered, sf19_64_reordered, sf19_64, "NNUE_SYNTH_SF19_64");
reordered_test!(layered_f32_64_reordered, layered_f32_64_reordered, layered_f32_64, "NNUE_SYNTH_LAYERED_F32_64");

/// A net compiled with layers of its own equals the reference computing the same layers, on
/// every path, and not the net's own layers.
macro_rules! own_layers_test {
    ($test:ident, $module:ident, $own:ident, $var:literal) => {
        #[test]
        fn $test() {
            use nnue_runtime::Network;
            let net = nnue_testkit::read_net(env!($var), option_env!(concat!($var, "_ARCH")));
            let layers: nnue_runtime::format::Layers = $own::LAYERS.parse().unwrap();
            assert!(!layers.computes_as(&net.arch().layers()));
            let reference = nnue_runtime::Evaluator::with_layers(&net, layers).unwrap();
            let positions = positions(12);
            let n = nnue_runtime::reference::verify_with(&reference, &$own::NETWORK, &positions);
            assert!(n.unwrap_or_else(|e| panic!("{e}")) > 0);
            let differ = positions.iter().filter(|p| $own::NETWORK.evaluate(p) != $module::NETWORK.evaluate(p)).count();
            assert!(differ > positions.len() / 2, "only {differ} of {} evaluations differ", positions.len());
        }
    };
}

own_layers_test!(sf19_with_layers_of_its_own, sf19_64, sf19_64_own, "NNUE_SYNTH_SF19_64");
own_layers_test!(layered_f32_with_layers_of_its_own, layered_f32_64, layered_f32_64_own, "NNUE_SYNTH_LAYERED_F32_64");

#[test]
fn a_net_with_its_layers_stated_is_the_same_net() {
    use nnue_runtime::Network;
    for pos in positions(4) {
        assert_eq!(halfkp64_described::NETWORK.evaluate(&pos), halfkp64::NETWORK.evaluate(&pos));
    }
}

/// The macro leaves out 32 of the 40 columns no position makes positive (a width of 96, a
/// multiple of 32) and keeps the 40 that some positions do; `chess768_dead_columns_left_out`
/// checks the evaluations are the reference's.
#[test]
fn dead_columns_are_left_out_and_only_they() {
    assert_eq!(chess768_128_dead::L1, 96);
    assert_eq!(chess768_128_dead::ARCHITECTURE, "(768 -> 128)x2 -> 1x8, crelu, qa=255, qb=64, scale=400");
    let net = nnue_testkit::read_net(env!("NNUE_SYNTH_CHESS768_128_DEAD"), Some(chess768_128_dead::ARCHITECTURE));
    let nnue_runtime::format::Model::Chess768(_, p) = &net.model else { unreachable!() };
    assert_eq!(nnue_runtime::format::layout::chess768_dead_columns(p).len(), 40);
}
synthetic_test!(chess768_kings4_96x4, chess768_96, "NNUE_SYNTH_CHESS768_96");
synthetic_test!(chess768_kings16_1024x8, chess768_1024, "NNUE_SYNTH_CHESS768_1024");

/// Nets whose accumulators wrap: the same, and the wrap really happens on the test positions.
macro_rules! wrapping_test {
    ($test:ident, $module:ident, $var:literal) => {
        #[test]
        fn $test() {
            let net = nnue_testkit::read_net(env!($var), option_env!(concat!($var, "_ARCH")));
            let positions = positions(9);
            let wrapped = positions.iter().filter(|p| nnue_testkit::first_layer_wraps(&net, p)).count();
            assert!(wrapped > positions.len() / 10, "only {wrapped} of {} positions wrap", positions.len());
            assert!(assert_matches_reference(&net, &$module::NETWORK, &positions) > 0);
        }
    };
}

wrapping_test!(sfnn_l1_64_wrapping, sfnn64_wrap, "NNUE_SYNTH_SFNN64_WRAP");
wrapping_test!(sfnn_l1_192_wrapping, sfnn192_wrap, "NNUE_SYNTH_SFNN192_WRAP");
wrapping_test!(sf19_lite_l1_64_wrapping, sf19_lite_64_wrap, "NNUE_SYNTH_SF19_LITE_64_WRAP");
wrapping_test!(halfkp_l1_64_wrapping, halfkp64_wrap, "NNUE_SYNTH_HALFKP64_WRAP");
wrapping_test!(chess768_crelu_64_wrapping, chess768_64_wrap, "NNUE_SYNTH_CHESS768_64_WRAP");
wrapping_test!(chess768_screlu_128x8_wrapping, chess768_128_wrap, "NNUE_SYNTH_CHESS768_128_WRAP");

#[test]
fn default_net_compiles_and_matches() {
    nnue_runtime::nnue_net!(
        name = default,
        path = "nets/default.nnue",
        arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400"
    );
    let net = nnue_testkit::read_net(nnue_testkit::root().join("nets/default.nnue"), Some(default::ARCHITECTURE));
    assert_matches_reference(&net, &default::NETWORK, &positions(8));
}
