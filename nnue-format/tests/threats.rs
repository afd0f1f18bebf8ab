//! Stockfish 18's threat-input family (`HalfKAv2_hm+Threats`): synthetic nets of several widths
//! round-trip byte for byte, their hashes are checked, and damaged files are errors that say
//! where and what.

use nnue_format::synth;
use nnue_format::{Architecture, Encoding, Model, Net, ThreatsArch};

/// Byte offsets of the sections of a synthetic threat net written with all-raw encodings.
struct RawLayout {
    ft_hash: usize,
    threat_weights: usize,
    piece_weights: usize,
    psqt: usize,
    stacks: usize,
}

fn raw_layout(net: &Net, l1: usize) -> RawLayout {
    let ft_hash = 12 + net.description.len();
    let threat_weights = ft_hash + 4 + 2 * l1;
    let piece_weights = threat_weights + ThreatsArch::THREAT_INPUTS * l1;
    let psqt = piece_weights + 2 * ThreatsArch::PIECE_INPUTS * l1;
    let stacks = psqt + 4 * 8 * ThreatsArch::INPUTS;
    RawLayout { ft_hash, threat_weights, piece_weights, psqt, stacks }
}

fn stack_bytes(l1: usize) -> usize {
    4 + 16 * 4 + 16 * l1 + 32 * 4 + 32 * 32 + 4 + 32
}

#[test]
fn synthetic_threat_nets_round_trip() {
    for (l1, encoding) in [(64, Encoding::Raw), (128, Encoding::Leb128), (192, Encoding::Leb128)] {
        let net = synth::threats(l1, 40 + l1 as u64, encoding);
        assert_eq!(net.arch(), Architecture::Threats(ThreatsArch { l1 }));
        let text = net.arch().to_string();
        assert_eq!(text, format!("HalfKAv2_hm+Threats -> {l1}x2 -> (15+1 -> 32 -> 1)x8, psqt=8"));
        assert_eq!(text.parse::<Architecture>().unwrap(), net.arch());
        let bytes = net.to_bytes();
        let back = Net::from_bytes(&bytes, None).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(back == net, "{text}: the net read back differs");
        assert!(back.to_bytes() == bytes, "{text}: the bytes written back differ");
        assert!(Net::from_bytes(&bytes, Some(&net.arch())).unwrap() == net);
        if encoding == Encoding::Raw {
            let at = raw_layout(&net, l1);
            assert_eq!(bytes.len(), at.stacks + 8 * stack_bytes(l1));
            // Threat weights are raw int8, in feature-major order.
            let Model::Threats(_, p) = &net.model else { unreachable!() };
            assert_eq!(bytes[at.threat_weights + l1 + 3] as i8, p.threat_row(1)[3]);
        }
    }
}

#[test]
fn mixed_encodings_round_trip() {
    let mut net = synth::threats(64, 3, Encoding::Raw);
    for encoding in [
        [Encoding::Leb128, Encoding::Raw, Encoding::Raw],
        [Encoding::Raw, Encoding::Leb128, Encoding::Raw],
        [Encoding::Raw, Encoding::Raw, Encoding::Leb128],
    ] {
        let Model::Threats(_, p) = &mut net.model else { unreachable!() };
        p.ft.encoding = encoding;
        let bytes = net.to_bytes();
        assert!(Net::from_bytes(&bytes, None).unwrap() == net, "{encoding:?}");
    }
}

/// The family is told apart from SFNN by its hash alone, at every width the reader tries.
#[test]
fn hashes_are_distinct_from_sfnn() {
    for k in 1..=256 {
        let t = ThreatsArch { l1: k * 64 }.file_hash();
        for j in 1..=256 {
            assert_ne!(t, nnue_format::SfnnArch { l1: j * 64 }.file_hash(), "threats {} vs sfnn {}", k * 64, j * 64);
        }
    }
    assert_eq!(ThreatsArch { l1: 1024 }.file_hash(), 0xEC10_2EF2);
}

#[test]
fn damaged_files_are_located_errors() {
    let l1 = 64;
    let net = synth::threats(l1, 5, Encoding::Raw);
    let bytes = net.to_bytes();
    let at = raw_layout(&net, l1);
    let read = |b: &[u8]| Net::from_bytes(b, None).unwrap_err();

    // The file hash, the transformer hash and each stack's hash.
    let mut b = bytes.clone();
    b[4] ^= 1;
    let e = read(&b);
    assert_eq!((e.kind.name(), e.section.as_str(), e.offset), ("Unsupported", "header", 4), "{e}");
    let mut b = bytes.clone();
    b[at.ft_hash] ^= 0x10;
    let e = read(&b);
    assert_eq!((e.kind.name(), e.section.as_str(), e.offset), ("HashMismatch", "feature transformer", at.ft_hash));
    for i in [0, 7] {
        let mut b = bytes.clone();
        let h = at.stacks + i * stack_bytes(l1);
        b[h + 2] ^= 0x80;
        let e = read(&b);
        assert_eq!((e.kind.name(), e.section.clone(), e.offset), ("HashMismatch", format!("stack[{i}]"), h), "{e}");
    }

    // Truncation anywhere: inside the threat weights, the HalfKA weights, the PSQT, a stack,
    // one byte short.
    for cut in [at.threat_weights + 100, at.piece_weights + 1, at.psqt + 7, at.stacks + 10, bytes.len() - 1] {
        let e = read(&bytes[..cut]);
        assert_eq!(e.kind.name(), "Truncated", "cut at {cut}: {e}");
        assert!(e.offset <= cut, "cut at {cut}: {e}");
    }
    let e = read(&bytes[..at.threat_weights + 100]);
    assert!(e.to_string().contains("threat weights"), "{e}");

    // A trailing byte.
    let mut b = bytes.clone();
    b.push(0);
    let e = read(&b);
    assert_eq!((e.kind.name(), e.offset), ("Trailing", bytes.len()), "{e}");

    // A LEB128 PSQT block whose byte count is off.
    let net = synth::threats(l1, 6, Encoding::Leb128);
    let bytes = net.to_bytes();
    let psqt_magic = bytes.windows(17).rposition(|w| w == b"COMPRESSED_LEB128").unwrap();
    let mut b = bytes.clone();
    let count = u32::from_le_bytes(b[psqt_magic + 17..psqt_magic + 21].try_into().unwrap());
    b[psqt_magic + 17..psqt_magic + 21].copy_from_slice(&(count - 1).to_le_bytes());
    let e = read(&b);
    assert_eq!(e.kind.name(), "Leb128", "{e}");
    assert!(e.to_string().contains("PSQT"), "{e}");

    // The wrong description.
    let sfnn: Architecture = "HalfKAv2_hm -> 64x2 -> (15+1 -> 32 -> 1)x8, psqt=8".parse().unwrap();
    let e = Net::from_bytes(&bytes, Some(&sfnn)).unwrap_err();
    assert_eq!((e.kind.name(), e.offset), ("DescriptionMismatch", 4), "{e}");
}
