// Corpus case `raw_truncated_psqt` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/raw_truncated_psqt.nnue");

fn main() {}
