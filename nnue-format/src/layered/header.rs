//! The headers of multi-layer files: none in Alexandria's, 64 bytes in Stormphrax's `CBNF`
//! (packed: magic `CBNF`, version u16 = 1, flags u16 (1 zstd, 2 mirrored, 4 merged kings,
//! 8 pairwise), a padding byte, arch u8 (2, plus 1 with a dual activation, plus 2 with
//! Stormphrax 8's skip), activation u8 (0: clipped ReLU), hidden size u16 (at offset 11), input
//! buckets u8 (plus 128 with threat inputs), output buckets u8, name
//! length u8, name of 48 bytes). After a `CBNF` header the arrays follow, each padded with
//! zeros to a multiple of 64 bytes (the file may end without the last one's padding), or, with
//! the zstd flag, one zstd stream of the arrays back to back.

use super::format::Header as Kind;
use super::LayeredArch;
use crate::error::{ErrorKind, FormatError};

const CBNF_BYTES: usize = 64;
const NAME_BYTES: usize = 48;
const ZSTD: u16 = 1;
const MIRRORED: u16 = 2;
const MERGED: u16 = 4;
const PAIRWISE: u16 = 8;

/// The header's size.
pub(crate) fn bytes(arch: &LayeredArch) -> usize {
    match arch.file.format().header {
        Kind::None => 0,
        Kind::Cbnf => CBNF_BYTES,
    }
}

/// The fields a `CBNF` header of `arch` holds, in file order (offset, width, value, name).
fn cbnf_fields(arch: &LayeredArch) -> [(usize, usize, u32, &'static str); 8] {
    let flags = if arch.kings.mirrored { MIRRORED } else { 0 } | if arch.merged_kings { MERGED } else { 0 } | PAIRWISE;
    [
        (4, 2, 1, "the version"),
        (6, 2, u32::from(flags), "the flags (mirrored 2, merged kings 4, pairwise 8)"),
        (9, 1, 2 + u32::from(arch.dual()) + 2 * u32::from(arch.skip), "the arch id (2, +1 dual activation, +2 skip)"),
        (10, 1, 0, "the activation id (0: clipped ReLU)"),
        (11, 2, arch.l1 as u32, "the hidden size"),
        (
            13,
            1,
            arch.kings.count as u32 | if arch.threats.is_some() { 0x80 } else { 0 },
            "the input buckets (+128 threats)",
        ),
        (14, 1, arch.buckets as u32, "the output buckets"),
        (8, 1, 0, "the padding byte"),
    ]
}

fn field(data: &[u8], at: usize, width: usize) -> u32 {
    data[at..at + width].iter().rev().fold(0, |v, &b| (v << 8) | u32::from(b))
}

/// Whether a `CBNF` header's flags (u16 at offset 6) say its arrays are one zstd stream.
pub(crate) fn zstd_flag(data: &[u8]) -> bool {
    data.len() >= 8 && field(data, 6, 2) & u32::from(ZSTD) != 0
}

/// Sets that flag in a written `CBNF` header.
pub(crate) fn set_zstd_flag(header: &mut [u8]) {
    header[6] |= ZSTD as u8;
}

/// What a multi-layer file's header says.
pub(crate) struct Header {
    /// The description (a `CBNF` file's name).
    pub name: String,
    /// Where the arrays start.
    pub start: usize,
    /// The arrays after the header are one zstd stream (`CBNF` flag 1).
    pub zstd: bool,
}

/// The header of a multi-layer file, if its layout has one. A header that disagrees with the
/// description is an error naming the field.
pub(crate) fn read(data: &[u8], arch: &LayeredArch) -> Result<Header, FormatError> {
    if arch.file.format().header != Kind::Cbnf {
        return Ok(Header { name: String::new(), start: 0, zstd: false });
    }
    let err = |at: usize, kind: ErrorKind| Err(FormatError::new(at, "CBNF header", kind));
    if data.len() < CBNF_BYTES {
        let kind =
            ErrorKind::Truncated { expected: "the CBNF header".into(), needed: CBNF_BYTES, available: data.len() };
        return err(0, kind);
    }
    if &data[..4] != b"CBNF" {
        return err(0, ErrorKind::Invalid(format!("expected the magic `CBNF`, found {:02x?}", &data[..4])));
    }
    let zstd = zstd_flag(data);
    for (at, width, want, name) in cbnf_fields(arch) {
        // The zstd flag says how the arrays are stored, not what they are.
        let found = if at == 6 { field(data, at, width) & !u32::from(ZSTD) } else { field(data, at, width) };
        if found != want {
            return err(at, ErrorKind::Invalid(format!("{name} is {found}, but the description `{arch}` says {want}")));
        }
    }
    let len = usize::from(data[15]);
    if len > NAME_BYTES {
        return err(15, ErrorKind::Invalid(format!("the name length is {len}, at most {NAME_BYTES}")));
    }
    let name = &data[16..16 + len];
    let name = std::str::from_utf8(name).map_err(|e| {
        FormatError::new(16 + e.valid_up_to(), "CBNF header", ErrorKind::Invalid("the name is not UTF-8".into()))
    })?;
    if let Some(i) = data[16 + len..CBNF_BYTES].iter().position(|&b| b != 0) {
        return err(16 + len + i, ErrorKind::Invalid("non-zero byte after the name".into()));
    }
    Ok(Header { name: name.to_string(), start: CBNF_BYTES, zstd })
}

/// The arrays of a zstd-compressed `CBNF` file (`data` from offset `at` on): one or more zstd
/// frames that decode to exactly `len` bytes, the arrays back to back (Stormphrax's zstd
/// stream has no padding). A tiny stream can decode to gigabytes, so `len` (from the
/// description) is refused above [`MAX_FILE_BYTES`](crate::MAX_FILE_BYTES), as a file that
/// large would be, and each frame is decoded up to one byte past what the arrays still lack,
/// whatever window it declares (a decoder read out keeps up to its window, 128 MiB, before it
/// hands out a byte): memory follows what the description implies, not what the stream claims.
pub(crate) fn decompress(data: &[u8], at: usize, len: usize) -> Result<Vec<u8>, FormatError> {
    use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
    use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};
    let section = "zstd-compressed arrays";
    if len as u64 > crate::MAX_FILE_BYTES {
        let kind = ErrorKind::Invalid(format!(
            "the description's arrays take {len} bytes decompressed, more than the {} bytes a net file may hold",
            crate::MAX_FILE_BYTES
        ));
        return Err(FormatError::new(at, section, kind));
    }
    let too_long = || {
        let kind = ErrorKind::Invalid(format!(
            "the zstd stream decodes to {} or more bytes, but the description's arrays take {len}",
            len + 1
        ));
        FormatError::new(at, section, kind)
    };
    let mut input = data;
    let mut out = Vec::new();
    while !input.is_empty() {
        let frame_at = at + (data.len() - input.len());
        let bad = |e: &dyn std::fmt::Display| {
            FormatError::new(frame_at, section, ErrorKind::Invalid(format!("not a zstd frame (the decoder says: {e})")))
        };
        let mut frame = FrameDecoder::new();
        match frame.init(&mut input) {
            Ok(()) => {}
            // A skippable frame (metadata, which the engines' zstd libraries pass over): its
            // length follows the 8 bytes `init` read.
            Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame { length, .. })) => {
                let length = length as usize;
                if length > input.len() {
                    return Err(bad(&format_args!("a skippable frame of {length} bytes past the end of the file")));
                }
                input = &input[length..];
                continue;
            }
            Err(e) => return Err(bad(&e)),
        }
        let lacking = len + 1 - out.len();
        let finished =
            frame.decode_blocks(&mut input, BlockDecodingStrategy::UptoBytes(lacking)).map_err(|e| bad(&e))?;
        // Unfinished, the frame has decoded at least `lacking` bytes; finished, it all collects.
        let decoded = frame.can_collect();
        if !finished || decoded >= lacking {
            return Err(too_long());
        }
        out.reserve_exact(decoded);
        frame.collect_to_writer(&mut out).map_err(|e| bad(&e))?;
    }
    if out.len() != len {
        let kind = ErrorKind::Invalid(format!(
            "the zstd stream decodes to {} bytes, but the description's arrays take {len}",
            out.len()
        ));
        return Err(FormatError::new(at, section, kind));
    }
    Ok(out)
}

/// Writes the header of `arch`'s layout, if it has one (a `CBNF` name longer than 48 bytes is
/// cut at a character boundary).
pub(crate) fn write(out: &mut Vec<u8>, arch: &LayeredArch, description: &str) {
    if arch.file.format().header != Kind::Cbnf {
        return;
    }
    let mut header = [0u8; CBNF_BYTES];
    header[..4].copy_from_slice(b"CBNF");
    for (at, width, value, _) in cbnf_fields(arch) {
        header[at..at + width].copy_from_slice(&value.to_le_bytes()[..width]);
    }
    let mut len = description.len().min(NAME_BYTES);
    while !description.is_char_boundary(len) {
        len -= 1;
    }
    header[15] = len as u8;
    header[16..16 + len].copy_from_slice(&description.as_bytes()[..len]);
    out.extend_from_slice(&header);
}

#[cfg(test)]
mod tests {
    use crate::{Architecture, Net};

    /// A CBNF file of `text` with the zstd flag whose stream decodes to `len` zero bytes.
    fn cbnf_rle(text: &str, len: usize) -> (Architecture, Vec<u8>) {
        let arch: Architecture = text.parse().unwrap();
        let Architecture::Layered(a) = &arch else { panic!("{text} is a multi-layer description") };
        let bytes = crate::synth::cbnf_zstd_rle(a, text, len);
        (arch, bytes)
    }

    /// A 49 KB file whose description (L1 16384, 64 king buckets) implies 1.6 GB of arrays, and
    /// whose stream decodes to just that, was decoded whole (2.9 GB of memory, then an abort):
    /// now it is refused before anything is decoded, naming the sizes.
    #[test]
    fn a_zstd_bomb_is_refused_before_decoding() {
        let text = crate::synth::zstd_bomb_description();
        let Architecture::Layered(a) = text.parse::<Architecture>().unwrap() else { panic!() };
        let len = super::super::file::param_bytes(&a);
        assert!(len as u64 > crate::MAX_FILE_BYTES, "{len}");
        let (arch, bytes) = (text.parse().unwrap(), crate::synth::zstd_bomb());
        assert!(bytes.len() < 50_000, "{}", bytes.len());
        let start = std::time::Instant::now();
        let Err(e) = Net::from_bytes(&bytes, Some(&arch)) else { panic!("a zstd bomb was accepted") };
        assert!(start.elapsed().as_secs() < 1, "decoded before refusing: {:?}", start.elapsed());
        assert_eq!((e.offset, e.section.as_str()), (64, "zstd-compressed arrays"), "{e}");
        let msg = e.to_string();
        assert!(msg.contains(&len.to_string()) && msg.contains(&crate::MAX_FILE_BYTES.to_string()), "{msg}");
    }

    /// Under the cap, a stream that decodes to more than the arrays take stops one byte past
    /// them (it once could read on to the description's size whatever the stream held).
    #[test]
    fn a_stream_longer_than_the_arrays_is_refused() {
        let text = "(704hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x3, i32, dual, q=64, l1shift=8, scale=400, \
                    file=cbnf";
        let Architecture::Layered(a) = text.parse::<Architecture>().unwrap() else { panic!() };
        let len = super::super::file::param_bytes(&a);
        let (arch, bytes) = cbnf_rle(text, len + 10_000_000);
        let Err(e) = Net::from_bytes(&bytes, Some(&arch)) else { panic!("a stream too long was accepted") };
        assert!(e.to_string().contains(&format!("decodes to {} or more bytes", len + 1)), "{e}");
        // The same stream cut to the arrays' size reads (as zeros).
        let (arch, bytes) = cbnf_rle(text, len);
        Net::from_bytes(&bytes, Some(&arch)).unwrap();
    }

    /// Skippable frames (metadata a zstd library passes over, as the engines' do) before,
    /// between and after the data frames are skipped; one that claims more bytes than the file
    /// has is refused at its offset.
    #[test]
    fn skippable_frames_are_skipped() {
        let text = "(704hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x3, i32, dual, q=64, l1shift=8, scale=400, \
                    file=cbnf";
        let arch: Architecture = text.parse().unwrap();
        let Architecture::Layered(a) = &arch else { panic!("{text} is a multi-layer description") };
        let net = crate::synth::layered(a, 5);
        let shipped = net.to_zstd(2).unwrap();
        let skippable = |magic: u32, data: &[u8]| {
            let mut f = magic.to_le_bytes().to_vec();
            f.extend((data.len() as u32).to_le_bytes());
            f.extend(data);
            f
        };
        // The second data frame's start: the next zstd magic number after the first's.
        let magic = [0x28, 0xb5, 0x2f, 0xfd];
        let second = (65..shipped.len() - 3).find(|&i| shipped[i..i + 4] == magic).unwrap();
        let mut bytes = shipped[..64].to_vec();
        bytes.extend(skippable(0x184D_2A50, b"metadata"));
        bytes.extend(&shipped[64..second]);
        bytes.extend(skippable(0x184D_2A5F, &[]));
        bytes.extend(&shipped[second..]);
        bytes.extend(skippable(0x184D_2A57, &[7; 300]));
        assert_eq!(Net::from_bytes(&bytes, Some(&arch)).unwrap(), Net::from_bytes(&shipped, Some(&arch)).unwrap());
        // A skippable frame longer than what is left.
        let at = bytes.len();
        bytes.extend(0x184D_2A50u32.to_le_bytes());
        bytes.extend(1000u32.to_le_bytes());
        let Err(e) = Net::from_bytes(&bytes, Some(&arch)) else { panic!("a frame past the end was read") };
        assert_eq!(e.offset, at, "{e}");
        assert!(e.to_string().contains("past the end"), "{e}");
    }
}
