// Corpus case `halfkp_wrong_file_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/halfkp_wrong_file_hash.nnue");

fn main() {}
