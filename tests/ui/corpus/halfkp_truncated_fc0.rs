// Corpus case `halfkp_truncated_fc0` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/halfkp_truncated_fc0.nnue");

fn main() {}
