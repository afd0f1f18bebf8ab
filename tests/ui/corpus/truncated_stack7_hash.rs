// Corpus case `truncated_stack7_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_stack7_hash.nnue");

fn main() {}
