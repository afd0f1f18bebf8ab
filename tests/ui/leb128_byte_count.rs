nnue_runtime::nnue_net!("../../nnue-corpus/leb128_count.nnue");

fn main() {}
