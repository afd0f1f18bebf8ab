//! The vocabulary every evaluator shares: the [`Network`] trait, the fast [`Accumulator`], the
//! [`Evaluation`] a net returns and the [`Trace`] of its layers. The fast networks (`nets`) and
//! the generic reference (`reference`) both build on this module and on nothing of each other.

mod calibrate;

pub(crate) use nnue_format::evaluation::{check_features, check_pieces};
pub use nnue_format::evaluation::{Evaluation, Trace, PIECES};

use crate::features::FeatureSet;
use crate::position::{Color, Position};
use crate::simd::KernelPath;

/// First-layer pre-activations of both perspectives (`values[color]`), in the fast layout.
#[derive(Debug, Clone, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator<const L1: usize, const PSQT: usize> {
    /// `values[color]`: the `L1` int16 sums of that perspective.
    pub values: [[i16; L1]; 2],
    /// `psqt[color]`: the int32 PSQT sums per bucket (SFNNv5+ and threat nets; `PSQT` = 0
    /// otherwise).
    pub psqt: [[i32; PSQT]; 2],
}

impl<const L1: usize, const PSQT: usize> Accumulator<L1, PSQT> {
    /// [`Network::rebase_on`] of the fast nets.
    pub(crate) fn rebase(&mut self, path: KernelPath, perspective: Color, plus: &Self, minus: &Self) {
        let p = perspective.index();
        // SAFETY: holding `path` proves its row kernels' target features are available.
        unsafe { (crate::simd::rows::for_path(path).rebase)(&mut self.values[p], &plus.values[p], &minus.values[p]) };
        for ((a, &x), &y) in self.psqt[p].iter_mut().zip(&plus.psqt[p]).zip(&minus.psqt[p]) {
            *a = a.wrapping_add(x).wrapping_sub(y);
        }
    }
}

impl<const L1: usize, const PSQT: usize> Default for Accumulator<L1, PSQT> {
    fn default() -> Self {
        Self { values: [[0; L1]; 2], psqt: [[0; PSQT]; 2] }
    }
}

/// Which weights a network reads: the addresses of two of its weight arrays (a copy of a
/// network shares its weights, so it has the same id). [`AccumulatorStack`](crate::AccumulatorStack)
/// and [`RefreshCache`](crate::RefreshCache) record it when built and compare it on every use:
/// a pointer comparison, in release builds too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WeightsId(usize, usize);

impl WeightsId {
    /// The id of a network whose weights include `first` and `last`.
    pub fn of<A: ?Sized, B: ?Sized>(first: &A, last: &B) -> WeightsId {
        WeightsId(first as *const A as *const u8 as usize, last as *const B as *const u8 as usize)
    }
}

/// What engines need from a net, fast or generic: accumulators, their updates, evaluation.
///
/// Implemented by the const-dimensioned types of [`nets`](crate::nets) (what `nnue_net!`
/// emits, or [`loaded`](crate::loaded) fills at run time) and by the generic reference
/// [`Evaluator`](crate::Evaluator). Every method has an `_on` form that runs on a chosen
/// [`KernelPath`] and a plain form that runs on [`KernelPath::best`]; all paths give the same
/// integers.
///
/// ```
/// use nnue_runtime::{Architecture, Color, Evaluator, Net, Network, Position};
///
/// nnue_runtime::nnue_net! {
///     path = "nets/default.nnue",
///     arch = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400",
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")?;
///
/// // What `evaluate` does: refresh both perspectives, then the layers after the accumulator.
/// let mut acc = net::NETWORK.new_accumulator();
/// for perspective in Color::BOTH {
///     net::NETWORK.refresh(&pos, perspective, &mut acc);
/// }
/// let eval = net::NETWORK.forward(&acc, pos.side_to_move(), pos.piece_count());
/// assert_eq!(eval, net::NETWORK.evaluate(&pos));
///
/// // The generic evaluator reads the same file at run time and gives the same integers.
/// let arch: Architecture = net::ARCHITECTURE.parse()?;
/// let file = Net::from_file(net::PATH, Some(&arch))?;
/// assert_eq!(Evaluator::new(&file).evaluate(&pos), eval);
/// println!("{eval}"); // bucket=0 psqt=0 positional=.. total=..
/// # Ok(())
/// # }
/// ```
pub trait Network {
    /// The accumulator type: [`Accumulator`] for the fast nets,
    /// [`GenericAccumulator`](crate::GenericAccumulator) for the reference.
    type Accumulator: Clone;

    /// The input features the net reads.
    fn feature_set(&self) -> FeatureSet;

    /// Which weights the network reads (see [`WeightsId`]).
    fn weights_id(&self) -> WeightsId;

    /// An accumulator to refresh into (its contents are not meaningful yet).
    fn new_accumulator(&self) -> Self::Accumulator;

    /// Recomputes `perspective`'s half of `acc` from the position.
    fn refresh_on(&self, path: KernelPath, pos: &Position, perspective: Color, acc: &mut Self::Accumulator);

    /// `dst[perspective] = src[perspective] + added rows - removed rows`, in one pass.
    ///
    /// # Panics
    /// When a feature index is not below [`FeatureSet::inputs`] (the message names it), on
    /// every path.
    fn update_on(
        &self,
        path: KernelPath,
        src: &Self::Accumulator,
        dst: &mut Self::Accumulator,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    );

    /// `acc[perspective] += added rows - removed rows`: [`Network::update_on`] with `acc` its
    /// own source (the refresh cache brings its entries to a new placement so). The default
    /// copies `acc` first; the fast networks sum in place.
    ///
    /// # Panics
    /// As [`Network::update_on`].
    fn update_in_place_on(
        &self,
        path: KernelPath,
        acc: &mut Self::Accumulator,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    ) {
        let src = acc.clone();
        self.update_on(path, &src, acc, perspective, added, removed)
    }

    /// `perspective`'s half of `acc` from the piece features alone: the biases and each
    /// piece's rows, without the features that depend on the whole board (threats, pawn
    /// pairs). For nets without such features, [`Network::refresh_on`]. The refresh cache keeps
    /// these sums per king square for threat nets, as Stockfish keeps its piece-square
    /// accumulator apart from the threat one.
    fn refresh_pieces_on(&self, path: KernelPath, pos: &Position, perspective: Color, acc: &mut Self::Accumulator) {
        self.refresh_on(path, pos, perspective, acc)
    }

    /// `acc[perspective] += plus[perspective] - minus[perspective]` (every sum, wrapping): for
    /// a threat net whose king moved within its board half, `minus` and `plus` are the piece
    /// sums ([`Network::refresh_pieces_on`]) before and after, and the board features' rows
    /// are an ordinary update.
    fn rebase_on(
        &self,
        path: KernelPath,
        acc: &mut Self::Accumulator,
        perspective: Color,
        plus: &Self::Accumulator,
        minus: &Self::Accumulator,
    );

    /// The layers after the accumulator, for `stm` to move with `pieces` on the board (which
    /// picks the layer stack or output bucket).
    ///
    /// # Panics
    /// When `pieces` is not in [`PIECES`] (2..=32, what a [`Position`] holds), on every path
    /// and for every net, with the same message.
    fn forward_on(&self, path: KernelPath, acc: &Self::Accumulator, stm: Color, pieces: usize) -> Evaluation;

    /// Like [`Network::forward_on`], recording every layer's output (and panicking as it does).
    fn trace_on(&self, path: KernelPath, acc: &Self::Accumulator, stm: Color, pieces: usize) -> (Evaluation, Trace);

    /// The paths this network runs on, on this CPU: [`KernelPath::all`], less relaxed SIMD for
    /// a net whose int8 layers aren't proven to read values in `0..=127`
    /// ([`nnue_format::Layers::int8_inputs_fit_7_bits`]; the `_on` methods given that path run
    /// SIMD128's kernels for such a net). [`Network::best_path`] picks among these.
    fn paths(&self) -> Vec<KernelPath> {
        KernelPath::all()
    }

    /// The path this network runs fastest on, on this CPU: timed once per network and process
    /// (the forward pass on each path, a millisecond or two, on first use), keeping the widest 256-bit path unless another is more than 3% faster. Every
    /// path gives the same integers. The plain methods, [`AccumulatorStack::new`] and
    /// [`RefreshCache::new`] use it.
    ///
    /// [`AccumulatorStack::new`]: crate::AccumulatorStack::new
    /// [`RefreshCache::new`]: crate::RefreshCache::new
    fn best_path(&self) -> KernelPath
    where
        Self: Sized,
    {
        calibrate::best_path(self)
    }

    /// [`Network::refresh_on`] on the best path.
    fn refresh(&self, pos: &Position, perspective: Color, acc: &mut Self::Accumulator)
    where
        Self: Sized,
    {
        self.refresh_on(self.best_path(), pos, perspective, acc)
    }

    /// [`Network::update_on`] on the best path.
    fn update(
        &self,
        src: &Self::Accumulator,
        dst: &mut Self::Accumulator,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    ) where
        Self: Sized,
    {
        self.update_on(self.best_path(), src, dst, perspective, added, removed)
    }

    /// [`Network::forward_on`] on the best path.
    fn forward(&self, acc: &Self::Accumulator, stm: Color, pieces: usize) -> Evaluation
    where
        Self: Sized,
    {
        self.forward_on(self.best_path(), acc, stm, pieces)
    }

    /// Refresh of both perspectives, then the forward pass.
    fn evaluate_on(&self, path: KernelPath, pos: &Position) -> Evaluation {
        let mut acc = self.new_accumulator();
        for perspective in Color::BOTH {
            self.refresh_on(path, pos, perspective, &mut acc);
        }
        self.forward_on(path, &acc, pos.side_to_move(), pos.piece_count())
    }

    /// [`Network::evaluate_on`] on the best path.
    fn evaluate(&self, pos: &Position) -> Evaluation
    where
        Self: Sized,
    {
        self.evaluate_on(self.best_path(), pos)
    }
}
