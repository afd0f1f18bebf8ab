// Corpus case `truncated_psqt_values` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_psqt_values.nnue");

fn main() {}
