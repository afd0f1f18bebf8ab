//! Fast-path networks built at run time from a [`Net`]: the same types `nnue_net!` fills with
//! compile-time weights, here backed by owned buffers. Tests use them to check every path on
//! arbitrary nets; engines can use them to load a net chosen at run time.
//!
//! Both build from [`nnue_format::layout::FastLayout`]: each network field takes the layout's
//! array of the same name. A net read at run time takes a neuron order as `nnue_net!`'s
//! `neuron_order` gives one: `Net::reorder_neurons` before [`FastWeights::new`].

use bytemuck::Pod;
use nnue_format::layout::{
    self, Chess768Layout, Elem, FastLayout, HalfKpLayout, LayeredLayout, Sf19Layout, Sf19LiteLayout, SfnnLayout,
    StacksLayout, ThreatsLayout,
};
use nnue_format::Net;

use crate::nets::{Chess768, HalfKp, LayerStacks, Layered, Sf19, Sfnn, SfnnThreats};

/// Why a net can't be viewed as a given fast type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LoadError(String);

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
    ) -> Result<Sfnn<'_, L1, HALF, CHUNKS>, LoadError> {
        let FastLayout::Sfnn(_, SfnnLayout { ft_biases, ft_weights, psqt_weights, stacks }) = &self.layout else {
            return Err(self.not("an SFNNv5+ net"));
        };
        Ok(Sfnn {
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
    ) -> Result<SfnnThreats<'_, L1, HALF, CHUNKS>, LoadError> {
        let FastLayout::Threats(_, layout) = &self.layout else {
            return Err(self.not("a threat-input net"));
        };
        let ThreatsLayout { ft_biases, threat_weights, ft_weights, psqt_weights, stacks } = layout;
        Ok(SfnnThreats {
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
    ) -> Result<Sf19<'_, L1, HALF, CHUNKS, INT8, INT16, ROWS>, LoadError> {
        match &self.layout {
            FastLayout::Sf19(_, Sf19Layout { ft_biases, int8_weights, ft_weights, psqt_weights, stacks }) => Ok(Sf19 {
                ft_biases: ft_biases.view()?,
                int8_weights: int8_weights.view()?,
                ft_weights: ft_weights.view()?,
                psqt_weights: psqt_weights.view()?,
                stacks: layer_stacks(stacks)?,
            }),
            FastLayout::Sf19Lite(_, Sf19LiteLayout { ft_biases, ft_weights, psqt_weights, stacks }) => {
                let no_rows: &[[i8; L1]] = &[];
                Ok(Sf19 {
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
    pub fn halfkp<const L1: usize, const CHUNKS: usize>(&self) -> Result<HalfKp<'_, L1, CHUNKS>, LoadError> {
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
        Ok(HalfKp {
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
    ) -> Result<Chess768<'_, N, INPUTS, B>, LoadError> {
        let FastLayout::Chess768(_, Chess768Layout { l0_biases, l0_weights, l1_weights, l1_biases, config }) =
            &self.layout
        else {
            return Err(self.not("a headerless net"));
        };
        Ok(Chess768 {
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
    ) -> Result<Layered<'_, L1, HALF, CHUNKS, INPUTS, L2, L2F, L3, B>, LoadError> {
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
        Ok(Layered {
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
