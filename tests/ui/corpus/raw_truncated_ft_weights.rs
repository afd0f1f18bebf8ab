// Corpus case `raw_truncated_ft_weights` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/raw_truncated_ft_weights.nnue");

fn main() {}
