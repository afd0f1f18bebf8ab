// Corpus case `halfkp_description_disagrees` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/halfkp_description_disagrees.nnue");

fn main() {}
