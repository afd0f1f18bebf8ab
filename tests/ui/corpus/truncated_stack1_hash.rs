// Corpus case `truncated_stack1_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_stack1_hash.nnue");

fn main() {}
