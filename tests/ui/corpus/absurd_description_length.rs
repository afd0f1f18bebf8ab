// Corpus case `absurd_description_length` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/absurd_description_length.nnue");

fn main() {}
