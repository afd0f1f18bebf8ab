//! The run-time loaded fast networks this tool is built for: one monomorphised view per
//! shape (their sizes are const parameters), the shapes of the nets the project checks
//! against; other nets have the reference alone (more shapes would lengthen the build).

use std::ops::Range;

use nnue_runtime::loaded::FastWeights;
use nnue_runtime::nets::{Features, Transformer};
use nnue_runtime::{KernelPath, Net, Network};

use crate::Outcome;

/// Something done with a network on some of its kernel paths.
pub trait Visit {
    /// Does it with `net`, named `name`, on each of `paths`.
    fn visit<N: Network>(&mut self, name: &str, net: &N, paths: &[KernelPath]) -> Outcome;

    /// Told, before the visit, that the network visited is a copy in large pages whose
    /// transformer arrays span the addresses `transformer`.
    fn in_large_pages(&mut self, transformer: Range<usize>) {
        let _ = transformer;
    }
}

/// The addresses a transformer's arrays span (those `in_large_pages` puts in one region).
fn span<const L1: usize, const PSQT: usize, const INT8: usize, const INT16: usize, F: Features>(
    t: &Transformer<'_, L1, PSQT, INT8, INT16, F>,
) -> Range<usize> {
    let arrays = [
        (t.biases.as_ptr() as usize, std::mem::size_of_val(t.biases)),
        (t.int8_rows.as_ptr() as usize, std::mem::size_of_val(t.int8_rows)),
        (t.int16_rows.as_ptr() as usize, std::mem::size_of_val(t.int16_rows)),
        (t.psqt.as_ptr() as usize, std::mem::size_of_val(t.psqt)),
    ];
    let arrays = arrays.iter().filter(|a| a.1 > 0);
    let start = arrays.clone().map(|a| a.0).min().unwrap_or(0);
    start..arrays.map(|a| a.0 + a.1).max().unwrap_or(start)
}

/// Tries each view in turn; the first of the net's shape (or, with `$large`, its copy in large
/// pages) is visited on every path.
macro_rules! first_view {
    ($w:expr, $large:expr, $v:expr, $( $view:ident::<$($n:literal),*> ),* $(,)?) => {
        $(
            if let Ok(view) = $w.$view::<$($n),*>() {
                // Never freed (the runtime's design): one copy per run.
                let copy;
                let net = if $large {
                    copy = view.in_large_pages();
                    $v.in_large_pages(span(&copy.net));
                    &copy
                } else {
                    &view
                };
                $v.visit("loaded", net, &KernelPath::all())?;
                return Ok(true);
            }
        )*
    };
}

/// Visits the fast network of `net`'s shape on every path of this CPU, if it is one of the
/// shapes; whether it was. With `large_pages`, a copy of it whose transformer is in memory
/// advised for huge pages, made once.
pub fn visit(net: &Net, large_pages: bool, v: &mut impl Visit) -> Result<bool, crate::Failure> {
    let Ok(w) = FastWeights::new(net) else { return Ok(false) };
    first_view!(
        w,
        large_pages,
        v,
        // Stockfish 17.1's small, lite and big nets, 15.1's and 16's.
        sfnn::<128, 64, 32>,
        sfnn::<256, 128, 64>,
        sfnn::<1024, 512, 256>,
        sfnn::<1536, 768, 384>,
        sfnn::<3072, 1536, 768>,
        // Stockfish 18's big net, 19's big and lite nets, 13's HalfKP net.
        sfnn_threats::<1024, 512, 256>,
        sf19::<1024, 512, 256, 8, 64368, 22528, 86896>,
        sf19::<1024, 512, 256, 8, 0, 768, 768>,
        // Stockfish master's SFNNv17, big and lite.
        sf19::<1024, 512, 256, 0, 64368, 22528, 86896>,
        sf19::<1024, 512, 256, 0, 0, 768, 768>,
        halfkp::<256, 128>,
        // akimbo's, pawnocchio's and Caissa's shapes.
        chess768::<512, 768, 8>,
        chess768::<1024, 768, 8>,
        chess768::<1024, 24576, 8>,
        // Alexandria, Stormphrax 7, Integral, Obsidian, Stormphrax 8 without threats; Reckless,
        // PlentyChess, Viridithas, Stormphrax 8, cinder.
        layered::<1536, 768, 384, 12288, 16, 32, 32, 8>,
        layered::<1792, 896, 448, 11264, 16, 32, 32, 8>,
        layered::<1536, 768, 384, 9216, 16, 16, 32, 8>,
        layered::<1536, 768, 384, 9984, 16, 32, 32, 8>,
        layered::<1024, 512, 256, 11264, 32, 64, 64, 8>,
        layered_threats::<768, 384, 192, 66864, 7680, 16, 16, 32, 8>,
        layered_threats::<1024, 512, 256, 64368, 9216, 16, 32, 32, 8>,
        layered_threats::<1024, 512, 256, 64368, 11264, 32, 32, 64, 8>,
        layered_threats::<1024, 512, 256, 64368, 11264, 32, 64, 64, 8>,
        layered_threats::<1024, 512, 256, 64368, 12288, 16, 32, 16, 8>,
    );
    Ok(false)
}

#[cfg(test)]
mod tests {
    use std::ops::Range;

    use nnue_runtime::format::{synth, Encoding};
    use nnue_runtime::{Evaluation, KernelPath, Network, Position, WeightsId};

    use crate::Outcome;

    /// What a visit saw: the weights, each path's evaluation of a position, the copy's span.
    #[derive(Default)]
    struct Seen {
        id: Option<WeightsId>,
        values: Vec<Evaluation>,
        copy: Option<Range<usize>>,
    }

    impl super::Visit for Seen {
        fn visit<N: Network>(&mut self, _: &str, net: &N, paths: &[KernelPath]) -> Outcome {
            let pos = Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
            self.id = Some(net.weights_id());
            self.values = paths.iter().map(|&p| net.evaluate_on(p, &pos)).collect();
            Ok(())
        }

        fn in_large_pages(&mut self, transformer: Range<usize>) {
            self.copy = Some(transformer);
        }
    }

    /// With large pages the network visited is a copy (other weights, its transformer's span
    /// reported: an SFNN transformer of L1 128, PSQT included) that evaluates as the original
    /// on every path.
    #[test]
    fn large_pages_visit_a_copy_that_evaluates_the_same() {
        let net = synth::sfnn(128, 5, Encoding::Leb128);
        let (mut plain, mut copy) = (Seen::default(), Seen::default());
        assert!(super::visit(&net, false, &mut plain).unwrap());
        assert!(super::visit(&net, true, &mut copy).unwrap());
        assert!(plain.copy.is_none());
        let span = copy.copy.expect("the copy's span is reported");
        // The int16 rows of 22528 features, their 8 PSQT values each and the biases, each array
        // rounded up to 64 bytes.
        let rows = 22528 * (128 * 2 + 8 * 4);
        assert!(span.len() >= rows + 128 * 2 && span.len() < rows + 128 * 2 + 4 * 64, "{span:?}");
        assert_ne!(copy.id, plain.id, "a copy, not the same arrays");
        assert_eq!(copy.values, plain.values);
        assert_eq!(plain.values.len(), KernelPath::all().len());
    }
}
