// Corpus case `truncated_ft_weights_magic` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_ft_weights_magic.nnue");

fn main() {}
