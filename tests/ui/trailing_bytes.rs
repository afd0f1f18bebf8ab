nnue_runtime::nnue_net!("../../nnue-corpus/trailing.nnue");

fn main() {}
