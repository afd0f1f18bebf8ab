// Corpus case `truncated_ft_biases_before_values` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_ft_biases_before_values.nnue");

fn main() {}
