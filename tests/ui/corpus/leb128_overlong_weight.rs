// Corpus case `leb128_overlong_weight` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/leb128_overlong_weight.nnue");

fn main() {}
