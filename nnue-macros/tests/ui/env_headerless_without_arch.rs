// A headerless net named by an environment variable (set by tests/compile_fail.rs), with no
// `<VAR>_ARCH`: the error says where its description goes.
nnue_runtime::nnue_net!(env = "NNUE_TEST_HEADERLESS_FROM_ENV");

fn main() {}
