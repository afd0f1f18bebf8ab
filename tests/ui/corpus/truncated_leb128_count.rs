// Corpus case `truncated_leb128_count` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_leb128_count.nnue");

fn main() {}
