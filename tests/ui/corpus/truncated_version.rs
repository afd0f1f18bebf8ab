// Corpus case `truncated_version` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_version.nnue");

fn main() {}
