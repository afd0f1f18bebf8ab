//! How each engine's file orders a multi-layer net's arrays: the one table the reader and the
//! writer both follow.

use super::format::Axes;
use super::LayeredArch;
use crate::elem::Elem;

/// One array as the file stores it: the canonical shape (outermost first, as
/// [`crate::LayeredParams`] documents it) and the file's axis order (`order[k]`: the canonical
/// axis that is the file's k-th outermost).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FileArray {
    pub name: &'static str,
    pub elem: Elem,
    pub dims: Vec<usize>,
    pub order: Vec<usize>,
}

impl FileArray {
    pub(crate) fn new(name: &'static str, elem: Elem, dims: &[usize], order: &[usize]) -> FileArray {
        FileArray { name, elem, dims: dims.to_vec(), order: order.to_vec() }
    }

    /// Element count.
    pub fn len(&self) -> usize {
        self.dims.iter().product()
    }

    /// The file position of each canonical position.
    fn file_index(&self) -> Vec<usize> {
        let n = self.dims.len();
        let file_dims: Vec<usize> = self.order.iter().map(|&a| self.dims[a]).collect();
        let mut strides = vec![1usize; n];
        for k in (0..n.saturating_sub(1)).rev() {
            strides[k] = strides[k + 1] * file_dims[k + 1];
        }
        // The file stride of each canonical axis.
        let mut axis_stride = vec![0usize; n];
        for (k, &a) in self.order.iter().enumerate() {
            axis_stride[a] = strides[k];
        }
        let mut out = Vec::with_capacity(self.len());
        let mut index = vec![0usize; n];
        for _ in 0..self.len() {
            out.push(index.iter().zip(&axis_stride).map(|(i, s)| i * s).sum());
            for a in (0..n).rev() {
                index[a] += 1;
                if index[a] < self.dims[a] {
                    break;
                }
                index[a] = 0;
            }
        }
        out
    }

    /// Whether the file keeps the canonical order (no permutation to compute).
    pub(crate) fn is_canonical(&self) -> bool {
        self.order.iter().enumerate().all(|(k, &a)| k == a)
    }

    /// Canonical order to file order.
    pub fn file_order<T: Copy + Default>(&self, canonical: &[T]) -> Vec<T> {
        if self.is_canonical() {
            return canonical.to_vec();
        }
        let mut out = vec![T::default(); canonical.len()];
        for (c, f) in self.file_index().into_iter().enumerate() {
            out[f] = canonical[c];
        }
        out
    }

    /// File order to canonical order. (The large arrays, the transformer's, are canonical in
    /// every layout: no index table as large as them is built.)
    pub fn canonical<T: Copy + Default>(&self, file: &[T]) -> Vec<T> {
        if self.is_canonical() {
            return file.to_vec();
        }
        self.file_index().into_iter().map(|f| file[f]).collect()
    }
}

/// The output layer's inputs whose weights the file stores apart (`split_skip`: the skip
/// connection's), 0 in other files.
pub(crate) fn skip_inputs(arch: &LayeredArch) -> usize {
    if arch.file.format().split_skip {
        arch.l3_inputs() - arch.last_act_width()
    } else {
        0
    }
}

/// The arrays of a net of `arch`, in file order, as its layout's record (`super::format`) says.
pub(crate) fn arrays(arch: &LayeredArch) -> Vec<FileArray> {
    let (inputs, l1, l2, l3, l2f, b) = (arch.int16_inputs(), arch.l1, arch.l2, arch.l3, arch.l2_full(), arch.buckets);
    // The output layer's inputs (`skip`: the sparse layer's activation after the dense layer's).
    let l3i = arch.l3_inputs();
    use Elem::{I16, I32, I8};
    let format = arch.file.format();
    let threats = arch.int8_inputs();
    debug_assert!(threats == 0 || !format.threats.is_empty(), "checked by LayeredArch::validate");
    let mut rows = vec![FileArray::new("ft weights", I16, &[inputs, l1], &[0, 1])];
    if threats > 0 {
        let at = if format.threats_first { 0 } else { 1 };
        rows.insert(at, FileArray::new("threat weights", I8, &[threats, l1], &[0, 1]));
    }
    let sparse = match format.sparse {
        Axes::Canonical => FileArray::new("l1 weights", I8, &[b, l2, l1], &[0, 1, 2]),
        Axes::BucketInputMajor => FileArray::new("l1 weights", I8, &[b, l2, l1], &[0, 2, 1]),
        Axes::InputMajor => FileArray::new("l1 weights", I8, &[b, l2, l1], &[2, 0, 1]),
        Axes::Dpbusd => FileArray::new("l1 weights", I8, &[b, l2, l1 / 4, 4], &[0, 2, 1, 3]),
    };
    let dense = match format.dense {
        Axes::Canonical | Axes::Dpbusd => FileArray::new("l2 weights", I32, &[b, l3, l2f], &[0, 1, 2]),
        Axes::BucketInputMajor => FileArray::new("l2 weights", I32, &[b, l3, l2f], &[0, 2, 1]),
        Axes::InputMajor => FileArray::new("l2 weights", I32, &[b, l3, l2f], &[2, 0, 1]),
    };
    // `split_skip`: the skip inputs' weights are an array of their own ("skip weights").
    let skip = skip_inputs(arch);
    let l3i = l3i - skip;
    let output = match format.output {
        Axes::InputMajor => FileArray::new("l3 weights", I32, &[b, l3i], &[1, 0]),
        _ => FileArray::new("l3 weights", I32, &[b, l3i], &[0, 1]),
    };
    let mut arrays: Vec<FileArray> = rows
        .into_iter()
        .chain([
            FileArray::new("ft biases", I16, &[l1], &[0]),
            sparse,
            FileArray::new("l1 biases", I32, &[b, l2], &[0, 1]),
        ])
        .collect();
    if skip > 0 {
        arrays.push(FileArray::new("skip weights", I32, &[b, skip], &[0, 1]));
    }
    arrays.extend([dense, FileArray::new("l2 biases", I32, &[b, l3], &[0, 1])]);
    if let Some(n) = arch.l3b {
        // Only cinder's stack has it: canonical.
        arrays.extend([
            FileArray::new("l3b weights", I32, &[b, n, arch.dense_act_width()], &[0, 1, 2]),
            FileArray::new("l3b biases", I32, &[b, n], &[0, 1]),
        ]);
    }
    arrays.extend([output, FileArray::new("l3 biases", I32, &[b], &[0])]);
    arrays
}

impl FileArray {
    /// Its size in the file, in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.len() * self.elem.size()
    }
}

/// Bytes of the arrays (without header or padding).
pub(crate) fn param_bytes(arch: &LayeredArch) -> usize {
    arrays(arch).iter().map(FileArray::bytes).sum()
}

/// Bytes of the arrays, each padded to a multiple of `align`.
pub(crate) fn padded_bytes(arch: &LayeredArch, align: usize) -> usize {
    arrays(arch).iter().map(|a| a.bytes().next_multiple_of(align)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transposed_array_round_trips() {
        let a = FileArray::new("t", Elem::I8, &[2, 3, 4], &[2, 0, 1]);
        let canonical: Vec<u32> = (0..24).collect();
        let file = a.file_order(&canonical);
        // File [4][2][3]: canonical (b=1, o=2, i=3) = 1*12 + 2*4 + 3 = 23 sits at 3*6 + 1*3 + 2 = 23.
        assert_eq!(file[3 * 6 + 3 + 2], 23);
        // canonical (0, 1, 2) = 6 at file (2, 0, 1) = 13.
        assert_eq!(file[13], 6);
        assert_eq!(a.canonical(&file), canonical);
    }
}

#[cfg(test)]
mod round_trip {
    use crate::{Architecture, Model, Net};

    #[test]
    fn synthetic_layered_nets_round_trip() {
        for text in [
            "(768 -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=1024/4161600, scale=362, file=alexandria",
            "(768 -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, i32, q=64, l1shift=8, scale=400, file=cbnf",
        ] {
            let Architecture::Layered(arch) = text.parse().unwrap() else { unreachable!() };
            let net = crate::synth::layered(&arch, 1);
            let back = Net::from_bytes(&net.to_bytes(), Some(&net.arch())).unwrap();
            let (Model::Layered(_, a), Model::Layered(_, b)) = (&net.model, &back.model) else { unreachable!() };
            assert_eq!(a.ft_weights, b.ft_weights, "ft");
            assert_eq!(a.ft_biases, b.ft_biases, "ftb");
            assert_eq!(a.l1_weights, b.l1_weights, "l1");
            assert_eq!(a.l2_weights, b.l2_weights, "l2");
            assert_eq!(a.l3_weights, b.l3_weights, "l3");
            assert_eq!(net.description, back.description, "description");
        }
    }

    /// Viridithas's layout: the struct's bytes, read back as written, and as Viridithas ships
    /// them (zstd-compressed); a cut stream is an error, not a shorter net.
    #[test]
    fn a_viridithas_file_round_trips_raw_and_compressed() {
        let text = "(704x2hm -> 64)x2 -> pairwise>>9 -> (32 -> 64 -> 1)x8, f32, l1act=hardswish, l2act=swiglu, \
                    residual, l1mul=512/4161600, scale=240, threats=pawnpairs+sf19, file=viridithas, \
                    kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
        let arch: Architecture = text.parse().unwrap();
        let Architecture::Layered(a) = arch else { unreachable!() };
        // The output layer reads SwiGLU's 32 values.
        assert_eq!((a.int8_inputs(), a.int16_inputs(), a.l3_inputs()), (4560 + 59808, 2 * 704, 32));
        let net = crate::synth::layered(&a, 4);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), a.param_bytes());
        assert_eq!(Net::from_bytes(&bytes, Some(&arch)).unwrap(), net);
        let shipped = crate::synth::viridithas_zstd(&net);
        assert!(shipped.len() < bytes.len());
        assert_eq!(Net::from_bytes(&shipped, Some(&arch)).unwrap(), net);
        let cut = Net::from_bytes(&shipped[..shipped.len() - 1], Some(&arch)).unwrap_err();
        assert!(cut.to_string().contains("zstd"), "{cut}");
    }

    /// cinder's layout: read back as written, raw and zstd-compressed; its rows stored in
    /// cinder's order (mirrored with the king on files a–d, its piece numbering), the output's
    /// residual weights apart; the description prints as read.
    #[test]
    fn a_cinder_file_round_trips_in_its_own_row_order() {
        let text = "(768x2hm -> 64)x2 -> pairwise>>7 -> (16 -> 16 -> 16 -> 1)x8, f32, l1act=signedsquare, \
                    l2act=signedsquare, skip, l1mul=128/1209675, ftmax=127, ftround, l2chains=4, outlanes=8, scale=75, \
                    outclamp=7871, threats=pawnpairs+sf19, file=cinder, \
                    kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
        let arch: Architecture = text.parse().unwrap();
        assert_eq!(arch.to_string(), text.split_whitespace().collect::<Vec<_>>().join(" "));
        let Architecture::Layered(a) = arch else { unreachable!() };
        assert_eq!((a.l2_full(), a.dense_act_width(), a.last_act_width(), a.l3_inputs()), (32, 32, 32, 64));
        let net = crate::synth::layered(&a, 5);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), a.param_bytes());
        assert_eq!(Net::from_bytes(&bytes, Some(&arch)).unwrap(), net);
        let shipped = net.to_zstd(1).unwrap();
        assert!(shipped.len() < bytes.len());
        assert_eq!(Net::from_bytes(&shipped, Some(&arch)).unwrap(), net);
        let Model::Layered(_, p) = &net.model else { unreachable!() };
        // Our first piece-square row (own pawn on a1, king bucket 0) is cinder's row of the
        // own pawn on h1: 7, after the 64368 int8 rows.
        let (l1, int8) = (64, (4560 + 59808) * 64);
        let row = |r: usize| &bytes[int8 + 2 * l1 * r..int8 + 2 * l1 * (r + 1)];
        let ours: Vec<u8> = p.ft_weights[..l1].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(row(7), &ours[..]);
        // The residual weights follow the sparse layer's biases: bucket 0's first is the
        // output weights' 33rd.
        let at = int8 + 2 * 768 * 2 * l1 + 2 * l1 + 8 * 16 * l1 + 4 * 8 * 16;
        assert_eq!(bytes[at..at + 4], p.l3_weights[32].to_le_bytes());
    }

    /// PlentyChess's layout, one varint per value: read back as written, byte for byte; its
    /// size follows from the values, so a value cut short, a byte after the last value, an
    /// f32 that isn't finite and an int8 value out of range are errors at their offsets.
    #[test]
    fn a_varint_file_round_trips_and_its_errors_are_placed() {
        let text = "(768x2hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, skip, l1mul=512/4161600, \
                    scale=287, threats=pawnpairs+sf19, file=plentychess, \
                    kings=[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]";
        let arch: Architecture = text.parse().unwrap();
        let Architecture::Layered(a) = arch else { unreachable!() };
        assert_eq!((a.int8_inputs(), a.l3_inputs()), (4560 + 59808, 32 + 32));
        let net = crate::synth::layered(&a, 3);
        let bytes = net.to_bytes();
        let back = Net::from_bytes(&bytes, Some(&arch)).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.to_bytes(), bytes);
        // The int16 rows take two bytes a value at most, the int8 rows one or two.
        assert!(bytes.len() < 2 * 2 * 768 * 64 + 2 * 64368 * 64 + 64 * 1024);
        let err = |b: &[u8]| Net::from_bytes(b, Some(&arch)).unwrap_err();
        // The last value (l3 biases 7, an f32) cut short.
        let cut = err(&bytes[..bytes.len() - 1]);
        assert!(matches!(cut.kind, crate::ErrorKind::Leb128(_)), "{cut}");
        assert_eq!(cut.section, "l3 biases");
        let mut longer = bytes.clone();
        longer.push(0);
        let trailing = err(&longer);
        assert!(matches!(trailing.kind, crate::ErrorKind::Trailing { count: 1 }), "{trailing}");
        assert_eq!(trailing.offset, bytes.len());
        // The first value, an int16 piece-square weight, made the varint of 2^16.
        let big = [0x80, 0x80, 0x04];
        let first = bytes.iter().position(|b| b & 0x80 == 0).unwrap() + 1;
        let mut out_of_range = big.to_vec();
        out_of_range.extend_from_slice(&bytes[first..]);
        let e = err(&out_of_range);
        assert!(e.to_string().contains("does not fit in an int16"), "{e}");
        assert_eq!((e.section.as_str(), e.offset), ("ft weights", 0));
        // An l3 bias made a NaN (the unsigned varint of 0x7fc00000, five bytes).
        let nan = {
            let mut v = Vec::new();
            crate::leb128::encode_varints(&[0x7fc0_0000i32], &mut v, true);
            v
        };
        let mut last = bytes.len() - 1;
        while last > 0 && bytes[last - 1] & 0x80 != 0 {
            last -= 1;
        }
        let mut with_nan = bytes[..last].to_vec();
        with_nan.extend_from_slice(&nan);
        let e = err(&with_nan);
        assert!(e.to_string().contains("l3 biases 7 is NaN"), "{e}");
    }
}
