// Corpus case `headerless_without_description` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/headerless_without_description.nnue");

fn main() {}
