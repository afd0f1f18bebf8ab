// Corpus case `halfkp_truncated_last_byte` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/halfkp_truncated_last_byte.nnue");

fn main() {}
