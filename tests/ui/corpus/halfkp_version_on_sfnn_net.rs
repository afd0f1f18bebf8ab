// Corpus case `halfkp_version_on_sfnn_net` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/halfkp_version_on_sfnn_net.nnue");

fn main() {}
