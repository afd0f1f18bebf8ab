//! Reader edge cases that need no corpus: descriptions that did not come through `parse`,
//! non-UTF-8 header descriptions, every short prefix of a net, and the shape of the message.

use nnue_format::synth;
use nnue_format::{Architecture, Chess768Arch, Encoding, ErrorKind, FormatError, KingBuckets, Net, SfnnArch};

fn chess768(hidden: usize, kings: KingBuckets) -> Architecture {
    Architecture::Chess768(Chess768Arch {
        kings,
        hidden,
        output_buckets: 1,
        activation: nnue_format::Activation::CReLU,
        qa: 255,
        qb: 64,
        scale: Some(400),
        output_order: nnue_format::OutputOrder::BucketMajor,
        file: nnue_format::formats::Chess768File::Bullet,
    })
}

/// Architecture fields are public: a description built in code is validated before use, so
/// absurd sizes are an error, not an overflow.
#[test]
fn unvalidated_descriptions_are_refused() {
    let bytes = synth::sfnn(64, 1, Encoding::Leb128).to_bytes();
    for arch in [
        chess768(usize::MAX / 2, KingBuckets::SINGLE),
        chess768(1 << 40, KingBuckets::SINGLE),
        chess768(0, KingBuckets::SINGLE),
        // Three buckets of which only bucket 0 is used, and a table bucket out of range.
        chess768(32, KingBuckets { count: 3, ..KingBuckets::SINGLE }),
        chess768(32, KingBuckets { table: [1; 64], ..KingBuckets::SINGLE }),
        Architecture::Sfnn(SfnnArch { l1: 0 }),
        Architecture::Sfnn(SfnnArch { l1: usize::MAX }),
    ] {
        for data in [&bytes[..], &[], &[0; 64]] {
            let err = Net::from_bytes(data, Some(&arch)).unwrap_err();
            assert_eq!((err.kind.name(), err.section.as_str(), err.offset), ("Invalid", "architecture description", 0));
        }
    }
}

fn with_description(description: &[u8]) -> Vec<u8> {
    let mut bytes = synth::sfnn(64, 1, Encoding::Leb128).to_bytes();
    let old = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    let header = (description.len() as u32).to_le_bytes().into_iter().chain(description.iter().copied());
    bytes.splice(8..12 + old, header);
    bytes
}

/// A lossy description would not write back byte for byte: not UTF-8 is an error at the first
/// bad byte.
#[test]
fn descriptions_must_be_utf8() {
    for (description, bad_at) in [
        (&b"\xff"[..], 0),
        (b"trained by caf\xe9 owners", 14),
        (b"ends in a cut sequence \xe2\x99", 23),
        (b"overlong \xc0\xaf slash", 9),
        (b"surrogate \xed\xa0\x80", 10),
    ] {
        let err = Net::from_bytes(&with_description(description), None).unwrap_err();
        assert_eq!((err.kind.name(), err.section.as_str(), err.offset), ("Invalid", "header", 12 + bad_at));
        assert!(err.to_string().contains("the description is not UTF-8: expected text, found byte 0x"), "{err}");
    }
    // Multi-byte UTF-8 is fine.
    let bytes = with_description("entraîné — ♞".as_bytes());
    assert!(Net::from_bytes(&bytes, None).unwrap().to_bytes() == bytes);
}

/// Every prefix of a net's first 4 KiB (header, transformer hash, biases, the start of the
/// weights) is an error, with and without the matching description, and never a panic.
#[test]
fn every_short_prefix_is_an_error() {
    for net in [synth::sfnn(64, 2, Encoding::Leb128), synth::sfnn(64, 3, Encoding::Raw), synth::halfkp(64, 4)] {
        let bytes = net.to_bytes();
        for len in 0..4096 {
            for arch in [None, Some(&net.arch())] {
                let err = Net::from_bytes(&bytes[..len], arch).unwrap_err();
                let expected = if len == 0 { "Empty" } else { "Truncated|Leb128" };
                assert!(expected.split('|').any(|k| k == err.kind.name()), "{len}: {err}");
                assert!(err.offset <= len, "{len}: {err}");
            }
        }
    }
}

/// The message is `<section> at offset <offset>: <what was expected, what was found>`.
#[test]
fn message_shape() {
    let err = FormatError::new(
        1234,
        "stack[3] fc_1",
        ErrorKind::Truncated { expected: "32 int32 fc_1 biases".into(), needed: 128, available: 5 },
    );
    assert_eq!(
        err.to_string(),
        "stack[3] fc_1 at offset 1234: unexpected end of file: expected 32 int32 fc_1 biases (128 bytes) but only 5 bytes are left"
    );
    let err = Net::from_bytes(b"\x20\x2f\xf3\x7a\x00", None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "header at offset 4: unexpected end of file: expected the file hash (4 bytes) but only 1 bytes are left"
    );
}

/// A description reaches messages escaped and cut: no terminal escape sequences, no 20 MB
/// messages.
#[test]
fn a_hostile_description_is_shown_escaped_and_cut() {
    let mut net = synth::sfnn(64, 1, Encoding::Leb128);
    net.description =
        format!("Features=HalfKAv2_hm(Friend)[22528->1024x2]\u{1b}]2;title\u{7}\n{}", "y".repeat(20 << 20));
    let err = Net::from_bytes(&net.to_bytes(), None).unwrap_err();
    assert_eq!(err.kind.name(), "DescriptionMismatch");
    let text = err.to_string();
    assert!(text.len() < 500, "a {} byte message", text.len());
    assert!(!text.chars().any(char::is_control), "{text}");
    assert!(text.contains("[22528->1024x2]\\u{1b}]2;title\\u{7}\\nyyy"), "{text}");
    assert!(text.contains(&format!("… ({} bytes), but the hash is that of", net.description.len())), "{text}");
}

/// An engine's headerless net read without a description: the error names the engine whose
/// nets have the file's size and the description that reads it.
#[test]
fn a_known_engines_net_without_description_is_named() {
    let text = "(768x13hm -> 1536)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, l2act=crelu, l1mul=1/16256, \
                scale=400, file=obsidian, \
                kings=[0,1,2,3,4,5,6,7,8,8,9,9,10,10,10,10,11,11,11,11,11,11,11,11,12,12,12,12,12,12,12,12]";
    let Ok(Architecture::Layered(a)) = text.parse::<Architecture>() else { panic!() };
    let bytes = synth::layered(&a, 1).to_bytes();
    let e = Net::from_bytes(&bytes, None).unwrap_err();
    let message = e.to_string();
    assert!(message.contains("30905920 bytes is the size of Obsidian's nets"), "{message}");
    let suggested = message.split('`').nth(1).expect("a description in backquotes");
    let arch: Architecture = suggested.parse().unwrap();
    assert!(Net::from_bytes(&bytes, Some(&arch)).is_ok());
    // Another size: no engine named.
    let e = Net::from_bytes(&bytes[..1000], None).unwrap_err();
    assert!(!e.to_string().contains("is the size of"), "{e}");
}
