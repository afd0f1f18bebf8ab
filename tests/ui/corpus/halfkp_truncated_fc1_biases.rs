// Corpus case `halfkp_truncated_fc1_biases` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/halfkp_truncated_fc1_biases.nnue");

fn main() {}
