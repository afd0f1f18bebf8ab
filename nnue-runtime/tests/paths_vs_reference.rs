//! Every kernel path equals the reference evaluator, layer by layer, on synthetic nets of every
//! family and several sizes (seeded, written and read back by our own writer and reader), each
//! also with a first layer whose accumulators wrap.

use nnue_format::synth;
use nnue_format::{Architecture, Encoding, Net};
use nnue_runtime::loaded::FastWeights;
use nnue_runtime::position::random_positions;
use nnue_runtime::{Evaluator, Network, Position};

fn round_trip(net: Net) -> Net {
    let bytes = net.to_bytes();
    let back = Net::from_bytes(&bytes, Some(&net.arch())).expect("synthetic net reads back");
    assert_eq!(back, net);
    back
}

/// The net, or (`wraps`) the same with a first layer whose accumulators wrap.
fn maybe_wrapping(net: Net, wraps: bool) -> Net {
    if wraps {
        synth::with_wrapping_first_layer(net, 99)
    } else {
        net
    }
}

fn check<N: Network>(net: &Net, fast: &N, positions: &[Position]) {
    nnue_runtime::reference::verify(net, fast, positions).unwrap();
}

#[test]
fn sfnn_every_path_matches_reference() {
    let positions = random_positions(1, 300);
    let cases = [(64, 11, Encoding::Leb128), (128, 12, Encoding::Raw), (256, 13, Encoding::Leb128)];
    for ((l1, seed, enc), wraps) in cases.into_iter().flat_map(|c| [(c, false), (c, true)]) {
        let net = round_trip(maybe_wrapping(synth::sfnn(l1, seed, enc), wraps));
        let w = FastWeights::new(&net).unwrap();
        match l1 {
            64 => check(&net, &w.sfnn::<64, 32, 16>().unwrap(), &positions),
            128 => check(&net, &w.sfnn::<128, 64, 32>().unwrap(), &positions),
            _ => check(&net, &w.sfnn::<256, 128, 64>().unwrap(), &positions),
        }
    }
}

#[test]
fn threats_every_path_matches_reference() {
    let positions = random_positions(4, 300);
    for (l1, seed, enc) in [(64, 31, Encoding::Leb128), (128, 32, Encoding::Raw)] {
        let net = round_trip(synth::threats(l1, seed, enc));
        let w = FastWeights::new(&net).unwrap();
        match l1 {
            64 => check(&net, &w.sfnn_threats::<64, 32, 16>().unwrap(), &positions),
            _ => check(&net, &w.sfnn_threats::<128, 64, 32>().unwrap(), &positions),
        }
        // The wrong view is an error, not a misread.
        assert!(w.sfnn::<64, 32, 16>().is_err());
    }
}

#[test]
fn sf19_every_path_matches_reference() {
    use nnue_format::Sf19Inputs::{Full, Lite};
    let positions = random_positions(5, 300);
    let cases = [(64, Full, 41, Encoding::Leb128), (128, Full, 42, Encoding::Raw), (64, Lite, 43, Encoding::Raw)];
    for ((l1, inputs, seed, enc), wraps) in cases.into_iter().flat_map(|c| [(c, false), (c, true)]) {
        let net = round_trip(maybe_wrapping(synth::sf19(l1, inputs, seed, enc), wraps));
        let w = FastWeights::new(&net).unwrap();
        match (l1, inputs) {
            (64, Full) => check(&net, &w.sf19::<64, 32, 16, 8, 64368, 22528, 86896>().unwrap(), &positions),
            (128, Full) => check(&net, &w.sf19::<128, 64, 32, 8, 64368, 22528, 86896>().unwrap(), &positions),
            _ => check(&net, &w.sf19::<64, 32, 16, 8, 0, 768, 768>().unwrap(), &positions),
        }
        // The wrong view is an error, not a misread.
        assert!(w.sfnn_threats::<64, 32, 16>().is_err());
        assert!(w.sf19::<64, 32, 16, 8, 1, 768, 769>().is_err());
        // Stockfish master's SFNNv17: the same net without PSQT outputs, viewed with none.
        let v17 = round_trip(synth::without_psqt(net));
        let w = FastWeights::new(&v17).unwrap();
        match (l1, inputs) {
            (64, Full) => check(&v17, &w.sf19::<64, 32, 16, 0, 64368, 22528, 86896>().unwrap(), &positions),
            (128, Full) => check(&v17, &w.sf19::<128, 64, 32, 0, 64368, 22528, 86896>().unwrap(), &positions),
            _ => check(&v17, &w.sf19::<64, 32, 16, 0, 0, 768, 768>().unwrap(), &positions),
        }
        assert!(w.sf19::<64, 32, 16, 8, 0, 768, 768>().is_err());
    }
}

#[test]
fn halfkp_every_path_matches_reference() {
    let positions = random_positions(2, 300);
    for ((l1, seed), wraps) in [(64, 21), (256, 22)].into_iter().flat_map(|c| [(c, false), (c, true)]) {
        let net = round_trip(maybe_wrapping(synth::halfkp(l1, seed), wraps));
        let w = FastWeights::new(&net).unwrap();
        match l1 {
            64 => check(&net, &w.halfkp::<64, 32>().unwrap(), &positions),
            _ => check(&net, &w.halfkp::<256, 128>().unwrap(), &positions),
        }
    }
}

#[test]
fn chess768_every_path_matches_reference() {
    let positions = random_positions(3, 300);
    let map: String = (0..32).map(|i| ((i / 4) % 4).to_string()).collect::<Vec<_>>().join(",");
    let cases = [
        "(768 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400".to_string(),
        "(768 -> 128)x2 -> 1x8, screlu, qa=255, qb=64, scale=400".to_string(),
        format!("(768x4hm -> 96)x2 -> 1x4, screlu, qa=181, qb=64, scale=400, kings=[{map}]"),
    ];
    for ((i, text), wraps) in cases.iter().enumerate().flat_map(|c| [(c, false), (c, true)]) {
        let arch: Architecture = text.parse().unwrap();
        let Architecture::Chess768(s) = &arch else { unreachable!() };
        let net = round_trip(maybe_wrapping(synth::chess768(s, 30 + i as u64), wraps));
        let w = FastWeights::new(&net).unwrap();
        match i {
            0 => check(&net, &w.chess768::<64, 768, 1>().unwrap(), &positions),
            1 => check(&net, &w.chess768::<128, 768, 8>().unwrap(), &positions),
            _ => check(&net, &w.chess768::<96, 3072, 4>().unwrap(), &positions),
        }
    }
}

#[test]
fn wrong_dimensions_are_an_error() {
    let net = synth::sfnn(64, 1, Encoding::Raw);
    let w = FastWeights::new(&net).unwrap();
    assert!(w.sfnn::<128, 64, 32>().is_err());
    assert!(w.halfkp::<64, 32>().is_err());
}

mod properties {
    use super::*;
    use nnue_format::{Activation, Model};
    use proptest::prelude::*;

    /// A random `(768 -> 64)x2 -> 1x4` net; `extreme` pushes weights to where every
    /// activation saturates (and SCReLU's int16 shortcut no longer applies).
    fn chess768_net(seed: u64, screlu: bool, qa: i32, extreme: bool) -> Net {
        let act = if screlu { "screlu" } else { "crelu" };
        let text = format!("(768 -> 64)x2 -> 1x4, {act}, qa={qa}, qb=64, scale=400");
        let Ok(Architecture::Chess768(arch)) = text.parse() else { unreachable!() };
        let mut net = synth::chess768(&arch, seed);
        if extreme {
            let Model::Chess768(_, p) = &mut net.model else { unreachable!() };
            let mut rng = synth::Rng::new(seed ^ 0xE);
            for w in p.l0w.iter_mut().chain(p.l0b.iter_mut()) {
                *w = w.saturating_mul(rng.range(1, 40) as i16);
            }
            for w in p.l1w.iter_mut() {
                *w = [i16::MIN, i16::MAX, -1000, 1000, *w][rng.range(0, 4) as usize];
            }
        }
        assert_eq!(arch.activation == Activation::SCReLU, screlu);
        net
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// The writer -> reader round trip changes neither the net nor any evaluation, and
        /// every path equals the reference on it.
        #[test]
        fn chess768_nets_round_trip_and_match(seed in any::<u64>(), screlu in any::<bool>(),
                                            qa in prop_oneof![Just(255), Just(181), 1..=1024], extreme in any::<bool>()) {
            let net = chess768_net(seed, screlu, qa, extreme);
            let back = Net::from_bytes(&net.to_bytes(), Some(&net.arch())).unwrap();
            prop_assert_eq!(&back, &net);
            let positions = random_positions(seed, 40);
            let (a, b) = (Evaluator::new(&net), Evaluator::new(&back));
            for pos in &positions {
                prop_assert_eq!(a.evaluate(pos), b.evaluate(pos));
            }
            let w = FastWeights::new(&back).unwrap();
            check(&back, &w.chess768::<64, 768, 4>().unwrap(), &positions);
        }
    }
}

/// Multi-layer nets: f32 and int32 stacks, dual, squared and clipped activations, both file layouts, two
/// bucket rules and several pairwise shifts.
#[test]
fn layered_every_path_matches_reference() {
    let positions = random_positions(7, 300);
    let kings = "kings=[0,0,1,1,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
    let cases = [
        format!("(768x2hm -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=1024/4161600, scale=362, buckets=(63-p)(32-p)/225, file=alexandria, {kings}"),
        "(768 -> 128)x2 -> pairwise>>9 -> (32 -> 16 -> 1)x4, f32, l1mul=512/4161600, scale=400, file=alexandria".to_string(),
        format!("(768x2hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=10, scale=400, file=cbnf, {kings}"),
        "(768hm -> 128)x2 -> pairwise>>11 -> (16 -> 32 -> 1)x8, i32, q=64, l1shift=8, scale=400, file=cbnf".to_string(),
        "(704 -> 128)x2 -> pairwise>>9 -> (32 -> 16 -> 1)x4, f32, dual, l1mul=512/4161600, scale=400, file=bullet".to_string(),
        "(768hm -> 128)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, l2act=crelu, l1mul=512/4161600, scale=200, file=bullet".to_string(),
        // Integral's int16 pair sums (the synthetic weights make them wrap).
        "(768hm -> 128)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, l2act=crelu, l1mul=512/8323200, scale=200, l1sums=i16pairs, file=bullet".to_string(),
    ];
    for (i, (text, wraps)) in cases.iter().flat_map(|c| [(c, false), (c, true)]).enumerate() {
        let Architecture::Layered(arch) = text.parse::<Architecture>().unwrap() else { unreachable!() };
        let net = round_trip(maybe_wrapping(synth::layered(&arch, 50 + i as u64), wraps));
        let w = FastWeights::new(&net).unwrap();
        match (arch.kings.count, arch.l1, arch.l2, arch.l2_full(), arch.l3, arch.buckets) {
            (2, 64, 16, 32, 32, 8) => check(&net, &w.layered::<64, 32, 16, 1536, 16, 32, 32, 8>().unwrap(), &positions),
            (1, 128, 32, 32, 16, 4) => {
                check(&net, &w.layered::<128, 64, 32, 768, 32, 32, 16, 4>().unwrap(), &positions)
            }
            (1, 128, 32, 64, 16, 4) => {
                check(&net, &w.layered::<128, 64, 32, 704, 32, 64, 16, 4>().unwrap(), &positions)
            }
            (1, 128, 16, 16, 32, 8) => {
                check(&net, &w.layered::<128, 64, 32, 768, 16, 16, 32, 8>().unwrap(), &positions)
            }
            shape => panic!("no view for {shape:?}"),
        }
        assert!(w.layered::<64, 32, 16, 1536, 16, 16, 32, 8>().is_err() || !arch.dual());
    }
}

/// Layers of one's own over a loaded net's arrays (`FastWeights::with_layers`, as
/// `nnue_net!`'s `compute`): every path equals the reference computing the same layers, which
/// give other values than the description's; layers that don't fit are refused, naming the line.
#[test]
fn layers_of_ones_own_every_path_matches_reference() {
    use nnue_format::Layers;
    use nnue_runtime::loaded::LoadError;
    let positions = random_positions(8, 300);
    // Stockfish 19's stacks with other activation shifts, fc_0's last output subtracted
    // instead of the skip and another output scale (tests/generated_vs_reference.rs compiles
    // the same text in).
    let own: Layers = "
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
    "
    .parse()
    .unwrap();
    let net = round_trip(synth::sf19(64, nnue_format::Sf19Inputs::Full, 44, Encoding::Raw));
    let reference = Evaluator::with_layers(&net, own.clone()).unwrap();
    let w = FastWeights::with_layers(&net, own.clone()).unwrap();
    let fast = w.sf19::<64, 32, 16, 8, 64368, 22528, 86896>().unwrap();
    nnue_runtime::reference::verify_with(&reference, &fast, &positions).unwrap();
    let plain = Evaluator::new(&net);
    let differ = positions.iter().filter(|p| reference.evaluate(p) != plain.evaluate(p)).count();
    assert!(differ > 100, "the layers given change {differ} of 300 values");
    // The description's own layers, given as text, are the plain net's.
    let same = FastWeights::with_layers(&net, net.arch().layers().to_string().parse().unwrap()).unwrap();
    check(&net, &same.sf19::<64, 32, 16, 8, 64368, 22528, 86896>().unwrap(), &positions);
    // fc_2 reading fc_1's 30 values: the arrays say 128 inputs.
    let short: Layers = own.to_string().replace("r8 = r4 ++ r6 ++ r7", "r8 = r6 ++ r7").parse().unwrap();
    let Err(LoadError::Compute(e)) = FastWeights::with_layers(&net, short) else { panic!("not refused") };
    assert!(e.to_string().contains("fc2"), "{e}");
}
