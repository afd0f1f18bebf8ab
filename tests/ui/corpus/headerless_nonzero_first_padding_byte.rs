// Corpus case `headerless_nonzero_first_padding_byte` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net! {
    path = "../../nnue-corpus/headerless_nonzero_first_padding_byte.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

fn main() {}
