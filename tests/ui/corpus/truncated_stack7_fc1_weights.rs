// Corpus case `truncated_stack7_fc1_weights` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_stack7_fc1_weights.nnue");

fn main() {}
