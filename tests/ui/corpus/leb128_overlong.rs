// Corpus case `leb128_overlong` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/leb128_overlong.nnue");

fn main() {}
