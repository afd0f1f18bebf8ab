// Corpus case `threat_net_hash` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/threat_net_hash.nnue");

fn main() {}
