// An environment variable set but empty (set by tests/compile_fail.rs) once selected the
// default net silently: it is an error naming the variable.
nnue_runtime::nnue_net! {
    env = "NNUE_TEST_EMPTY_ENV",
    default = "../../../../nets/default.nnue",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
}

fn main() {}
