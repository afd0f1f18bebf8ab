//! Attack sets on a 64-bit board (bit i = square i, a1 = 0, h8 = 63), for the threat features,
//! without magics: leaper tables plus "classical" rays cut at the first blocker.

/// A set of squares: bit `i` is square `i` (a1 = 0, h8 = 63).
pub type Bitboard = u64;

/// The eight ray directions as (file step, rank step). The first four increase the square
/// index (their first blocker is the lowest set bit), the last four decrease it.
const DIRS: [(i8, i8); 8] = [(1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1)];
const ROOK_DIRS: [usize; 4] = [0, 1, 4, 5];
const BISHOP_DIRS: [usize; 4] = [2, 3, 6, 7];

struct Tables {
    knight: [Bitboard; 64],
    king: [Bitboard; 64],
    /// `pawn[c][s]`: squares a pawn of colour `c` (0 white, 1 black) on `s` attacks.
    pawn: [[Bitboard; 64]; 2],
    /// `ray[d][s]`: every square from `s` (exclusive) to the board edge in direction `d`.
    ray: [[Bitboard; 64]; 8],
    /// `beyond[from][through]`: the squares strictly beyond `through` on the line from `from`.
    beyond: [[Bitboard; 64]; 64],
}

/// The square one step from `s`, or 64 off the board.
const fn step(s: usize, df: i8, dr: i8) -> usize {
    let f = (s % 8) as i8 + df;
    let r = (s / 8) as i8 + dr;
    if f >= 0 && f < 8 && r >= 0 && r < 8 {
        (r * 8 + f) as usize
    } else {
        64
    }
}

const fn leaper(s: usize, steps: &[(i8, i8)]) -> Bitboard {
    let (mut bb, mut i) = (0, 0);
    while i < steps.len() {
        let t = step(s, steps[i].0, steps[i].1);
        if t < 64 {
            bb |= 1 << t;
        }
        i += 1;
    }
    bb
}

/// Built while compiling: no run-time initialisation or check on the lookups.
static TABLES: Tables = {
    let mut t = Tables { knight: [0; 64], king: [0; 64], pawn: [[0; 64]; 2], ray: [[0; 64]; 8], beyond: [[0; 64]; 64] };
    let knight = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    let king = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
    let mut s = 0;
    while s < 64 {
        t.knight[s] = leaper(s, &knight);
        t.king[s] = leaper(s, &king);
        t.pawn[0][s] = leaper(s, &[(-1, 1), (1, 1)]);
        t.pawn[1][s] = leaper(s, &[(-1, -1), (1, -1)]);
        let mut d = 0;
        while d < 8 {
            let mut cur = step(s, DIRS[d].0, DIRS[d].1);
            while cur < 64 {
                t.ray[d][s] |= 1 << cur;
                cur = step(cur, DIRS[d].0, DIRS[d].1);
            }
            d += 1;
        }
        s += 1;
    }
    let mut from = 0;
    while from < 64 {
        let mut d = 0;
        while d < 8 {
            let mut cur = step(from, DIRS[d].0, DIRS[d].1);
            while cur < 64 {
                t.beyond[from][cur] = t.ray[d][cur];
                cur = step(cur, DIRS[d].0, DIRS[d].1);
            }
            d += 1;
        }
        from += 1;
    }
    t
};

/// Squares a knight on `s` attacks.
pub fn knight(s: usize) -> Bitboard {
    TABLES.knight[s]
}

/// Squares a king on `s` attacks.
pub fn king(s: usize) -> Bitboard {
    TABLES.king[s]
}

/// Squares attacked by a pawn of colour index `color` (0 white, 1 black) standing on `s`.
pub fn pawn(color: usize, s: usize) -> Bitboard {
    TABLES.pawn[color][s]
}

/// The squares a slider on `s` attacks along direction `D` (0..8, see `DIRS`), the first
/// blocker in `occ` included.
#[inline(always)]
fn ray<const D: usize>(s: usize, occ: Bitboard) -> Bitboard {
    let t = &TABLES;
    let ray = t.ray[D][s];
    // A sentinel blocker on h8 (rising rays) or a1 (falling rays), whose own ray in that
    // direction is empty, makes the no-blocker case need no branch.
    let first = if D < 4 {
        ((ray & occ) | 1 << 63).trailing_zeros() as usize
    } else {
        63 - ((ray & occ) | 1).leading_zeros() as usize
    };
    // `& 63`: the compiler can't tell that `first` is a square.
    ray & !t.ray[D][first & 63]
}

/// Squares a rook on `s` attacks with `occ` occupied (the first blocker of each ray included).
/// (Each ray's direction a constant, so that the four inline without a loop over a list of
/// directions: they ran out of line, at about a fifth of a threat net's move bookkeeping.)
#[inline]
pub fn rook(s: usize, occ: Bitboard) -> Bitboard {
    ray::<{ ROOK_DIRS[0] }>(s, occ)
        | ray::<{ ROOK_DIRS[1] }>(s, occ)
        | ray::<{ ROOK_DIRS[2] }>(s, occ)
        | ray::<{ ROOK_DIRS[3] }>(s, occ)
}

/// Squares a bishop on `s` attacks with `occ` occupied (the first blocker of each ray included).
#[inline]
pub fn bishop(s: usize, occ: Bitboard) -> Bitboard {
    ray::<{ BISHOP_DIRS[0] }>(s, occ)
        | ray::<{ BISHOP_DIRS[1] }>(s, occ)
        | ray::<{ BISHOP_DIRS[2] }>(s, occ)
        | ray::<{ BISHOP_DIRS[3] }>(s, occ)
}

/// Squares a queen on `s` attacks with `occ` occupied: rook and bishop rays.
pub fn queen(s: usize, occ: Bitboard) -> Bitboard {
    rook(s, occ) | bishop(s, occ)
}

/// The squares strictly beyond `through` on the line from `from` through `through`
/// (empty if the two squares are not on a common rank, file or diagonal).
pub fn beyond(from: usize, through: usize) -> Bitboard {
    TABLES.beyond[from][through]
}

/// Iterates the set squares of a bitboard, lowest first.
pub fn squares(mut bb: Bitboard) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bb != 0).then(|| {
            let s = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            s
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slider attacks against a square-by-square walk, on pseudo-random occupancies.
    #[test]
    fn sliders_match_a_naive_walk() {
        let walk = |s: usize, occ: Bitboard, dirs: &[usize]| {
            let mut out = 0u64;
            for &d in dirs {
                let (df, dr) = DIRS[d];
                let mut n = step(s, df, dr);
                while n < 64 {
                    out |= 1 << n;
                    if occ & (1 << n) != 0 {
                        break;
                    }
                    n = step(n, df, dr);
                }
            }
            out
        };
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for i in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = if i % 2 == 0 { x & x.rotate_left(7) } else { x };
            let s = i % 64;
            assert_eq!(rook(s, occ), walk(s, occ, &ROOK_DIRS));
            assert_eq!(bishop(s, occ), walk(s, occ, &BISHOP_DIRS));
        }
    }

    /// `beyond` against its definition: the ray from `through` in the direction from `from`.
    #[test]
    fn beyond_follows_the_line() {
        for from in 0..64 {
            for through in 0..64 {
                let want =
                    (0..8).find(|&d| TABLES.ray[d][from] & (1 << through) != 0).map_or(0, |d| TABLES.ray[d][through]);
                assert_eq!(beyond(from, through), want, "{from} {through}");
            }
        }
        assert_eq!(beyond(0, 9), TABLES.ray[2][9]); // a1, b2: c3..h8
        assert_eq!(beyond(0, 10), 0); // a1, c2: no line
    }

    #[test]
    fn leapers() {
        assert_eq!(knight(0).count_ones(), 2);
        assert_eq!(king(27).count_ones(), 8);
        assert_eq!(pawn(0, 8), 1 << 17);
        assert_eq!(pawn(1, 63), 1 << 54);
        let total: u32 = (0..64).map(|s| knight(s).count_ones()).sum();
        assert_eq!(total, 336);
    }
}
