// Corpus case `empty` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/empty.nnue");

fn main() {}
