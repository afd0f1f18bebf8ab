// 2 GiB of holes: refused by its size, not read.
nnue_runtime::nnue_net!("../../nnue-corpus/huge-sparse.nnue");

fn main() {}
