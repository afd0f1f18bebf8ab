//! Evaluations an engine author knows, checked against what a description computes: a
//! headerless file can't prove its own shape, but a few positions with the engine's values
//! catch a wrong activation, a missing `hm` or the other output order (`nnue_net!`'s
//! `expect = [...]`, `nnue check --expect`).

use super::Evaluator;
use crate::evaluation::Evaluation;
use crate::position::{Position, PositionError};

/// Why expected evaluations were not met.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExpectError {
    /// An expected position's FEN doesn't parse.
    #[error("expected position {number} ({fen:?}) is not a position: {error}")]
    Fen {
        /// Its place in the list, from 1.
        number: usize,
        /// The text given.
        fen: String,
        /// Why it doesn't parse.
        error: PositionError,
    },
    /// The first position whose evaluation differs.
    #[error(
        "expected position {number} ({fen:?}): the description gives {got}, expected {want} ({evaluation}); \
         a wrong activation (crelu/screlu), a missing `hm`, buckets or the other output order are the usual causes"
    )]
    Differs {
        /// Its place in the list, from 1.
        number: usize,
        /// The position.
        fen: String,
        /// [`Evaluation::total`] of the net as described.
        got: i32,
        /// The value given.
        want: i32,
        /// The whole evaluation, its bucket and parts.
        evaluation: Evaluation,
    },
}

impl Evaluator<'_> {
    /// Evaluates each `(FEN, value)` pair and compares [`Evaluation::total`] with the value (a
    /// headerless net's scaled output, in its engine's units; a Stockfish net's internal units):
    /// the number of positions checked, or the first that doesn't parse or differs.
    ///
    /// ```
    /// use nnue_format::{synth, Encoding, Evaluator, Position};
    ///
    /// let net = synth::sfnn(64, 1, Encoding::Raw);
    /// let eval = Evaluator::new(&net);
    /// let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    /// let value = eval.evaluate(&Position::from_fen(start)?).total();
    /// assert_eq!(eval.check_expected([(start, value)]), Ok(1));
    /// assert!(eval.check_expected([(start, value + 1)]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_expected<'f>(&self, expected: impl IntoIterator<Item = (&'f str, i32)>) -> Result<usize, ExpectError> {
        let mut checked = 0;
        for (i, (fen, want)) in expected.into_iter().enumerate() {
            let number = i + 1;
            let pos =
                Position::from_fen(fen).map_err(|error| ExpectError::Fen { number, fen: crate::shown(fen), error })?;
            let evaluation = self.evaluate(&pos);
            if evaluation.total() != want {
                return Err(ExpectError::Differs {
                    number,
                    fen: fen.to_string(),
                    got: evaluation.total(),
                    want,
                    evaluation,
                });
            }
            checked += 1;
        }
        Ok(checked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{synth, Encoding};

    #[test]
    fn the_first_differing_position_is_named_with_both_values() {
        let net = synth::sfnn(64, 1, Encoding::Raw);
        let eval = Evaluator::new(&net);
        let fens = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"];
        let values: Vec<i32> = fens.iter().map(|f| eval.evaluate(&Position::from_fen(f).unwrap()).total()).collect();
        assert_eq!(eval.check_expected([(fens[0], values[0]), (fens[1], values[1])]), Ok(2));
        let err = eval.check_expected([(fens[0], values[0]), (fens[1], values[1] - 3)]).unwrap_err();
        assert!(
            matches!(err, ExpectError::Differs { number: 2, got, want, .. } if got == values[1] && want == values[1] - 3)
        );
        let msg = err.to_string();
        assert!(
            msg.starts_with(&format!("expected position 2 (\"{}\"): the description gives {}", fens[1], values[1])),
            "{msg}"
        );
        let err = eval.check_expected([("not a fen", 0)]).unwrap_err();
        assert!(matches!(err, ExpectError::Fen { number: 1, .. }), "{err}");
    }
}
