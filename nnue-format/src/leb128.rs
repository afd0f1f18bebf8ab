//! Signed LEB128 arrays as Stockfish stores them: the magic, a u32 byte count, the values.
//!
//! Only minimal encodings are accepted, so that reading and writing round-trip byte for byte.

/// The 17-byte magic that starts a compressed array.
pub const MAGIC: &[u8; 17] = b"COMPRESSED_LEB128";

/// An integer type stored in net files.
pub trait Element: Copy + Default {
    const BYTES: usize;
    const NAME: &'static str;
    fn from_le(bytes: &[u8]) -> Self;
    fn write_le(self, out: &mut Vec<u8>);
    fn to_i64(self) -> i64;
    fn from_i64(v: i64) -> Option<Self>;
}

macro_rules! element {
    ($t:ty, $name:literal) => {
        impl Element for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            const NAME: &'static str = $name;
            fn from_le(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("caller passes exactly BYTES bytes"))
            }
            fn write_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn to_i64(self) -> i64 {
                self as i64
            }
            fn from_i64(v: i64) -> Option<Self> {
                <$t>::try_from(v).ok()
            }
        }
    };
}
element!(i8, "int8");
element!(i16, "int16");
element!(i32, "int32");

/// Why a LEB128 stream is bad, and at which byte (relative to the stream's first value byte).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    pub at: usize,
    pub reason: String,
}

/// Reads value `i`, one varint starting at `pos` of at most `max_len` bytes (`T`'s width):
/// the value (sign-extended unless `unsigned`) and where the next one starts. `past_end`
/// says what running out of bytes means.
fn varint<T: Element>(
    data: &[u8],
    mut pos: usize,
    i: usize,
    unsigned: bool,
    past_end: &str,
) -> Result<(i64, usize), DecodeError> {
    let max_len = (T::BYTES * 8).div_ceil(7);
    let start = pos;
    let (mut value, mut shift) = (0i64, 0u32);
    loop {
        let Some(&byte) = data.get(pos) else {
            return Err(DecodeError { at: pos, reason: format!("value {i} runs past {past_end}") });
        };
        pos += 1;
        value |= i64::from(byte & 0x7f) << shift;
        shift += 7;
        if byte & 0x80 == 0 {
            if !unsigned && byte & 0x40 != 0 {
                value |= -1i64 << shift; // sign-extend
            }
            return Ok((value, pos));
        }
        if pos - start == max_len {
            return Err(DecodeError {
                at: start,
                reason: format!("value {i} is longer than {max_len} bytes, the most an {} takes", T::NAME),
            });
        }
    }
}

/// `value` as a `T`, or why not.
fn fit<T: Element>(value: i64, i: usize, at: usize) -> Result<T, DecodeError> {
    T::from_i64(value)
        .ok_or_else(|| DecodeError { at, reason: format!("value {i} = {value} does not fit in an {}", T::NAME) })
}

/// Decodes exactly `out.len()` values that must use exactly all of `data`.
pub fn decode<T: Element>(data: &[u8], out: &mut [T]) -> Result<(), DecodeError> {
    let mut pos = 0;
    for (i, slot) in out.iter_mut().enumerate() {
        let start = pos;
        let value;
        (value, pos) = varint::<T>(data, pos, i, false, "the byte count")?;
        let len = pos - start;
        if len > 1 {
            // The last byte only repeats the sign of the one before: not minimal.
            let (prev, last) = (data[pos - 2], data[pos - 1]);
            if (last == 0x00 && prev & 0x40 == 0) || (last == 0x7f && prev & 0x40 != 0) {
                return Err(DecodeError {
                    at: start,
                    reason: format!(
                        "value {i} = {value} has an overlong encoding: {len} bytes where the minimal one takes {}",
                        minimal_len(value)
                    ),
                });
            }
        }
        *slot = fit(value, i, start)?;
    }
    if pos != data.len() {
        return Err(DecodeError {
            at: pos,
            reason: format!("the byte count says {} bytes but the values end after {pos}", data.len()),
        });
    }
    Ok(())
}

/// Decodes `out.len()` values, one LEB128 varint each (PlentyChess's files: no magic, no
/// byte count), from the start of `data`; returns the bytes they took. Signed, or unsigned
/// (f32 bits, as `u32`, kept in the `T` of the same width). Overlong encodings are read (the
/// engine's own reader takes them) and written back minimal.
pub fn decode_varints<T: Element>(data: &[u8], out: &mut [T], unsigned: bool) -> Result<usize, DecodeError> {
    let mut pos = 0;
    for (i, slot) in out.iter_mut().enumerate() {
        let start = pos;
        let mut value;
        (value, pos) = varint::<T>(data, pos, i, unsigned, "the end of the file")?;
        // An unsigned value is the bits of the same width.
        let bits = 8 * T::BYTES as u32;
        if unsigned && bits < 64 && (1i64 << (bits - 1)..1i64 << bits).contains(&value) {
            value -= 1i64 << bits;
        }
        *slot = fit(value, i, start)?;
    }
    Ok(pos)
}

/// Appends one minimal LEB128 varint per value: signed, or unsigned of the value's bits.
pub fn encode_varints<T: Element>(values: &[T], out: &mut Vec<u8>, unsigned: bool) {
    if !unsigned {
        return encode(values, out);
    }
    for &v in values {
        let mut v = v.to_i64().rem_euclid(1i64 << (8 * T::BYTES));
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            out.push(if v == 0 { byte } else { byte | 0x80 });
            if v == 0 {
                break;
            }
        }
    }
}

/// The length of the minimal signed LEB128 encoding of `v`.
fn minimal_len(mut v: i64) -> usize {
    let mut len = 1;
    while !(-64..64).contains(&v) {
        v >>= 7;
        len += 1;
    }
    len
}

/// Appends the minimal signed LEB128 encoding of `values` (no magic, no count).
pub fn encode<T: Element>(values: &[T], out: &mut Vec<u8>) {
    for &v in values {
        let mut v = v.to_i64();
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            let done = (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0);
            out.push(if done { byte } else { byte | 0x80 });
            if done {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_extremes() {
        let values: Vec<i32> = vec![0, 1, -1, 63, 64, -64, -65, 8191, -8192, i32::MAX, i32::MIN];
        let mut bytes = Vec::new();
        encode(&values, &mut bytes);
        let mut back = vec![0i32; values.len()];
        decode(&bytes, &mut back).unwrap();
        assert_eq!(values, back);
        let mut bytes16 = Vec::new();
        encode(&[i16::MIN, i16::MAX], &mut bytes16);
        assert_eq!(bytes16.len(), 6);
    }

    /// Varints back to back: signed and unsigned (f32 bits) round trip; the bytes taken are
    /// counted; a truncated or too long value is an error at its offset.
    #[test]
    fn varints_round_trip_signed_and_unsigned() {
        let ints: Vec<i16> = vec![0, 1, -1, 63, 64, -64, -65, i16::MIN, i16::MAX];
        let floats: Vec<i32> =
            [0.0f32, -0.5, 1.0, f32::MIN_POSITIVE, -3.25e7].iter().map(|f| f.to_bits() as i32).collect();
        let mut bytes = Vec::new();
        encode_varints(&ints, &mut bytes, false);
        let split = bytes.len();
        encode_varints(&floats, &mut bytes, true);
        bytes.push(0xaa);
        let mut back = vec![0i16; ints.len()];
        assert_eq!(decode_varints(&bytes, &mut back, false).unwrap(), split);
        assert_eq!(back, ints);
        let mut fback = vec![0i32; floats.len()];
        assert_eq!(decode_varints(&bytes[split..], &mut fback, true).unwrap(), bytes.len() - split - 1);
        assert_eq!(fback, floats);
        // Negative f32s take 5 bytes (their sign bit is bit 31).
        let mut neg = Vec::new();
        encode_varints(&[(-0.5f32).to_bits() as i32], &mut neg, true);
        assert_eq!(neg.len(), 5);
        let mut one = [0i16; 1];
        assert!(decode_varints(&[0x80], &mut one, false).unwrap_err().reason.contains("runs past"));
        assert!(decode_varints(&[0x80, 0x80, 0x80, 0x01], &mut one, false).unwrap_err().reason.contains("longer"));
        // Overlong but in range: read (PlentyChess's reader takes it).
        assert_eq!(decode_varints(&[0x81, 0x00], &mut one, false).unwrap(), 2);
        assert_eq!(one, [1]);
    }

    #[test]
    fn rejects_overlong_truncated_and_out_of_range() {
        let mut one = [0i16; 1];
        assert!(decode(&[0x80, 0x00], &mut one).unwrap_err().reason.contains("overlong"));
        assert!(decode(&[0xff, 0x7f], &mut one).unwrap_err().reason.contains("overlong"));
        assert!(decode(&[0x80, 0x80, 0x80, 0x01], &mut one).unwrap_err().reason.contains("longer"));
        assert!(decode(&[0x80], &mut one).unwrap_err().reason.contains("runs past"));
        assert!(decode(&[0x80, 0x80, 0x02], &mut one).unwrap_err().reason.contains("fit"));
        assert!(decode(&[0x01, 0x01], &mut one).unwrap_err().reason.contains("byte count"));
    }
}
