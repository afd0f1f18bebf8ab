//! The refresh cache ("Finny table"): a refresh becomes an update by the difference between
//! the position and the placement a cached accumulator of the same king square reflects.
//! (Threat nets are refreshed from scratch: their features are not per piece.)

use crate::network::Network;
use crate::position::{Color, Piece, PieceType, Position, Square};
use crate::simd::KernelPath;

/// Bitboards of each (color, piece type): the placement an accumulator reflects.
type Placement = [u64; 12];

fn placement(pos: &Position) -> Placement {
    let mut bb = [0u64; 12];
    for (sq, piece) in pos.pieces() {
        bb[piece.color.index() * 6 + piece.kind.index()] |= 1 << sq.index();
    }
    bb
}

struct Entry<A> {
    acc: A,
    placement: Placement,
    valid: bool,
}

/// Per perspective and king square, the last accumulator refreshed there. Runs on the
/// [`KernelPath`] it was built with.
pub struct RefreshCache<A> {
    entries: Vec<Entry<A>>,
    path: KernelPath,
}

impl<A: Clone> RefreshCache<A> {
    /// An empty cache for `net`, on the best path this CPU has.
    pub fn new<N: Network<Accumulator = A>>(net: &N) -> Self {
        Self::with_path(net, KernelPath::best())
    }

    /// An empty cache for `net`, computing on `path`.
    pub fn with_path<N: Network<Accumulator = A>>(net: &N, path: KernelPath) -> Self {
        let entries =
            (0..128).map(|_| Entry { acc: net.new_accumulator(), placement: [0; 12], valid: false }).collect();
        RefreshCache { entries, path }
    }

    /// The path the cache computes on.
    pub fn path(&self) -> KernelPath {
        self.path
    }

    /// Sets `perspective`'s half of `target` to what a refresh from `pos` gives.
    pub fn refresh<N: Network<Accumulator = A>>(
        &mut self,
        net: &N,
        pos: &Position,
        perspective: Color,
        target: &mut A,
    ) {
        let path = self.path;
        if net.feature_set().has_threats() {
            // Threat features depend on every piece, not on each piece's square alone: no
            // placement difference gives them, so threat nets refresh from scratch.
            net.refresh_on(path, pos, perspective, target);
            return;
        }
        let king = pos.king(perspective);
        let entry = &mut self.entries[perspective.index() * 64 + king.index()];
        let now = placement(pos);
        if !entry.valid {
            net.refresh_on(path, pos, perspective, &mut entry.acc);
            entry.placement = now;
            entry.valid = true;
            net.update_on(path, &entry.acc, target, perspective, &[], &[]);
            return;
        }
        let features = net.feature_set();
        let (mut added, mut removed) = ([0usize; 32], [0usize; 32]);
        let (mut n_added, mut n_removed) = (0, 0);
        for (i, (&old, &new)) in entry.placement.iter().zip(&now).enumerate() {
            let piece = Piece::new(Color::BOTH[i / 6], PieceType::ALL[i % 6]);
            for (mut bits, list, n) in
                [(new & !old, &mut added, &mut n_added), (old & !new, &mut removed, &mut n_removed)]
            {
                while bits != 0 {
                    let sq = Square::new(bits.trailing_zeros() as u8).expect("a bit of a u64");
                    bits &= bits - 1;
                    if let Some(f) = features.index(perspective, king, sq, piece) {
                        list[*n] = f;
                        *n += 1;
                    }
                }
            }
        }
        net.update_on(path, &entry.acc, target, perspective, &added[..n_added], &removed[..n_removed]);
        entry.acc.clone_from(target);
        entry.placement = now;
    }
}
