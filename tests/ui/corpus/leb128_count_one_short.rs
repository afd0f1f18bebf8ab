// Corpus case `leb128_count_one_short` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/leb128_count_one_short.nnue");

fn main() {}
