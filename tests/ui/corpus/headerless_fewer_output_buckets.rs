// Corpus case `headerless_fewer_output_buckets` (tests/corpus/manifest.tsv).
nnue_runtime::nnue_net! {
    path = "../../nnue-corpus/headerless_fewer_output_buckets.nnue",
    arch = "(768x2hm -> 32)x2 -> 1, screlu, qa=255, qb=64, scale=400, kings=[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]",
}

fn main() {}
