// Corpus case `truncated_stack6_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_stack6_hash.nnue");

fn main() {}
