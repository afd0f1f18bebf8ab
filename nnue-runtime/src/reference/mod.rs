//! The generic evaluator: runtime-dimensioned, portable, written for clarity. It is the
//! reference every fast path must equal, integer for integer, layer by layer. It lives in
//! `nnue-format` (so that `nnue_net!`'s `expect = [...]` runs it at compile time); here it is a
//! [`Network`], and [`verify`] compares a fast network with it.

pub use nnue_format::reference::{Evaluator, GenericAccumulator};
use nnue_format::Net;

use crate::features::FeatureSet;
use crate::network::{Evaluation, Network, Trace};
use crate::position::{Color, Position};

/// The reference evaluator behind the same interface as the fast networks, so engines (and
/// the accumulator stack) can switch between them. Paths don't apply: it is always portable.
impl Network for Evaluator<'_> {
    type Accumulator = GenericAccumulator;

    fn feature_set(&self) -> FeatureSet {
        self.features()
    }

    fn new_accumulator(&self) -> GenericAccumulator {
        self.empty_accumulator()
    }

    fn weights_id(&self) -> crate::network::WeightsId {
        crate::network::WeightsId::of(self.net(), self.net())
    }

    /// Nothing to measure: the reference runs the same code on every path.
    fn best_path(&self) -> crate::KernelPath {
        crate::KernelPath::best()
    }

    fn refresh_on(&self, _path: crate::KernelPath, pos: &Position, perspective: Color, acc: &mut GenericAccumulator) {
        let fresh = self.empty_accumulator();
        let p = perspective.index();
        acc.values[p].clone_from(&fresh.values[p]);
        acc.psqt[p].clone_from(&fresh.psqt[p]);
        let mut active = Vec::with_capacity(32);
        self.features().active(pos, perspective, &mut active);
        self.update(acc, perspective, &active, &[]);
    }

    fn refresh_pieces_on(
        &self,
        _path: crate::KernelPath,
        pos: &Position,
        perspective: Color,
        acc: &mut GenericAccumulator,
    ) {
        let fresh = self.empty_accumulator();
        let p = perspective.index();
        acc.values[p].clone_from(&fresh.values[p]);
        acc.psqt[p].clone_from(&fresh.psqt[p]);
        let king = pos.king(perspective);
        let pieces: Vec<usize> =
            pos.pieces().filter_map(|(sq, piece)| self.features().index(perspective, king, sq, piece)).collect();
        self.update(acc, perspective, &pieces, &[]);
    }

    fn rebase_on(
        &self,
        _path: crate::KernelPath,
        acc: &mut GenericAccumulator,
        perspective: Color,
        plus: &GenericAccumulator,
        minus: &GenericAccumulator,
    ) {
        self.check_width(acc);
        let p = perspective.index();
        for ((a, &x), &y) in acc.values[p].iter_mut().zip(&plus.values[p]).zip(&minus.values[p]) {
            *a = a.wrapping_add(x).wrapping_sub(y);
        }
        for ((a, &x), &y) in acc.psqt[p].iter_mut().zip(&plus.psqt[p]).zip(&minus.psqt[p]) {
            *a = a.wrapping_add(x).wrapping_sub(y);
        }
    }

    fn update_on(
        &self,
        _path: crate::KernelPath,
        src: &GenericAccumulator,
        dst: &mut GenericAccumulator,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    ) {
        let p = perspective.index();
        dst.values[p].clone_from(&src.values[p]);
        dst.psqt[p].clone_from(&src.psqt[p]);
        self.update(dst, perspective, added, removed);
    }

    fn update_in_place_on(
        &self,
        _path: crate::KernelPath,
        acc: &mut GenericAccumulator,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    ) {
        self.update(acc, perspective, added, removed);
    }

    fn forward_on(&self, _path: crate::KernelPath, acc: &GenericAccumulator, stm: Color, pieces: usize) -> Evaluation {
        self.forward(acc, stm, pieces).0
    }

    fn trace_on(
        &self,
        _path: crate::KernelPath,
        acc: &GenericAccumulator,
        stm: Color,
        pieces: usize,
    ) -> (Evaluation, Trace) {
        self.forward(acc, stm, pieces)
    }
}

/// The first difference [`verify`] found between a fast network and the reference.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{arch} on {path}, {position:?}: got {got} (trace {got_trace:?}), reference {want} (trace {want_trace:?})")]
pub struct Mismatch {
    /// The net's architecture.
    pub arch: String,
    /// The path that differs.
    pub path: crate::KernelPath,
    /// The position.
    pub position: Position,
    /// The fast network's evaluation (from [`Network::trace_on`]; its plain forward pass may
    /// be the one that differs).
    pub got: Evaluation,
    /// The fast network's layer outputs.
    pub got_trace: Trace,
    /// The reference's evaluation.
    pub want: Evaluation,
    /// The reference's layer outputs.
    pub want_trace: Trace,
}

/// Checks a fast network against the reference on every path this CPU has: every layer's
/// output and the evaluation, for each position. Returns the number of comparisons, or the
/// first difference. (Engines loading nets at run time can use it as a self-test.)
pub fn verify<N: Network>(net: &Net, fast: &N, positions: &[Position]) -> Result<usize, Box<Mismatch>> {
    verify_with(&Evaluator::new(net), fast, positions)
}

/// [`verify`] against `reference` (an evaluator of the net, with its own layers or given ones:
/// [`Evaluator::with_layers`]).
pub fn verify_with<N: Network>(
    reference: &Evaluator<'_>,
    fast: &N,
    positions: &[Position],
) -> Result<usize, Box<Mismatch>> {
    let net = reference.net();
    let mut n = 0;
    for path in crate::KernelPath::all() {
        for pos in positions {
            let mut acc = fast.new_accumulator();
            for perspective in Color::BOTH {
                fast.refresh_on(path, pos, perspective, &mut acc);
            }
            let (stm, pieces) = (pos.side_to_move(), pos.piece_count());
            let (eval, trace) = fast.trace_on(path, &acc, stm, pieces);
            let (want, want_trace) = reference.forward(&reference.refresh(pos), stm, pieces);
            let plain = fast.forward_on(path, &acc, stm, pieces);
            if trace != want_trace || eval != want || plain != want {
                return Err(Box::new(Mismatch {
                    arch: net.arch().to_string(),
                    path,
                    position: pos.clone(),
                    got: eval,
                    got_trace: trace,
                    want,
                    want_trace,
                }));
            }
            n += 1;
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nets::tests::panic_message;
    use nnue_format::{synth, Encoding};

    /// `GenericAccumulator`'s fields are public: one of another width once gave garbage.
    #[test]
    fn an_accumulator_of_another_width_panics() {
        let net = synth::sfnn(64, 1, Encoding::Raw);
        let eval = Evaluator::new(&net);
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let good = eval.refresh(&pos);
        let mut narrow = good.clone();
        narrow.values[1].truncate(32);
        let mut no_psqt = good.clone();
        no_psqt.psqt = [Vec::new(), Vec::new()];
        for bad in [narrow, no_psqt] {
            let msg = panic_message(|| _ = eval.forward(&bad, Color::White, 32)).expect("forward panics");
            assert!(msg.starts_with("GenericAccumulator: values of ["), "{msg}");
            let mut b = bad.clone();
            let msg = panic_message(|| eval.update(&mut b, Color::White, &[1], &[])).expect("update panics");
            assert!(msg.contains("this net's are 64 and 8"), "{msg}");
            let mut dst = good.clone();
            let msg =
                panic_message(|| eval.update_on(crate::KernelPath::best(), &bad, &mut dst, Color::Black, &[], &[]));
            assert!(msg.is_some_and(|m| m.starts_with("GenericAccumulator")));
        }
    }

    /// The description's own layers, given as text, make the same evaluator (its trace too).
    #[test]
    fn the_own_layers_as_text_are_the_plain_evaluator() {
        let net = synth::sf19(64, nnue_format::Sf19Inputs::Lite, 3, Encoding::Raw);
        let text = net.arch().layers().to_string();
        let eval = Evaluator::with_layers(&net, text.parse().unwrap()).unwrap();
        assert_eq!(eval.layers(), Evaluator::new(&net).layers());
    }

    /// A `skip` net (PlentyChess's layout) with its own layers: refused once (l3's inputs were
    /// taken without the skipped activations).
    #[test]
    fn a_skip_net_with_its_own_layers_is_the_plain_evaluator() {
        let text = nnue_format::known::PLENTYCHESS.replace("-> 1024)x2", "-> 64)x2");
        let Ok(nnue_format::Architecture::Layered(a)) = text.parse() else { unreachable!("a multi-layer description") };
        let net = synth::layered(&a, 3);
        let layers = net.arch().layers().to_string();
        let eval = Evaluator::with_layers(&net, layers.parse().unwrap()).unwrap();
        assert_eq!(eval.layers(), Evaluator::new(&net).layers());
    }

    /// `check_fits` is what makes a layer sequence safe to interpret: thousands of sequences
    /// mutated from each family's own (other registers, shifts, divisors, slices, weights,
    /// steps left out), and every one it accepts evaluates without a panic.
    #[test]
    fn every_sequence_check_fits_accepts_evaluates() {
        use nnue_format::layers::step::*;
        use nnue_format::layers::Param;
        use nnue_format::synth::Rng;
        let layered = |text: &str| match text.parse() {
            Ok(nnue_format::Architecture::Layered(a)) => synth::layered(&a, 5),
            _ => unreachable!("a multi-layer description"),
        };
        let chess768 = match "(768 -> 64)x2 -> 1x8, screlu, qa=255, qb=64, scale=400".parse() {
            Ok(nnue_format::Architecture::Chess768(a)) => synth::chess768(&a, 6),
            _ => unreachable!("a chess-768 description"),
        };
        let nets = [
            chess768,
            synth::sfnn(64, 1, Encoding::Raw),
            synth::threats(64, 2, Encoding::Raw),
            synth::sf19(64, nnue_format::Sf19Inputs::Lite, 3, Encoding::Raw),
            synth::halfkp(64, 4),
            layered("(768 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=512/4161600, scale=400, file=bullet"),
            layered("(768 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, file=cbnf"),
            // Viridithas's activations: hard-swish, SwiGLU, a residual connection.
            layered("(768 -> 64)x2 -> pairwise>>9 -> (32 -> 64 -> 1)x8, f32, l1act=hardswish, l2act=swiglu, residual, l1mul=512/4161600, scale=240, file=bullet"),
        ];
        let positions = crate::position::random_positions(31, 3);
        let mut rng = Rng::new(41);
        let mut pick = |n: usize| rng.range(0, n as i64 - 1) as usize;
        let params = [Param::Fc0, Param::Fc1, Param::Fc2, Param::L1, Param::L2, Param::L3, Param::Out];
        let (mut accepted, mut tried) = (0, 0);
        for net in &nets {
            let own = net.arch().layers();
            for _ in 0..1500 {
                let mut layers = own.clone();
                layers.steps.retain(|s| !matches!(s, Step::Trace { .. }));
                for _ in 0..1 + pick(2) {
                    let i = pick(layers.steps.len());
                    let regs = layers.steps.len() as u8 + 1;
                    let reg = pick(regs as usize) as u8;
                    let step = &mut layers.steps[i];
                    match (pick(4), step) {
                        (0, _) => _ = layers.steps.remove(i),
                        (
                            1,
                            Step::AffineI8(AffineI8 { param, .. })
                            | Step::AffineF32(AffineF32 { param, .. })
                            | Step::AffineI32(AffineI32 { param, .. })
                            | Step::DotF32(DotF32 { param, .. })
                            | Step::ShiftBias(ShiftBias { param, .. })
                            | Step::DequantF32(DequantF32 { param, .. }),
                        ) => {
                            *param = params[pick(params.len())];
                        }
                        (
                            2,
                            Step::ClippedShift(ClippedShift { shift, .. })
                            | Step::SqrClippedShift(SqrClippedShift { shift, .. })
                            | Step::ShiftBias(ShiftBias { shift, .. }),
                        ) => {
                            *shift = pick(70) as u32;
                        }
                        (2, Step::Div(Div { k, .. }) | Step::Mul(Mul { k, .. })) => *k = pick(3) as i32 - 1,
                        (2, Step::Slice(Slice { start, len, .. })) => (*start, *len) = (pick(40), pick(40)),
                        (2, Step::DualI32(DualI32 { q_bits, .. }) | Step::ClampSquare(ClampSquare { q_bits, .. })) => {
                            *q_bits = pick(20) as u32
                        }
                        (2, Step::DualWideI32(DualWideI32 { q_bits, shift, .. })) => {
                            (*q_bits, *shift) = (pick(20) as u32, pick(40) as u32)
                        }
                        // The step's first read becomes a read of `reg`.
                        (_, step) => match step {
                            Step::AffineI8(AffineI8 { input, .. })
                            | Step::AffineI8Pairs(AffineI8Pairs { input, .. })
                            | Step::AffineI8Fours(AffineI8Fours { input, .. })
                            | Step::DotI16(DotI16 { input, .. })
                            | Step::Square(Square { input, .. })
                            | Step::Slice(Slice { input, .. })
                            | Step::ClippedShift(ClippedShift { input, .. })
                            | Step::SqrClippedShift(SqrClippedShift { input, .. })
                            | Step::Div(Div { input, .. })
                            | Step::Mul(Mul { input, .. })
                            | Step::AddBiasI16(AddBiasI16 { input, .. })
                            | Step::DequantF32(DequantF32 { input, .. })
                            | Step::DualF32(DualF32 { input, .. })
                            | Step::ScreluF32(ScreluF32 { input, .. })
                            | Step::ClampF32(ClampF32 { input, .. })
                            | Step::HardSwishF32(HardSwishF32 { input, .. })
                            | Step::SwigluF32(SwigluF32 { input, .. })
                            | Step::AffineF32(AffineF32 { input, .. })
                            | Step::SignedSquareF32(SignedSquareF32 { input, .. })
                            | Step::AffineChainsF32(AffineChainsF32 { input, .. })
                            | Step::LanesF32(LanesF32 { input, .. })
                            | Step::DotF32(DotF32 { input, .. })
                            | Step::F32ToInt(F32ToInt { input, .. })
                            | Step::ShiftBias(ShiftBias { input, .. })
                            | Step::DualI32(DualI32 { input, .. })
                            | Step::DualWideI32(DualWideI32 { input, .. })
                            | Step::OutputWideI32(OutputWideI32 { input, .. })
                            | Step::ClampSquare(ClampSquare { input, .. })
                            | Step::Clamp(Clamp { input, .. })
                            | Step::AffineI32(AffineI32 { input, .. }) => *input = reg,
                            Step::Add(Add { a, .. }) | Step::Sub(Sub { a, .. }) | Step::AddF32(AddF32 { a, .. }) => {
                                *a = reg
                            }
                            Step::Concat(Concat { inputs, .. }) => inputs[0] = reg,
                            Step::Trace { .. } => {}
                        },
                    }
                }
                tried += 1;
                let Ok(eval) = Evaluator::with_layers(net, layers.clone()) else { continue };
                accepted += 1;
                for pos in &positions {
                    let acc = eval.refresh(pos);
                    let got = panic_message(|| _ = eval.forward(&acc, pos.side_to_move(), pos.piece_count()));
                    assert!(got.is_none(), "{}: {layers}\n{got:?}", net.arch());
                }
            }
        }
        // The mutations keep a good share of sequences well-formed, so the check is exercised.
        assert!(accepted > tried / 20 && accepted < tried, "{accepted} of {tried} accepted");
    }
}
