// Corpus case `leb128_count_zero` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/leb128_count_zero.nnue");

fn main() {}
