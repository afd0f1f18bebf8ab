//! Fast-path networks built at run time from a [`Net`]: the accumulator families `nnue_net!`
//! fills with compile-time weights, here backed by owned buffers, composed with a [`Program`]:
//! the description's layers resolved into calls of the kernels `nnue_net!` emits. Tests use
//! them to check every path on arbitrary nets; engines can use them to load a net chosen at
//! run time (a few ns more per forward pass than the compiled net, whose calls are inlined).
//!
//! Both build from [`nnue_format::layout::FastLayout`]: each network field takes the layout's
//! array of the same name, and the program finds each layer's arrays by the same names. A net
//! read at run time takes a neuron order as `nnue_net!`'s `neuron_order` gives one:
//! `Net::reorder_neurons` before [`FastWeights::new`].

use bytemuck::Pod;
use nnue_format::layout::{
    self, Chess768Layout, Elem, FastLayout, HalfKpLayout, LayeredLayout, Sf19Layout, Sf19LiteLayout, SfnnLayout,
    StacksLayout, ThreatsLayout,
};
use nnue_format::Net;

use crate::layers::Composed;
use crate::nets::{Chess768, HalfKp, LayerStacks, Layered, Sf19, Sfnn, SfnnThreats};

mod program;

use program::ArrayRef;
pub use program::{AccumulatorInput, ClippedInput, Input, PairwiseInput, Program, StockfishInput};

/// A family's accumulators (the net's transformer) with the forward pass of its [`Program`]:
/// what each view of [`FastWeights`] returns, a [`Network`](crate::Network).
pub type Loaded<'w, N, I> = Composed<N, Program<'w, I>>;

/// Why a net can't be viewed as a given fast type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LoadError(pub(crate) String);

/// One array of the fast layout in an 8-byte aligned buffer.
struct Words {
    name: &'static str,
    elem: Elem,
    dims: Vec<usize>,
    words: Vec<u64>,
}

impl Words {
    /// The array as `T`, which must be exactly its size (its shape, element type aside).
    fn view<T: Pod>(&self) -> Result<&T, LoadError> {
        let size = std::mem::size_of::<T>();
        if layout::Array::size(self.elem, &self.dims) != Some(size) {
            return Err(LoadError(format!(
                "{} has shape {:?} of {}, which is not the {size} bytes the requested type takes",
                self.name,
                self.dims,
                self.elem.rust_name()
            )));
        }
        let bytes = bytemuck::cast_slice::<u64, u8>(&self.words);
        bytemuck::try_from_bytes(&bytes[..size]).map_err(|e| LoadError(format!("{}: {e}", self.name)))
    }
}

/// A net's arrays in the fast layout, 8-byte aligned.
pub struct FastWeights {
    layout: FastLayout<Words>,
}

impl FastWeights {
    /// Checks the net against the fast layout's limits and transforms it as `nnue_net!` does.
    pub fn new(net: &Net) -> Result<FastWeights, LoadError> {
        layout::check(net).map_err(LoadError)?;
        let layout = layout::fast_layout(net).map(|name, array| {
            let mut words = vec![0u64; array.bytes.len().div_ceil(8)];
            bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..array.bytes.len()].copy_from_slice(&array.bytes);
            Words { name, elem: array.elem, dims: array.dims, words }
        });
        Ok(FastWeights { layout })
    }

    /// The SFNNv5+ view; `L1` must be the net's width (`HALF` = L1/2, `CHUNKS` = L1/4).
    pub fn sfnn<const L1: usize, const HALF: usize, const CHUNKS: usize>(
        &self,
    ) -> Result<Loaded<'_, Sfnn<'_, L1, HALF, CHUNKS>, StockfishInput<HALF, CHUNKS, 254, 16>>, LoadError> {
        let FastLayout::Sfnn(_, SfnnLayout { ft_biases, ft_weights, psqt_weights, stacks }) = &self.layout else {
            return Err(self.not("an SFNNv5+ net"));
        };
        self.compose(Sfnn {
            ft_biases: ft_biases.view()?,
            ft_weights: ft_weights.view()?,
            psqt_weights: psqt_weights.view()?,
            stacks: layer_stacks(stacks)?,
        })
    }

    /// The threat-net view (Stockfish 18); `L1` must be the net's width (`HALF` = L1/2,
    /// `CHUNKS` = L1/4).
    pub fn sfnn_threats<const L1: usize, const HALF: usize, const CHUNKS: usize>(
        &self,
    ) -> Result<Loaded<'_, SfnnThreats<'_, L1, HALF, CHUNKS>, StockfishInput<HALF, CHUNKS, 255, 16>>, LoadError> {
        let FastLayout::Threats(_, layout) = &self.layout else {
            return Err(self.not("a threat-input net"));
        };
        let ThreatsLayout { ft_biases, threat_weights, ft_weights, psqt_weights, stacks } = layout;
        self.compose(SfnnThreats {
            ft_biases: ft_biases.view()?,
            threat_weights: threat_weights.view()?,
            ft_weights: ft_weights.view()?,
            psqt_weights: psqt_weights.view()?,
            stacks: layer_stacks(stacks)?,
        })
    }

    /// The Stockfish 19 view, big or lite; `L1` must be the net's width (`HALF` = L1/2,
    /// `CHUNKS` = L1/4), `INT8` and `INT16` its int8 and int16 rows, `ROWS` their sum.
    pub fn sf19<
        const L1: usize,
        const HALF: usize,
        const CHUNKS: usize,
        const INT8: usize,
        const INT16: usize,
        const ROWS: usize,
    >(
        &self,
    ) -> Result<
        Loaded<'_, Sf19<'_, L1, HALF, CHUNKS, INT8, INT16, ROWS>, StockfishInput<HALF, CHUNKS, 255, 32>>,
        LoadError,
    > {
        match &self.layout {
            FastLayout::Sf19(_, Sf19Layout { ft_biases, int8_weights, ft_weights, psqt_weights, stacks }) => self
                .compose(Sf19 {
                    ft_biases: ft_biases.view()?,
                    int8_weights: int8_weights.view()?,
                    ft_weights: ft_weights.view()?,
                    psqt_weights: psqt_weights.view()?,
                    stacks: layer_stacks(stacks)?,
                }),
            FastLayout::Sf19Lite(_, Sf19LiteLayout { ft_biases, ft_weights, psqt_weights, stacks }) => {
                let no_rows: &[[i8; L1]] = &[];
                self.compose(Sf19 {
                    ft_biases: ft_biases.view()?,
                    int8_weights: no_rows
                        .try_into()
                        .map_err(|_| LoadError(format!("the lite net has no int8 rows, not {INT8}")))?,
                    ft_weights: ft_weights.view()?,
                    psqt_weights: psqt_weights.view()?,
                    stacks: layer_stacks(stacks)?,
                })
            }
            _ => Err(self.not("a Stockfish 19 net")),
        }
    }

    /// The HalfKP view; `CHUNKS` = L1/2.
    pub fn halfkp<const L1: usize, const CHUNKS: usize>(
        &self,
    ) -> Result<Loaded<'_, HalfKp<'_, L1, CHUNKS>, ClippedInput<CHUNKS>>, LoadError> {
        let FastLayout::HalfKp(_, layout) = &self.layout else {
            return Err(self.not("a HalfKP net"));
        };
        let HalfKpLayout {
            ft_biases,
            ft_weights,
            fc0_biases,
            fc0_weights,
            fc1_biases,
            fc1_weights,
            fc2_biases,
            fc2_weights,
        } = layout;
        self.compose(HalfKp {
            ft_biases: ft_biases.view()?,
            ft_weights: ft_weights.view()?,
            fc0_biases: fc0_biases.view()?,
            fc0_weights: fc0_weights.view()?,
            fc1_biases: fc1_biases.view()?,
            fc1_weights: fc1_weights.view()?,
            fc2_biases: fc2_biases.view()?,
            fc2_weights: fc2_weights.view()?,
        })
    }

    /// The headerless view; `INPUTS` = 768 x king buckets, `B` output buckets.
    pub fn chess768<const N: usize, const INPUTS: usize, const B: usize>(
        &self,
    ) -> Result<Loaded<'_, Chess768<'_, N, INPUTS, B>, AccumulatorInput<N>>, LoadError> {
        let FastLayout::Chess768(_, Chess768Layout { l0_biases, l0_weights, l1_weights, l1_biases, config }) =
            &self.layout
        else {
            return Err(self.not("a headerless net"));
        };
        self.compose(Chess768 {
            l0_biases: l0_biases.view()?,
            l0_weights: l0_weights.view()?,
            l1_weights: l1_weights.view()?,
            l1_biases: l1_biases.view()?,
            config: *config,
        })
    }

    /// The multi-layer view; the const parameters must be the net's sizes (`HALF` = L1/2,
    /// `CHUNKS` = L1/4, `L2F` = L2, doubled when the activation is dual).
    #[allow(clippy::type_complexity)]
    pub fn layered<
        const L1: usize,
        const HALF: usize,
        const CHUNKS: usize,
        const INPUTS: usize,
        const L2: usize,
        const L2F: usize,
        const L3: usize,
        const B: usize,
    >(
        &self,
    ) -> Result<Loaded<'_, Layered<'_, L1, HALF, CHUNKS, INPUTS, L2, L2F, L3, B>, PairwiseInput<HALF, CHUNKS>>, LoadError>
    {
        let FastLayout::Layered(
            _,
            LayeredLayout {
                ft_biases,
                ft_weights,
                l1_weights,
                l1_biases,
                l2_weights,
                l2_biases,
                l3_weights,
                l3_biases,
                arch,
            },
        ) = &self.layout
        else {
            return Err(self.not("a multi-layer net"));
        };
        self.compose(Layered {
            ft_biases: ft_biases.view()?,
            ft_weights: ft_weights.view()?,
            l1_weights: l1_weights.view()?,
            l1_biases: l1_biases.view()?,
            l2_weights: l2_weights.view()?,
            l2_biases: l2_biases.view()?,
            l3_weights: l3_weights.view()?,
            l3_biases: l3_biases.view()?,
            arch: *arch,
        })
    }

    /// `net`'s accumulators with the forward pass of this net's layers.
    fn compose<N: crate::nets::FeatureTransformer, I: Input>(&self, net: N) -> Result<Loaded<'_, N, I>, LoadError> {
        let arrays = self
            .layout
            .arrays()
            .into_iter()
            .map(|(name, w)| {
                let bytes = bytemuck::cast_slice::<u64, u8>(&w.words);
                (name, ArrayRef { elem: w.elem, dims: w.dims.as_slice(), bytes })
            })
            .collect();
        let layers = self.layout.arch().layers();
        let order = |param| self.layout.input_order(param);
        let layers = Program::new(&layers, &arrays, &order, self.layout.screlu_in_i16())?;
        Ok(Composed { net, layers })
    }

    fn not(&self, what: &str) -> LoadError {
        LoadError(format!("the net is {}, not {what}", self.layout.arch()))
    }
}

fn layer_stacks<const CHUNKS: usize, const FC0: usize, const FC1_CHUNKS: usize, const FC2_IN: usize>(
    stacks: &StacksLayout<Words>,
) -> Result<LayerStacks<'_, CHUNKS, FC0, FC1_CHUNKS, FC2_IN>, LoadError> {
    let StacksLayout { fc0_biases, fc0_weights, fc1_biases, fc1_weights, fc2_biases, fc2_weights } = stacks;
    Ok(LayerStacks {
        fc0_biases: fc0_biases.view()?,
        fc0_weights: fc0_weights.view()?,
        fc1_biases: fc1_biases.view()?,
        fc1_weights: fc1_weights.view()?,
        fc2_biases: fc2_biases.view()?,
        fc2_weights: fc2_weights.view()?,
    })
}
