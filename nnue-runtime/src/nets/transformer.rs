//! The feature transformer every fast network starts with: `L1` int16 sums per perspective of
//! the biases and the rows of the active features, int8 rows (widened) for the features before
//! `INT8`, int16 rows after them, and `PSQT` int32 sums per perspective when the net has PSQT
//! outputs. One type for every net: which features, which rows and how many PSQT buckets are
//! the layout's ([`nnue_format::layout::TransformerArrays`]), not a family's.
//!
//! Stockfish 18's and 19's nets hold threats (and pawn pairs) and piece-square features in one
//! accumulator: wrapping int16 adds are associative, so this equals Stockfish's sum of its two
//! accumulators, added with wrapping before the transform; the PSQT sums likewise.

use super::{active_features, network_family, ActiveList};
use crate::features::FeatureSet;
use crate::network::{Accumulator, WeightsId};
use crate::position::{Color, Position};
use crate::simd::rows::RowKernels;
use crate::simd::{portable, Kernels};

/// The features a [`Transformer`] reads: a [`FeatureSet`] value (a net loaded at run time), or
/// a type whose set is a constant (the one `nnue_net!` emits), so that compiled code folds
/// every `match` on it in the accumulator stack's deltas, refreshes and cache.
pub trait Features: Copy + std::fmt::Debug {
    /// The feature set.
    fn set(&self) -> FeatureSet;
}

impl Features for FeatureSet {
    #[inline(always)]
    fn set(&self) -> FeatureSet {
        *self
    }
}

/// A net's transformer: `L1` columns, `PSQT` buckets (0 or Stockfish's 8), `INT8` int8 rows
/// then `INT16` int16 rows, indexed by the features `F` gives. The array fields are the
/// layout's [`FastLayout::transformer`](nnue_format::layout::FastLayout#method.transformer).
#[derive(Debug, Clone, Copy)]
pub struct Transformer<
    'a,
    const L1: usize,
    const PSQT: usize,
    const INT8: usize,
    const INT16: usize,
    F: Features = FeatureSet,
> {
    /// The biases, in the layout's column order.
    pub biases: &'a [i16; L1],
    /// The int8 rows: features `0..INT8`.
    pub int8_rows: &'a [[i8; L1]; INT8],
    /// The int16 rows: features `INT8..INT8 + INT16`.
    pub int16_rows: &'a [[i16; L1]; INT16],
    /// The PSQT rows of every feature (`INT8 + INT16` of them), or none when `PSQT` is 0.
    pub psqt: &'a [[i32; PSQT]],
    /// The features the rows are indexed by.
    pub features: F,
}

impl<const L1: usize, const PSQT: usize, const INT8: usize, const INT16: usize, F: Features>
    Transformer<'_, L1, PSQT, INT8, INT16, F>
{
    /// `dst`'s `perspective` half = `src` (values and PSQT sums) + the rows of `added` − those
    /// of `removed`, with `rows`' kernels: the int16 kernel (fused shapes for a move's lists)
    /// where there are no int8 rows, else the mixed one.
    ///
    /// # Safety
    /// The CPU has `rows`' target features.
    #[inline(always)]
    unsafe fn sum(
        &self,
        rows: RowKernels,
        (src, src_psqt): (&[i16; L1], &[i32; PSQT]),
        dst: &mut Accumulator<L1, PSQT>,
        p: usize,
        added: &[usize],
        removed: &[usize],
    ) {
        // The PSQT rows first: their loads (another array, as scattered) then overlap the rows'.
        if PSQT > 0 {
            portable::update_psqt(self.psqt, src_psqt, &mut dst.psqt[p], added, removed);
        }
        let int16 = self.int16_rows.as_flattened();
        // SAFETY: the caller's contract; the kernels bound every row by the slices' lengths.
        unsafe {
            if INT8 == 0 {
                (rows.i16)(int16, src, &mut dst.values[p], added, removed)
            } else {
                (rows.mixed)(self.int8_rows.as_flattened(), int16, src, &mut dst.values[p], added, removed)
            }
        }
    }

    /// `acc`'s `perspective` half += the rows of `added` − those of `removed`, in place.
    ///
    /// # Safety
    /// The CPU has `rows`' target features.
    #[inline(always)]
    unsafe fn sum_in_place(
        &self,
        rows: RowKernels,
        acc: &mut Accumulator<L1, PSQT>,
        p: usize,
        added: &[usize],
        removed: &[usize],
    ) {
        if PSQT > 0 {
            let src = acc.psqt[p];
            portable::update_psqt(self.psqt, &src, &mut acc.psqt[p], added, removed);
        }
        let (int8, int16) = (self.int8_rows.as_flattened(), self.int16_rows.as_flattened());
        // SAFETY: the caller's contract; the kernel bounds every row by the slices' lengths.
        unsafe { (rows.in_place)(int8, int16, &mut acc.values[p], added, removed) }
    }

    /// Every active feature's rows from the biases: the pieces', and a threat net's board
    /// features (of any number, so in a reused vector).
    #[inline(always)]
    unsafe fn refresh_k<K: Kernels>(&self, pos: &Position, perspective: Color, acc: &mut Accumulator<L1, PSQT>) {
        let features = self.features.set();
        if features.has_board_blocks() {
            let list = ActiveList::of(features, pos, perspective);
            // SAFETY: this function's caller holds `K`'s path.
            unsafe { self.sum(K::ROWS, (self.biases, &[0; PSQT]), acc, perspective.index(), &list, &[]) }
        } else {
            // SAFETY: as above.
            unsafe { self.refresh_pieces(K::ROWS, pos, perspective, acc) }
        }
    }

    /// The piece features' rows from the biases (all of a net without board features).
    ///
    /// # Safety
    /// The CPU has `rows`' target features.
    #[inline(always)]
    unsafe fn refresh_pieces(
        &self,
        rows: RowKernels,
        pos: &Position,
        perspective: Color,
        acc: &mut Accumulator<L1, PSQT>,
    ) {
        let (list, n) = active_features(self.features.set(), pos, perspective);
        // SAFETY: the caller's contract.
        unsafe { self.sum(rows, (self.biases, &[0; PSQT]), acc, perspective.index(), &list[..n], &[]) }
    }

    #[inline(always)]
    unsafe fn update_k<K: Kernels>(
        &self,
        src: &Accumulator<L1, PSQT>,
        dst: &mut Accumulator<L1, PSQT>,
        perspective: Color,
        added: &[usize],
        removed: &[usize],
    ) {
        let p = perspective.index();
        // SAFETY: this function's caller holds `K`'s path.
        unsafe { self.sum(K::ROWS, (&src.values[p], &src.psqt[p]), dst, p, added, removed) }
    }
}

network_family!(
    [const L1: usize, const PSQT: usize, const INT8: usize, const INT16: usize, F: Features] Transformer<'_, L1, PSQT, INT8, INT16, F>,
    Accumulator<L1, PSQT>,
    |net| net.features.set(),
    |_| INT8 + INT16,
    |net| WeightsId::of(net.biases, net.int16_rows),
    pieces: {
        fn refresh_pieces_on(&self, path: crate::KernelPath, pos: &Position, perspective: Color, acc: &mut Accumulator<L1, PSQT>) {
            // SAFETY: holding `path` proves its row kernels' target features are available.
            unsafe { self.refresh_pieces(crate::simd::rows::for_path(path), pos, perspective, acc) }
        }
    }
);
