//! The committed default net `nets/default.nnue`: a small headerless net made from
//! piece-square tables, so that the examples work offline and its evals make chess sense.
//!
//! Each hidden neuron sees the side's PST balance through a ramp of biases 255 apart, so the
//! 32 CReLUs add up to a linear function of the balance over about +-16000; the output takes
//! "us" minus "them" and scales it back to centipawns.

use nnue_runtime::format::{synth, Architecture, Model, Net};

/// The architecture of the default net.
pub const ARCH: &str = "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400";

/// Centipawn value of a piece type (pawn .. king) on a square, from its owner's side.
pub fn pst(kind: usize, sq: usize) -> i32 {
    let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
    let centrality = 7 - ((2 * file - 7).abs() + (2 * rank - 7).abs()) / 2;
    match kind {
        0 => {
            100 + [0, 0, 5, 10, 20, 35, 60, 0][rank as usize]
                + if (3..=4).contains(&file) && (3..=4).contains(&rank) { 10 } else { 0 }
        }
        1 => 285 + 6 * centrality,
        2 => 320 + 4 * centrality,
        3 => 500 + if rank == 6 { 20 } else { 0 },
        4 => 900 + 2 * centrality,
        _ => {
            if rank == 0 {
                10
            } else {
                -10 * rank.min(3)
            }
        }
    }
}

/// Builds the default net.
pub fn build() -> Net {
    let Ok(Architecture::Chess768(arch)) = ARCH.parse() else { unreachable!("ARCH parses") };
    let mut net = synth::chess768(&arch, 0);
    let Model::Chess768(_, p) = &mut net.model else { unreachable!() };
    let n = arch.hidden;
    for side in 0..2 {
        for kind in 0..6 {
            for sq in 0..64 {
                // Enemy pieces are seen on the mirrored rank: score them from their side.
                let value = if side == 0 { pst(kind, sq) } else { -pst(kind, sq ^ 56) };
                let f = 384 * side + 64 * kind + sq;
                p.l0w[f * n..(f + 1) * n].fill((value / 4) as i16);
            }
        }
    }
    for j in 0..n {
        p.l0b[j] = (255 * (j as i32 - 16) + 128) as i16;
        p.l1w[j] = 82;
        p.l1w[n + j] = -82;
    }
    p.l1b[0] = 0;
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use nnue_runtime::{Evaluator, Position};

    #[test]
    fn committed_file_is_what_build_makes() {
        let bytes = build().to_bytes();
        // The workspace's copy, and the runtime's (its doc tests and package use it).
        for file in ["nets/default.nnue", "nnue-runtime/nets/default.nnue"] {
            let path = crate::root().join(file);
            if std::env::var_os("NNUE_BLESS").is_some() {
                std::fs::write(&path, &bytes).unwrap();
            }
            assert!(std::fs::read(&path).unwrap() == bytes, "{file} is stale: rerun with NNUE_BLESS=1");
        }
    }

    #[test]
    fn evals_make_chess_sense() {
        let net = build();
        let eval = |fen: &str| Evaluator::new(&net).evaluate(&Position::from_fen(fen).unwrap()).total();
        let start = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(start.abs() < 30, "{start}");
        // A queen up is worth about a queen, for either side to move.
        let up = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!((850..1000).contains(&up), "{up}");
        let down = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(down, -up);
    }
}
