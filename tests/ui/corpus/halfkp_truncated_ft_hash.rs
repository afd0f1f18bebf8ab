// Corpus case `halfkp_truncated_ft_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/halfkp_truncated_ft_hash.nnue");

fn main() {}
