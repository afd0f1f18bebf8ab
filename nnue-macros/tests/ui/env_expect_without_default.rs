// With `env` and no `default`, `expect` checks the file the variable names (set by
// tests/compile_fail.rs): a value it doesn't give fails the build.
nnue_runtime::nnue_net! {
    env = "NNUE_TEST_HEADERLESS_FROM_ENV",
    arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
    expect = [("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8", 109)],
}

fn main() {}
