nnue_runtime::nnue_net!("../../nnue-corpus/truncated.nnue");

fn main() {}
