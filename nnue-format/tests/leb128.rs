//! The reader accepts exactly the minimal signed LEB128 encodings of int16 values (so that what
//! it reads writes back byte for byte), checked through `Net::from_bytes` on a file cut after
//! the transformer biases, against a reference that splits the stream into values and looks
//! each up among the encodings of all 65536 int16 values. The biases start with every 1- and
//! 2-byte sequence, every canonical 3-byte one and a sample of 3- to 5-byte ones.

use std::collections::HashSet;

use nnue_format::synth::{self, Rng};
use nnue_format::{Encoding, Net};

const MAGIC: &[u8] = b"COMPRESSED_LEB128";

/// A reference encoder, by another route than the crate's (which emits 7 bits at a time until
/// only sign bits remain): first the length, the fewest bytes n whose 7n-bit two's complement
/// range holds `v`, then the n digits of `v mod 2^7n`, each but the last with the continuation
/// bit. Checked against the specification's examples below.
fn encode(v: i64) -> Vec<u8> {
    let v = i128::from(v);
    let n = (1..).find(|&n| -(1i128 << (7 * n - 1)) <= v && v < 1i128 << (7 * n - 1)).unwrap();
    let digits = v.rem_euclid(1i128 << (7 * n));
    (0..n).map(|k| ((digits >> (7 * k)) & 0x7f) as u8 | if k + 1 < n { 0x80 } else { 0 }).collect()
}

/// The signed LEB128 examples of the DWARF 5 specification (figure 7.6) and Wikipedia's
/// -123456, plus the edges of each length.
#[test]
fn the_reference_encoder_gives_the_specifications_examples() {
    let examples: [(i64, &[u8]); 14] = [
        (2, &[0x02]),
        (-2, &[0x7e]),
        (127, &[0xff, 0x00]),
        (-127, &[0x81, 0x7f]),
        (128, &[0x80, 0x01]),
        (-128, &[0x80, 0x7f]),
        (129, &[0x81, 0x01]),
        (-129, &[0xff, 0x7e]),
        (-123456, &[0xc0, 0xbb, 0x78]),
        (63, &[0x3f]),
        (-64, &[0x40]),
        (64, &[0xc0, 0x00]),
        (-65, &[0xbf, 0x7f]),
        (i64::from(i16::MIN), &[0x80, 0x80, 0x7e]),
    ];
    for (v, bytes) in examples {
        assert_eq!(encode(v), bytes, "{v}");
    }
}

/// Header, transformer hash and a LEB128 bias array of 64 values: the bytes `first`, then 63
/// zeros; the file ends there.
struct Prefix {
    head: Vec<u8>,
}

impl Prefix {
    fn new() -> Self {
        let bytes = synth::sfnn(64, 1, Encoding::Leb128).to_bytes();
        let magic = bytes.windows(MAGIC.len()).position(|w| w == MAGIC).unwrap();
        Self { head: bytes[..magic].to_vec() }
    }

    fn file(&self, first: &[u8]) -> Vec<u8> {
        let mut f = self.head.clone();
        f.extend_from_slice(MAGIC);
        f.extend_from_slice(&((first.len() + 63) as u32).to_le_bytes());
        f.extend_from_slice(first);
        f.extend_from_slice(&[0; 63]);
        f
    }

    /// Whether the biases decode: the reader then stops at the (missing) weights.
    fn accepts(&self, first: &[u8]) -> bool {
        let file = self.file(first);
        let err = Net::from_bytes(&file, None).expect_err("the file ends after the biases");
        assert_eq!(err.section, "feature transformer", "{first:02x?}: {err}");
        match err.kind.name() {
            "Truncated" => {
                assert_eq!(err.offset, file.len(), "{first:02x?}: {err}");
                true
            }
            "Leb128" => {
                let data = self.head.len() + MAGIC.len() + 4;
                assert!((data..=file.len()).contains(&err.offset), "{first:02x?}: {err}");
                false
            }
            _ => panic!("{first:02x?}: {err}"),
        }
    }
}

#[test]
fn exactly_the_minimal_int16_encodings_are_accepted() {
    let prefix = Prefix::new();
    let canonical: HashSet<Vec<u8>> = (i16::MIN..=i16::MAX).map(|v| encode(v.into())).collect();
    // The stream (`seq` then 63 zeros) must split into exactly 64 canonical values; a value ends
    // at the first byte without the continuation bit.
    let reference = |seq: &[u8]| {
        let stream: Vec<u8> = seq.iter().copied().chain([0; 63]).collect();
        let values: Vec<&[u8]> = stream.split_inclusive(|b| b & 0x80 == 0).collect();
        values.len() == 64 && values.iter().all(|v| canonical.contains(*v))
    };
    let check = |seq: &[u8]| {
        assert_eq!(prefix.accepts(seq), reference(seq), "{seq:02x?}");
    };
    for a in 0..=255u8 {
        check(&[a]);
        for b in 0..=255u8 {
            check(&[a, b]);
        }
    }
    for seq in canonical.iter().filter(|s| s.len() == 3) {
        check(seq);
    }
    let mut rng = Rng::new(7);
    for _ in 0..20_000 {
        let len = 3 + (rng.next_u64() % 3) as usize;
        let mut seq: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        // Mostly continuation bytes, so that the sequence is one value.
        for b in &mut seq[..len - 1] {
            if !rng.next_u64().is_multiple_of(8) {
                *b |= 0x80;
            }
        }
        check(&seq);
    }
    // Just outside the int16 range, minimally encoded, and int16 values one byte too long.
    for v in [-32769i64, 32768, -40000, 40000, 1 << 20, -(1 << 20)] {
        check(&encode(v));
    }
    for v in [0i64, -1, 63, -64, 64, -65, 8191, -8192] {
        let mut long = encode(v);
        *long.last_mut().unwrap() |= 0x80;
        long.push(if v < 0 { 0x7f } else { 0x00 });
        check(&long);
    }
}
