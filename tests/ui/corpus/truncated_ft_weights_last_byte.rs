// Corpus case `truncated_ft_weights_last_byte` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_ft_weights_last_byte.nnue");

fn main() {}
