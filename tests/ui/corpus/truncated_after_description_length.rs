// Corpus case `truncated_after_description_length` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_after_description_length.nnue");

fn main() {}
