// Corpus case `leb128_overlong_minus_one` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/leb128_overlong_minus_one.nnue");

fn main() {}
