// Corpus case `raw_wrong_stack6_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/raw_wrong_stack6_hash.nnue");

fn main() {}
