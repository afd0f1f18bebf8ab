// Corpus case `leb128_count_too_small` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/leb128_count_too_small.nnue");

fn main() {}
