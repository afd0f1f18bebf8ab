// Corpus case `sfnn_version_on_halfkp_net` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/sfnn_version_on_halfkp_net.nnue");

fn main() {}
