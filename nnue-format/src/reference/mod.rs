//! The generic evaluator: runtime-dimensioned, portable, written for clarity. It is the
//! reference every fast path must equal, integer for integer, layer by layer.

mod expect;
pub(crate) mod interpret;

pub use expect::ExpectError;

use crate::evaluation::{Evaluation, Trace};
use crate::features::FeatureSet;
use crate::position::{Color, Position};
use crate::Net;

/// The generic evaluator's first-layer pre-activations of both perspectives (indexed by
/// [`Color::index`]), sized at run time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenericAccumulator {
    /// `values[color]`: the L1 int16 sums of that perspective.
    pub values: [Vec<i16>; 2],
    /// PSQT sums per bucket (SFNNv5+ only; empty otherwise).
    pub psqt: [Vec<i32>; 2],
}

/// The reference evaluator for one net.
#[derive(Debug, Clone)]
pub struct Evaluator<'a> {
    net: &'a Net,
    features: FeatureSet,
    /// What the net computes after its accumulators, interpreted by `forward`.
    layers: crate::Layers,
}

impl<'a> Evaluator<'a> {
    /// The evaluator of `net`.
    ///
    /// # Panics
    /// When the net has an engine-defined input block without its implementation
    /// ([`Net::bind_block`]): it could not list that block's features.
    pub fn new(net: &'a Net) -> Self {
        assert!(
            !net.has_unbound_block(),
            "the net's engine-defined input block (threats=custom:N) has no implementation: Net::bind_block"
        );
        Self { net, features: FeatureSet::for_arch(&net.arch()), layers: net.arch().layers() }
    }

    /// The evaluator of `net` computing `layers` after its accumulators in place of the ones
    /// its description gives: the reference for a net compiled with `nnue_net!(…, compute =
    /// "…")` (its module's `LAYERS`). An error when the layers don't fit the net's arrays
    /// ([`crate::Layers::check_fits`]).
    pub fn with_layers(net: &'a Net, layers: crate::Layers) -> Result<Self, crate::layers::LayersError> {
        let layers = layers.in_place_of(&net.arch())?;
        Ok(Self { layers, ..Self::new(net) })
    }

    /// The net it evaluates.
    pub fn net(&self) -> &'a Net {
        self.net
    }

    /// The layers it computes after the accumulators.
    pub fn layers(&self) -> &crate::Layers {
        &self.layers
    }

    /// The net's input features.
    pub fn features(&self) -> FeatureSet {
        self.features
    }

    /// An accumulator holding only the biases.
    pub fn empty_accumulator(&self) -> GenericAccumulator {
        let ft = self.net.model.transformer();
        let biases: Vec<i16> = ft.biases.iter().map(|b| b.wrapping_mul(ft.scale)).collect();
        let buckets = ft.psqt_buckets;
        GenericAccumulator { values: [biases.clone(), biases], psqt: [vec![0; buckets], vec![0; buckets]] }
    }

    /// Panics unless `acc` has this net's widths (its fields are public).
    #[doc(hidden)]
    #[track_caller]
    pub fn check_width(&self, acc: &GenericAccumulator) {
        let ft = self.net.model.transformer();
        let (l1, buckets) = (ft.width(), ft.psqt_buckets);
        let widths = |v: &[Vec<i16>; 2], p: &[Vec<i32>; 2]| [v[0].len(), v[1].len(), p[0].len(), p[1].len()];
        if widths(&acc.values, &acc.psqt) != [l1, l1, buckets, buckets] {
            panic!(
                "GenericAccumulator: values of {:?} and psqt of {:?} entries, this net's are {l1} and {buckets} \
                 (make it with Evaluator::empty_accumulator)",
                acc.values.each_ref().map(Vec::len),
                acc.psqt.each_ref().map(Vec::len)
            );
        }
    }

    /// Adds and removes features of one perspective (int16 arithmetic wraps, as in Stockfish;
    /// SFNN rows count doubled, see [`crate::TransformerView::scale`]).
    ///
    /// # Panics
    /// When `acc` is not of this net's widths, or a feature index is not below the feature
    /// set's [`inputs`](FeatureSet::inputs).
    pub fn update(&self, acc: &mut GenericAccumulator, perspective: Color, added: &[usize], removed: &[usize]) {
        self.check_width(acc);
        crate::evaluation::check_features(self.features.inputs(), added, removed);
        let ft = self.net.model.transformer();
        let p = perspective.index();
        for (&feature, sign) in added.iter().map(|f| (f, ft.scale)).chain(removed.iter().map(|f| (f, -ft.scale))) {
            if let Some(row) = ft.int8_row(feature) {
                // int8 rows, widened: threat nets keep one int16 sum of both parts (wrapping
                // adds are associative, so this equals Stockfish's sum of its two accumulators).
                for (v, &w) in acc.values[p].iter_mut().zip(row) {
                    *v = v.wrapping_add(i16::from(w).wrapping_mul(sign));
                }
            } else {
                for (v, &w) in acc.values[p].iter_mut().zip(ft.int16_row(feature)) {
                    *v = v.wrapping_add(w.wrapping_mul(sign));
                }
            }
            if ft.psqt_buckets > 0 {
                for (v, &w) in acc.psqt[p].iter_mut().zip(ft.psqt_row(feature)) {
                    *v = v.wrapping_add(w.wrapping_mul(i32::from(sign.signum())));
                }
            }
        }
    }

    /// Both perspectives' accumulators from scratch.
    pub fn refresh(&self, pos: &Position) -> GenericAccumulator {
        let mut acc = self.empty_accumulator();
        let mut active = Vec::with_capacity(32);
        for perspective in Color::BOTH {
            active.clear();
            self.features.active(pos, perspective, &mut active);
            self.update(&mut acc, perspective, &active, &[]);
        }
        acc
    }

    /// Refresh of both perspectives, then the forward pass.
    pub fn evaluate(&self, pos: &Position) -> Evaluation {
        self.forward(&self.refresh(pos), pos.side_to_move(), pos.piece_count()).0
    }

    /// The layers after the accumulator, for `stm` to move with `pieces` on the board.
    ///
    /// # Panics
    /// As `forward_on`: when `pieces` is not in [`PIECES`](crate::evaluation::PIECES);
    /// also when `acc` is not of this net's widths.
    pub fn forward(&self, acc: &GenericAccumulator, stm: Color, pieces: usize) -> (Evaluation, Trace) {
        crate::evaluation::check_pieces(pieces);
        self.check_width(acc);
        let (us, them) = (stm.index(), (!stm).index());
        interpret::forward(
            &self.net.model,
            &self.layers,
            (&acc.values[us], &acc.values[them]),
            (&acc.psqt[us], &acc.psqt[them]),
            pieces,
        )
    }
}
