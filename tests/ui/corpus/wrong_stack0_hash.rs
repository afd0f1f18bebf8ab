// Corpus case `wrong_stack0_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/wrong_stack0_hash.nnue");

fn main() {}
