// `neuron_order = "…"` for the net file named in the macro: compiled with its neurons in that
// order, the net evaluates every position as in its own order, on every path.

nnue_runtime::nnue_net!(name = plain, path = "../../nnue-corpus/valid.nnue");
nnue_runtime::nnue_net! {
    name = reordered,
    path = "../../nnue-corpus/valid.nnue",
    neuron_order = "../../../../nnue-macros/tests/ui-pass/orders/reverse-32.order",
}

fn main() {
    use nnue_runtime::{KernelPath, Network, Position};
    assert!(plain::NEURON_ORDER.is_none());
    assert!(reordered::NEURON_ORDER.is_some_and(|f| f.ends_with("reverse-32.order")));
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
        "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        for path in KernelPath::all() {
            assert_eq!(reordered::NETWORK.evaluate_on(path, &pos), plain::NETWORK.evaluate_on(path, &pos));
        }
    }
}
