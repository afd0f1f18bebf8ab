// Corpus case `absurd_leb128_count` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/absurd_leb128_count.nnue");

fn main() {}
