//! Which path a network runs fastest on, measured once per network and process: the fixed
//! order of [`KernelPath::best`] (AVX512-VNNI, AVX-VNNI, AVX2) is not the fastest on every CPU
//! and net (on Sapphire Rapids the 256-bit AVX-VNNI path beats the 512-bit one on the
//! multi-layer nets' forward pass; on Zen 4 AVX2 beat AVX512-VNNI per ply on Stockfish 18).
//! Every path gives the same integers, so the choice changes only the time.

use std::cell::Cell;
use std::hint::black_box;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{Network, WeightsId};
use crate::position::{Color, Position};
use crate::simd::{Isa, KernelPath};

/// Every network measured so far in this process.
static CHOSEN: Mutex<Vec<(WeightsId, KernelPath)>> = Mutex::new(Vec::new());

thread_local! {
    /// The last lookup, so that a network's plain methods cost no lock.
    static LAST: Cell<Option<(WeightsId, KernelPath)>> = const { Cell::new(None) };
}

/// The fastest path for `net` on this CPU (measured on first use).
pub(crate) fn best_path<N: Network>(net: &N) -> KernelPath {
    let id = net.weights_id();
    if let Some((last, path)) = LAST.get() {
        if last == id {
            return path;
        }
    }
    let path = {
        let mut chosen = CHOSEN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match chosen.iter().find(|(i, _)| *i == id) {
            Some(&(_, path)) => path,
            None => {
                let path = measure(net);
                chosen.push((id, path));
                path
            }
        }
    };
    LAST.set(Some((id, path)));
    path
}

/// The path another must beat by more than 3%: the widest 256-bit one (AVX-VNNI, else AVX2)
/// on x86-64, [`KernelPath::best`] elsewhere. Not the 512-bit path: its costs outside the timed
/// forward pass (512-bit stores of the accumulators, which 256-bit loads don't get forwarded;
/// the rest of the ply) made it slower per ply where the forward passes tie (17.1 small on
/// Sapphire Rapids: 34.4 against 33.9 ns forward, 148 against 133 ns per ply), so it has to
/// win the forward pass clearly (19 big: 144 against 171 ns).
fn baseline() -> KernelPath {
    [Isa::AvxVnni, Isa::Avx2].into_iter().find_map(KernelPath::new).unwrap_or_else(KernelPath::best)
}

/// Times the forward pass per path, interleaved over 7 rounds (the best of each), a
/// millisecond or two; keeps [`baseline`] unless another path is more than 3% faster. Only the
/// forward pass: a search's updates read rows scattered over the weights and wait on memory
/// the same on every path, while a timing loop's updates, on rows in cache, would favour the
/// widest registers.
fn measure<N: Network>(net: &N) -> KernelPath {
    let default = baseline();
    // The network's own paths: relaxed SIMD only where its layers allow its kernels.
    let candidates: Vec<KernelPath> = net.paths().into_iter().filter(|p| p.isa() != Isa::Scalar).collect();
    if candidates.len() < 2 {
        return default;
    }
    // Opening to endgame: the fewer pieces, the sparser the first layer's input, and the paths
    // differ most in the part that scans it.
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
        "6k1/p1r5/4bnp1/3p1p2/1p3P2/1P1P3P/3N2P1/3K4 b - - 2 33",
        "8/p2k4/8/3n4/8/N5K1/8/8 w - - 4 43",
    ];
    let positions: Vec<Position> = fens.iter().map(|f| Position::from_fen(f).expect("a valid FEN")).collect();
    let accs: Vec<N::Accumulator> = positions
        .iter()
        .map(|pos| {
            let mut acc = net.new_accumulator();
            Color::BOTH.iter().for_each(|&c| net.refresh_on(default, pos, c, &mut acc));
            acc
        })
        .collect();
    let mut times = vec![Duration::MAX; candidates.len()];
    for _round in 0..7 {
        for (time, &path) in times.iter_mut().zip(&candidates) {
            let start = Instant::now();
            for _ in 0..40 {
                for (acc, pos) in accs.iter().zip(&positions) {
                    black_box(net.forward_on(path, black_box(acc), pos.side_to_move(), pos.piece_count()));
                }
            }
            *time = (*time).min(start.elapsed());
        }
    }
    let (fastest, &t_fastest) = times.iter().enumerate().min_by_key(|(_, t)| **t).expect("two candidates");
    let t_default = candidates.iter().position(|&p| p == default).map_or(Duration::MAX, |i| times[i]);
    if t_default.as_secs_f64() <= t_fastest.as_secs_f64() * 1.03 {
        default
    } else {
        candidates[fastest]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loaded::FastWeights;
    use nnue_format::{synth, Encoding};

    /// The choice is one of this CPU's paths, made once: the same network asks again, from
    /// another thread too (where there are threads), and gets the same path.
    #[test]
    fn a_network_measures_its_path_once() {
        let net = synth::sfnn(64, 7, Encoding::Raw);
        let weights = FastWeights::new(&net).unwrap();
        let fast = weights.sfnn::<64, 32, 16>().unwrap();
        let start = Instant::now();
        let path = best_path(&fast);
        let first = start.elapsed();
        assert!(fast.paths().contains(&path), "{path}");
        assert!(first < Duration::from_secs(1), "measuring took {first:?}");
        assert_eq!(best_path(&fast), path);
        // (wasm32-wasip1 has no threads.)
        #[cfg(not(target_family = "wasm"))]
        assert_eq!(std::thread::scope(|s| s.spawn(|| best_path(&fast)).join().unwrap()), path);
        assert_eq!(fast.best_path(), path);
    }
}
