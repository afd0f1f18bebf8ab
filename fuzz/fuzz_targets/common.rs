//! What every reader target checks, given the descriptions of its file format: the first byte
//! of the input picks one (or none, where the format has a header that describes itself), the
//! rest is the file.
//!
//! - the reader returns Ok or Err: no panic, no out-of-bounds access, no allocation past the
//!   `-malloc_limit_mb` the script gives;
//! - what reads writes back to the same bytes (a zstd-compressed file, `CBNF` with its flag or
//!   Viridithas's and cinder's whole-file stream, is written back uncompressed: that reads back
//!   to the same net);
//! - an error's offset lies within the input, and its message says where.

use nnue_format::formats::Zstd;
use nnue_format::{Architecture, Net};

/// Checks `data` against the reader with the description its first byte picks from `archs`
/// (`None`: no description).
pub fn check(data: &[u8], archs: &[Option<&str>]) {
    let Some((&choice, file)) = data.split_first() else { return };
    let arch: Option<Architecture> =
        archs[usize::from(choice) % archs.len()].map(|text| text.parse().expect("a valid description"));
    match Net::from_bytes(file, arch.as_ref()) {
        Ok(net) => {
            let written = net.to_bytes();
            if written != file {
                // Compressed: a `CBNF` file with the header's zstd flag, or a file whose format is
                // a zstd stream around the whole file and which is not the raw size (the reader
                // decompresses exactly those; `written` is the raw file).
                let cbnf_zstd = file.starts_with(b"CBNF") && file.get(6).is_some_and(|f| f & 1 == 1);
                let whole_file_zstd = matches!(&arch, Some(Architecture::Layered(a)) if a.file.format().zstd == Zstd::WholeFile)
                    && file.len() != written.len();
                assert!(cbnf_zstd || whole_file_zstd, "read, but not written back");
                let again = Net::from_bytes(&written, arch.as_ref()).expect("what was written reads");
                assert!(again == net, "a decompressed file reads back to another net");
            }
        }
        Err(err) => {
            assert!(err.offset <= file.len(), "offset {} past the end: {err}", err.offset);
            assert!(err.to_string().contains(&format!(" at offset {}: ", err.offset)), "{err}");
        }
    }
}
