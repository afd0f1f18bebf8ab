nnue_runtime::nnue_net!("../../nnue-corpus/wrong_section_hash.nnue");

fn main() {}
