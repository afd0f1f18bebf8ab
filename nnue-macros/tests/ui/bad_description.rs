nnue_runtime::nnue_net! {
    path = "../../nnue-corpus/headerless_without_description.nnue",
    arch = "(768 -> 30)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

fn main() {}
