// Corpus case `file_hash_of_other_l1` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/file_hash_of_other_l1.nnue");

fn main() {}
