nnue_runtime::nnue_net! {
    path = "../../nnue-corpus/valid.nnue",
    layers = "bucket (pieces - 1) / 4
              r0 = clamp(a, 0, 254) * clamp(a', 0, 254) >> 9, per half, side to move first
              r1 = fc0 times r0",
}

fn main() {}
