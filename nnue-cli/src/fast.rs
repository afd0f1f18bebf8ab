//! The run-time loaded fast networks this tool is built for: one monomorphised view per
//! shape (their sizes are const parameters), the shapes of the nets the project checks
//! against; other nets have the reference alone (more shapes would lengthen the build).

use nnue_runtime::loaded::FastWeights;
use nnue_runtime::{KernelPath, Net, Network};

use crate::Outcome;

/// Something done with a network on some of its kernel paths.
pub trait Visit {
    /// Does it with `net`, named `name`, on each of `paths`.
    fn visit<N: Network>(&mut self, name: &str, net: &N, paths: &[KernelPath]) -> Outcome;
}

/// Tries each view in turn; the first of the net's shape is visited on every path.
macro_rules! first_view {
    ($w:expr, $v:expr, $( $view:ident::<$($n:literal),*> ),* $(,)?) => {
        $(
            if let Ok(view) = $w.$view::<$($n),*>() {
                $v.visit("loaded", &view, &KernelPath::all())?;
                return Ok(true);
            }
        )*
    };
}

/// Visits the fast network of `net`'s shape on every path of this CPU, if it is one of the
/// shapes; whether it was.
pub fn visit(net: &Net, v: &mut impl Visit) -> Result<bool, crate::Failure> {
    let Ok(w) = FastWeights::new(net) else { return Ok(false) };
    first_view!(
        w,
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
        // akimbo's and pawnocchio's shapes.
        chess768::<512, 768, 8>,
        chess768::<1024, 768, 8>,
        // Alexandria, Stormphrax 7, Integral, Obsidian, Reckless, PlentyChess, Viridithas,
        // Stormphrax 8.
        layered::<1536, 768, 384, 12288, 16, 32, 32, 8>,
        layered::<1792, 896, 448, 11264, 16, 32, 32, 8>,
        layered::<1536, 768, 384, 9216, 16, 16, 32, 8>,
        layered::<1536, 768, 384, 9984, 16, 32, 32, 8>,
        layered_threats::<768, 384, 192, 66864, 7680, 16, 16, 32, 8>,
        layered_threats::<1024, 512, 256, 64368, 9216, 16, 32, 32, 8>,
        layered_threats::<1024, 512, 256, 64368, 11264, 32, 32, 64, 8>,
        layered_threats::<1024, 512, 256, 64368, 11264, 32, 64, 64, 8>,
    );
    Ok(false)
}
