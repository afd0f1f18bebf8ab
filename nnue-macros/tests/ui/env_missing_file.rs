// The file comes from an environment variable (set by tests/compile_fail.rs): the error says so.
nnue_runtime::nnue_net!(env = "NNUE_TEST_NET_FROM_ENV");

fn main() {}
