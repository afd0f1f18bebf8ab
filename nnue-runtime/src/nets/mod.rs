//! The input side of the fast networks: what `nnue_net!` instantiates with a net's dimensions
//! and weights, and what [`crate::loaded`] builds from a net read at run time.
//!
//! [`Transformer`] is one struct of references to the transformer's arrays in the fast layout
//! ([`nnue_format::layout::TransformerArrays`]) for every net, and implements
//! [`FeatureTransformer`]: features, accumulators, refresh and updates, generic over the kernel
//! set and instantiated per path under that path's `#[target_feature]`. The layers after the
//! accumulators are not the transformer's: a
//! [`Composed`] network adds them, the generated module's own `Layers` for a compiled net, a
//! [`Program`](crate::loaded::Program) of the same kernels for a loaded one, both read off the
//! description ([`Architecture::layers`](nnue_format::Architecture::layers)).

mod large_pages;
mod transformer;

pub use transformer::{Features, Transformer};

pub use crate::layers::Composed;

use crate::features::FeatureSet;
use crate::position::{Color, Position};

/// A net's input side: its features, its accumulators with their refresh, updates and
/// rebases, and the identity of its weights. [`Transformer`] implements it;
/// [`Composed`] adds the layers after the accumulators and makes it a [`Network`], whose
/// methods of the same names these are (see there).
///
/// [`Network`]: crate::Network
pub trait FeatureTransformer {
    /// The accumulator type.
    type Accumulator: Clone;
    /// See [`Network::feature_set`](crate::Network::feature_set).
    fn feature_set(&self) -> FeatureSet;
    /// See [`Network::weights_id`](crate::Network::weights_id).
    fn weights_id(&self) -> crate::network::WeightsId;
    /// See [`Network::new_accumulator`](crate::Network::new_accumulator).
    fn new_accumulator(&self) -> Self::Accumulator;
    /// See [`Network::refresh_on`](crate::Network::refresh_on).
    fn refresh_on(&self, path: crate::KernelPath, pos: &Position, perspective: Color, acc: &mut Self::Accumulator);
    /// See [`Network::update_on`](crate::Network::update_on).
    fn update_on(
        &self,
        path: crate::KernelPath,
        src: &Self::Accumulator,
        dst: &mut Self::Accumulator,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    );
    /// See [`Network::refresh_pieces_on`](crate::Network::refresh_pieces_on).
    fn refresh_pieces_on(
        &self,
        path: crate::KernelPath,
        pos: &Position,
        perspective: Color,
        acc: &mut Self::Accumulator,
    ) {
        self.refresh_on(path, pos, perspective, acc)
    }
    /// See [`Network::update_in_place_on`](crate::Network::update_in_place_on).
    fn update_in_place_on(
        &self,
        path: crate::KernelPath,
        acc: &mut Self::Accumulator,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    ) {
        let src = acc.clone();
        self.update_on(path, &src, acc, perspective, added, removed)
    }
    /// See [`Network::rebase_on`](crate::Network::rebase_on).
    fn rebase_on(
        &self,
        path: crate::KernelPath,
        acc: &mut Self::Accumulator,
        perspective: Color,
        plus: &Self::Accumulator,
        minus: &Self::Accumulator,
    );
}

/// The [`FeatureTransformer`] impl of a transformer type, from its `refresh_k` and `update_k`
/// methods (generic over the kernel set) and its `sum_in_place` (over one path's row
/// kernels): each trait method runs the kernels of the path it is given (see
/// [`crate::simd::entry_points`]), after checking the arguments the same way on every path. `$rows` gives the weights' feature rows, `$id` the
/// [`WeightsId`](crate::network::WeightsId), `pieces` the `refresh_pieces_on` method.
macro_rules! network_family {
    ([$($generics:tt)*] $ty:ty, $acc:ty, $features:expr, $rows:expr, $id:expr $(, pieces: { $($pieces:tt)* })?) => {
        impl<$($generics)*> $ty {
            crate::simd::entry_points!(fn refresh_k [refresh_avx2, refresh_avxvnni, refresh_avx512vnni, refresh_neon, refresh_dotprod, refresh_simd128]
                (&self, pos: &Position, perspective: Color, acc: &mut $acc));
            crate::simd::entry_points!(fn update_k [update_avx2, update_avxvnni, update_avx512vnni, update_neon, update_dotprod, update_simd128]
                (&self, src: &$acc, dst: &mut $acc, perspective: Color, added: &[usize], removed: &[usize]));
        }

        impl<$($generics)*> crate::nets::FeatureTransformer for $ty {
            type Accumulator = $acc;

            fn feature_set(&self) -> FeatureSet {
                let features: fn(&Self) -> FeatureSet = $features;
                features(self)
            }
            fn weights_id(&self) -> crate::network::WeightsId {
                let id: fn(&Self) -> crate::network::WeightsId = $id;
                id(self)
            }
            fn new_accumulator(&self) -> $acc {
                Default::default()
            }
            fn rebase_on(&self, path: crate::KernelPath, acc: &mut $acc, perspective: Color, plus: &$acc, minus: &$acc) {
                acc.rebase(path, perspective, plus, minus)
            }
            $($($pieces)*)?
            #[inline]
            fn refresh_on(&self, path: crate::KernelPath, pos: &Position, perspective: Color, acc: &mut $acc) {
                crate::simd::on_path!(self, path, refresh_k [refresh_avx2, refresh_avxvnni, refresh_avx512vnni, refresh_neon, refresh_dotprod, refresh_simd128](pos, perspective, acc))
            }
            #[inline]
            fn update_on(&self, path: crate::KernelPath, src: &$acc, dst: &mut $acc, perspective: Color, added: &[usize], removed: &[usize]) {
                // The rows the weights have, whatever a (public, forgeable) config says.
                let rows: fn(&Self) -> usize = $rows;
                crate::network::check_features(rows(self), added, removed);
                crate::simd::on_path!(self, path, update_k [update_avx2, update_avxvnni, update_avx512vnni, update_neon, update_dotprod, update_simd128](src, dst, perspective, added, removed))
            }
            #[inline]
            fn update_in_place_on(&self, path: crate::KernelPath, acc: &mut $acc, perspective: Color, added: &[usize], removed: &[usize]) {
                let rows: fn(&Self) -> usize = $rows;
                crate::network::check_features(rows(self), added, removed);
                // SAFETY: holding `path` proves its row kernels' target features are available.
                unsafe { self.sum_in_place(crate::simd::rows::for_path(path), acc, perspective.index(), added, removed) }
            }
        }
    };
}
pub(crate) use network_family;

/// Active features of `perspective`, in a fixed-capacity buffer (a position has at most 32).
#[inline(always)]
pub(crate) fn active_features(features: FeatureSet, pos: &Position, perspective: Color) -> ([usize; 32], usize) {
    let (mut list, mut n) = ([0usize; 32], 0);
    let king = pos.king(perspective);
    for (sq, piece) in pos.pieces() {
        if let Some(f) = features.index(perspective, king, sq, piece) {
            list[n] = f;
            n += 1;
        }
    }
    (list, n)
}

#[cfg(test)]
pub(crate) mod tests {
    use std::panic::{catch_unwind, AssertUnwindSafe};

    use nnue_format::{synth, Architecture, Encoding};

    use crate::loaded::FastWeights;
    use crate::network::Network;
    use crate::position::{Color, Position};
    use crate::reference::Evaluator;
    use crate::simd::KernelPath;

    /// The message `f` panics with, if it panics.
    pub(crate) fn panic_message(f: impl FnOnce()) -> Option<String> {
        let e = catch_unwind(AssertUnwindSafe(f)).err()?;
        Some(
            e.downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default(),
        )
    }

    fn chess768_arch() -> nnue_format::Chess768Arch {
        let arch: Architecture = "(768 -> 32)x2 -> 1x8, screlu, qa=255, qb=64, scale=400".parse().unwrap();
        let Architecture::Chess768(arch) = arch else { unreachable!() };
        arch
    }

    /// `pieces` outside 2..=32 and feature indices past the net's once panicked with an index
    /// out of bounds (or not at all): the same documented panic on every path, the reference's
    /// included, and none inside the limits.
    fn check_limits<N: Network>(net: &N, reference: &Evaluator) {
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let mut acc = net.new_accumulator();
        for p in Color::BOTH {
            net.refresh(&pos, p, &mut acc);
        }
        let racc = reference.refresh(&pos);
        for pieces in [0, 1, 33, 34, 1000, usize::MAX] {
            let want = format!("forward: pieces must be 2..=32 (a position's piece count), got {pieces}");
            assert_eq!(panic_message(|| _ = reference.forward(&racc, Color::White, pieces)), Some(want.clone()));
            for path in KernelPath::all() {
                let got = panic_message(|| _ = net.forward_on(path, &acc, Color::White, pieces));
                assert_eq!(got.as_ref(), Some(&want), "{path}");
                let got = panic_message(|| _ = net.trace_on(path, &acc, Color::White, pieces));
                assert_eq!(got.as_ref(), Some(&want), "{path}");
            }
        }
        for pieces in [2, 32] {
            let want = reference.forward(&racc, Color::White, pieces).0;
            for path in KernelPath::all() {
                assert_eq!(net.forward_on(path, &acc, Color::White, pieces), want, "{path}");
            }
        }
        let inputs = net.feature_set().inputs();
        for bad in [inputs, 1_000_000_000, usize::MAX] {
            let want = format!("update: feature index {bad} is past the net's {inputs} features");
            let mut r = racc.clone();
            assert_eq!(panic_message(|| reference.update(&mut r, Color::White, &[bad], &[])), Some(want.clone()));
            for path in KernelPath::all() {
                for (added, removed) in [(&[bad][..], &[][..]), (&[0][..], &[0, bad][..])] {
                    let mut dst = acc.clone();
                    let got = panic_message(|| net.update_on(path, &acc, &mut dst, Color::Black, added, removed));
                    assert_eq!(got.as_ref(), Some(&want), "{path}");
                }
            }
        }
    }

    #[test]
    fn a_view_whose_sizes_or_kind_are_not_the_nets_is_a_load_error() {
        let err = |r: Result<(), crate::loaded::LoadError>| r.unwrap_err().to_string();
        let net = synth::chess768(&chess768_arch(), 4);
        let w = FastWeights::new(&net).unwrap();
        assert_eq!(err(w.chess768::<32, 768, 4>().map(drop)), "B, the output buckets is 4, the net's is 8");
        assert!(err(w.chess768::<64, 768, 8>().map(drop)).starts_with("l0_biases has shape [32]"));
        assert!(err(w.sfnn::<32, 16, 8>().map(drop)).contains("not an SFNNv5+ net"));
        let net = synth::sf19(64, nnue_format::Sf19Inputs::Lite, 5, Encoding::Raw);
        let w = FastWeights::new(&net).unwrap();
        assert_eq!(
            err(w.sf19::<64, 32, 16, 8, 0, 768, 769>().map(drop)),
            "ROWS (INT8 + INT16) is 769, the net's is 768"
        );
        assert_eq!(
            err(w.sf19::<64, 32, 16, 8, 1, 768, 769>().map(drop)),
            "INT8 (the net has no int8 rows) is 1, the net's is 0"
        );
        // The kinds are typed, for a loader that tells them apart.
        use crate::loaded::LoadError;
        assert!(matches!(
            w.sf19::<64, 32, 16, 8, 0, 768, 769>(),
            Err(LoadError::Dimension { got: 769, want: 768, .. })
        ));
        assert!(matches!(w.sfnn::<32, 16, 8>(), Err(LoadError::Family { view: "an SFNNv5+ net", .. })));
        assert!(w.sf19::<64, 32, 16, 8, 0, 768, 768>().is_ok());
        let arch = "(768x2 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1mul=1/16256, scale=400, \
                    file=bullet, kings=[0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
        let Architecture::Layered(arch) = arch.parse().unwrap() else { panic!("{arch}") };
        let w = FastWeights::new(&synth::layered(&arch, 6)).unwrap();
        assert_eq!(err(w.layered::<64, 32, 16, 1536, 16, 16, 16, 8>().map(drop)), "L3 is 16, the net's is 32");
        assert_eq!(
            err(w.layered::<64, 32, 16, 1536, 16, 16, 32, 4>().map(drop)),
            "B, the output buckets is 4, the net's is 8"
        );
        assert!(w.layered::<64, 32, 16, 1536, 16, 16, 32, 8>().is_ok());
        // A dense layer wider than the run-time kernels take: typed, naming the way out.
        let text = "(768x2 -> 64)x2 -> pairwise>>9 -> (16 -> 128 -> 1)x8, f32, l1mul=1/16256, scale=400, file=bullet, \
                    kings=[0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
        let Architecture::Layered(arch) = text.parse().unwrap() else { panic!("{text}") };
        let w = FastWeights::new(&synth::layered(&arch, 6)).unwrap();
        let got = w.layered::<64, 32, 16, 1536, 16, 16, 128, 8>().map(drop);
        let layers = crate::loaded::LayersError::Size { what: "a dense layer", n: 128, sizes: vec![16, 32, 64] };
        assert!(matches!(&got, Err(LoadError::Layers(e)) if *e == layers), "{got:?}");
        assert!(err(got).ends_with("nnue_net! compiles any size)"));
    }

    /// An update in place (the refresh cache's entries) sums as one from a copy, on every
    /// path, over int8 rows (a threat net's board features) and int16 ones, past a kernel
    /// pass's rows too; and panics the same past the net's features. The reference's as well.
    #[test]
    fn an_update_in_place_equals_one_from_a_copy() {
        let net = synth::threats(64, 2, Encoding::Raw);
        let w = FastWeights::new(&net).unwrap();
        let fast = w.sfnn_threats::<64, 32, 16>().unwrap();
        let eval = Evaluator::new(&net);
        let pos = Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
        let inputs = fast.feature_set().inputs();
        let many: Vec<usize> = (0..70).map(|i| i * 997 % inputs).collect();
        let lists: [(&[usize], &[usize]); 4] =
            [(&[0, inputs - 1], &[5]), (&[], &[]), (&many, &[7, inputs - 2]), (&[3], &many)];
        for path in KernelPath::all() {
            let mut acc = fast.new_accumulator();
            for p in Color::BOTH {
                fast.refresh_on(path, &pos, p, &mut acc);
            }
            for (added, removed) in lists {
                let mut want = acc.clone();
                fast.update_on(path, &acc, &mut want, Color::Black, added, removed);
                let mut got = acc.clone();
                fast.update_in_place_on(path, &mut got, Color::Black, added, removed);
                assert_eq!(got, want, "{path} {added:?} {removed:?}");
            }
            let bad = format!("update: feature index {inputs} is past the net's {inputs} features");
            let got = panic_message(|| fast.update_in_place_on(path, &mut acc.clone(), Color::White, &[inputs], &[]));
            assert_eq!(got, Some(bad), "{path}");
        }
        let acc = eval.refresh(&pos);
        for (added, removed) in lists {
            let mut want = acc.clone();
            eval.update_on(KernelPath::SCALAR, &acc, &mut want, Color::White, added, removed);
            let mut got = acc.clone();
            eval.update_in_place_on(KernelPath::SCALAR, &mut got, Color::White, added, removed);
            assert_eq!(got, want, "reference {added:?} {removed:?}");
        }
    }

    #[test]
    fn arguments_past_the_documented_limits_panic_the_same_on_every_path() {
        let net = synth::sfnn(64, 1, Encoding::Raw);
        let w = FastWeights::new(&net).unwrap();
        check_limits(&w.sfnn::<64, 32, 16>().unwrap(), &Evaluator::new(&net));
        let net = synth::threats(64, 2, Encoding::Raw);
        let w = FastWeights::new(&net).unwrap();
        check_limits(&w.sfnn_threats::<64, 32, 16>().unwrap(), &Evaluator::new(&net));
        let net = synth::halfkp(32, 3);
        let w = FastWeights::new(&net).unwrap();
        check_limits(&w.halfkp::<32, 16>().unwrap(), &Evaluator::new(&net));
        let net = synth::chess768(&chess768_arch(), 4);
        let w = FastWeights::new(&net).unwrap();
        check_limits(&w.chess768::<32, 768, 8>().unwrap(), &Evaluator::new(&net));
    }
}

/// The active features of a position (board features included) in a buffer kept per thread,
/// so that threat nets refresh without allocating; the buffer goes back when this drops.
/// (Not a closure API: a closure would not inherit the kernels' target features.)
pub(crate) struct ActiveList(Vec<usize>);

thread_local! {
    static ACTIVE_LIST: std::cell::Cell<Vec<usize>> = const { std::cell::Cell::new(Vec::new()) };
}

impl ActiveList {
    #[inline(always)]
    pub(crate) fn of(features: FeatureSet, pos: &Position, perspective: Color) -> ActiveList {
        let mut list = ACTIVE_LIST.with(std::cell::Cell::take);
        list.clear();
        features.active(pos, perspective, &mut list);
        ActiveList(list)
    }
}

impl std::ops::Deref for ActiveList {
    type Target = [usize];
    fn deref(&self) -> &[usize] {
        &self.0
    }
}

impl Drop for ActiveList {
    fn drop(&mut self) {
        let list = std::mem::take(&mut self.0);
        ACTIVE_LIST.with(|cell| cell.set(list));
    }
}
