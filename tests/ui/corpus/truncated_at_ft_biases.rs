// Corpus case `truncated_at_ft_biases` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_at_ft_biases.nnue");

fn main() {}
