// Corpus case `truncated_description` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_description.nnue");

fn main() {}
