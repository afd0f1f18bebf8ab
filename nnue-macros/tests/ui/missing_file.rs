nnue_runtime::nnue_net!("nets/no-such-file.nnue");

fn main() {}
