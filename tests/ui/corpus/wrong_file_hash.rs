// Corpus case `wrong_file_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/wrong_file_hash.nnue");

fn main() {}
