// An engine-defined input block (`threats=custom:18`; the net is written by
// tests/compile_fail.rs): without `block`, `block` for a net without one, and `expect`, which
// can't run the engine's code while the crate compiles.

nnue_runtime::nnue_net! {
    name = without_block,
    path = "../../nnue-corpus/custom_block.nnue",
    arch = "(768x2hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, l2act=crelu, l1mul=512/4161600, scale=380, threats=custom:18, file=reckless, kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]",
}

nnue_runtime::nnue_net! {
    name = block_without_custom_inputs,
    path = "../../nnue-corpus/valid.nnue",
    block = crate::PAWN_FILES,
}

nnue_runtime::nnue_net! {
    name = expect_with_block,
    path = "../../nnue-corpus/custom_block.nnue",
    arch = "(768x2hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, l2act=crelu, l1mul=512/4161600, scale=380, threats=custom:18, file=reckless, kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]",
    block = crate::PAWN_FILES,
    expect = [("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 0)],
}

#[derive(Debug)]
struct PawnFiles;

impl nnue_runtime::features::InputBlock for PawnFiles {
    fn inputs(&self) -> usize {
        18
    }

    fn active(
        &self,
        _: &nnue_runtime::features::threats::Board,
        _: nnue_runtime::Color,
        _: nnue_runtime::Square,
        _: &mut Vec<usize>,
    ) {
    }
}

static PAWN_FILES: PawnFiles = PawnFiles;

fn main() {}
