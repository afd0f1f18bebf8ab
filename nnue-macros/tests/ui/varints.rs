// A net of PlentyChess's layout, one LEB128 varint per value (written by tests/compile_fail.rs):
// cut short in its last value, and with a byte after it. Each an error at its offset.

nnue_runtime::nnue_net! {
    name = cut_short,
    path = "../../nnue-corpus/varints_cut_short.nnue",
    arch = "(768x2hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, skip, l1mul=512/4161600, scale=287, threats=pawnpairs+sf19, file=plentychess, kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]",
}

nnue_runtime::nnue_net! {
    name = trailing_byte,
    path = "../../nnue-corpus/varints_trailing_byte.nnue",
    arch = "(768x2hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, skip, l1mul=512/4161600, scale=287, threats=pawnpairs+sf19, file=plentychess, kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]",
}

fn main() {}
