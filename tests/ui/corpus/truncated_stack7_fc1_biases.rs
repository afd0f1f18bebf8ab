// Corpus case `truncated_stack7_fc1_biases` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_stack7_fc1_biases.nnue");

fn main() {}
