//! The transformer's row sums (a refresh from the biases or a cached accumulator, and a move's
//! incremental update): `dst = src + Σ rows[added] − Σ rows[removed]`, int16 wrapping.
//!
//! Unlike the layer kernels, these take slices, not const-dimensioned arrays, and each path's
//! copy is an ordinary function of this crate. Generic code is compiled at the opt-level of the
//! crate that instantiates it (an engine's debug build: 0 or 1, where these loops don't
//! vectorise); these are compiled here, at this crate's (the README's profile lines set
//! dependencies to 3), so a debug build refreshes at release speed. Release builds lose nothing:
//! a call per refresh or update, and the loops vectorise on run-time widths as well.

use std::mem::MaybeUninit;

/// `dst = src + Σ rows[added] − Σ rows[removed]` over int16 rows of `dst.len()` (`rows` is
/// every row, one after another).
pub(crate) type I16Rows = unsafe fn(rows: &[i16], src: &[i16], dst: &mut [i16], added: &[usize], removed: &[usize]);

/// The same over int8 rows (features below `int8.len() / dst.len()`, widened; `int8.len()` a
/// multiple of `dst.len()`) and int16 rows (the features after them): Stockfish 18's and 19's
/// transformers.
pub(crate) type MixedRows =
    unsafe fn(int8: &[i8], int16: &[i16], src: &[i16], dst: &mut [i16], added: &[usize], removed: &[usize]);

/// [`MixedRows`] with `acc` its own source: `acc += Σ rows[added] − Σ rows[removed]` (no
/// int8 rows: `int8` empty). A refresh cache entry brought to a new placement, without a
/// second accumulator to sum into and copy back from.
pub(crate) type InPlaceRows =
    unsafe fn(int8: &[i8], int16: &[i16], acc: &mut [i16], added: &[usize], removed: &[usize]);

/// `acc += plus − minus`, element by element (wrapping): a threat net's accumulator moved
/// from one king square's piece sums to another's.
pub(crate) type Rebase = unsafe fn(acc: &mut [i16], plus: &[i16], minus: &[i16]);

/// One path's compiled row kernels (see [`Kernels::ROWS`](super::Kernels::ROWS)).
#[derive(Clone, Copy)]
pub struct RowKernels {
    pub i16: I16Rows,
    pub mixed: MixedRows,
    pub in_place: InPlaceRows,
    pub rebase: Rebase,
}

/// The row kernels of `path` (holding the path is what makes calling them sound).
pub(crate) fn for_path(path: super::KernelPath) -> RowKernels {
    match path.isa() {
        #[cfg(target_arch = "x86_64")]
        super::Isa::Avx2 | super::Isa::AvxVnni => AVX2,
        #[cfg(target_arch = "x86_64")]
        super::Isa::Avx512Vnni => AVX512,
        #[cfg(target_arch = "aarch64")]
        super::Isa::Neon | super::Isa::Dotprod => NEON,
        _ => SCALAR,
    }
}

/// Stamps out one path's [`RowKernels`] under its target features, with the mixed sums tiled
/// `$mixed_tile` columns wide (see [`tiled`]) and the int16-only ones 128.
macro_rules! row_kernels {
    ($(#[$features:meta])* $name:ident, $mixed_tile:literal, $doc:literal) => {
        #[doc = $doc]
        pub(crate) const $name: RowKernels = {
            $(#[$features])*
            #[inline(never)]
            unsafe fn i16(rows: &[i16], src: &[i16], dst: &mut [i16], added: &[usize], removed: &[usize]) {
                i16_rows(rows, src, dst, added, removed)
            }
            $(#[$features])*
            #[inline(never)]
            unsafe fn mixed(int8: &[i8], int16: &[i16], src: &[i16], dst: &mut [i16], added: &[usize], removed: &[usize]) {
                tiled::<$mixed_tile>(int8, int16, Some(src), dst, added, removed)
            }
            $(#[$features])*
            #[inline(never)]
            unsafe fn in_place(int8: &[i8], int16: &[i16], acc: &mut [i16], added: &[usize], removed: &[usize]) {
                tiled::<INT16_TILE>(int8, int16, None, acc, added, removed)
            }
            $(#[$features])*
            #[inline(never)]
            unsafe fn rebase(acc: &mut [i16], plus: &[i16], minus: &[i16]) {
                rebase_rows(acc, plus, minus)
            }
            RowKernels { i16, mixed, in_place, rebase }
        };
    };
}

row_kernels!(SCALAR, 128, "No target features (the scalar path, and wasm32 with SIMD128 from the build's features).");
#[cfg(target_arch = "x86_64")]
row_kernels!(
    #[target_feature(enable = "avx2")]
    AVX2,
    128,
    "256-bit: the AVX2 and AVX-VNNI paths."
);
#[cfg(target_arch = "x86_64")]
row_kernels!(
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    AVX512,
    512,
    "512-bit: the AVX512-VNNI path."
);
#[cfg(target_arch = "aarch64")]
row_kernels!(
    #[target_feature(enable = "neon")]
    NEON,
    128,
    "The NEON and dotprod paths."
);

/// Row `f` of `rows`, rows of `width`.
#[inline(always)]
fn row<T>(rows: &[T], f: usize, width: usize) -> &[T] {
    &rows[f * width..][..width]
}

#[inline(always)]
fn i16_rows(rows: &[i16], src: &[i16], dst: &mut [i16], added: &[usize], removed: &[usize]) {
    let w = dst.len();
    let r = |f| row(rows, f, w);
    // A move's shapes, fused into one pass over `dst`; anything longer tile by tile.
    match (added, removed) {
        (&[a], &[s]) => fused(src, dst, [r(a)], [r(s)]),
        (&[a], &[s1, s2]) => fused(src, dst, [r(a)], [r(s1), r(s2)]),
        (&[a1, a2], &[s1, s2]) => fused(src, dst, [r(a1), r(a2)], [r(s1), r(s2)]),
        (&[a], &[]) => fused(src, dst, [r(a)], []),
        (&[], &[s]) => fused(src, dst, [], [r(s)]),
        _ => tiled::<INT16_TILE>(&[], rows, Some(src), dst, added, removed),
    }
}

#[inline(always)]
fn rebase_rows(acc: &mut [i16], plus: &[i16], minus: &[i16]) {
    let n = acc.len();
    for ((a, &p), &m) in acc.iter_mut().zip(&plus[..n]).zip(&minus[..n]) {
        *a = a.wrapping_add(p).wrapping_sub(m);
    }
}

/// `dst = src + Σ adds − Σ subs` in one pass: 64 columns at a time, then 16, then one by one.
#[inline(always)]
fn fused<const A: usize, const S: usize>(src: &[i16], dst: &mut [i16], adds: [&[i16]; A], subs: [&[i16]; S]) {
    let n = dst.len();
    // Every slice cut to `n` once: the columns below are then in bounds by the loops' own tests.
    let (src, adds, subs) = (&src[..n], adds.map(|r| &r[..n]), subs.map(|r| &r[..n]));
    let mut t = 0;
    while t + 64 <= n {
        fused_cols::<A, S, 64>(src, dst, adds, subs, t);
        t += 64;
    }
    while t + 16 <= n {
        fused_cols::<A, S, 16>(src, dst, adds, subs, t);
        t += 16;
    }
    while t < n {
        fused_cols::<A, S, 1>(src, dst, adds, subs, t);
        t += 1;
    }
}

/// Columns `t..t + T` of [`fused`].
#[inline(always)]
fn fused_cols<const A: usize, const S: usize, const T: usize>(
    src: &[i16],
    dst: &mut [i16],
    adds: [&[i16]; A],
    subs: [&[i16]; S],
    t: usize,
) {
    let cols = |r: &[i16]| -> [i16; T] { r[t..][..T].try_into().expect("T columns") };
    let mut v = cols(src);
    for a in adds {
        add(&mut v, &cols(a), i16::wrapping_add);
    }
    for s in subs {
        add(&mut v, &cols(s), i16::wrapping_sub);
    }
    dst[t..][..T].copy_from_slice(&v);
}

/// The tile of sums over int16 rows alone (non-threat nets' updates, every net's refresh-cache
/// updates), on every path: 512 columns on AVX-512 measured no better there (4% slower per
/// tree node on Stockfish 17.1's big net, AMD Zen 5, 2026-11-28).
const INT16_TILE: usize = 128;

/// `dst = src + Σ rows[added] − Σ rows[removed]` over int8 rows (features below
/// `int8.len() / dst.len()`) then int16 rows, a tile of columns at a time so that each tile
/// stays in registers and `dst` is written once a pass: `TILE` columns, then 128, 16 and one
/// by one. `TILE` is the caller's: [`INT16_TILE`] for int16 rows alone; for mixed sums the
/// path's, as many columns as half its vector registers hold (128 on 16-register AVX2 and on
/// NEON; 512 on AVX-512, as Stockfish tiles it: 128 there made four times the row loops and
/// bounds checks, 13% of a Stockfish 19 tree node on Zen 5).
///
/// Each feature's row is found once, before the tiles (the int8-or-int16 choice and the row's
/// offset per row and tile were about half the instructions of a move's update); a pass takes
/// up to [`PASS`] rows of each kind and sign, and longer lists (refreshes of threat nets) take
/// more passes over `dst`, which the wrapping sums allow in any order. `src` `None`: `dst` is
/// its own source.
#[inline(always)]
fn tiled<const TILE: usize>(
    int8: &[i8],
    int16: &[i16],
    src: Option<&[i16]>,
    dst: &mut [i16],
    added: &[usize],
    removed: &[usize],
) {
    let w = dst.len();
    let mut pass = Pass::default();
    let mut first = true;
    // The four lists' counts (see `Pass::counts`), in a register until a pass runs: counts
    // kept in the lists themselves chained each feature's store to the next one's load (7% of
    // the kernel's samples in a Stockfish 19 tree walk).
    let mut counts = 0u32;
    let signed = added.iter().map(|&f| (f, 0)).chain(removed.iter().map(|&f| (f, 1)));
    for (f, sign) in signed {
        // Kind 0: int8 rows, 1: int16 rows; the offset of the row's first column (the int8
        // rows fill `int8`, so no division finds the kind).
        let at = f * w;
        let (kind, offset) = if at < int8.len() { (0, at) } else { (1, at - int8.len()) };
        let k = 2 * kind + sign;
        let n = (counts >> (8 * k) & 0xff) as usize;
        pass.slots[kind][sign][n].write(offset);
        counts += 1 << (8 * k);
        if n + 1 == PASS {
            pass.counts = counts;
            pass.run::<TILE>(int8, int16, if first { src } else { None }, dst);
            (pass, first, counts) = (Pass::default(), false, 0);
        }
    }
    if first || counts != 0 {
        pass.counts = counts;
        pass.run::<TILE>(int8, int16, if first { src } else { None }, dst);
    }
}

/// Rows of one kind and sign a pass sums, at most.
const PASS: usize = 32;

/// One pass's rows, as offsets into their array: `slots[kind][sign]`, kind 0 the int8 rows and
/// 1 the int16 ones, sign 0 added and 1 removed. The slots start uninitialised: zeroing them
/// took more instructions than a move's row lookups.
struct Pass {
    slots: [[[MaybeUninit<usize>; PASS]; 2]; 2],
    /// Slots written, from the first: list `2 * kind + sign`'s count in byte `2 * kind + sign`.
    counts: u32,
}

impl Default for Pass {
    fn default() -> Self {
        Pass { slots: [[[const { MaybeUninit::uninit() }; PASS]; 2]; 2], counts: 0 }
    }
}

impl Pass {
    /// The offsets written to one list.
    #[inline(always)]
    fn rows(&self, kind: usize, sign: usize) -> &[usize] {
        let n = (self.counts >> (8 * (2 * kind + sign)) & 0xff) as usize;
        let slots = &self.slots[kind][sign][..n.min(PASS)];
        // SAFETY: a zero-copy view of the first `n` slots, each written before the count
        // passed it (`tiled` writes a list's slot at its count, then increments the count, and
        // sets `counts` before a pass reads the lists).
        unsafe { std::slice::from_raw_parts(slots.as_ptr().cast::<usize>(), slots.len()) }
    }

    /// `dst = from + the rows` (`from`: `src`, or `dst` itself after a first pass).
    #[inline(always)]
    fn run<const TILE: usize>(&self, int8: &[i8], int16: &[i16], from: Option<&[i16]>, dst: &mut [i16]) {
        let w = dst.len();
        let mut t = 0;
        while t + TILE <= w {
            self.tile::<TILE>(int8, int16, from, dst, t);
            t += TILE;
        }
        // A width that isn't a multiple of a wide tile (768 on a 512-column path).
        while TILE > 128 && t + 128 <= w {
            self.tile::<128>(int8, int16, from, dst, t);
            t += 128;
        }
        while t + 16 <= w {
            self.tile::<16>(int8, int16, from, dst, t);
            t += 16;
        }
        while t < w {
            self.tile::<1>(int8, int16, from, dst, t);
            t += 1;
        }
    }

    /// Columns `t..t + T`.
    #[inline(always)]
    fn tile<const T: usize>(&self, int8: &[i8], int16: &[i16], from: Option<&[i16]>, dst: &mut [i16], t: usize) {
        let mut v: [i16; T] = from.unwrap_or(dst)[t..][..T].try_into().expect("T columns");
        let (add8, add16, sub8, sub16) = (self.rows(0, 0), self.rows(1, 0), self.rows(0, 1), self.rows(1, 1));
        for &o in add8 {
            add(&mut v, cols(int8, o + t), i16::wrapping_add);
        }
        for &o in add16 {
            add(&mut v, cols(int16, o + t), i16::wrapping_add);
        }
        for &o in sub8 {
            add(&mut v, cols(int8, o + t), i16::wrapping_sub);
        }
        for &o in sub16 {
            add(&mut v, cols(int16, o + t), i16::wrapping_sub);
        }
        dst[t..][..T].copy_from_slice(&v);
    }
}

/// `T` columns of a row array from `at`.
#[inline(always)]
fn cols<W, const T: usize>(rows: &[W], at: usize) -> &[W; T] {
    rows[at..][..T].try_into().expect("T columns")
}

/// `v[i] = op(v[i], row[i])`, int8 rows widened.
#[inline(always)]
fn add<W: Copy + Into<i16>, const T: usize>(v: &mut [i16; T], row: &[W; T], op: fn(i16, i16) -> i16) {
    for (v, &w) in v.iter_mut().zip(row) {
        *v = op(*v, w.into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain sum, one row at a time.
    fn naive(int8: &[i8], int16: &[i16], src: &[i16], added: &[usize], removed: &[usize]) -> Vec<i16> {
        let w = src.len();
        let n8 = int8.len() / w;
        let mut v = src.to_vec();
        for (list, sign) in [(added, 1i16), (removed, -1)] {
            for &f in list {
                for (i, x) in v.iter_mut().enumerate() {
                    let wt = if f < n8 { i16::from(int8[f * w + i]) } else { int16[(f - n8) * w + i] };
                    *x = x.wrapping_add(wt.wrapping_mul(sign));
                }
            }
        }
        v
    }

    #[test]
    fn every_path_and_shape_equals_the_plain_sum_in_place_too_and_rebase_adds_and_subtracts() {
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as i64
        };
        // Every path this CPU has, each with the row kernels it runs.
        let paths: Vec<_> = crate::simd::KernelPath::all().into_iter().map(|p| (p, for_path(p))).collect();
        // Widths below, at and past a tile (128 columns; 512 on AVX-512, then 128s), with a
        // partial last tile; values that wrap.
        for width in [16, 32, 128, 160, 256, 512 + 256 + 16, 1024 + 64] {
            let (n8, n16) = (5, 7);
            let int8: Vec<i8> = (0..n8 * width).map(|_| next() as i8).collect();
            let int16: Vec<i16> = (0..n16 * width).map(|_| next() as i16).collect();
            let src: Vec<i16> = (0..width).map(|_| next() as i16).collect();
            // Past a pass's rows (`PASS` of a kind and sign): threat nets' refreshes.
            let many: Vec<usize> = (0..3 * PASS + 5).map(|i| 5 + i % 7).collect();
            let many8: Vec<usize> = (0..PASS + 1).map(|i| i % 5).collect();
            let lists: [(&[usize], &[usize]); 11] = [
                (&[8], &[3 + 5]),
                (&[6], &[7, 9]),
                (&[5, 11], &[10, 6]),
                (&[11], &[]),
                (&[], &[5]),
                (&[5, 6, 7, 8, 9, 10, 11], &[]),
                (&[9, 9, 9], &[6, 5]),
                (&[], &[]),
                (&many, &[6]),
                (&[7], &many),
                (&many8, &many),
            ];
            for (name, k) in &paths {
                for (added, removed) in lists {
                    if added.iter().chain(removed).all(|&f| f >= n8) {
                        // int16 only: the features counted from the int16 rows.
                        let plain: Vec<usize> = added.iter().map(|f| f - n8).collect();
                        let minus: Vec<usize> = removed.iter().map(|f| f - n8).collect();
                        let mut dst = vec![0; width];
                        // SAFETY: each path is taken only if this CPU has its features.
                        unsafe { (k.i16)(&int16, &src, &mut dst, &plain, &minus) };
                        assert_eq!(
                            dst,
                            naive(&[], &int16, &src, &plain, &minus),
                            "{name} i16 {width} {added:?} {removed:?}"
                        );
                    }
                    let mut dst = vec![0; width];
                    // SAFETY: as above.
                    unsafe { (k.mixed)(&int8, &int16, &src, &mut dst, added, removed) };
                    assert_eq!(
                        dst,
                        naive(&int8, &int16, &src, added, removed),
                        "{name} mixed {width} {added:?} {removed:?}"
                    );
                    // In place: the same sums, `src` its own source.
                    let mut acc = src.clone();
                    // SAFETY: as above.
                    unsafe { (k.in_place)(&int8, &int16, &mut acc, added, removed) };
                    assert_eq!(acc, dst, "{name} in place {width} {added:?} {removed:?}");
                    let (plus, minus) = (&int16[..width], &int16[width..2 * width]);
                    let mut want = dst.clone();
                    for ((a, &x), &y) in want.iter_mut().zip(plus).zip(minus) {
                        *a = a.wrapping_add(x).wrapping_sub(y);
                    }
                    // SAFETY: as above.
                    unsafe { (k.rebase)(&mut dst, plus, minus) };
                    assert_eq!(dst, want, "{name} rebase {width}");
                    let int8_only: Vec<usize> = [0, 4, 4, 2].into();
                    // SAFETY: as above.
                    unsafe { (k.mixed)(&int8, &int16, &src, &mut dst, &int8_only, &[1]) };
                    assert_eq!(dst, naive(&int8, &int16, &src, &int8_only, &[1]), "{name} int8 {width}");
                }
            }
        }
    }
}
