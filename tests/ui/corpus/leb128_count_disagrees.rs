// Corpus case `leb128_count_disagrees` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/leb128_count_disagrees.nnue");

fn main() {}
