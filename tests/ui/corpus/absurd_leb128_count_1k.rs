// Corpus case `absurd_leb128_count_1k` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/absurd_leb128_count_1k.nnue");

fn main() {}
