nnue_runtime::nnue_net!("../../nnue-corpus/headerless.nnue");

fn main() {}
