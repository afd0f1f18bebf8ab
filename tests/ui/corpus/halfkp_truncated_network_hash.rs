// Corpus case `halfkp_truncated_network_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/halfkp_truncated_network_hash.nnue");

fn main() {}
