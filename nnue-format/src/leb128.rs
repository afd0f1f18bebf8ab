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

/// Decodes exactly `out.len()` values that must use exactly all of `data`.
pub fn decode<T: Element>(data: &[u8], out: &mut [T]) -> Result<(), DecodeError> {
    let max_len = (T::BYTES * 8).div_ceil(7);
    let mut pos = 0;
    for (i, slot) in out.iter_mut().enumerate() {
        let start = pos;
        let (mut value, mut shift) = (0i64, 0u32);
        loop {
            let Some(&byte) = data.get(pos) else {
                return Err(DecodeError { at: pos, reason: format!("value {i} runs past the byte count") });
            };
            pos += 1;
            value |= i64::from(byte & 0x7f) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                if byte & 0x40 != 0 {
                    value |= -1i64 << shift; // sign-extend
                }
                break;
            }
            if pos - start == max_len {
                return Err(DecodeError {
                    at: start,
                    reason: format!("value {i} is longer than {max_len} bytes, the most an {} takes", T::NAME),
                });
            }
        }
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
        *slot = T::from_i64(value).ok_or_else(|| DecodeError {
            at: start,
            reason: format!("value {i} = {value} does not fit in an {}", T::NAME),
        })?;
    }
    if pos != data.len() {
        return Err(DecodeError {
            at: pos,
            reason: format!("the byte count says {} bytes but the values end after {pos}", data.len()),
        });
    }
    Ok(())
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
