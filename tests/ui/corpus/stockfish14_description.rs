// Corpus case `stockfish14_description` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/stockfish14_description.nnue");

fn main() {}
