// Corpus case `truncated_stack0_fc0_biases` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_stack0_fc0_biases.nnue");

fn main() {}
