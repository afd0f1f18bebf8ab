//! Reordering a pairwise transform's neurons (`nnue_format::neuron_order`) leaves every
//! evaluation as it was, on the reference and on every run-time loaded path; an order found
//! from activations has fewer non-zero chunks; Stockfish 19's big net reordered still
//! reproduces Stockfish's own values; and the committed orders of Stockfish's nets fit them.

use nnue_runtime::format::neuron_order::{co_firing_order, nonzero_chunks, read_order_file};
use nnue_runtime::format::{synth, Architecture, Encoding, Sf19Inputs};
use nnue_runtime::loaded::FastWeights;
use nnue_runtime::{Evaluator, KernelPath, Net, Network, Position};
use nnue_testkit::{assert_matches_reference, net_or_skip, oracle_or_skip, random_positions, transform_halves};

/// `net` with its neurons in `order`, checked against the net as it was: the same evaluation
/// of every position by the reference.
fn reordered(net: &Net, order: &[usize], positions: &[Position]) -> Net {
    let mut moved = net.clone();
    moved.reorder_neurons(order).unwrap();
    let (before, after) = (Evaluator::new(net), Evaluator::new(&moved));
    for pos in positions {
        assert_eq!(after.evaluate(pos), before.evaluate(pos), "{} at {pos:?}", net.arch());
    }
    moved
}

#[test]
fn reordered_synthetic_nets_evaluate_as_before_on_every_loaded_path() {
    let Ok(Architecture::Layered(layered)) = "(768x4hm -> 128)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, \
         l1mul=1024/4161600, scale=362, file=alexandria, \
         kings=[0,0,0,0,1,1,1,1,2,2,2,2,2,2,2,2,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3]"
        .parse()
    else {
        panic!("a multi-layer description")
    };
    // Threat rows (int8, L1 columns) beside the piece-square ones: reordered with them (they
    // once were not).
    let Ok(Architecture::Layered(with_threats)) = "(768x2hm -> 128)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, \
         l1act=crelu, l2act=crelu, l1mul=512/4161600, scale=380, threats=reckless, file=reckless, \
         kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]"
        .parse()
    else {
        panic!("a multi-layer description")
    };
    let positions = random_positions(31, 150);
    let nets = [
        synth::sfnn(128, 11, Encoding::Leb128),
        synth::threats(128, 12, Encoding::Leb128),
        synth::sf19(128, Sf19Inputs::Full, 13, Encoding::Leb128),
        synth::layered(&layered, 14),
        synth::layered(&with_threats, 15),
    ];
    for (i, net) in nets.iter().enumerate() {
        // The order found from the net's own activations, and a plain shuffle.
        let samples = transform_halves(net, &positions);
        let samples: Vec<&[u8]> = samples.iter().map(Vec::as_slice).collect();
        let found = co_firing_order(&samples, 8);
        let identity: Vec<usize> = (0..64).collect();
        assert!(nonzero_chunks(&samples, &found) <= nonzero_chunks(&samples, &identity), "{}", net.arch());
        let shuffle: Vec<usize> = (0..64).map(|q| (q * 45 + 7) % 64).collect();
        for order in [found, shuffle] {
            let moved = reordered(net, &order, &positions);
            let weights = FastWeights::new(&moved).unwrap();
            let n = match i {
                0 => assert_matches_reference(&moved, &weights.sfnn::<128, 64, 32>().unwrap(), &positions),
                1 => assert_matches_reference(&moved, &weights.sfnn_threats::<128, 64, 32>().unwrap(), &positions),
                2 => assert_matches_reference(
                    &moved,
                    &weights.sf19::<128, 64, 32, 8, 64368, 22528, 86896>().unwrap(),
                    &positions,
                ),
                3 => assert_matches_reference(
                    &moved,
                    &weights.layered::<128, 64, 32, 3072, 16, 32, 32, 8>().unwrap(),
                    &positions,
                ),
                _ => assert_matches_reference(
                    &moved,
                    &weights.layered_threats::<128, 64, 32, 66864, 1536, 16, 16, 32, 8>().unwrap(),
                    &positions,
                ),
            };
            assert_eq!(n, positions.len() * KernelPath::all().len());
        }
    }
}

/// Nets that sum their sparse layer in int16 pairs (`l1sums=`) give other values in another
/// neuron order: an order is refused, by name.
#[test]
fn orders_are_refused_for_pair_sums() {
    for sums in ["i16pairs", "viridithas-avx2"] {
        let text = format!(
            "(768 -> 1024)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x2, f32, l1mul=512/4161600, scale=240, \
             l1sums={sums}, file=bullet"
        );
        let Ok(Architecture::Layered(arch)) = text.parse() else { panic!("{text}") };
        let mut net = synth::layered(&arch, 3);
        let order: Vec<usize> = (0..512).rev().collect();
        let e = net.reorder_neurons(&order).unwrap_err().to_string();
        assert!(e.contains("sums its sparse layer in int16 pairs"), "{sums}: {e}");
    }
}

/// Stockfish 19's big net with its neurons in an order found from the activations of the
/// first 250 oracle positions: Stockfish's values on all 500, on the reference and the
/// run-time loaded net's fastest path; fewer non-zero chunks on the 250 it was not found from.
#[test]
fn sf19_big_reordered_reproduces_stockfish() {
    let what = "reordered sf19 big net";
    let Some(rows) = oracle_or_skip("stockfish19-eval.tsv", what) else { return };
    let Some(path) = net_or_skip(nnue_testkit::SF19_BIG, what) else { return };
    let net = Net::from_bytes(&std::fs::read(path).unwrap(), None).unwrap();
    let positions: Vec<Position> = rows.iter().map(|r| Position::from_fen(&r.fen).unwrap()).collect();
    let (seen, held_out) = positions.split_at(250);
    let samples = transform_halves(&net, seen);
    let order = co_firing_order(&samples.iter().map(Vec::as_slice).collect::<Vec<_>>(), 4);
    let held = transform_halves(&net, held_out);
    let held: Vec<&[u8]> = held.iter().map(Vec::as_slice).collect();
    let identity: Vec<usize> = (0..512).collect();
    let (before, after) = (nonzero_chunks(&held, &identity), nonzero_chunks(&held, &order));
    eprintln!("{what}: {before} -> {after} non-zero chunks over 250 positions it was not found from");
    assert!(after < before);

    let moved = reordered(&net, &order, &positions);
    let reference = Evaluator::new(&moved);
    let weights = FastWeights::new(&moved).unwrap();
    let loaded = weights.sf19::<1024, 512, 256, 8, 64368, 22528, 86896>().unwrap();
    let fastest = loaded.best_path();
    for (row, pos) in rows.iter().zip(&positions) {
        let want = (row.bucket, row.sf19_big.0, row.sf19_big.1);
        for e in [reference.evaluate(pos), loaded.evaluate_on(fastest, pos)] {
            assert_eq!((e.bucket, e.psqt, e.positional), want, "{}", row.fen);
        }
    }
    eprintln!("{what}: the reference and the loaded net on {fastest} reproduce all {} rows", rows.len());
}

/// The committed orders of Stockfish's nets (`nets/orders/`, written by
/// `examples/neuron_order` from `stockfish-eval.tsv`'s positions 17 to 500): each is an order
/// of its net's neurons, and the net in it evaluates the first 100 oracle positions as before.
#[test]
fn committed_orders_fit_their_nets() {
    let what = "committed neuron orders";
    let Some(rows) = oracle_or_skip("stockfish-eval.tsv", what) else { return };
    let positions: Vec<Position> = rows.iter().take(100).map(|r| Position::from_fen(&r.fen).unwrap()).collect();
    use nnue_testkit::{SF17_BIG, SF17_LITE, SF17_SMALL, SF18_BIG, SF19_BIG, SF19_LITE};
    for name in [SF17_BIG, SF17_SMALL, SF17_LITE, SF18_BIG, SF19_BIG, SF19_LITE] {
        let Some(path) = net_or_skip(name, what) else { continue };
        let file = nnue_testkit::root().join("nets/orders").join(name.replace(".nnue", ".order"));
        let order = read_order_file(&file).unwrap();
        let net = Net::from_bytes(&std::fs::read(path).unwrap(), None).unwrap();
        reordered(&net, &order, &positions);
        eprintln!("{what}: {} fits {name}", file.display());
    }
}
