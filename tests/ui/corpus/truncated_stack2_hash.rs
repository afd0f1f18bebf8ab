// Corpus case `truncated_stack2_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_stack2_hash.nnue");

fn main() {}
