// Corpus case `leb128_out_of_range_negative` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/leb128_out_of_range_negative.nnue");

fn main() {}
