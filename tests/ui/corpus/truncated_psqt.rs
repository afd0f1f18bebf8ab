// Corpus case `truncated_psqt` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_psqt.nnue");

fn main() {}
