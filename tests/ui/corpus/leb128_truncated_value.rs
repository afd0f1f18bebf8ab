// Corpus case `leb128_truncated_value` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/leb128_truncated_value.nnue");

fn main() {}
