// Corpus case `truncated_stack5_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_stack5_hash.nnue");

fn main() {}
