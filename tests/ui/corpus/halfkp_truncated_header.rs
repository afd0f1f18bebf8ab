// Corpus case `halfkp_truncated_header` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/halfkp_truncated_header.nnue");

fn main() {}
