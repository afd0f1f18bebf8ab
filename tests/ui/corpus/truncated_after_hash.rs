// Corpus case `truncated_after_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_after_hash.nnue");

fn main() {}
