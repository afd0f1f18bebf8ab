// Corpus case `truncated_description_length` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_description_length.nnue");

fn main() {}
