// Corpus case `truncated_at_ft_weights` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_at_ft_weights.nnue");

fn main() {}
