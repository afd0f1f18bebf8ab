nnue_runtime::nnue_net!(env = "NNUE_TEST_SURELY_UNSET_VARIABLE");

fn main() {}
