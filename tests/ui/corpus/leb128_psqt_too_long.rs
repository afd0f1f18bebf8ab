// Corpus case `leb128_psqt_too_long` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/leb128_psqt_too_long.nnue");

fn main() {}
