// Corpus case `headerless_wrong_size` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net! {
    path = "../../nnue-corpus/headerless_wrong_size.nnue",
    arch = "(768 -> 64)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

fn main() {}
