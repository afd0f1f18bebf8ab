// Corpus case `headerless_extra_padding` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net! {
    path = "../../nnue-corpus/headerless_extra_padding.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

fn main() {}
