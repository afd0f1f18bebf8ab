// Corpus case `given_halfkp_arch_on_sfnn_net` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net! {
    path = "../../nnue-corpus/given_halfkp_arch_on_sfnn_net.nnue",
    arch = "HalfKP -> 64x2 -> 32 -> 32 -> 1",
}

fn main() {}
