// Corpus case `truncated_leb128_magic` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/truncated_leb128_magic.nnue");

fn main() {}
