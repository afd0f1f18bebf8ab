//! Fast-path networks built at run time from a [`Net`]: the same types `nnue_net!` fills with
//! compile-time weights, here backed by owned buffers. Tests use them to check every path on
//! arbitrary nets; engines can use them to load a net chosen at run time.

use bytemuck::Pod;
use nnue_format::layout::{self, Blob};
use nnue_format::{Activation, Net};

use crate::features::KingLayout;
use crate::nets::{Chess768, Chess768Config, HalfKp, Sfnn, SfnnThreats};

/// Why a net can't be viewed as a given fast type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LoadError(String);

/// A net's arrays in the fast layout, 8-byte aligned.
pub struct FastWeights {
    net: Net,
    arrays: Vec<(Blob, Vec<u64>)>,
}

impl FastWeights {
    /// Checks the net against the fast layout's limits and transforms it as `nnue_net!` does.
    pub fn new(net: &Net) -> Result<FastWeights, LoadError> {
        layout::check(net).map_err(LoadError)?;
        let arrays = layout::fast_layout(net)
            .into_iter()
            .map(|mut blob| {
                let mut words = vec![0u64; blob.bytes.len().div_ceil(8)];
                bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..blob.bytes.len()].copy_from_slice(&blob.bytes);
                blob.bytes = Vec::new();
                (blob, words)
            })
            .collect();
        Ok(FastWeights { net: net.clone(), arrays })
    }

    fn array<T: Pod>(&self, i: usize) -> Result<&T, LoadError> {
        let (blob, words) = &self.arrays[i];
        let size = std::mem::size_of::<T>();
        let bytes = bytemuck::cast_slice::<u64, u8>(words);
        let elem = match blob.elem {
            layout::Elem::I8 => 1,
            layout::Elem::I16 => 2,
            layout::Elem::I32 => 4,
        };
        if blob.dims.iter().product::<usize>() * elem != size {
            return Err(LoadError(format!(
                "{} has shape {:?} of {}, which is not the {size} bytes the requested type takes",
                blob.name,
                blob.dims,
                blob.elem.rust_name()
            )));
        }
        bytemuck::try_from_bytes(&bytes[..size]).map_err(|e| LoadError(format!("{}: {e}", blob.name)))
    }

    /// The SFNNv5+ view; `L1` must be the net's width (`HALF` = L1/2, `CHUNKS` = L1/4).
    pub fn sfnn<const L1: usize, const HALF: usize, const CHUNKS: usize>(
        &self,
    ) -> Result<Sfnn<'_, L1, HALF, CHUNKS>, LoadError> {
        self.expect(self.net.sfnn().is_some(), "an SFNNv5+ net")?;
        Ok(Sfnn::new(
            self.array(0)?,
            self.array(1)?,
            self.array(2)?,
            self.array(3)?,
            self.array(4)?,
            self.array(5)?,
            self.array(6)?,
            self.array(7)?,
            self.array(8)?,
        ))
    }

    /// The threat-net view (Stockfish 18); `L1` must be the net's width (`HALF` = L1/2,
    /// `CHUNKS` = L1/4).
    pub fn sfnn_threats<const L1: usize, const HALF: usize, const CHUNKS: usize>(
        &self,
    ) -> Result<SfnnThreats<'_, L1, HALF, CHUNKS>, LoadError> {
        self.expect(self.net.threats().is_some(), "a threat-input net")?;
        Ok(SfnnThreats::new(
            self.array(0)?,
            self.array(1)?,
            self.array(2)?,
            self.array(3)?,
            self.array(4)?,
            self.array(5)?,
            self.array(6)?,
            self.array(7)?,
            self.array(8)?,
            self.array(9)?,
        ))
    }

    /// The HalfKP view; `CHUNKS` = L1/2.
    pub fn halfkp<const L1: usize, const CHUNKS: usize>(&self) -> Result<HalfKp<'_, L1, CHUNKS>, LoadError> {
        self.expect(self.net.halfkp().is_some(), "a HalfKP net")?;
        Ok(HalfKp::new(
            self.array(0)?,
            self.array(1)?,
            self.array(2)?,
            self.array(3)?,
            self.array(4)?,
            self.array(5)?,
            self.array(6)?,
            self.array(7)?,
        ))
    }

    /// The headerless view; `INPUTS` = 768 x king buckets, `B` output buckets.
    pub fn chess768<const N: usize, const INPUTS: usize, const B: usize>(
        &self,
    ) -> Result<Chess768<'_, N, INPUTS, B>, LoadError> {
        let (arch, params) = self.net.chess768().ok_or_else(|| LoadError("not a headerless net".into()))?;
        let config = Chess768Config {
            screlu: arch.activation == Activation::SCReLU,
            qa: arch.qa as i16,
            qb: arch.qb,
            scale: arch.scale,
            screlu_in_i16: layout::screlu_fits_i16(&params.l1w, arch.qa),
            kings: KingLayout::from_buckets(&arch.kings),
        };
        Ok(Chess768::new(self.array(0)?, self.array(1)?, self.array(2)?, self.array(3)?, config))
    }

    fn expect(&self, ok: bool, what: &str) -> Result<(), LoadError> {
        if ok {
            Ok(())
        } else {
            Err(LoadError(format!("the net is {}, not {what}", self.net.arch)))
        }
    }
}
