// Corpus case `description_not_utf8` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/description_not_utf8.nnue");

fn main() {}
