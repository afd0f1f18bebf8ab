// Corpus case `headerless_given_sfnn_arch` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net! {
    path = "../../nnue-corpus/headerless_given_sfnn_arch.nnue",
    arch = "HalfKAv2_hm -> 64x2 -> (15+1 -> 32 -> 1)x8, psqt=8",
}

fn main() {}
