//! Synthetic nets of every family, several sizes and every encoding: reading what was written
//! gives the same net, and writing what was read gives the same bytes.

use nnue_format::synth::{self, Rng};
use nnue_format::{Architecture, Encoding, Model, Net};

/// `Net::from_bytes(&net.to_bytes()) == net`, and the bytes written again are identical.
fn round_trip(net: &Net) -> Vec<u8> {
    let bytes = net.to_bytes();
    let arch = net.arch();
    let arch = matches!(arch, Architecture::Chess768(_) | Architecture::Layered(_)).then_some(&arch);
    let back = Net::from_bytes(&bytes, arch).unwrap_or_else(|e| panic!("{}: {e}", net.arch()));
    assert!(back == *net, "{}: the net read back differs", net.arch());
    assert!(back.to_bytes() == bytes, "{}: the bytes written back differ", net.arch());
    // Passing the architecture explicitly changes nothing for Stockfish nets.
    if arch.is_none() {
        assert!(Net::from_bytes(&bytes, Some(&net.arch())).unwrap() == *net);
    }
    bytes
}

fn set_encodings(net: &mut Net, encoding: [Encoding; 3]) {
    match &mut net.model {
        Model::Sfnn(_, p) => p.ft.encoding = encoding,
        Model::HalfKp(_, p) => p.ft.encoding = encoding,
        Model::Threats(_, p) => p.ft.encoding = encoding,
        Model::Sf19(_, p) => p.ft.encoding = encoding,
        Model::Chess768(_, _) | Model::Layered(_, _) => unreachable!(),
    }
}

/// Multi-layer nets in the engines' layouts: the arrays in the file's order and back, the
/// `CBNF` header's name, and the sizes the engines' loaders expect.
#[test]
fn layered_layouts_round_trip() {
    let kings = "kings=[0,1,2,3,4,5,6,7,8,9,10,11,8,9,10,11,12,12,13,13,12,12,13,13,14,14,15,15,14,14,15,15]";
    for (text, size) in [
        (
            format!("(768x16hm -> 64)x2 -> pairwise>>10 -> (16 -> 32 -> 1)x8, f32, dual, l1mul=1024/4161600, scale=362, buckets=(63-p)(32-p)/225, file=alexandria, {kings}"),
            2 * (16 * 768 * 64 + 64) + 8 * 16 * 64 + 4 * (8 * 16 + 8 * 32 * 32 + 8 * 32 + 8 * 32 + 8),
        ),
        (
            format!("(704x16hm -> 128)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, file=cbnf, {kings}"),
            64 + 2 * (16 * 704 * 128 + 128) + 8 * 16 * 128 + 4 * (8 * 16 + 8 * 32 * 32 + 8 * 32 + 8 * 32 + 8),
        ),
        ("(768 -> 64)x2 -> pairwise>>9 -> (32 -> 16 -> 1)x2, i32, q=32, l1shift=6, scale=400, file=cbnf".to_string(), 0),
        // bullet's example: every array canonical, `bulletbullet…` to 64 bytes.
        (
            format!("(768x16hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1mul=512/4161600, scale=400, file=bullet, {kings}"),
            (2usize * (16 * 768 * 64 + 64) + 8 * 16 * 64 + 4 * (8 * 16 + 8 * 32 * 16 + 8 * 32 + 8 * 32 + 8)).next_multiple_of(64),
        ),
        // Obsidian's `struct Net` at its shipped shape: 30,905,920 bytes, the size of the
        // struct its engine copies (every array aligned to 64, 32 zeros at the end).
        (
            "(768x13hm -> 1536)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, dual, l2act=crelu, l1mul=1/16256, scale=400, file=obsidian, kings=[0,1,2,3,4,5,6,7,8,8,9,9,10,10,10,10,11,11,11,11,11,11,11,11,12,12,12,12,12,12,12,12]".to_string(),
            30_905_920,
        ),
        // An odd shape: arrays that end off a 64-byte boundary are padded in the file.
        ("(768 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x3, f32, l1act=crelu, l2act=crelu, l1mul=1/16256, scale=400, file=obsidian".to_string(), 0),
        // Integral's `RawNetwork` at its shipped shape: bullet's order, 28,530,208 bytes
        // unpadded (its loader reads those and ignores the rest; ours writes bullet's padding).
        (
            "(768x12hm -> 1536)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, f32, l1act=crelu, l2act=crelu, l1mul=512/8323200, scale=200, file=bullet, kings=[0,1,2,3,4,5,6,7,8,8,9,9,10,10,10,10,10,10,10,10,11,11,11,11,11,11,11,11,11,11,11,11]".to_string(),
            28_530_208usize.next_multiple_of(64),
        ),
    ] {
        let Ok(Architecture::Layered(arch)) = text.parse() else { panic!("{text}") };
        let net = synth::layered(&arch, 5);
        let bytes = round_trip(&net);
        if size > 0 {
            assert_eq!(bytes.len(), size, "{text}");
        }
        // Stormphrax's layout is written as its engine reads it: every array padded to 64
        // bytes but the last (whose padding the synthetic nets leave out).
        assert_eq!(bytes.len().next_multiple_of(64), arch.file_bytes().next_multiple_of(64), "{text}");
    }
}

/// Stormphrax's files: each array padded to 64 bytes with zeros, the last one's padding
/// optional; or, with the zstd flag, the arrays back to back in one or more zstd frames (how
/// Stormphrax ships its nets). Every form reads as the same net.
#[test]
fn cbnf_padded_and_zstd_forms() {
    use nnue_format::Padding;
    let text = "(704hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x3, i32, dual, q=64, l1shift=8, scale=400, file=cbnf";
    let arch: Architecture = text.parse().unwrap();
    let Architecture::Layered(a) = arch else { unreachable!() };
    let net = synth::layered(&a, 21);
    let short = round_trip(&net);
    // 3 output buckets: the last array (3 int32 biases) ends 52 bytes short of a boundary.
    assert_eq!(short.len() + 52, a.file_bytes());
    let mut padded_net = net.clone();
    let Model::Layered(_, p) = &mut padded_net.model else { unreachable!() };
    p.padding = Padding::Zeros;
    let padded = round_trip(&padded_net);
    assert_eq!(padded.len(), a.file_bytes());
    assert_eq!(padded[..short.len()], short[..]);
    // A non-zero padding byte is an error at its offset.
    let mut bad = padded.clone();
    bad[short.len() + 7] = 1;
    let e = Net::from_bytes(&bad, Some(&arch)).unwrap_err();
    assert_eq!(e.offset, short.len() + 7, "{e}");
    assert!(e.to_string().contains("non-zero byte in the padding"), "{e}");

    for frames in [1, 3] {
        let zstd = synth::cbnf_zstd(&net, frames);
        assert_eq!(zstd[6] & 1, 1, "the zstd flag");
        let read = Net::from_bytes(&zstd, Some(&arch)).unwrap();
        assert!(read == net, "{frames} frames");
        // Written back uncompressed.
        assert!(read.to_bytes() == short);
        // Cut short, or with bytes after the stream: errors in the compressed arrays.
        for bad in [&zstd[..zstd.len() - 9], &[&zstd[..], &zstd[64..]].concat()[..]] {
            let e = Net::from_bytes(bad, Some(&arch)).unwrap_err();
            assert!(e.section.contains("zstd"), "{frames} frames, {} bytes: {e}", bad.len());
        }
    }
    // A stream that decodes to fewer bytes than the arrays take names both sizes.
    let mut less = synth::cbnf_zstd(&net, 1)[..64].to_vec();
    less.extend(ruzstd_free_frame(&short[64..200]));
    let e = Net::from_bytes(&less, Some(&arch)).unwrap_err();
    assert!(e.to_string().contains("decodes to 136 bytes"), "{e}");
    // A frame asking for a 2 TiB window is refused before anything is allocated.
    let mut huge = synth::cbnf_zstd(&net, 1)[..64].to_vec();
    huge.extend([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xf8, 0, 0, 0]);
    let e = Net::from_bytes(&huge, Some(&arch)).unwrap_err();
    assert_eq!((e.offset, e.section.as_str()), (64, "zstd-compressed arrays"), "{e}");
    assert!(e.to_string().contains("indow"), "{e}");
}

/// A zstd frame of `data` without compression (a raw block), written by hand so that this test
/// needs no encoder: magic, frame header (single segment, 1-byte size), one last raw block.
fn ruzstd_free_frame(data: &[u8]) -> Vec<u8> {
    assert!(data.len() < 256);
    let mut f = vec![0x28, 0xb5, 0x2f, 0xfd, 0x20, data.len() as u8];
    let block = (data.len() as u32) << 3 | 1; // raw block, last
    f.extend_from_slice(&block.to_le_bytes()[..3]);
    f.extend_from_slice(data);
    f
}

/// bullet's layout reads with either padding, or none, and writes back what it read.
#[test]
fn bullet_layout_paddings() {
    use nnue_format::Padding;
    let text = "(768 -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x4, f32, l1mul=512/4161600, scale=400, file=bullet";
    let arch: Architecture = text.parse().unwrap();
    let Architecture::Layered(a) = arch else { unreachable!() };
    let mut net = synth::layered(&a, 9);
    assert!(a.param_bytes() % 64 != 0, "the test needs padding");
    for padding in [Padding::Bullet, Padding::Zeros, Padding::None] {
        let Model::Layered(_, p) = &mut net.model else { unreachable!() };
        p.padding = padding;
        let bytes = round_trip(&net);
        let want = if padding == Padding::None { a.param_bytes() } else { a.file_bytes() };
        assert_eq!(bytes.len(), want, "{padding:?}");
    }
}

/// A `CBNF` header that disagrees with the description names the field and its offset.
#[test]
fn a_cbnf_header_is_checked_against_the_description() {
    let text = "(704hm -> 64)x2 -> pairwise>>9 -> (16 -> 32 -> 1)x8, i32, dual, q=64, l1shift=8, scale=400, file=cbnf";
    let arch: Architecture = text.parse().unwrap();
    let Architecture::Layered(a) = arch else { unreachable!() };
    let bytes = synth::layered(&a, 3).to_bytes();
    for (at, value, why) in [
        (0, b'X', "expected the magic `CBNF`"),
        (6, 0x0c, "the flags"),
        (9, 2, "the arch id (2, +1 dual activation, +2 skip) is 2"),
        (13, 0x81, "the input buckets (+128 threats) is 129"),
        (11, 0x80, "the hidden size is 128"),
        (14, 4, "the output buckets is 4"),
        (15, 49, "the name length is 49"),
        (63, 1, "non-zero byte after the name"),
    ] {
        let mut bad = bytes.clone();
        bad[at] = value;
        let e = Net::from_bytes(&bad, Some(&arch)).unwrap_err();
        assert!(e.to_string().contains(why), "byte {at} = {value}: {e}");
        assert!(e.offset == at, "byte {at}: {e}");
    }
    // A name cut at 48 bytes on a character boundary.
    let mut named = synth::layered(&a, 3);
    named.description = "é".repeat(30);
    let back = Net::from_bytes(&named.to_bytes(), Some(&arch)).unwrap();
    assert_eq!(back.description, "é".repeat(24));
}

#[test]
fn sfnn_sizes_and_encodings() {
    for (l1, encoding) in [(64, Encoding::Leb128), (64, Encoding::Raw), (128, Encoding::Leb128), (192, Encoding::Raw)] {
        let net = synth::sfnn(l1, l1 as u64, encoding);
        let bytes = round_trip(&net);
        let raw_size = 12
            + net.description.len()
            + 4
            + 22528 * (l1 * 2 + 8 * 4)
            + l1 * 2
            + 8 * (4 + 16 * 4 + 16 * l1 + 32 * 4 + 32 * 32 + 4 + 32);
        match encoding {
            Encoding::Raw => assert_eq!(bytes.len(), raw_size),
            // Synthetic weights are small: LEB128 stores them in fewer bytes.
            Encoding::Leb128 => assert!(bytes.len() < raw_size * 2 / 3, "{} vs {raw_size}", bytes.len()),
        }
    }
}

#[test]
fn sf19_sizes_and_encodings() {
    use nnue_format::Sf19Inputs;
    for (l1, inputs, encoding) in [
        (64, Sf19Inputs::Full, Encoding::Leb128),
        (128, Sf19Inputs::Full, Encoding::Raw),
        (64, Sf19Inputs::Lite, Encoding::Raw),
        (192, Sf19Inputs::Lite, Encoding::Leb128),
    ] {
        let mut net = synth::sf19(l1, inputs, l1 as u64, encoding);
        round_trip(&net);
        let Model::Sf19(a, p) = &mut net.model else { unreachable!() };
        if a.inputs == Sf19Inputs::Full {
            p.int8_psqt_encoding = [Encoding::Raw, Encoding::Leb128];
        }
        p.ft.encoding = [Encoding::Leb128, Encoding::Raw, Encoding::Leb128];
        round_trip(&net);
    }
}

/// Stockfish master's SFNNv17: Stockfish 19's file without its PSQT blocks. The header can't
/// tell the two apart, so the reader takes the layout that ends exactly at the end of the file;
/// a description picks one; a body that fits neither is refused naming both.
#[test]
fn sfnn_v17_is_told_from_sf19_by_where_it_ends() {
    use nnue_format::Sf19Inputs;
    for (l1, inputs, encoding) in [(64, Sf19Inputs::Full, Encoding::Leb128), (128, Sf19Inputs::Lite, Encoding::Raw)] {
        let sf19 = synth::sf19(l1, inputs, 7, encoding);
        let v17 = synth::without_psqt(sf19.clone());
        let bytes = round_trip(&v17);
        let Architecture::Sf19(a) = Net::from_bytes(&bytes, None).unwrap().arch() else { unreachable!() };
        assert!(!a.psqt && a.l1 == l1 && a.inputs == inputs);
        assert!(Architecture::Sf19(a).to_string().ends_with("psqt=0"));
        // The file is Stockfish 19's less the PSQT blocks; the values are the same net's.
        assert!(bytes.len() < sf19.to_bytes().len());
        let Model::Sf19(_, p) = &v17.model else { unreachable!() };
        assert!(p.ft.psqt.iter().all(|&w| w == 0));
        // Stockfish 19's description doesn't read it, nor SFNNv17's Stockfish 19's file.
        assert!(Net::from_bytes(&bytes, Some(&sf19.arch())).is_err());
        assert!(Net::from_bytes(&sf19.to_bytes(), Some(&v17.arch())).is_err());
        // Cut short: neither layout, both named.
        let e = Net::from_bytes(&bytes[..bytes.len() - 1], None).unwrap_err().to_string();
        assert!(e.contains("neither Stockfish 19's layout") && e.contains("nor SFNNv17's"), "{e}");
    }
}

#[test]
fn sfnn_mixed_encodings() {
    let mut net = synth::sfnn(64, 9, Encoding::Raw);
    for encoding in [
        [Encoding::Leb128, Encoding::Raw, Encoding::Raw],
        [Encoding::Raw, Encoding::Leb128, Encoding::Raw],
        [Encoding::Raw, Encoding::Raw, Encoding::Leb128],
        [Encoding::Leb128, Encoding::Raw, Encoding::Leb128],
    ] {
        set_encodings(&mut net, encoding);
        round_trip(&net);
    }
}

/// The extremes of every type: int16 and int32 limits, LEB128 length boundaries (+-64, +-8192,
/// +-2^20, +-2^27), int8 limits in the dense layers.
#[test]
fn extreme_values_round_trip() {
    let i16s: Vec<i16> = vec![i16::MIN, i16::MAX, 0, -1, 63, 64, -64, -65, 8191, 8192, -8192, -8193, i16::MIN + 1];
    let mut i32s: Vec<i32> = vec![i32::MIN, i32::MAX, 0, -1, 63, 64, -64, -65, 8191, 8192, -8192, -8193];
    i32s.extend([
        1 << 20,
        (1 << 20) - 1,
        -(1 << 20),
        -(1 << 20) - 1,
        1 << 27,
        (1 << 27) - 1,
        -(1 << 27),
        -(1 << 27) - 1,
    ]);
    for encoding in [Encoding::Leb128, Encoding::Raw] {
        let mut net = synth::sfnn(64, 11, encoding);
        let Model::Sfnn(_, p) = &mut net.model else { unreachable!() };
        p.ft.biases[..i16s.len()].copy_from_slice(&i16s);
        let n = p.ft.weights.len();
        p.ft.weights[n - i16s.len()..].copy_from_slice(&i16s);
        p.ft.weights[1000..1000 + i16s.len()].copy_from_slice(&i16s);
        let n = p.ft.psqt.len();
        p.ft.psqt[n - i32s.len()..].copy_from_slice(&i32s);
        p.ft.psqt[..i32s.len()].copy_from_slice(&i32s);
        let stack = &mut p.stacks[7];
        stack.fc2.biases[0] = i32::MIN;
        stack.fc0.biases[15] = i32::MAX;
        stack.fc1.weights[..4].copy_from_slice(&[i8::MIN, i8::MAX, -1, 0]);
        round_trip(&net);
    }
    // Every int16 value, LEB128-encoded (one transformer weight row per 64 values).
    let mut net = synth::sfnn(64, 12, Encoding::Leb128);
    let Model::Sfnn(_, p) = &mut net.model else { unreachable!() };
    for (slot, v) in p.ft.weights.iter_mut().zip(i16::MIN..=i16::MAX) {
        *slot = v;
    }
    round_trip(&net);
}

#[test]
fn halfkp_sizes_and_encodings() {
    for l1 in [64, 128, 256] {
        let mut net = synth::halfkp(l1, l1 as u64 + 1);
        let bytes = round_trip(&net);
        let fc = 32 * 4 + 32 * 2 * l1 + 32 * 4 + 32 * 32 + 4 + 32;
        assert_eq!(bytes.len(), 12 + net.description.len() + 4 + 41024 * l1 * 2 + l1 * 2 + 4 + fc);
        if l1 == 64 {
            // No PSQT in HalfKP: its encoding slot stays Raw, as the reader reports it.
            set_encodings(&mut net, [Encoding::Leb128, Encoding::Leb128, Encoding::Raw]);
            round_trip(&net);
        }
    }
}

#[test]
fn headerless_shapes() {
    let kings = |k: usize, n: usize| (0..n).map(|i| (i * k / n).to_string()).collect::<Vec<_>>().join(",");
    let shapes = [
        "(768 -> 32)x2 -> 1, crelu, qa=255, qb=64, scale=400".to_string(),
        "(768 -> 64)x2 -> 1x8, screlu, qa=181, qb=64, scale=400".to_string(),
        "(768hm -> 96)x2 -> 1, screlu, qa=255, qb=64, scale=600".to_string(),
        format!("(768x4hm -> 32)x2 -> 1x4, crelu, qa=255, qb=64, scale=400, kings=[{}]", kings(4, 32)),
        format!("(768x2 -> 64)x2 -> 1, screlu, qa=255, qb=64, scale=400, kings=[{}]", kings(2, 64)),
    ];
    for (seed, shape) in shapes.iter().enumerate() {
        let arch: Architecture = shape.parse().unwrap();
        let Architecture::Chess768(s) = &arch else { unreachable!() };
        let mut net = synth::chess768(s, seed as u64);
        let bytes = round_trip(&net);
        assert_eq!(bytes.len(), s.file_bytes(), "{shape}");
        // Without bullet's padding as well.
        let Model::Chess768(_, p) = &mut net.model else { unreachable!() };
        p.padding = nnue_format::Padding::None;
        let bytes = round_trip(&net);
        assert_eq!(bytes.len(), s.param_bytes(), "{shape}");
    }
}

/// Descriptions: empty, long, multi-byte UTF-8, and ones that name the right architecture.
#[test]
fn descriptions_round_trip() {
    let long = "x".repeat(70_000);
    let base = synth::sfnn(64, 13, Encoding::Leb128);
    for description in [
        "",
        "Network trained with the https://github.com/official-stockfish/nnue-pytorch trainer.",
        "Features=HalfKAv2_hm(Friend)[22528->64x2],Network=AffineTransform[1<-32](ClippedReLU[32](...))",
        "entraîné à Zürich — 棋 ♞",
        &long,
    ] {
        let mut net = base.clone();
        net.description = description.to_string();
        round_trip(&net);
    }
    let mut net = synth::halfkp(64, 14);
    net.description = "Features=HalfKP(Friend)[41024->64x2],Network=AffineTransform[1<-32](...)".into();
    round_trip(&net);
}

/// Random nets (random weights over the whole range of each type, random encodings).
#[test]
fn random_full_range_nets() {
    let mut rng = Rng::new(2024);
    for round in 0..3 {
        let mut net = synth::sfnn(64, round, Encoding::Raw);
        let encoding =
            [0, 1, 2].map(|_| if rng.next_u64().is_multiple_of(2) { Encoding::Raw } else { Encoding::Leb128 });
        set_encodings(&mut net, encoding);
        let Model::Sfnn(_, p) = &mut net.model else { unreachable!() };
        for w in p.ft.weights.iter_mut().step_by(7) {
            *w = rng.next_u64() as i16;
        }
        for w in p.ft.psqt.iter_mut().step_by(3) {
            *w = rng.next_u64() as i32;
        }
        for b in &mut p.ft.biases {
            *b = rng.next_u64() as i16;
        }
        for stack in &mut p.stacks {
            for layer in [&mut stack.fc0, &mut stack.fc1, &mut stack.fc2] {
                for (i, w) in layer.weights.iter_mut().enumerate() {
                    // The padding columns stay zero, as Stockfish writes them.
                    if i % layer.padded_inputs < layer.inputs {
                        *w = rng.next_u64() as i8;
                    }
                }
                for b in &mut layer.biases {
                    *b = rng.next_u64() as i32;
                }
            }
        }
        round_trip(&net);
    }
}
