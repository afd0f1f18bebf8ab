nnue_runtime::nnue_net!(file = "net.nnue");

fn main() {}
