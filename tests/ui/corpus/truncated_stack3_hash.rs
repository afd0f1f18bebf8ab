// Corpus case `truncated_stack3_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_stack3_hash.nnue");

fn main() {}
