// A FIFO once blocked the build forever.
nnue_runtime::nnue_net!("../../nnue-corpus/fifo.nnue");

fn main() {}
