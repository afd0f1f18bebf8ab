nnue_runtime::nnue_net!("../../nnue-corpus");

fn main() {}
