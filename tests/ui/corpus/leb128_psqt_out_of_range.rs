// Corpus case `leb128_psqt_out_of_range` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/leb128_psqt_out_of_range.nnue");

fn main() {}
