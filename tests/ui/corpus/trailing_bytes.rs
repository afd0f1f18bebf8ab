// Corpus case `trailing_bytes` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/trailing_bytes.nnue");

fn main() {}
