nnue_runtime::nnue_net!("../../nnue-corpus/unknown_version.nnue");

fn main() {}
