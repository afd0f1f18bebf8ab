//! Fast-path networks built at run time from a [`Net`]: the [`Transformer`] `nnue_net!` fills
//! with compile-time weights, here backed by owned buffers, composed with a [`Program`]: the
//! description's layers resolved into calls of the kernels `nnue_net!` emits. Tests use them to
//! check every path on arbitrary nets; engines can use them to load a net chosen at run time (a
//! few ns more per forward pass than the compiled net, whose calls are inlined).
//!
//! Both build from [`nnue_format::layout::FastLayout`]: the transformer takes the layout's
//! [`transformer`](FastLayout#method.transformer) arrays and the program finds each layer's arrays by
//! their names. Each view names the transform its first layer reads (the `Input` kind) and the
//! sizes it is compiled for. A net read at run time takes a neuron order as `nnue_net!`'s
//! `neuron_order` gives one: `Net::reorder_neurons` before [`FastWeights::new`]; and a layer
//! sequence of one's own as `nnue_net!`'s `compute` gives one: [`FastWeights::with_layers`].

use bytemuck::Pod;
use nnue_format::layout::{self, Elem, FastLayout, TransformerArrays};
use nnue_format::{Layers, Net};

use crate::features::{halfka_v2_hm, halfkp, threats, FeatureSet};
use crate::layers::Composed;
use crate::nets::Transformer;

mod layers_error;
mod program;

pub use layers_error::LayersError;
use program::ArrayRef;
pub use program::{AccumulatorInput, ClippedInput, Input, PairwiseInput, Program, StockfishInput};

/// A net's accumulators (its [`Transformer`]) with the forward pass of its [`Program`]:
/// what each view of [`FastWeights`] returns, a [`Network`](crate::Network).
pub type Loaded<'w, N, I> = Composed<N, Program<'w, I>>;

/// Why a net can't be viewed as a given fast type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The net is of another family than the view (an SFNN view of a HalfKP net, say).
    #[error("the net is {net}, not {view}")]
    Family {
        /// The net's architecture.
        net: String,
        /// What the view reads.
        view: &'static str,
    },
    /// A dimension the view's type names differs from the net's.
    #[error("{what} is {got}, the net's is {want}")]
    Dimension {
        /// Which dimension (a const parameter of the view, or what it counts).
        what: String,
        /// The view's.
        got: usize,
        /// The net's.
        want: usize,
    },
    /// An array of the net's layout has another shape than the view's type takes.
    #[error("{array} has shape {dims:?} of {elem}, which is not {wanted}")]
    Shape {
        /// The array's name in the layout.
        array: &'static str,
        /// Its shape, outermost first.
        dims: Vec<usize>,
        /// Its element type.
        elem: &'static str,
        /// What the view's type takes.
        wanted: String,
    },
    /// An array's bytes don't cast to the view's type.
    #[error("{array}: {reason}")]
    Cast {
        /// The array's name in the layout.
        array: &'static str,
        /// Why (`bytemuck`'s words).
        reason: String,
    },
    /// The net's layers need something the run-time path doesn't run (a size its kernels are
    /// not compiled for, an array the layout lacks).
    #[error("the net's layers can't run loaded: {0}")]
    Layers(#[from] LayersError),
    /// The net's layers have no kernel calls (the lowering the macro shares refused them).
    #[error("the net's layers can't run loaded: {0}")]
    Lower(#[from] nnue_format::lower::LowerError),
    /// No exact evaluation exists (see [`layout::check`]).
    #[error(transparent)]
    NotExact(#[from] layout::NotExact),
    /// The net's engine-defined input block (`threats=custom:N`) has no implementation: bind
    /// one with [`Net::bind_block`] before loading.
    #[error("the net's engine-defined input block (threats=custom:N) has no implementation: Net::bind_block")]
    UnboundBlock,
    /// The layers given to [`FastWeights::with_layers`] don't fit the net's arrays
    /// ([`Layers::check_fits`]); the error names the line of their text form.
    #[error("the layers given don't fit the net: {0}")]
    Compute(nnue_format::layers::LayersError),
}

/// One array of the fast layout in an 8-byte aligned buffer.
struct Words {
    name: &'static str,
    elem: Elem,
    dims: Vec<usize>,
    words: Vec<u64>,
}

impl Words {
    /// The array's bytes, which must be `size` (`wanted` says what asked for that many).
    fn bytes(&self, size: usize, wanted: impl FnOnce() -> String) -> Result<&[u8], LoadError> {
        if layout::Array::size(self.elem, &self.dims) != Some(size) {
            return Err(LoadError::Shape {
                array: self.name,
                dims: self.dims.clone(),
                elem: self.elem.rust_name(),
                wanted: wanted(),
            });
        }
        Ok(&bytemuck::cast_slice::<u64, u8>(&self.words)[..size])
    }

    /// The array as `T`, which must be exactly its size (its shape, element type aside).
    fn view<T: Pod>(&self) -> Result<&T, LoadError> {
        let size = std::mem::size_of::<T>();
        let bytes = self.bytes(size, || format!("the {size} bytes the requested type takes"))?;
        bytemuck::try_from_bytes(bytes).map_err(|e| LoadError::Cast { array: self.name, reason: e.to_string() })
    }

    /// The array as `n` values of `T` (rows of it), which must be exactly its size.
    fn rows<T: Pod>(&self, n: usize) -> Result<&[T], LoadError> {
        let row = std::mem::size_of::<T>();
        let bytes = self.bytes(row * n, || format!("{n} rows of the {row} bytes the requested type takes"))?;
        bytemuck::try_cast_slice(bytes).map_err(|e| LoadError::Cast { array: self.name, reason: e.to_string() })
    }
}

/// `what` must be the net's `want`.
fn check_size(what: &str, got: usize, want: usize) -> Result<(), LoadError> {
    if got == want {
        Ok(())
    } else {
        Err(LoadError::Dimension { what: what.to_string(), got, want })
    }
}

/// A net's arrays in the fast layout, 8-byte aligned, and the layers its views compute.
pub struct FastWeights {
    layout: FastLayout<Words>,
    /// The description's layers, or those given to [`FastWeights::with_layers`].
    layers: Layers,
}

impl FastWeights {
    /// Checks the net against the fast layout's limits and transforms it as `nnue_net!` does.
    pub fn new(net: &Net) -> Result<FastWeights, LoadError> {
        if net.has_unbound_block() {
            return Err(LoadError::UnboundBlock);
        }
        layout::check(net)?;
        let layout = layout::fast_layout(net).map(|name, array| {
            let mut words = vec![0u64; array.bytes.len().div_ceil(8)];
            bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..array.bytes.len()].copy_from_slice(&array.bytes);
            Words { name, elem: array.elem, dims: array.dims, words }
        });
        Ok(FastWeights { layout, layers: net.arch().layers() })
    }

    /// [`FastWeights::new`], its views computing `layers` after the accumulators in place of
    /// the layers the net's description gives: a layer sequence of one's own over the net's
    /// arrays, as `nnue_net!`'s `compute = "…"` compiles one in. The reference for it is
    /// [`Evaluator::with_layers`](crate::reference::Evaluator::with_layers).
    ///
    /// # Errors
    /// [`LoadError::Compute`] when the layers don't fit the net's arrays (the line and what is
    /// wrong), and from a view what [`FastWeights::new`]'s views refuse, including the layers'
    /// kernel calls ([`LoadError::Lower`], [`LoadError::Layers`]).
    ///
    /// ```
    /// use nnue_format::{synth, Encoding, Layers};
    /// use nnue_runtime::loaded::FastWeights;
    ///
    /// let net = synth::sfnn(128, 1, Encoding::Raw);
    /// // Stockfish 15.1-18's layers, their output scaled by half as much.
    /// let text = net.arch().layers().to_string();
    /// let own = text.replace("· 9600", "· 4800");
    /// assert_ne!(own, text);
    /// let layers: Layers = own.parse().unwrap();
    /// let weights = FastWeights::with_layers(&net, layers).unwrap();
    /// assert!(weights.sfnn::<128, 64, 32>().is_ok());
    /// ```
    pub fn with_layers(net: &Net, layers: Layers) -> Result<FastWeights, LoadError> {
        let layers = layers.in_place_of(&net.arch()).map_err(LoadError::Compute)?;
        Ok(FastWeights { layers, ..FastWeights::new(net)? })
    }

    /// The SFNNv5+ view; `L1` must be the net's width (`HALF` = L1/2, `CHUNKS` = L1/4).
    #[allow(clippy::type_complexity)]
    pub fn sfnn<const L1: usize, const HALF: usize, const CHUNKS: usize>(
        &self,
    ) -> Result<
        Loaded<'_, Transformer<'_, L1, 8, 0, { halfka_v2_hm::INPUTS }>, StockfishInput<HALF, CHUNKS, 254, 16>>,
        LoadError,
    > {
        let FastLayout::Sfnn(..) = &self.layout else {
            return Err(self.not("an SFNNv5+ net"));
        };
        self.compose(self.transformer()?)
    }

    /// The threat-net view (Stockfish 18); `L1` must be the net's width (`HALF` = L1/2,
    /// `CHUNKS` = L1/4).
    #[allow(clippy::type_complexity)]
    pub fn sfnn_threats<const L1: usize, const HALF: usize, const CHUNKS: usize>(
        &self,
    ) -> Result<
        Loaded<
            '_,
            Transformer<'_, L1, 8, { threats::INPUTS }, { halfka_v2_hm::INPUTS }>,
            StockfishInput<HALF, CHUNKS, 255, 16>,
        >,
        LoadError,
    > {
        let FastLayout::Threats(..) = &self.layout else {
            return Err(self.not("a threat-input net"));
        };
        self.compose(self.transformer()?)
    }

    /// The Stockfish 19 view, big or lite; `L1` must be the net's width (`HALF` = L1/2,
    /// `CHUNKS` = L1/4), `PSQT` its PSQT buckets (8; 0 for Stockfish master's SFNNv17),
    /// `INT8` and `INT16` its int8 and int16 rows, `ROWS` their sum.
    #[allow(clippy::type_complexity)]
    pub fn sf19<
        const L1: usize,
        const HALF: usize,
        const CHUNKS: usize,
        const PSQT: usize,
        const INT8: usize,
        const INT16: usize,
        const ROWS: usize,
    >(
        &self,
    ) -> Result<Loaded<'_, Transformer<'_, L1, PSQT, INT8, INT16>, StockfishInput<HALF, CHUNKS, 255, 32>>, LoadError>
    {
        let (FastLayout::Sf19(..) | FastLayout::Sf19Lite(..)) = &self.layout else {
            return Err(self.not("a Stockfish 19 net"));
        };
        if INT8 + INT16 != ROWS {
            return Err(LoadError::Dimension { what: "ROWS (INT8 + INT16)".into(), got: ROWS, want: INT8 + INT16 });
        }
        self.compose(self.transformer()?)
    }

    /// The HalfKP view; `CHUNKS` = L1/2.
    #[allow(clippy::type_complexity)]
    pub fn halfkp<const L1: usize, const CHUNKS: usize>(
        &self,
    ) -> Result<Loaded<'_, Transformer<'_, L1, 0, 0, { halfkp::INPUTS }>, ClippedInput<CHUNKS>>, LoadError> {
        let FastLayout::HalfKp(..) = &self.layout else {
            return Err(self.not("a HalfKP net"));
        };
        self.compose(self.transformer()?)
    }

    /// The headerless view; `INPUTS` = 768 x king buckets, `B` output buckets.
    pub fn chess768<const N: usize, const INPUTS: usize, const B: usize>(
        &self,
    ) -> Result<Loaded<'_, Transformer<'_, N, 0, 0, INPUTS>, AccumulatorInput<N>>, LoadError> {
        let FastLayout::Chess768(arch, _) = &self.layout else {
            return Err(self.not("a headerless net"));
        };
        check_size("B, the output buckets", B, arch.output_buckets)?;
        self.compose(self.transformer()?)
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
    ) -> Result<Loaded<'_, Transformer<'_, L1, 0, 0, INPUTS>, PairwiseInput<HALF, CHUNKS>>, LoadError> {
        self.layered_threats::<L1, HALF, CHUNKS, 0, INPUTS, L2, L2F, L3, B>()
    }

    /// The multi-layer view of a net with threat inputs (`threats=`): as
    /// [`FastWeights::layered`], `THREATS` the threat features (int8 rows) and `INPUTS` the
    /// piece-square ones.
    #[allow(clippy::type_complexity)]
    pub fn layered_threats<
        const L1: usize,
        const HALF: usize,
        const CHUNKS: usize,
        const THREATS: usize,
        const INPUTS: usize,
        const L2: usize,
        const L2F: usize,
        const L3: usize,
        const B: usize,
    >(
        &self,
    ) -> Result<Loaded<'_, Transformer<'_, L1, 0, THREATS, INPUTS>, PairwiseInput<HALF, CHUNKS>>, LoadError> {
        let FastLayout::Layered(arch, _) = &self.layout else {
            return Err(self.not("a multi-layer net"));
        };
        check_size("L2", L2, arch.l2)?;
        check_size("L2F, the dense layer's inputs", L2F, arch.l2_full())?;
        check_size("L3", L3, arch.l3)?;
        check_size("B, the output buckets", B, arch.buckets)?;
        self.compose(self.transformer()?)
    }

    /// The transformer's arrays ([`FastLayout::transformer`]) as `L1` columns, `PSQT` buckets,
    /// `INT8` int8 and `INT16` int16 rows, and the net's features.
    fn transformer<const L1: usize, const PSQT: usize, const INT8: usize, const INT16: usize>(
        &self,
    ) -> Result<Transformer<'_, L1, PSQT, INT8, INT16>, LoadError> {
        let TransformerArrays { biases, int8_rows, int16_rows, psqt } = self.layout.transformer();
        let int8_rows = match int8_rows {
            Some(rows) => rows.view()?,
            None => {
                let none: &[[i8; L1]] = &[];
                let what = "INT8 (the net has no int8 rows)".into();
                none.try_into().map_err(|_| LoadError::Dimension { what, got: INT8, want: 0 })?
            }
        };
        let psqt: &[[i32; PSQT]] = match psqt {
            Some(rows) => rows.rows(INT8 + INT16)?,
            None if PSQT == 0 => &[],
            None => {
                let what = "PSQT (the net has no PSQT outputs)".into();
                return Err(LoadError::Dimension { what, got: PSQT, want: 0 });
            }
        };
        let features = FeatureSet::for_arch(&self.layout.arch());
        Ok(Transformer { biases: biases.view()?, int8_rows, int16_rows: int16_rows.view()?, psqt, features })
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
        let order = |param| self.layout.input_order(param);
        let layers = Program::new(&self.layers, &arrays, &order, self.layout.screlu_in_i16())?;
        Ok(Composed { net, layers })
    }

    fn not(&self, view: &'static str) -> LoadError {
        LoadError::Family { net: self.layout.arch().to_string(), view }
    }
}
