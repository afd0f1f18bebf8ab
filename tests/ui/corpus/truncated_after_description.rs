// Corpus case `truncated_after_description` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_after_description.nnue");

fn main() {}
