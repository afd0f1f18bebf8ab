// Corpus case `description_disagrees` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/description_disagrees.nnue");

fn main() {}
