//! The frame of a net read with its description (the record of its file's frame: a
//! single-layer engine's or a multi-layer engine's), and what follows a headerless file's
//! parameters: bullet's versions pad them differently. (The other difference between its
//! versions, the order of the output weights, is the file plan's: `plan.rs`.)

use crate::arch::Architecture;
use crate::error::{ErrorKind, FormatError};
use crate::layered::format::Frame;
use crate::net::Padding;

/// A net read with its description (no Stockfish header): its frame, the sizes its
/// uncompressed file of raw values may have (without and with what may follow the last
/// array), and its arrays' bytes (unpadded, without a header).
pub(crate) struct Framed {
    pub frame: Frame,
    pub sizes: [usize; 2],
    pub params: usize,
}

/// `arch`'s frame, if it is described (a Stockfish net's is its header's: `stockfish_format`).
pub(crate) fn frame(arch: &Architecture) -> Option<Framed> {
    match arch {
        Architecture::Chess768(a) => Some(Framed {
            frame: a.file.format().frame(),
            sizes: [a.param_bytes(), a.file_bytes()],
            params: a.param_bytes(),
        }),
        Architecture::Layered(a) => Some(Framed {
            frame: a.file.format().frame(),
            sizes: a.raw_sizes(),
            params: crate::layered::file::param_bytes(a),
        }),
        Architecture::Sfnn(_) | Architecture::Threats(_) | Architecture::Sf19(_) | Architecture::HalfKp(_) => None,
    }
}

/// The padding of a file of `len` bytes whose parameters take `exact`: zeros or bullet's
/// `bulletbullet…` (told apart by the first byte); any other byte is an error at its offset.
pub(crate) fn read_padding(data: &[u8], exact: usize) -> Result<Padding, FormatError> {
    let tail = &data[exact..];
    let padding = match tail.first() {
        // No bytes: a file whose parameters end on a 64-byte boundary counts as padded (it is
        // what bullet writes), any other as unpadded.
        None if exact.is_multiple_of(64) => return Ok(Padding::Zeros),
        None => return Ok(Padding::None),
        Some(&b) if b == Padding::BULLET_PATTERN[0] => Padding::Bullet,
        Some(_) => Padding::Zeros,
    };
    match tail.iter().enumerate().position(|(i, &b)| b != padding.byte(i)) {
        None => Ok(padding),
        Some(i) => {
            let (want, found) = (padding.byte(i), tail[i]);
            let what = match padding {
                Padding::Bullet => format!(
                    "byte {i} of bullet's `bullet` padding after the parameters: expected {want:#04x} ({:?}), found {found:#04x}",
                    char::from(want)
                ),
                _ => format!(
                    "non-zero byte in the padding after the parameters: expected {want:#04x}, found {found:#04x}"
                ),
            };
            Err(FormatError::new(exact + i, "padding", ErrorKind::Invalid(what)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::Chess768Arch;
    use crate::net::Model;
    use crate::{synth, Net};

    fn arch(text: &str) -> Chess768Arch {
        let Ok(Architecture::Chess768(a)) = text.parse() else { panic!("{text}") };
        a
    }

    /// A 32-hidden, one-bucket CReLU net: 2·(768·32 + 32 + 64 + 1) = 49346 bytes, so 62 bytes
    /// of padding.
    fn small() -> (Chess768Arch, Vec<u8>) {
        let a = arch("(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400");
        let bytes = synth::chess768(&a, 5).to_bytes();
        assert_eq!((a.param_bytes(), bytes.len()), (49346, 49408));
        (a, bytes)
    }

    #[test]
    fn bullet_padding_is_read_and_written_back() {
        let (a, mut bytes) = small();
        let exact = a.param_bytes();
        for (i, b) in bytes[exact..].iter_mut().enumerate() {
            *b = b"bullet"[i % 6];
        }
        assert!(bytes.ends_with(b"tbulletbulletbu"));
        let net = Net::from_bytes(&bytes, Some(&Architecture::Chess768(a))).unwrap();
        let Model::Chess768(_, p) = &net.model else { unreachable!() };
        assert_eq!(p.padding, Padding::Bullet);
        assert!(net.to_bytes() == bytes, "bullet's padding is written back");
    }

    #[test]
    fn other_padding_bytes_are_refused_at_their_offset() {
        let (a, base) = small();
        let exact = a.param_bytes();
        let bullet: Vec<u8> = (0..base.len() - exact).map(|i| b"bullet"[i % 6]).collect();
        let with_tail = |tail: &[u8]| [&base[..exact], tail].concat();
        let cases: Vec<(Vec<u8>, usize, &str)> = vec![
            // Bullet's pattern with one byte off, at the start, the middle and the end.
            (
                {
                    let mut t = bullet.clone();
                    t[1] = b'x';
                    t
                },
                1,
                "expected 0x75 ('u'), found 0x78",
            ),
            (
                {
                    let mut t = bullet.clone();
                    t[20] = 0;
                    t
                },
                20,
                "expected 0x6c ('l'), found 0x00",
            ),
            (
                {
                    let mut t = bullet.clone();
                    t[61] = b'B';
                    t
                },
                61,
                "expected 0x75 ('u'), found 0x42",
            ),
            // Shifted: the pattern must start at the first padding byte.
            ([&b"ullet"[..], &bullet[..bullet.len() - 5]].concat(), 0, "non-zero byte"),
            // Zeros, then bullet's pattern.
            ([&[0u8; 6][..], &bullet[..bullet.len() - 6]].concat(), 6, "expected 0x00, found 0x62"),
            // Upper case is not bullet's.
            (bullet.to_ascii_uppercase(), 0, "expected 0x00, found 0x42"),
        ];
        for (tail, at, why) in cases {
            let err = Net::from_bytes(&with_tail(&tail), Some(&Architecture::Chess768(a))).unwrap_err();
            assert_eq!(
                (err.kind.name(), err.section.as_str(), err.offset),
                ("Invalid", "padding", exact + at),
                "{err}"
            );
            assert!(err.to_string().contains(why), "{err}");
        }
    }

    #[test]
    fn both_output_orders_read_into_the_same_parameters() {
        let text = "(768hm -> 64)x2 -> 1x8, screlu, qa=255, qb=64, scale=400";
        let (plain, transposed) = (arch(text), arch(&format!("{text}, out=[2N][B]")));
        let net = synth::chess768(&plain, 9);
        let Model::Chess768(_, params) = &net.model else { unreachable!() };
        let mut t_net = net.clone();
        t_net.model = Model::Chess768(transposed, params.clone());
        let (bytes, t_bytes) = (net.to_bytes(), t_net.to_bytes());
        assert_eq!(bytes.len(), t_bytes.len());
        // Only the output weights move: bucket b's input i goes from b·128 + i to i·8 + b.
        let l1w_at = 2 * (768 * 64 + 64);
        assert_eq!(bytes[..l1w_at], t_bytes[..l1w_at]);
        assert_ne!(bytes[l1w_at..], t_bytes[l1w_at..]);
        let word = |v: &[u8], k: usize| i16::from_le_bytes([v[l1w_at + 2 * k], v[l1w_at + 2 * k + 1]]);
        for (b, i) in [(0, 0), (1, 0), (0, 1), (7, 127), (3, 70)] {
            assert_eq!(word(&t_bytes, i * 8 + b), word(&bytes, b * 128 + i));
            assert_eq!(word(&bytes, b * 128 + i), params.output_row(b)[i]);
        }
        let read = Net::from_bytes(&t_bytes, Some(&Architecture::Chess768(transposed))).unwrap();
        assert_eq!(read, t_net);
        assert!(read.to_bytes() == t_bytes, "a transposed file is written back byte for byte");
        let Model::Chess768(_, read_params) = &read.model else { unreachable!() };
        assert_eq!(read_params, params);
    }
}
