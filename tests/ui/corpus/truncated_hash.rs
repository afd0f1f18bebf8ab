// Corpus case `truncated_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_hash.nnue");

fn main() {}
