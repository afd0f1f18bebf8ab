// Corpus case `truncated_after_version` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_after_version.nnue");

fn main() {}
