// Corpus case `stockfish14_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/stockfish14_hash.nnue");

fn main() {}
