// Corpus case `description_names_halfkp` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/description_names_halfkp.nnue");

fn main() {}
