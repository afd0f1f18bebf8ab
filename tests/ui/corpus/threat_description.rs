// Corpus case `threat_description` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net!("../../nnue-corpus/threat_description.nnue");

fn main() {}
