// Corpus case `wrong_version` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/wrong_version.nnue");

fn main() {}
