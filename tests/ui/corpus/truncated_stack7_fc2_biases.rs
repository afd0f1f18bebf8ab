// Corpus case `truncated_stack7_fc2_biases` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_stack7_fc2_biases.nnue");

fn main() {}
