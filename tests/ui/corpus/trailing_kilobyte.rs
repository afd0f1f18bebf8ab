// Corpus case `trailing_kilobyte` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/trailing_kilobyte.nnue");

fn main() {}
