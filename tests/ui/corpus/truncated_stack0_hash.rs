// Corpus case `truncated_stack0_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_stack0_hash.nnue");

fn main() {}
