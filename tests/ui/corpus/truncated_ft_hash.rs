// Corpus case `truncated_ft_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_ft_hash.nnue");

fn main() {}
