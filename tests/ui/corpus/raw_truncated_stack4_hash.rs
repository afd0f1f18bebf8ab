// Corpus case `raw_truncated_stack4_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/raw_truncated_stack4_hash.nnue");

fn main() {}
