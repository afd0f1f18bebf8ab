// Corpus case `raw_truncated_ft_biases` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/raw_truncated_ft_biases.nnue");

fn main() {}
