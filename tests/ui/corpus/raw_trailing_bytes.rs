// Corpus case `raw_trailing_bytes` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/raw_trailing_bytes.nnue");

fn main() {}
