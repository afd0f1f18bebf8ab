// The generated types carry the dimensions: mixing nets' accumulators does not compile.
nnue_runtime::nnue_net!(name = small, path = "../../nnue-corpus/valid.nnue");

fn main() {
    let acc: nnue_runtime::Accumulator<128, 8> = Default::default();
    let _: &small::Accumulator = &acc;
}
