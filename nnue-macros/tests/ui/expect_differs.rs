// `expect`: a position the net as described evaluates otherwise fails the build there,
// naming the value the description gives.
nnue_runtime::nnue_net! {
    path = "../../nnue-corpus/valid.nnue",
    expect = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 12345),
    ],
}

fn main() {}
