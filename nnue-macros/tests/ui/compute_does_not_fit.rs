// A Stockfish 15.1-18 net computing layers of one's own: fc_2 fed fc_1's 30 inputs, not its 32.
nnue_runtime::nnue_net! {
    path = "../../nnue-corpus/valid.nnue",
    compute = "
        bucket (pieces - 1) / 4
        r0 = clamp(a, 0, 254) * clamp(a', 0, 254) >> 9, per half, side to move first
        r1 = fc0 * r0 + b (int8)
        r2 = r1[0..15]
        r3 = min(127, r2^2 >> 19)
        r4 = clamp(r2 >> 6, 0, 127)
        r5 = r3 ++ r4
        r6 = fc1 * r5 + b (int8)
        r7 = clamp(r6 >> 6, 0, 127)
        r8 = fc2 * r5 + b (int8)
        r9 = r1[15..16]
        r10 = r9 * 9600
        r11 = r10 / 8128
        r12 = r8 + r11
        r13 = r12 / 16
        positional = r13; psqt = (us - them) / 2 / 16
    ",
}

fn main() {}
