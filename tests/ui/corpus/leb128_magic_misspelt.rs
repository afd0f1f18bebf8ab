// Corpus case `leb128_magic_misspelt` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/leb128_magic_misspelt.nnue");

fn main() {}
