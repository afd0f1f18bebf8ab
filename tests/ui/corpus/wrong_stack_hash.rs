// Corpus case `wrong_stack_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/wrong_stack_hash.nnue");

fn main() {}
