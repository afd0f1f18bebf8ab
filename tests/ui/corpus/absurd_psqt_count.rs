// Corpus case `absurd_psqt_count` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/absurd_psqt_count.nnue");

fn main() {}
