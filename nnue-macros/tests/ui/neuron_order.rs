// Neuron orders that can't be applied: each an error at the string, naming the file and what
// was expected.

// Not an order of the net's 32 neurons.
nnue_runtime::nnue_net! {
    name = short,
    path = "../../nnue-corpus/valid.nnue",
    neuron_order = "../../../../nnue-macros/tests/ui/orders/short.order",
}

// Not numbers.
nnue_runtime::nnue_net! {
    name = unreadable,
    path = "../../nnue-corpus/valid.nnue",
    neuron_order = "../../../../nnue-macros/tests/ui/orders/unreadable.order",
}

// No such file.
nnue_runtime::nnue_net! {
    name = missing,
    path = "../../nnue-corpus/valid.nnue",
    neuron_order = "orders/none.order",
}

// A net without a pairwise transform has no neurons to order.
nnue_runtime::nnue_net! {
    name = single_layer,
    path = "../../../../nets/default.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
    neuron_order = "../../../../nnue-macros/tests/ui/orders/short.order",
}

// A net from the environment takes its order from `<VAR>_NEURON_ORDER`.
nnue_runtime::nnue_net!(name = from_env, env = "NNUE_TEST_ORDERED_FROM_ENV");

fn main() {}
