// Corpus case `given_headerless_arch_on_sfnn_net` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net! {
    path = "../../nnue-corpus/given_headerless_arch_on_sfnn_net.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

fn main() {}
