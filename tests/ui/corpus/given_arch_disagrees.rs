// Corpus case `given_arch_disagrees` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net! {
    path = "../../nnue-corpus/given_arch_disagrees.nnue",
    arch = "HalfKAv2_hm -> 128x2 -> (15+1 -> 32 -> 1)x8, psqt=8",
}

fn main() {}
