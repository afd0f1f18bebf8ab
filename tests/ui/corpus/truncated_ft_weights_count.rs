// Corpus case `truncated_ft_weights_count` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_ft_weights_count.nnue");

fn main() {}
