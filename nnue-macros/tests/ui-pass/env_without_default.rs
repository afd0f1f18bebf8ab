// With `env` and no `default`, `arch`, `expect` and `neuron_order` are those of the file the
// variable names (set by tests/compile_fail.rs, its `<VAR>_ARCH` and `<VAR>_NEURON_ORDER`
// unset): an engine whose build always names its net, in a layout its code fixes. Without a
// `default` they would describe no file. (The order on a small Stockfish net: the default net
// has no sparse layer to order.)

nnue_runtime::nnue_net! {
    name = from_env,
    env = "NNUE_TEST_HEADERLESS_FROM_ENV",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
    expect = [("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8", 108)],
}
nnue_runtime::nnue_net! {
    name = ordered,
    env = "NNUE_TEST_SFNN_FROM_ENV",
    neuron_order = "../../../../nnue-macros/tests/ui-pass/orders/reverse-32.order",
}
nnue_runtime::nnue_net!(name = plain, path = "../../nnue-corpus/valid.nnue");
nnue_runtime::nnue_net! {
    name = by_path,
    path = "../../../../nets/default.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

fn main() {
    use nnue_runtime::{Network, Position};
    assert_eq!(from_env::ARCHITECTURE, by_path::ARCHITECTURE);
    assert!(from_env::NEURON_ORDER.is_none());
    assert!(ordered::NEURON_ORDER.is_some_and(|f| f.ends_with("reverse-32.order")));
    for fen in ["r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8", "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50"] {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(from_env::NETWORK.evaluate(&pos), by_path::NETWORK.evaluate(&pos));
        assert_eq!(ordered::NETWORK.evaluate(&pos), plain::NETWORK.evaluate(&pos));
    }
}
