// Corpus case `headerless_more_king_buckets` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net! {
    path = "../../nnue-corpus/headerless_more_king_buckets.nnue",
    arch = "(768x3hm -> 32)x2 -> 1x8, screlu, qa=255, qb=64, scale=400, kings=[0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2,2,2,2]",
}

fn main() {}
