// Corpus case `halfkp_description_names_halfkav2` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/halfkp_description_names_halfkav2.nnue");

fn main() {}
