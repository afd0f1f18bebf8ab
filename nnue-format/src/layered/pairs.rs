//! `l1sums=i16pairs`: engines (Integral) whose sparse layer adds two listed 4-byte groups'
//! `maddubs` products in int16 before widening. Each int16 lane then holds four products,
//! two of each group, and wraps where the exact int32 sum does not. Every path here computes
//! the exact sums, so a net is taken only if no input can make such a lane leave int16: then
//! the engine's sums are the exact ones. A net that could is refused, naming where.

use super::LayeredArch;

/// Where a net's weights let two groups' int16 sums wrap: the bucket, the output, the first
/// of the two groups (its canonical index in `[bucket][l2][l1]`) and the reachable sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Wrap {
    pub bucket: usize,
    pub output: usize,
    pub index: usize,
    pub sum: i64,
}

/// The first place (bucket, output, half-group) where two groups' products can leave int16,
/// if any. `w` is `[bucket][l2][l1]`; the activations are bytes up to `255² >> shift`.
pub(crate) fn first_wrap(arch: &LayeredArch, w: &[i8]) -> Option<Wrap> {
    let max_x = (255 * 255) >> arch.ft_shift;
    for (row_index, row) in w.chunks_exact(arch.l1).enumerate() {
        // One `maddubs` lane: two adjacent products (bytes 0-1 or 2-3 of a group).
        for half in 0..2 {
            // The two largest positive and the two most negative lane sums over distinct groups.
            let (mut pos, mut neg) = ([(0i64, 0usize); 2], [(0i64, 0usize); 2]);
            for (g, group) in row.chunks_exact(4).enumerate() {
                let lane = &group[2 * half..2 * half + 2];
                let p: i64 = lane.iter().map(|&w| i64::from(w.max(0))).sum();
                let n: i64 = lane.iter().map(|&w| i64::from(w.min(0))).sum();
                if p > pos[1].0 {
                    pos[1] = (p, g);
                    if pos[1].0 > pos[0].0 {
                        pos.swap(0, 1);
                    }
                }
                if n < neg[1].0 {
                    neg[1] = (n, g);
                    if neg[1].0 < neg[0].0 {
                        neg.swap(0, 1);
                    }
                }
            }
            for pair in [pos, neg] {
                let sum = max_x * (pair[0].0 + pair[1].0);
                if !(-32768..=32767).contains(&sum) {
                    let (bucket, output) = (row_index / arch.l2, row_index % arch.l2);
                    let index = row_index * arch.l1 + 4 * pair[0].1.min(pair[1].1) + 2 * half;
                    return Some(Wrap { bucket, output, index, sum });
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Architecture;

    fn arch() -> LayeredArch {
        let text = "(768 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x2, f32, l1act=crelu, l1mul=1/16256, \
                    scale=200, l1sums=i16pairs, file=bullet";
        let Ok(Architecture::Layered(a)) = text.parse() else { panic!() };
        a
    }

    #[test]
    fn the_bound_is_two_groups_of_one_lane() {
        let a = arch();
        let mut w = vec![0i8; 2 * 16 * 64];
        // 127 · (64 + 64) = 16256 twice: 32512 fits.
        for g in [3, 9] {
            w[5 * 64 + 4 * g] = 64;
            w[5 * 64 + 4 * g + 1] = 64;
        }
        assert_eq!(first_wrap(&a, &w), None);
        // One more in a third group: still two groups at most in one lane.
        w[5 * 64 + 4 * 11] = 64;
        w[5 * 64 + 4 * 11 + 1] = 64;
        assert_eq!(first_wrap(&a, &w), None);
        // 127 · (64 + 127) in one group's lane plus 127 · 128: 40513, past int16.
        w[5 * 64 + 4 * 9 + 1] = 127;
        let wrap = first_wrap(&a, &w).unwrap();
        assert_eq!((wrap.bucket, wrap.output, wrap.sum), (0, 5, 127 * (64 + 127 + 64 + 64)));
        // Opposite lanes of two groups never meet; negative sums have their own bound.
        let mut v = vec![0i8; 2 * 16 * 64];
        v[16 * 64 + 64 + 4 * 2] = -128;
        v[16 * 64 + 64 + 4 * 2 + 1] = -128;
        assert_eq!(first_wrap(&a, &v), None, "one group alone is one maddubs: never wraps");
        v[16 * 64 + 64 + 4 * 7 + 2] = -128;
        assert_eq!(first_wrap(&a, &v), None, "another lane");
        v[16 * 64 + 64 + 4 * 7] = -3;
        let wrap = first_wrap(&a, &v).unwrap();
        assert_eq!((wrap.bucket, wrap.output, wrap.sum), (1, 1, -127 * 259));
    }
}
