// Corpus case `absurd_description_length_1k` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/absurd_description_length_1k.nnue");

fn main() {}
