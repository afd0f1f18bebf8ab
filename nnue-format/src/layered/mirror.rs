//! cinder's rows in our order and back (`Format::mirrored_a_to_d`), and its output weights
//! split in two arrays (`Format::split_skip`).
//!
//! cinder mirrors a side's features when its king is on files a–d, we (as Stockfish) when it
//! is on e–h; its index functions are otherwise ours (its pawn pairs and threats are Stockfish
//! 19's), so a feature of ours under king square `K` is cinder's under `K ^ 7`. The mirror is
//! the same for every king square, so it is one permutation of the rows: piece-square rows
//! also renumbered (cinder's `64·(2·type + colour) + square`, ours `384·colour + 64·type +
//! square`), pawn pairs with both slots mirrored, threats with both squares mirrored (and the
//! pair of two pieces of one type taken the other way round where the mirror turns which
//! of the two is counted). Threat rows no position reaches are paired in order.

use std::sync::OnceLock;

use super::LayeredArch;
use crate::features::attacks;
use crate::features::threats::{self, Threat, ThreatSet};
use crate::position::{Color, Piece, PieceType};

/// Pawn-pair rows, then Stockfish 19's threat rows.
const PAWN_PAIRS: usize = 96 * 95 / 2;
const THREATS: usize = 59808;

/// cinder's row of each of our pawn-pair and threat rows (`[4560 + 59808]`).
fn int8_map() -> &'static [u32] {
    static MAP: OnceLock<Vec<u32>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut map: Vec<u32> = (0..PAWN_PAIRS).map(|r| pawn_pair(r) as u32).collect();
        map.extend(threat_map().iter().map(|&r| (PAWN_PAIRS + r) as u32));
        map
    })
}

/// A pawn slot (`48·colour + square − 8`) mirrored.
fn slot(s: usize) -> usize {
    let (colour, sq) = (s / 48, s % 48 + 8);
    48 * colour + (sq ^ 7) - 8
}

/// The pawn-pair row of ours `r` in cinder's numbering.
fn pawn_pair(r: usize) -> usize {
    // r = hi·(hi − 1)/2 + lo, lo < hi.
    let mut hi = 1;
    while (hi + 1) * hi / 2 <= r {
        hi += 1;
    }
    let lo = r - hi * (hi - 1) / 2;
    let (a, b) = (slot(hi), slot(lo));
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi * (hi - 1) / 2 + lo
}

/// cinder's threat row of each of ours: every (attacker, square, attacked piece, square) on an
/// empty board, White's perspective with its king on d1 (ours unmirrored) against e1 (ours
/// mirrored: cinder's for d1).
fn threat_map() -> Vec<usize> {
    let (ours_k, cinder_k) = (3, 4);
    let mut map = vec![usize::MAX; THREATS];
    let mut taken = vec![false; THREATS];
    let pieces: Vec<Piece> = Color::BOTH.into_iter().flat_map(|c| PieceType::ALL.map(|k| Piece::new(c, k))).collect();
    let on_board = |p: Piece, s: usize| p.kind != PieceType::Pawn || (8..56).contains(&s);
    for &attacker in &pieces {
        for from in (0..64).filter(|&s| on_board(attacker, s)) {
            let reach = match attacker.kind {
                PieceType::Pawn => attacks::pawn(attacker.color.index(), from),
                PieceType::Knight => attacks::knight(from),
                PieceType::Bishop => attacks::bishop(from, 0),
                PieceType::Rook => attacks::rook(from, 0),
                PieceType::Queen => attacks::queen(from, 0),
                PieceType::King => attacks::king(from),
            };
            for to in attacks::squares(reach) {
                for &attacked in pieces.iter().filter(|&&p| on_board(p, to)) {
                    let t = Threat { attacker, from: from as u8, attacked, to: to as u8 };
                    let Some(ours) = threats::index(ThreatSet::Sf19, Color::White, ours_k, &t) else { continue };
                    // The same pair counted the other way round where cinder's orientation
                    // turns which of two pieces of a type is the attacker.
                    let back = Threat { attacker: attacked, from: to as u8, attacked: attacker, to: from as u8 };
                    let theirs = threats::index(ThreatSet::Sf19, Color::White, cinder_k, &t)
                        .or_else(|| threats::index(ThreatSet::Sf19, Color::White, cinder_k, &back));
                    if let Some(theirs) = theirs {
                        map[ours] = theirs;
                        taken[theirs] = true;
                    }
                }
            }
        }
    }
    // The rows no position reaches, in order.
    let mut free = (0..THREATS).filter(|&r| !taken[r]);
    for m in map.iter_mut().filter(|m| **m == usize::MAX) {
        *m = free.next().unwrap_or(0);
    }
    map
}

/// Rows of `width` values moved: `ours[r] = file[map[r]]` (`to_ours`), else the reverse.
fn permute<T: Copy + Default>(rows: &[T], width: usize, map: impl Fn(usize) -> usize, to_ours: bool) -> Vec<T> {
    let mut out = vec![T::default(); rows.len()];
    if width == 0 {
        return out;
    }
    for r in 0..rows.len() / width {
        let c = map(r);
        let (ours, file) = (r * width..(r + 1) * width, c * width..(c + 1) * width);
        if to_ours {
            out[ours].copy_from_slice(&rows[file]);
        } else {
            out[file].copy_from_slice(&rows[ours]);
        }
    }
    out
}

/// The int8 rows (pawn pairs, then threats) from cinder's order to ours (`to_ours`) or back.
pub(crate) fn threat_rows(arch: &LayeredArch, rows: &[i8], to_ours: bool) -> Vec<i8> {
    let map = int8_map();
    permute(rows, arch.l1, |r| map.get(r).map_or(r, |&c| c as usize), to_ours)
}

/// The piece-square rows from cinder's order to ours (`to_ours`) or back: per king bucket,
/// ours `384·colour + 64·type + square` is cinder's `64·(2·type + colour) + (square ^ 7)`.
pub(crate) fn piece_rows(arch: &LayeredArch, rows: &[i16], to_ours: bool) -> Vec<i16> {
    let per = arch.inputs_per_bucket();
    let map = |r: usize| {
        let (bucket, f) = (r / per, r % per);
        let (colour, kind, sq) = (f / 384, f % 384 / 64, f % 64);
        bucket * per + 64 * (2 * kind + colour) + (sq ^ 7)
    };
    permute(rows, arch.l1, map, to_ours)
}

/// The output weights `[B][main + skip]` as the file's two arrays `[B][main]`, `[B][skip]`.
pub(crate) fn split_output(arch: &LayeredArch, w: &[i32], main: usize) -> (Vec<i32>, Vec<i32>) {
    let n = arch.l3_inputs();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for bucket in w.chunks_exact(n) {
        a.extend_from_slice(&bucket[..main]);
        b.extend_from_slice(&bucket[main..]);
    }
    (a, b)
}

/// [`split_output`]'s arrays joined back.
pub(crate) fn join_output(arch: &LayeredArch, main: &[i32], skip: &[i32]) -> Vec<i32> {
    let b = arch.buckets.max(1);
    let (m, s) = (main.len() / b, skip.len() / b);
    main.chunks_exact(m.max(1)).zip(skip.chunks_exact(s.max(1))).flat_map(|(m, s)| m.iter().chain(s).copied()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The maps are permutations: every row of the file lands on one of ours.
    #[test]
    fn the_maps_are_permutations() {
        let map = int8_map();
        let mut seen = vec![false; map.len()];
        for &c in map {
            assert!(!seen[c as usize], "row {c} twice");
            seen[c as usize] = true;
        }
        // A white pawn on a2 and one on b3 (slots 0 and 9): on h2 and g3 mirrored (7, 14).
        let r = 9 * 8 / 2;
        assert_eq!(pawn_pair(r), 14 * 13 / 2 + 7);
    }
}
