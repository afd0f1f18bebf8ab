// A neuron order that is not a regular file, or far larger than an order, is an error at once,
// naming it: a FIFO would block the build, a device or a huge file eat its memory.

nnue_runtime::nnue_net! {
    name = fifo,
    path = "../../../../nets/default.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
    neuron_order = "../../nnue-corpus/fifo.nnue",
}

nnue_runtime::nnue_net! {
    name = device,
    path = "../../../../nets/default.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
    neuron_order = "/dev/zero",
}

nnue_runtime::nnue_net! {
    name = huge,
    path = "../../../../nets/default.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
    neuron_order = "../../nnue-corpus/huge-sparse.nnue",
}

fn main() {}
